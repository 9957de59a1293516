"""SQLite through one aiosqlite connection: the embedded default, one process per file.

Migrations are tracked with `PRAGMA user_version` (databases of every earlier version carry
on from their number). Writes take the file's write lock (`BEGIN IMMEDIATE`) and go one at a
time on the one connection; so do reads, between transactions, never inside another task's.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.instance_lock import InstanceLock
from bot.storage.base import Storage
from bot.storage.conn import Conn, Row

# Deleted and overwritten rows are zeroed in the file, not only marked free: a forgotten
# member's name must not stay in a page's free space (SQLite's own default, set when it is
# built, is off in many builds).
SECURE_DELETE = "PRAGMA secure_delete = ON"


class _Conn:
    """`Conn` over an aiosqlite connection (which already speaks `?`)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        # One trip to aiosqlite's thread, not three (execute, fetch, close): every trip
        # is a hand-over between threads, a move makes a dozen queries, and a busy event
        # loop pays for each.
        return list(await self._db.execute_fetchall(sql, args))

    async def fetchone(self, sql: str, *args: Any) -> Row | None:
        rows = await self.fetch(sql, *args)  # callers select one row (by key, or a count)
        return rows[0] if rows else None

    async def execute(self, sql: str, *args: Any) -> int:
        cursor = await self._db.execute(sql, args)  # one trip to aiosqlite's thread, not two
        return cursor.rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._db.executemany(sql, rows)


class _Reader(_Conn):
    """`_Conn` for reads outside a transaction, each waiting its turn with the transactions.
    A connection sees its own uncommitted writes: a read run on it between another task's
    BEGIN and COMMIT would show a move that a rollback, or the process's end, then undoes."""

    def __init__(self, db: aiosqlite.Connection, turn: asyncio.Lock) -> None:
        super().__init__(db)
        self._turn = turn

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        async with self._turn:
            return await super().fetch(sql, *args)

    async def execute(self, sql: str, *args: Any) -> int:
        async with self._turn:
            return await super().execute(sql, *args)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        async with self._turn:
            await super().executemany(sql, rows)


class SqliteStorage(Storage):
    """`Storage` on a SQLite file, one process (and one connection) at a time."""

    backend = "sqlite"
    stats_array = "json_group_array(json(stats))"
    lock_guild = ""  # and so orders rating updates too

    def __init__(self, db: aiosqlite.Connection, lock: InstanceLock | None = None) -> None:
        """Query on `db`, holding the file's instance `lock` (released on close) if given."""
        self._db = db
        self._conn = _Conn(db)
        # One connection is shared by every task: one transaction, or one read, at a time.
        self._turn = asyncio.Lock()
        super().__init__(_Reader(db, self._turn))
        self._lock = lock

    @classmethod
    async def open(cls, path: str, lock: InstanceLock | None = None) -> SqliteStorage:
        """Open (and migrate) the database, holding `lock` (taken here if not given: raises
        DatabaseInUse if another process holds it)."""
        lock = lock or InstanceLock.acquire(path)
        try:
            db = await aiosqlite.connect(path, isolation_level=None)  # we BEGIN/COMMIT
        except BaseException:
            lock.release()
            raise
        db.row_factory = aiosqlite.Row
        storage = cls(db, lock)
        try:
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute(SECURE_DELETE)
            await db.execute("PRAGMA foreign_keys = ON")
            await db.execute("PRAGMA synchronous = NORMAL")  # WAL + NORMAL: durable at commit
            await storage.migrate()
        except BaseException:
            await storage.close()  # aiosqlite's worker thread would keep the process alive
            raise
        return storage

    @classmethod
    async def inspect(cls, path: str) -> SqliteStorage:
        """The database as it is, read-only: no lock (the bot may be running on it), no
        migrations, and no file created if there is none."""
        uri = f"{Path(path).resolve().as_uri()}?mode=ro"
        db = await aiosqlite.connect(uri, uri=True, isolation_level=None)
        db.row_factory = aiosqlite.Row
        await db.execute(SECURE_DELETE)
        return cls(db)

    async def close(self) -> None:
        """Close the connection and release the instance lock."""
        await self._db.close()
        if self._lock is not None:
            self._lock.release()

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[_Conn]:
        async with self._turn:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    @asynccontextmanager
    async def _statement(self) -> AsyncIterator[_Conn]:
        """One statement in autocommit mode, durable when it returns: a trip to aiosqlite's
        thread instead of three (BEGIN, the statement, COMMIT), under the same lock, so it
        never lands inside another task's transaction on the shared connection."""
        async with self._turn:
            yield self._conn

    async def _scrub(self) -> None:
        """Empty the write-ahead log into the database: its old page images still hold
        what was just forgotten, and a copy of the files (`cp`, a VM snapshot) would keep
        them until SQLite's next checkpoint."""
        async with self._statement() as db:
            await db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    async def _after_insert_rows(self, db: Conn) -> None:
        """Nothing to do: AUTOINCREMENT carries on after the highest id by itself."""

    async def schema_version(self) -> int:
        """The file's `PRAGMA user_version`: the last migration applied (0: none)."""
        row = await self._conn.fetchone("PRAGMA user_version")
        assert row is not None
        return int(row[0])

    async def _apply_migration(self, number: int, sql: str) -> None:
        # One script, one transaction: a migration applies whole or not at all.
        try:
            await self._db.executescript(
                f"BEGIN IMMEDIATE;\n{sql}\n;PRAGMA user_version = {number:d};\nCOMMIT;"
            )
        except BaseException:
            if self._db.in_transaction:
                await self._db.execute("ROLLBACK")
            raise
