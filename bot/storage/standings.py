"""A server's standings: its results summed per player (wins, losses, points, stats)."""

from __future__ import annotations

import json
from typing import ClassVar

from bot.storage.conn import Connected, Row
from bot.storage.rows import StandingRow


class Standings(Connected):
    """Read-only totals over the `results` table."""

    # An aggregate of `results.stats` (JSON text) into one JSON array, as text.
    stats_array: ClassVar[str]

    def _totals(self) -> str:
        """A player's totals over a group of results rows; `_standing` reads them."""
        return (
            "player_id, MAX(is_bot) AS is_bot, COUNT(*) AS played, SUM(won) AS wins,"
            f" SUM(1 - won) AS losses, SUM(score) AS points, {self.stats_array} AS s"
        )

    async def standings(self, guild_id: int, game: str) -> list[StandingRow]:
        """Per player in a guild for one game, ranked by wins minus losses, then points."""
        rows = await self._read.fetch(
            f"SELECT {self._totals()} FROM results WHERE guild_id = ? AND game = ?"
            " GROUP BY player_id ORDER BY SUM(won) - SUM(1 - won) DESC, SUM(score) DESC,"
            " player_id",
            guild_id,
            game,
        )
        return [_standing(r) for r in rows]

    async def player_stats(self, guild_id: int, player_id: int) -> dict[str, StandingRow]:
        """One player's record in a guild, per game."""
        rows = await self._read.fetch(
            f"SELECT game, {self._totals()} FROM results WHERE guild_id = ? AND player_id = ?"
            " GROUP BY game, player_id ORDER BY game",
            guild_id,
            player_id,
        )
        return {r["game"]: _standing(r) for r in rows}


def _standing(row: Row) -> StandingRow:
    totals: dict[str, int] = {}
    for stats in json.loads(row["s"]):
        for key, value in stats.items():
            totals[key] = totals.get(key, 0) + int(value)
    # int(): PostgreSQL's SUM of a BIGINT column is a NUMERIC (a Decimal).
    return StandingRow(
        player_id=row["player_id"],
        is_bot=bool(row["is_bot"]),
        played=int(row["played"]),
        wins=int(row["wins"]),
        losses=int(row["losses"]),
        points=int(row["points"]),
        stats=totals,
    )
