"""Open the storage a `DATABASE_URL` names."""

from __future__ import annotations

import sqlite3

from bot.instance_lock import InstanceLock
from bot.storage.base import Storage
from bot.storage.sqlite import SqliteStorage
from bot.storage.url import redacted, sqlite_path


class DatabaseUnavailable(Exception):
    """The database can't be reached or opened; the message names it and says why."""


async def open_storage(
    url: str, lock: InstanceLock | None = None, *, inspect: bool = False
) -> Storage:
    """The migrated storage at `url`. SQLite takes the file's instance lock (or uses
    `lock`, taken already: DatabaseInUse if another process holds it); PostgreSQL takes
    none: many processes share it by design. With `inspect`, the database as it is, for
    reading beside a running bot: no lock, no migrations (SQLite: read-only)."""
    path = sqlite_path(url)
    try:
        if path is not None:
            if inspect:
                return await SqliteStorage.inspect(path)
            return await SqliteStorage.open(path, lock)
    except (OSError, TimeoutError, sqlite3.Error) as e:
        raise _unavailable(url, e) from e
    try:  # PostgreSQL's driver is an extra: the default install runs on SQLite alone
        import asyncpg

        from bot.storage.postgres import PostgresStorage
    except ImportError:
        raise DatabaseUnavailable(
            f"DATABASE_URL={redacted(url)!r} is PostgreSQL, whose driver is not installed: "
            "pip install 'parlour[postgres]'."
        ) from None
    try:
        return await PostgresStorage.open(url, migrate=not inspect)
    except (OSError, TimeoutError, asyncpg.PostgresError) as e:
        raise _unavailable(url, e) from e


def _unavailable(url: str, e: Exception) -> DatabaseUnavailable:
    reason = getattr(e, "strerror", None) or str(e) or type(e).__name__
    return DatabaseUnavailable(f"DATABASE_URL={redacted(url)!r} can't be used: {reason}.")
