"""Forgetting, for privacy: a member's personal data swapped for stand-ins in their games, a
server's data deleted, and the record of servers the bot left (purged after a while)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from bot.storage.conn import Conn, Connected
from bot.storage.guilds import forget_member_notify
from bot.storage.notify_state import forget_guild_notify_state, forget_notify_state
from bot.storage.tournaments import forget_guild_tournaments, forget_in_tournaments

Restate = Callable[[str, Mapping[str, Any], int, int], Mapping[str, Any]]
"""A game's saved state (the game's name, its state) with one player id (the third) made
another (the fourth)."""

# A server's season tables, each with a `guild_id` column (`forget_guild` deletes by it).
SEASON_TABLES = ("season_finals", "season_results", "season_ratings", "seasons")


class Privacy(Connected):
    """A member or a server forgotten, and the departures that lead to it."""

    async def forget_player(
        self, player_id: int, name: str, restate: Restate, stand_in: Callable[[], int]
    ) -> int:
        """Remove a member's personal data, in one transaction: their results, ratings and
        settings go; each game holding their id (a seat, its host, who ended it, a vote)
        gets a stand-in of its own, drawn by `stand_in` and seated nowhere yet, in each of
        those places, in its action log's player column and, through `restate` (the game's
        state with one player id made another, by the state's structure), in its saved
        state; their seat's name becomes `name`. Finished games still replay; no other game,
        and no other number in their games, is touched. Returns the number of games they
        were in. Their games in play must be over first (resigned)."""
        async with self._transaction() as db:
            games = await db.fetch(
                "SELECT id, game, host_id, ended_by, end_votes, state FROM games"
                " WHERE id IN (SELECT game_id FROM seats WHERE player_id = ?)"
                " OR host_id = ? OR ended_by = ? ORDER BY id",
                player_id,
                player_id,
                player_id,
            )
            drawn: set[int] = set()
            for game in games:
                new = await self._fresh_stand_in(db, stand_in, drawn)

                def swap(held: int, new: int = new) -> int:
                    return new if held == player_id else held

                state = game["state"]
                if state is not None:
                    state = json.dumps(restate(game["game"], json.loads(state), player_id, new))
                votes = [swap(v) for v in json.loads(game["end_votes"])]
                await db.execute(
                    "UPDATE games SET host_id = ?, ended_by = ?, end_votes = ?, state = ?,"
                    " revision = revision + 1 WHERE id = ?",
                    swap(game["host_id"]),
                    None if game["ended_by"] is None else swap(game["ended_by"]),
                    json.dumps(votes),
                    state,
                    game["id"],
                )
                await db.execute(
                    "UPDATE seats SET player_id = ?, name = ? WHERE game_id = ? AND player_id = ?",
                    new,
                    name,
                    game["id"],
                    player_id,
                )
                await db.execute(
                    "UPDATE actions SET player_id = ? WHERE game_id = ? AND player_id = ?",
                    new,
                    game["id"],
                    player_id,
                )
            await db.execute("DELETE FROM results WHERE player_id = ?", player_id)
            await db.execute("DELETE FROM ratings WHERE player_id = ?", player_id)
            await db.execute("DELETE FROM member_settings WHERE user_id = ?", player_id)
            await forget_member_notify(db, player_id)
            await forget_notify_state(db, player_id)
            await _forget_in_seasons(db, player_id)
            await forget_in_tournaments(db, player_id)
        await self._scrub()
        return len(games)

    @staticmethod
    async def _fresh_stand_in(db: Conn, draw: Callable[[], int], drawn: set[int]) -> int:
        """A stand-in id no seat holds, and not drawn before in this forget."""
        while True:
            candidate = draw()
            if candidate not in drawn and not await db.fetchone(
                "SELECT 1 FROM seats WHERE player_id = ?", candidate
            ):
                drawn.add(candidate)
                return candidate

    async def _scrub(self) -> None:
        """After a forget (a member's or a server's): what the backend does so that no copy
        of the old rows stays in its files (SQLite: its write-ahead log emptied into the
        database, whose freed pages `secure_delete` has zeroed). Nothing by default."""

    async def member_records(self, player_id: int) -> dict[str, list[dict[str, Any]]]:
        """What is kept about a member, as stored, for a copy of their data: the games
        holding their id (a seat, hosted, ended) with every seat's public part (no other
        member's id), their own logged moves, results and ratings, and their settings."""
        theirs = (
            "SELECT id FROM games WHERE id IN (SELECT game_id FROM seats WHERE player_id = ?)"
            " OR host_id = ? OR ended_by = ?"
        )
        queries = {
            "games": (
                "SELECT id, game, guild_id, channel_id, status, options, created_at,"
                " updated_at, host_id = ? AS hosted, ended_by = ? AS ended"
                f" FROM games WHERE id IN ({theirs}) ORDER BY id",
                (player_id,) * 5,
            ),
            "seats": (
                "SELECT game_id, seat, name, is_bot, side, player_id = ? AS mine FROM seats"
                f" WHERE game_id IN ({theirs}) ORDER BY game_id, seat",
                (player_id,) * 4,
            ),
            "moves": (
                "SELECT game_id, step, action, by_ai, created_at FROM actions"
                " WHERE player_id = ? ORDER BY game_id, step",
                (player_id,),
            ),
            "results": (
                "SELECT game_id, guild_id, game, place, score, won, stats, team,"
                " rating_before, rating_after, finished_at FROM results WHERE player_id = ?"
                " ORDER BY game_id",
                (player_id,),
            ),
            "ratings": (
                "SELECT guild_id, game, mu, sigma, played, wins FROM ratings"
                " WHERE player_id = ? ORDER BY guild_id, game",
                (player_id,),
            ),
            "settings": (
                "SELECT text_board FROM member_settings WHERE user_id = ?",
                (player_id,),
            ),
            "tournaments": (
                "SELECT tournament_id, name, joined_at, first_round, checked_in, status, missed"
                " FROM tournament_entrants WHERE member_id = ? ORDER BY tournament_id",
                (player_id,),
            ),
            "tournament_places": (
                "SELECT tournament_id, round, table_no, place, replaced FROM tournament_results"
                " WHERE member_id = ? ORDER BY tournament_id, round",
                (player_id,),
            ),
            "notifications": (
                "SELECT guild_id, notify FROM member_notify WHERE user_id = ? ORDER BY guild_id",
                (player_id,),
            ),
            "turn_dms": (
                "SELECT game_id, guild_id, step, reminder, line, status, sent_at FROM notify_dms"
                " WHERE user_id = ? ORDER BY game_id",
                (player_id,),
            ),
            "dm_refusals": (
                "SELECT guild_id, refused_at, told FROM notify_refusals WHERE user_id = ?",
                (player_id,),
            ),
        }
        return {
            # keys(): a row iterates its values, not its column names
            name: [{k: row[k] for k in row.keys()} for row in await self._read.fetch(sql, *args)]  # noqa: SIM118
            for name, (sql, args) in queries.items()
        }

    async def forget_guild(self, guild_id: int) -> int:
        """Delete everything kept about a server: its games (seats, action logs, results),
        ratings, seasons, tournaments, settings and departure; the number of games deleted."""
        async with self._transaction() as db:
            mine = "SELECT id FROM games WHERE guild_id = ?"
            await db.execute(f"DELETE FROM actions WHERE game_id IN ({mine})", guild_id)
            await db.execute(f"DELETE FROM seats WHERE game_id IN ({mine})", guild_id)
            await db.execute("DELETE FROM results WHERE guild_id = ?", guild_id)
            games = await db.execute("DELETE FROM games WHERE guild_id = ?", guild_id)
            await db.execute("DELETE FROM member_notify WHERE guild_id = ?", guild_id)
            await forget_guild_notify_state(db, guild_id)
            await forget_guild_tournaments(db, guild_id)
            for table in (*SEASON_TABLES, "ratings", "guild_settings", "guild_departures"):
                await db.execute(f"DELETE FROM {table} WHERE guild_id = ?", guild_id)
        await self._scrub()
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
