"""Open the storage a `DATABASE_URL` names."""

from __future__ import annotations

import sqlite3

import asyncpg

from bot.instance_lock import InstanceLock
from bot.storage.base import Storage
from bot.storage.postgres import PostgresStorage
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
        return await PostgresStorage.open(url, migrate=not inspect)
    except (OSError, TimeoutError, sqlite3.Error, asyncpg.PostgresError) as e:
        reason = getattr(e, "strerror", None) or str(e) or type(e).__name__
        raise DatabaseUnavailable(f"DATABASE_URL={redacted(url)!r} can't be used: {reason}.") from e
