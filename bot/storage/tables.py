"""Whole tables, as they are, for `copy-db`: every row read out, and written back in one
transaction with their ids."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any

from bot.storage.conn import Conn, Connected

# Every table, parents before children (the order `copy-db` writes them in).
TABLES = (
    "games",
    "seats",
    "actions",
    "results",
    "guild_settings",
    "ratings",
    "guild_departures",
    "member_settings",
    "member_notify",
    "notify_dms",
    "notify_refusals",
    "seasons",
    "season_ratings",
    "season_results",
    "season_finals",
    "tournaments",
    "tournament_entrants",
    "tournament_tables",
    "tournament_byes",
    "tournament_results",
)


class Tables(Connected):
    """Every table of Parlour read whole, and written whole."""

    async def table_rows(self, table: str) -> list[dict[str, Any]]:
        """Every row of one of `TABLES`, as column → value."""
        if table not in TABLES:
            raise ValueError(f"not a table of Parlour: {table!r}")
        rows = await self._read.fetch(f"SELECT * FROM {table}")
        # keys(): a row iterates its values, not its column names
        return [{key: row[key] for key in row.keys()} for row in rows]  # noqa: SIM118

    async def count_games(self) -> int:
        """How many games the database holds, of every status."""
        row = await self._read.fetchone("SELECT COUNT(*) FROM games")
        return int(row[0]) if row else 0

    async def insert_rows(self, tables: Mapping[str, Sequence[Mapping[str, Any]]]) -> None:
        """Write whole tables' rows as they are (ids included), in one transaction."""
        async with self._transaction() as db:
            for table in TABLES:
                rows = tables.get(table, ())
                if not rows:
                    continue
                columns = list(rows[0])
                await db.executemany(
                    f"INSERT INTO {table} ({', '.join(columns)})"
                    f" VALUES ({', '.join('?' for _ in columns)})",
                    [tuple(row[c] for c in columns) for row in rows],
                )
            await self._after_insert_rows(db)

    @abstractmethod
    async def _after_insert_rows(self, db: Conn) -> None:
        """Games were written with their ids: the next new game must still get a fresh one."""
