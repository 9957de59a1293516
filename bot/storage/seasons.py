"""A server's seasons: started, read, shown as boards, and ended exactly once.

The end is one transaction under the server's ratings lock: a conditional `UPDATE` flips
the season from 'running' to 'ended' (of two processes, or `/season end` racing the clock,
exactly one matches the row; on PostgreSQL the second waits for the first's row lock and
then matches nothing), freezes each game's final table as stored rows, and opens the next
season when it recurs. A kill in the middle rolls all of it back. The card posted after it
is claimed for a while by the process posting it and marked done with its message's id.
"""

from __future__ import annotations

from typing import Any

from bot.ratings import AI_PLAYER, Rating, shown
from bot.seasons import MIN_SEASON_GAMES, NONE, next_end, next_start
from bot.shards import Shards
from bot.storage.conn import Conn, Row, columns
from bot.storage.ratings import Ratings
from bot.storage.rows import SeasonRow, SeasonStanding

# A season's board order: the ranked players first (`?`: the games needed), then by points
# and rating (the frozen table's `position` keeps it), in the columns
# of `season_ratings` (`t`: how the query names it, with its dot).
_RANKED_FIRST = "CASE WHEN {t}played >= ? THEN 0 ELSE 1 END"
_BY_POINTS = "{t}points DESC, {t}mu - 3 * {t}sigma DESC, {t}player_id"


class SeasonRunning(Exception):
    """The server has a running season already: nothing was written."""


class Seasons(Ratings):
    """Seasons started, read and ended, and their boards, live or frozen."""

    async def start_season(
        self,
        guild_id: int,
        *,
        name: str,
        ends_at: float,
        games: str | None,
        recur: str,
        channel_id: int,
        now: float,
    ) -> SeasonRow:
        """Open the server's next season from `now`. Raises SeasonRunning (writing nothing)
        when one runs already."""
        async with self._transaction() as db:
            await self._lock_guild(db, guild_id)
            running = await db.fetchone(
                "SELECT number FROM seasons WHERE guild_id = ? AND status = 'running'", guild_id
            )
            if running is not None:
                raise SeasonRunning(guild_id)
            return await self._open(db, guild_id, name, now, ends_at, games, recur, channel_id)

    async def _open(
        self,
        db: Conn,
        guild_id: int,
        name: str,
        starts_at: float,
        ends_at: float,
        games: str | None,
        recur: str,
        channel_id: int,
    ) -> SeasonRow:
        row = await db.fetchone(
            "INSERT INTO seasons (guild_id, number, name, starts_at, ends_at, games, recur,"
            " channel_id, status) VALUES (?, (SELECT COALESCE(MAX(number), 0) + 1 FROM seasons"
            " WHERE guild_id = ?), ?, ?, ?, ?, ?, ?, 'running') RETURNING *",
            guild_id,
            guild_id,
            name,
            starts_at,
            ends_at,
            games,
            recur,
            channel_id,
        )
        assert row is not None
        return _season(row)

    async def season(self, guild_id: int, number: int) -> SeasonRow | None:
        """The server's season numbered `number`, if there is one."""
        return await self._first("guild_id = ? AND number = ?", guild_id, number)

    async def running_season(self, guild_id: int) -> SeasonRow | None:
        """The server's running season, if any."""
        return await self._first("guild_id = ? AND status = 'running'", guild_id)

    async def latest_season(self, guild_id: int) -> SeasonRow | None:
        """The server's newest season, running or ended, if any."""
        return await self._first("guild_id = ? ORDER BY number DESC LIMIT 1", guild_id)

    async def _first(self, where: str, *args: Any) -> SeasonRow | None:
        row = await self._read.fetchone(f"SELECT * FROM seasons WHERE {where}", *args)
        return _season(row) if row else None

    async def season_board(
        self, season: SeasonRow, game: str, min_games: int, *, top: int | None = None
    ) -> list[SeasonStanding]:
        """A season's board for one game, best first (the ranked players by most points, then
        the higher rating; then the others alike): the frozen final table of an ended
        season, as stored; the live one of a running season (humans only; ranked from
        `min_games` season games). With `top`, only the first `top` ranked players, read
        by the board's index."""
        if not season.running:
            rows = await self._read.fetch(
                "SELECT player_id, name, ranked, ordinal, points, played, wins FROM season_finals"
                " WHERE guild_id = ? AND season = ? AND game = ?"
                + (" AND ranked = 1 ORDER BY position LIMIT ?" if top else " ORDER BY position"),
                season.guild_id,
                season.number,
                game,
                *([top] if top else []),
            )
            return [
                SeasonStanding(
                    r["player_id"],
                    r["name"],
                    shown(r["ordinal"]),
                    r["points"],
                    r["played"],
                    r["wins"],
                    bool(r["ranked"]),
                )
                for r in rows
            ]
        rows = await self._read.fetch(
            "SELECT player_id, mu, sigma, played, wins, points FROM season_ratings"
            " WHERE guild_id = ? AND season = ? AND game = ? AND player_id <> ?"
            + (
                f" AND played >= ? ORDER BY {_BY_POINTS.format(t='')} LIMIT ?"
                if top
                else f" ORDER BY {_RANKED_FIRST.format(t='')}, {_BY_POINTS.format(t='')}"
            ),
            season.guild_id,
            season.number,
            game,
            AI_PLAYER,
            min_games,
            *([top] if top else []),
        )
        return [_standing(r, min_games) for r in rows]

    async def season_games(self, season: SeasonRow) -> list[str]:
        """The games a season's board has players in (frozen or live), by name."""
        table = "season_ratings" if season.running else "season_finals"
        rows = await self._read.fetch(
            f"SELECT DISTINCT game FROM {table} WHERE guild_id = ? AND season = ? ORDER BY game",
            season.guild_id,
            season.number,
        )
        return [r["game"] for r in rows]

    async def end_season(
        self, guild_id: int, number: int, now: float, *, due_only: bool
    ) -> SeasonRow | None:
        """End a running season, in one transaction: mark it ended, freeze its final
        tables, and open the next one if it recurs. Returns the ended season; None (having
        written nothing) if it was not running, or, with `due_only`, not yet due."""
        async with self._transaction() as db:
            await self._lock_guild(db, guild_id)
            row = await db.fetchone(
                "UPDATE seasons SET status = 'ended', ended_at = ?"
                " WHERE guild_id = ? AND number = ? AND status = 'running'"
                " AND (? = 0 OR ends_at <= ?) RETURNING *",
                now,
                guild_id,
                number,
                int(due_only),
                now,
            )
            if row is None:
                return None
            ended = _season(row)
            await self._freeze(db, ended, await self._min_games(db, guild_id))
            if ended.recur != NONE:
                start = next_start(now, ended.ends_at, ended.recur)
                await self._open(
                    db,
                    guild_id,
                    ended.name,
                    start,
                    next_end(start, ended.recur),
                    ended.games,
                    ended.recur,
                    ended.channel_id,
                )
        return ended

    async def _freeze(self, db: Conn, season: SeasonRow, min_games: int) -> None:
        """Store each game's final table as it stands, with the name each player sat under
        at their last game of the season: one statement, worked in the database (no row
        passes through the event loop, however many players); each name is two index
        lookups (a player's last season game, its seat), whatever the planner knows."""
        await db.execute(
            "INSERT INTO season_finals (guild_id, season, game, position, player_id, name,"
            " ranked, ordinal, points, played, wins)"
            " SELECT r.guild_id, r.season, r.game, ROW_NUMBER() OVER (PARTITION BY r.game"
            f" ORDER BY {_RANKED_FIRST.format(t='r.')}, {_BY_POINTS.format(t='r.')}),"
            " r.player_id, (SELECT seats.name FROM seats WHERE seats.player_id = r.player_id"
            " AND seats.game_id = (SELECT MAX(game_id) FROM season_results AS last"
            " WHERE last.guild_id = r.guild_id AND last.season = r.season"
            " AND last.player_id = r.player_id)),"
            " CASE WHEN r.played >= ? THEN 1 ELSE 0 END,"
            " r.mu - 3 * r.sigma, r.points, r.played, r.wins"
            " FROM season_ratings AS r WHERE r.guild_id = ? AND r.season = ? AND r.player_id <> ?",
            min_games,
            min_games,
            season.guild_id,
            season.number,
            AI_PLAYER,
        )

    async def _min_games(self, db: Conn, guild_id: int) -> int:
        """Season games a player of the server needs to be ranked (`/settings`)."""
        row = await db.fetchone(
            "SELECT season_min_games FROM guild_settings WHERE guild_id = ?", guild_id
        )
        return int(row[0]) if row else MIN_SEASON_GAMES

    # --- the season clock --------------------------------------------------------------------

    async def seasons_due(self, now: float, shards: Shards | None = None) -> list[SeasonRow]:
        """Running seasons whose end has come (of `shards`' servers, when given)."""
        rows = await self._read.fetch(
            "SELECT * FROM seasons WHERE status = 'running' AND ends_at <= ?"
            " ORDER BY ends_at, guild_id",
            now,
        )
        return [s for s in map(_season, rows) if shards is None or shards.owns(s.guild_id)]

    async def next_season_end(self, shards: Shards | None = None) -> float | None:
        """When the next running season ends (of `shards`' servers, when given)."""
        rows = await self._read.fetch(
            "SELECT guild_id, ends_at FROM seasons WHERE status = 'running' ORDER BY ends_at"
        )
        owned = [r["ends_at"] for r in rows if shards is None or shards.owns(r["guild_id"])]
        return owned[0] if owned else None

    async def cards_to_post(self, shards: Shards | None = None) -> list[SeasonRow]:
        """Ended seasons whose card is not posted yet (of `shards`' servers, when given)."""
        rows = await self._read.fetch(
            "SELECT * FROM seasons WHERE status = 'ended' AND card_done = 0 ORDER BY ended_at"
        )
        return [s for s in map(_season, rows) if shards is None or shards.owns(s.guild_id)]

    async def claim_card(self, guild_id: int, number: int, now: float, stale_before: float) -> bool:
        """Take the posting of an ended season's card, unless it is done or another process
        took it at `stale_before` or later (a claim older is a dead process's)."""
        return await self._won(
            "UPDATE seasons SET card_claimed_at = ? WHERE guild_id = ? AND number = ?"
            " AND status = 'ended' AND card_done = 0"
            " AND (card_claimed_at IS NULL OR card_claimed_at < ?)",
            now,
            guild_id,
            number,
            stale_before,
        )

    async def card_posted(self, guild_id: int, number: int, message_id: int | None) -> None:
        """An ended season's card is done: posted as `message_id` (None: nowhere to post)."""
        async with self._statement() as db:
            await db.execute(
                "UPDATE seasons SET card_done = 1, card_message_id = ?"
                " WHERE guild_id = ? AND number = ?",
                message_id,
                guild_id,
                number,
            )


def _season(row: Row) -> SeasonRow:
    """A `seasons` row as a `SeasonRow`: its columns are the row's fields, by name."""
    values = columns(SeasonRow, row)
    return SeasonRow(**values | {"card_done": bool(values["card_done"])})


def _standing(row: Row, min_games: int) -> SeasonStanding:
    rating = Rating(row["mu"], row["sigma"], row["played"], row["wins"])
    return SeasonStanding(
        row["player_id"],
        None,
        rating.points,
        row["points"],
        rating.played,
        rating.wins,
        rating.played >= min_games,
    )
