"""Forgetting, for privacy: a member's personal data swapped for a stand-in everywhere, a
server's data deleted, and the record of servers the bot left (purged after a while)."""

from __future__ import annotations

import re

from bot.storage.conn import Conn, Connected

# A server's season tables, each with a `guild_id` column (`forget_guild` deletes by it).
SEASON_TABLES = ("season_finals", "season_results", "season_ratings", "seasons")


class Privacy(Connected):
    """A member or a server forgotten, and the departures that lead to it."""

    async def forget_player(self, player_id: int, stand_in: int, name: str) -> int:
        """Remove a member's personal data everywhere, in one transaction: their ratings and
        results go; in every game they sat in or hosted, their id becomes `stand_in` (seats,
        action log, host, votes, the saved state and the actions' arguments) and their name
        `name`, so finished games still replay and the others' results stand. Returns the
        number of games they were in. Their games in play must be over first (resigned)."""
        same = re.compile(rf"(?<![0-9]){player_id}(?![0-9])")

        def swapped(text: str) -> str:
            return same.sub(str(stand_in), text)

        async with self._transaction() as db:
            games = await db.fetch(
                "SELECT id, host_id, ended_by, end_votes, options, state FROM games"
                " WHERE host_id = ? OR ended_by = ? OR id IN"
                " (SELECT game_id FROM seats WHERE player_id = ?)",
                player_id,
                player_id,
                player_id,
            )
            for game in games:
                await db.execute(
                    "UPDATE games SET host_id = ?, ended_by = ?, end_votes = ?, options = ?,"
                    " state = ?, revision = revision + 1 WHERE id = ?",
                    stand_in if game["host_id"] == player_id else game["host_id"],
                    stand_in if game["ended_by"] == player_id else game["ended_by"],
                    swapped(game["end_votes"]),
                    swapped(game["options"]),
                    None if game["state"] is None else swapped(game["state"]),
                    game["id"],
                )
            # An action's argument may name them (a seat handed to the AI, taken back).
            named = await db.fetch(
                "SELECT game_id, step, action FROM actions WHERE action LIKE ?", f"%{player_id}%"
            )
            await db.executemany(
                "UPDATE actions SET action = ? WHERE game_id = ? AND step = ?",
                [(swapped(r["action"]), r["game_id"], r["step"]) for r in named],
            )
            await db.execute(
                "UPDATE actions SET player_id = ? WHERE player_id = ?", stand_in, player_id
            )
            await db.execute(
                "UPDATE seats SET player_id = ?, name = ? WHERE player_id = ?",
                stand_in,
                name,
                player_id,
            )
            await db.execute("DELETE FROM results WHERE player_id = ?", player_id)
            await db.execute("DELETE FROM ratings WHERE player_id = ?", player_id)
            await db.execute("DELETE FROM member_settings WHERE user_id = ?", player_id)
            await _forget_in_seasons(db, player_id)
        return len(games)

    async def is_player_id_used(self, player_id: int) -> bool:
        """Whether any seat holds `player_id` (a stand-in must be new)."""
        row = await self._read.fetchone("SELECT COUNT(*) FROM seats WHERE player_id = ?", player_id)
        return bool(row and row[0])

    async def forget_guild(self, guild_id: int) -> int:
        """Delete everything kept about a server: its games (seats, action logs, results),
        ratings, settings and departure; the number of games deleted."""
        async with self._transaction() as db:
            mine = "SELECT id FROM games WHERE guild_id = ?"
            await db.execute(f"DELETE FROM actions WHERE game_id IN ({mine})", guild_id)
            await db.execute(f"DELETE FROM seats WHERE game_id IN ({mine})", guild_id)
            await db.execute("DELETE FROM results WHERE guild_id = ?", guild_id)
            games = await db.execute("DELETE FROM games WHERE guild_id = ?", guild_id)
            for table in (*SEASON_TABLES, "ratings", "guild_settings", "guild_departures"):
                await db.execute(f"DELETE FROM {table} WHERE guild_id = ?", guild_id)
        return games

    async def guild_left(self, guild_id: int, now: float) -> None:
        """The bot was removed from a server at `now` (the first time counts)."""
        async with self._statement() as db:
            await db.execute(
                "INSERT INTO guild_departures (guild_id, left_at) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO NOTHING",
                guild_id,
                now,
            )

    async def guild_back(self, guild_id: int) -> None:
        """The bot is in the server (again): its data is kept."""
        async with self._statement() as db:
            await db.execute("DELETE FROM guild_departures WHERE guild_id = ?", guild_id)

    async def guilds_with_data(self) -> list[int]:
        """Every server with games or settings kept."""
        rows = await self._read.fetch(
            "SELECT guild_id FROM games UNION SELECT guild_id FROM guild_settings ORDER BY guild_id"
        )
        return [int(r[0]) for r in rows]

    async def guilds_left_before(self, moment: float) -> list[int]:
        """Servers the bot was removed from before `moment` and not added back to."""
        rows = await self._read.fetch(
            "SELECT guild_id FROM guild_departures WHERE left_at < ? ORDER BY guild_id", moment
        )
        return [int(r[0]) for r in rows]


async def _forget_in_seasons(db: Conn, player_id: int) -> None:
    """A member forgotten in the season tables, inside `forget_player`'s transaction: their
    season ratings and results go; in a frozen final table their line keeps its place, its
    points and figures, but names nobody ("Former player")."""
    await db.execute("DELETE FROM season_ratings WHERE player_id = ?", player_id)
    await db.execute("DELETE FROM season_results WHERE player_id = ?", player_id)
    await db.execute(
        "UPDATE season_finals SET player_id = NULL, name = NULL WHERE player_id = ?", player_id
    )
