"""PostgreSQL through an asyncpg pool: many bot processes share one database.

No process lock here (sharing is the point): the database decides. An action's transaction
reads its game row `FOR UPDATE`, so of two processes acting on one step the second waits,
then sees the step moved on and writes nothing (`StaleStep`). Migrations are recorded in
`schema_migrations` under an advisory lock, so processes starting together migrate once.
"""

from __future__ import annotations

import functools
import re
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from bot.storage.base import Storage
from bot.storage.conn import Conn, Row

POOL_SIZE = 10
CONNECT_TIMEOUT = 10.0  # seconds
MIGRATION_LOCK = 0x5061726C6F7572  # "Parlour": the advisory lock migrations take
RATINGS_LOCK = 0x52617465  # "Rate": with a server's id, the lock its rating updates take


@functools.lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """`?` placeholders as PostgreSQL's `$1, $2...` (no query of ours quotes a `?`)."""
    count = iter(range(1, sql.count("?") + 1))
    return re.sub(r"\?", lambda _: f"${next(count)}", sql)


class _Conn:
    """`Conn` over an asyncpg connection or pool."""

    def __init__(self, db: asyncpg.Pool | asyncpg.Connection) -> None:
        self._db = db

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        return list(await self._db.fetch(numbered(sql), *args))

    async def fetchone(self, sql: str, *args: Any) -> Row | None:
        row: Row | None = await self._db.fetchrow(numbered(sql), *args)
        return row

    async def execute(self, sql: str, *args: Any) -> int:
        status: str = await self._db.execute(numbered(sql), *args)  # e.g. "UPDATE 1"
        last = status.rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else 0

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._db.executemany(numbered(sql), rows)


class PostgresStorage(Storage):
    """`Storage` on a PostgreSQL database, shared by any number of processes."""

    backend = "postgres"
    stats_array = "json_agg(stats::json)::text"
    # Two keys: this lock's kind, then the server folded into 32 bits (a clash only waits).
    lock_guild = f"SELECT pg_advisory_xact_lock({RATINGS_LOCK}, (?::bigint % 2147483647)::int)"

    def __init__(self, pool: asyncpg.Pool) -> None:
        """Query through `pool`, a transaction on one of its connections at a time."""
        super().__init__(_Conn(pool))
        self._pool = pool

    @classmethod
    async def open(cls, url: str, *, migrate: bool = True) -> PostgresStorage:
        """Connect to `url` (postgresql://user@host:port/db) and, unless told not to, migrate."""
        pool = await asyncpg.create_pool(
            url, min_size=1, max_size=POOL_SIZE, timeout=CONNECT_TIMEOUT
        )
        storage = cls(pool)
        try:
            if migrate:
                await storage.migrate()
        except BaseException:
            await storage.close()
            raise
        return storage

    async def close(self) -> None:
        """Close the pool."""
        await self._pool.close()

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Conn]:
        async with self._pool.acquire() as connection, connection.transaction():
            yield _Conn(connection)

    async def schema_version(self) -> int:
        """The highest migration recorded in `schema_migrations` (0: none)."""
        async with self._pool.acquire() as connection:
            return await _version(connection)

    async def _apply_migration(self, number: int, sql: str) -> None:
        async with self._pool.acquire() as connection, connection.transaction():
            await connection.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await connection.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations"
                " (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
            )
            if await _version(connection) >= number:
                return  # another process starting at the same time applied it
            await connection.execute(sql)
            await connection.execute("INSERT INTO schema_migrations (version) VALUES ($1)", number)

    async def _after_insert_rows(self, db: Conn) -> None:
        for table in ("games", "tournaments"):  # the tables whose ids are generated
            await db.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                f" COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
            )


async def _version(connection: asyncpg.Connection) -> int:
    if await connection.fetchval("SELECT to_regclass('schema_migrations')") is None:
        return 0
    return int(await connection.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))
