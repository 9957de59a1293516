"""`DATABASE_URL`: which backend, and where."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

SQLITE = "sqlite:///"
POSTGRES_SCHEMES = ("postgresql", "postgres")
ALLOWED = "sqlite:///<file> or postgresql://user@host:5432/database"


def sqlite_path(url: str) -> str | None:
    """The file of a `sqlite:///<file>` URL (`sqlite:////abs/path` for an absolute one);
    None for a PostgreSQL URL. ValueError for anything else."""
    if url.startswith(SQLITE):
        path = url.removeprefix(SQLITE)
        if not path:
            raise ValueError(url)
        return path
    parts = urlsplit(url)
    if parts.scheme not in POSTGRES_SCHEMES or not parts.hostname or not parts.path.strip("/"):
        raise ValueError(url)
    return None


def redacted(url: str) -> str:
    """The URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))
