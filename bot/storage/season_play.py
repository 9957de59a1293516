"""A finished game in the server's running season: its players' season ratings and points,
written inside the final action's transaction (`Ratings._finish`), with no statement of its
own outside it.

A player's first game of a season starts their season rating from their all-time one
(`bot.seasons.soft_reset`); the season's points follow `bot.seasons.season_points`, and a
result beyond `FARM_LIMIT` a UTC day against the same humans is stored but not counted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.ratings import Rating, update
from bot.seasons import FARM_LIMIT, SEASON_MODEL, day_of, season_points, soft_reset, tablemates
from bot.storage.conn import Conn, Connected
from bot.storage.rows import ResultRow


class SeasonPlay(Connected):
    """Season ratings and points moved by a finished game."""

    async def _season_finish(
        self,
        db: Conn,
        game_id: int,
        guild_id: int,
        game: str,
        rows: Sequence[ResultRow],
        all_time: Mapping[int, Rating],
        now: float,
    ) -> None:
        """Rate a finished game in the server's running season, if it counts the game;
        `all_time` holds the players' all-time ratings before the game (where a newcomer to
        the season starts from). Runs under the server's ratings lock."""
        season = await db.fetchone(
            "SELECT number FROM seasons WHERE guild_id = ? AND status = 'running'"
            " AND starts_at <= ? AND ends_at > ? AND (games IS NULL OR games = ?)",
            guild_id,
            now,
            now,
            game,
        )
        if season is None:
            return
        number = int(season["number"])
        placings = [r.placing for r in rows]
        players = sorted({p.player_id for p in placings})
        marks = ", ".join("?" for _ in players)
        found = await db.fetch(
            "SELECT player_id, mu, sigma, played, wins FROM season_ratings"
            f" WHERE guild_id = ? AND season = ? AND game = ? AND player_id IN ({marks})",
            guild_id,
            number,
            game,
            *players,
        )
        before = {p: soft_reset(all_time.get(p, Rating())) for p in players}
        for r in found:
            before[r["player_id"]] = Rating(r["mu"], r["sigma"], r["played"], r["wins"])
        after = update(placings, before, SEASON_MODEL)
        humans = {r.player_id: r.place for r in rows if not r.is_bot}
        earned = season_points(humans)
        key, day = tablemates(list(humans)), day_of(now)
        already = await db.fetch(
            "SELECT player_id, COUNT(*) AS n FROM season_results WHERE guild_id = ?"
            " AND season = ? AND game = ? AND tablemates = ? AND day = ? AND counted = 1"
            " GROUP BY player_id",
            guild_id,
            number,
            game,
            key,
            day,
        )
        farmed = {r["player_id"] for r in already if r["n"] >= FARM_LIMIT}
        counted = {p: points for p, points in earned.items() if p not in farmed}
        await db.executemany(
            "INSERT INTO season_results (game_id, player_id, guild_id, season, game,"
            " tablemates, day, points, counted) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    game_id,
                    p,
                    guild_id,
                    number,
                    game,
                    key,
                    day,
                    counted.get(p, 0.0),
                    int(p in counted),
                )
                for p in sorted(humans)
            ],
        )
        await db.executemany(
            "INSERT INTO season_ratings (guild_id, season, game, player_id, mu, sigma, played,"
            " wins, points) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (guild_id, season, game, player_id) DO UPDATE"
            " SET mu = excluded.mu, sigma = excluded.sigma, played = excluded.played,"
            " wins = excluded.wins, points = season_ratings.points + excluded.points",
            [
                (guild_id, number, game, p, r.mu, r.sigma, r.played, r.wins, counted.get(p, 0.0))
                for p in players
                for r in [after.get(p, before[p])]
                if p in after or p in humans
            ],
        )
