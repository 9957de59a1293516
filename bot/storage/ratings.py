"""A finished game's results and the server's skill ratings they move.

`_finish` runs inside the transaction of a game's final action (`Games.record_action`): the
results and the ratings they update (the all-time ones, and the running season's:
`SeasonPlay`) commit with the move or not at all. A server's rating
updates (a game's end, a recompute) take its ratings lock first, so none reads a rating
another is about to change.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import ClassVar

from bot.ratings import AI_PLAYER, Placing, Rating, RatingChange, rated_id, update
from bot.storage.conn import Conn, Row
from bot.storage.rows import UNRATED, RatingRow, ResultRow
from bot.storage.season_play import SeasonPlay


class Ratings(SeasonPlay):
    """Results written at a game's end, ratings read, and ratings recomputed."""

    # Takes a server's ratings lock (`?`: the server) for the rest of the transaction; empty
    # where a write transaction excludes every other already.
    lock_guild: ClassVar[str]

    async def _finish(
        self,
        db: Conn,
        game_id: int,
        guild_id: int,
        game: str,
        results: Iterable[ResultRow],
        now: float,
        *,
        rated: bool = True,
    ) -> None:
        """A finished game's results, and (unless it is not `rated`) its players' ratings,
        all-time and season, updated from them."""
        rows = list(results)
        await self._lock_guild(db, guild_id)
        before = await self._ratings_in(db, guild_id, game)
        after = update([r.placing for r in rows], before) if rated else {}
        await db.executemany(
            "INSERT INTO results (game_id, player_id, guild_id, game, is_bot, place, score, won,"
            " stats, finished_at, team, rating_before, rating_after)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    game_id,
                    r.player_id,
                    guild_id,
                    game,
                    int(r.is_bot),
                    r.place,
                    r.score,
                    int(r.won),
                    json.dumps(dict(r.stats)),
                    now,
                    r.team,
                    *_ordinals(r.placing.player_id, before, after),
                )
                for r in rows
            ],
        )
        if rated:
            await self._save_ratings(db, guild_id, game, after)
            await self._season_finish(db, game_id, guild_id, game, rows, before, now)

    async def _lock_guild(self, db: Conn, guild_id: int) -> None:
        """Hold the server's ratings lock until the transaction ends: its rating updates (a
        game's end, a recompute) run one at a time, even across processes, and none reads a
        rating another is about to change."""
        if self.lock_guild:
            await db.fetchone(self.lock_guild, guild_id)

    async def _ratings_in(self, db: Conn, guild_id: int, game: str) -> dict[int, Rating]:
        rows = await db.fetch(
            "SELECT player_id, mu, sigma, played, wins FROM ratings"
            " WHERE guild_id = ? AND game = ?",
            guild_id,
            game,
        )
        return {r["player_id"]: _rating(r) for r in rows}

    async def _save_ratings(
        self, db: Conn, guild_id: int, game: str, ratings: Mapping[int, Rating]
    ) -> None:
        await db.executemany(
            "INSERT INTO ratings (guild_id, game, player_id, mu, sigma, played, wins)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, player_id) DO UPDATE"
            " SET mu = excluded.mu, sigma = excluded.sigma, played = excluded.played,"
            " wins = excluded.wins",
            [
                (guild_id, game, player, r.mu, r.sigma, r.played, r.wins)
                for player, r in sorted(ratings.items())
            ],
        )

    async def ratings(self, guild_id: int, game: str, *, with_ai: bool = True) -> list[RatingRow]:
        """A server's ratings for one game, the highest conservative rating (μ − 3σ) first;
        the AI's among them unless told not to."""
        rows = await self._read.fetch(
            "SELECT player_id, mu, sigma, played, wins FROM ratings"
            " WHERE guild_id = ? AND game = ? AND (? OR player_id <> ?)"
            " ORDER BY mu - 3 * sigma DESC, player_id",
            guild_id,
            game,
            with_ai,
            AI_PLAYER,
        )
        return [RatingRow(r["player_id"], _rating(r)) for r in rows]

    async def rating_changes(self, game_id: int) -> list[RatingChange]:
        """How a finished game moved each seat's rating, in seat order (none if unrated)."""
        rows = await self._read.fetch(
            "SELECT results.player_id, results.is_bot, rating_before, rating_after"
            " FROM results JOIN seats ON seats.game_id = results.game_id"
            " AND seats.player_id = results.player_id"
            " WHERE results.game_id = ? AND rating_after IS NOT NULL ORDER BY seats.seat",
            game_id,
        )
        return [
            RatingChange(r["player_id"], bool(r["is_bot"]), r["rating_before"], r["rating_after"])
            for r in rows
        ]

    async def recompute_ratings(self, guild_id: int) -> int:
        """Rate the server's results again from the first, in the order the games finished,
        exactly as each game's end did: the all-time ratings, and the running season's
        (`SeasonReplay`); an ended season's frozen tables are never touched. Returns how
        many games were rated."""
        async with self._transaction() as db:
            await self._lock_guild(db, guild_id)
            season = await self._running_season_games(db, guild_id)
            rows = await db.fetch(
                "SELECT results.game_id, results.game, player_id, is_bot, team, place, won,"
                " games.options FROM results JOIN games ON games.id = results.game_id"
                " WHERE results.guild_id = ? ORDER BY finished_at, results.game_id",
                guild_id,
            )
            games: dict[int, list[Row]] = {}
            for row in rows:
                if not json.loads(row["options"]).get(UNRATED, False):  # unrated: stays so
                    games.setdefault(row["game_id"], []).append(row)
            ratings: dict[str, dict[int, Rating]] = {}
            columns: list[tuple[float | None, float | None, int, int]] = []
            for game_id, seats in games.items():
                before = ratings.setdefault(seats[0]["game"], {})
                placings = {
                    r["player_id"]: Placing(
                        rated_id(r["player_id"], bool(r["is_bot"])),
                        r["team"],
                        r["place"],
                        bool(r["won"]),
                    )
                    for r in seats
                }
                after = update(list(placings.values()), before)
                for player, placing in placings.items():
                    columns.append((*_ordinals(placing.player_id, before, after), game_id, player))
                if season is not None:
                    humans = [r["player_id"] for r in seats if not r["is_bot"]]
                    season.rate(game_id, seats[0]["game"], list(placings.values()), before, humans)
                before.update(after)
            await db.execute("DELETE FROM ratings WHERE guild_id = ?", guild_id)
            await db.executemany(
                "UPDATE results SET rating_before = ?, rating_after = ?"
                " WHERE game_id = ? AND player_id = ?",
                columns,
            )
            for game, per_player in ratings.items():
                await self._save_ratings(db, guild_id, game, per_player)
            if season is not None:
                await self._save_season_replay(db, guild_id, season)
        return len(games)


def _rating(row: Row) -> Rating:
    return Rating(row["mu"], row["sigma"], row["played"], row["wins"])


def _ordinals(
    player: int, before: Mapping[int, Rating], after: Mapping[int, Rating]
) -> tuple[float | None, float | None]:
    """A result's rating columns: the conservative rating before and after (None, None when
    the game rated nobody)."""
    if player not in after:
        return None, None
    return before.get(player, Rating()).ordinal, after[player].ordinal
