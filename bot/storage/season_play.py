"""A finished game in the server's running season: its players' season ratings and points,
written inside the final action's transaction (`Ratings._finish`), with no statement of its
own outside it.

A player's first game of a season starts their season rating from their all-time one
(`bot.seasons.soft_reset`); the season's points follow `bot.seasons.season_points`, and a
result beyond `FARM_LIMIT` a UTC day against the same humans is stored but not counted.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from bot.ratings import Placing, Rating
from bot.seasons import FARM_LIMIT, day_of, season_points, season_rate, tablemates
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
        so_far = {
            r["player_id"]: Rating(r["mu"], r["sigma"], r["played"], r["wins"]) for r in found
        }
        humans = {r.player_id: r.place for r in rows if not r.is_bot}
        after = season_rate(placings, so_far, all_time, humans)
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
                for p, r in sorted(after.items())
            ],
        )

    async def _running_season_games(self, db: Conn, guild_id: int) -> SeasonReplay | None:
        """For a recompute: the server's running season and the games it rated (None when no
        season runs)."""
        season = await db.fetchone(
            "SELECT number FROM seasons WHERE guild_id = ? AND status = 'running'", guild_id
        )
        if season is None:
            return None
        number = int(season["number"])
        rows = await db.fetch(
            "SELECT DISTINCT game_id FROM season_results WHERE guild_id = ? AND season = ?",
            guild_id,
            number,
        )
        return SeasonReplay(number, {int(r["game_id"]) for r in rows})

    async def _save_season_replay(self, db: Conn, guild_id: int, replay: SeasonReplay) -> None:
        """A recompute's running season ratings, in place of the stored ones; each player's
        season points stay (they come from places, which a recompute does not change)."""
        await db.executemany(
            "UPDATE season_ratings SET mu = ?, sigma = ?, played = ?, wins = ?"
            " WHERE guild_id = ? AND season = ? AND game = ? AND player_id = ?",
            [
                (r.mu, r.sigma, r.played, r.wins, guild_id, replay.number, game, player)
                for game, ratings in sorted(replay.ratings.items())
                for player, r in sorted(ratings.items())
            ],
        )


@dataclass
class SeasonReplay:
    """The running season rated again in a recompute, game after game in the order they
    finished, as each game's end rated it (`season_rate`): a player's first game of the
    season starts from their all-time rating as the recompute has it then, softly reset."""

    number: int
    games: set[int]  # the ids of the games the season rated
    ratings: dict[str, dict[int, Rating]] = field(default_factory=dict)

    def rate(
        self,
        game_id: int,
        game: str,
        placings: Sequence[Placing],
        all_time: Mapping[int, Rating],
        humans: Collection[int],
    ) -> None:
        """One finished game, if the season rated it; `all_time`: its players' before it."""
        if game_id in self.games:
            so_far = self.ratings.setdefault(game, {})
            so_far.update(season_rate(placings, so_far, all_time, humans))
