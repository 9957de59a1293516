"""The storage interface and every query, written once for both backends.

A backend (`sqlite.py`, `postgres.py`) supplies connections that speak `Conn` (SQL with `?`
placeholders), a transaction, its migrations' bookkeeping and two dialect fragments; all the
rest — the rows, the step check, one transaction per action — lives here. Migrations are the
numbered files in `migrations/<backend>/`, the same numbers on both backends.
"""

from __future__ import annotations

import json
import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from importlib import resources
from typing import Any, ClassVar, Protocol

from bot.ratings import AI_PLAYER, Placing, Rating, RatingChange, rated_id, update
from bot.shards import Shards
from rules.core import Action

LOBBY, ACTIVE, FINISHED, CANCELLED, ABANDONED = (
    "lobby",
    "active",
    "finished",
    "cancelled",
    "abandoned",
)

MAX_ID = 2**63 - 1  # SQLite's INTEGER range, PostgreSQL's BIGINT

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
)


class Row(Protocol):
    """A result row (aiosqlite.Row, asyncpg.Record): by column name or position."""

    def __getitem__(self, key: str | int, /) -> Any: ...

    def keys(self) -> Iterable[str]: ...


class Conn(Protocol):
    """What the queries need of a backend: SQL with `?` placeholders."""

    async def fetch(self, sql: str, *args: Any) -> list[Row]: ...

    async def fetchone(self, sql: str, *args: Any) -> Row | None: ...

    async def execute(self, sql: str, *args: Any) -> int:
        """Run one statement; the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...


class StaleStep(Exception):
    """The game moved on since the caller loaded it (another click, another process):
    nothing was written."""


@dataclass(frozen=True)
class GameRow:
    id: int
    game: str
    guild_id: int
    channel_id: int
    host_id: int
    status: str
    options: dict[str, Any]
    seed: str
    step: int
    state: dict[str, Any] | None
    lobby_message_id: int | None
    thread_id: int | None
    board_message_id: int | None
    ping_message_id: int | None
    deadline: float | None
    reminded: bool
    # The step and chapter the board message shows: None before the first board, -1 for a
    # game of an earlier version (not known). Behind `step` means the board must catch up.
    shown_step: int | None = None
    shown_chapter: int | None = None
    broken: str | None = None  # why the game can't be loaded or shown; None when healthy
    ended_by: int | None = None  # who ended an abandoned game (None: by vote, or no thread)
    end_votes: tuple[int, ...] = ()  # players who voted to end the game, in order
    rematch_of: int | None = None  # the finished game whose Rematch button opened this lobby

    @property
    def behind(self) -> bool:
        """True when the board does not show the latest saved step."""
        return self.shown_step is None or self.shown_step < self.step


@dataclass(frozen=True)
class SeatRow:
    seat: int
    player_id: int
    name: str
    is_bot: bool
    side: int = 0


@dataclass(frozen=True)
class LoggedAction:
    step: int
    player_id: int
    action: Action
    by_ai: bool


@dataclass(frozen=True)
class ResultRow:
    player_id: int
    is_bot: bool
    place: int
    score: int
    won: bool
    stats: Mapping[str, int]
    team: int  # who it played with: a side in a game played by sides, else its own seat

    @property
    def placing(self) -> Placing:
        return Placing(rated_id(self.player_id, self.is_bot), self.team, self.place, self.won)


@dataclass(frozen=True)
class RatingRow:
    """A player's rating in one game of a server (player `AI_PLAYER`: the AI)."""

    player_id: int
    rating: Rating


@dataclass(frozen=True)
class StandingRow:
    player_id: int
    is_bot: bool
    played: int
    wins: int
    losses: int
    points: int
    stats: dict[str, int]


def migrations(backend: str) -> list[tuple[int, str]]:
    """The numbered migration scripts of a backend, in order."""
    files = resources.files("bot") / "migrations" / backend
    found = [
        (int(f.name.split("_", 1)[0]), f.read_text())
        for f in files.iterdir()
        if f.name.endswith(".sql")
    ]
    return sorted(found)


def _game(row: Row) -> GameRow:
    return GameRow(
        id=row["id"],
        game=row["game"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        host_id=row["host_id"],
        status=row["status"],
        options=json.loads(row["options"]),
        seed=row["seed"],
        step=row["step"],
        state=json.loads(row["state"]) if row["state"] is not None else None,
        lobby_message_id=row["lobby_message_id"],
        thread_id=row["thread_id"],
        board_message_id=row["board_message_id"],
        ping_message_id=row["ping_message_id"],
        deadline=row["deadline"],
        reminded=bool(row["reminded"]),
        shown_step=row["shown_step"],
        shown_chapter=row["shown_chapter"],
        broken=row["broken"],
        ended_by=row["ended_by"],
        end_votes=tuple(json.loads(row["end_votes"])),
        rematch_of=row["rematch_of"],
    )


class Storage(ABC):
    """Games, seats, the action log, results and server settings, on one backend."""

    backend: ClassVar[str]  # names the folder of its migrations
    # An aggregate of `results.stats` (JSON text) into one JSON array, as text.
    stats_array: ClassVar[str]
    # Appended to the read of the game row in an action's transaction: locks it there.
    for_update: ClassVar[str]
    # Takes a server's ratings lock (`?`: the server) for the rest of the transaction; empty
    # where a write transaction excludes every other already.
    lock_guild: ClassVar[str]

    def __init__(self, reader: Conn) -> None:
        self._read = reader  # for reads outside a transaction

    @abstractmethod
    def _transaction(self) -> AbstractAsyncContextManager[Conn]:
        """A connection in a transaction: committed when the block ends, rolled back if it
        raises."""

    def _statement(self) -> AbstractAsyncContextManager[Conn]:
        """A connection for one write statement, atomic by itself: a transaction unless
        the backend can do without one."""
        return self._transaction()

    @abstractmethod
    async def schema_version(self) -> int:
        """The number of the last migration applied (0: none)."""

    @abstractmethod
    async def _apply_migration(self, number: int, sql: str) -> None:
        """Apply one migration and record its number, in one transaction; nothing if a
        concurrent start applied it already."""

    @abstractmethod
    async def close(self) -> None: ...

    async def migrate(self) -> None:
        current = await self.schema_version()
        for number, sql in migrations(self.backend):
            if number > current:
                await self._apply_migration(number, sql)

    # --- games and seats ---------------------------------------------------------------------

    async def create_game(
        self,
        *,
        game: str,
        guild_id: int,
        channel_id: int,
        host: SeatRow,
        options: Mapping[str, Any],
        seed: str,
        now: float,
        rematch_of: int | None = None,
    ) -> int:
        async with self._transaction() as db:
            row = await db.fetchone(
                "INSERT INTO games (game, guild_id, channel_id, host_id, status, options, seed,"
                " created_at, updated_at, rematch_of) VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?)"
                " RETURNING id",
                game,
                guild_id,
                channel_id,
                host.player_id,
                json.dumps(dict(options)),
                seed,
                now,
                now,
                rematch_of,
            )
            assert row is not None
            game_id = int(row["id"])
            await self._insert_seat(db, game_id, host)
        return game_id

    async def get_game(self, game_id: int) -> GameRow | None:
        if not 0 < game_id <= MAX_ID:
            return None  # an absurd id from an old or forged button: no such game
        row = await self._read.fetchone("SELECT * FROM games WHERE id = ?", game_id)
        return _game(row) if row else None

    async def open_rematch(self, game_id: int) -> GameRow | None:
        """The lobby still open that game `game_id`'s Rematch button opened, if any."""
        row = await self._read.fetchone(
            "SELECT * FROM games WHERE rematch_of = ? AND status = 'lobby' ORDER BY id DESC",
            game_id,
        )
        return _game(row) if row else None

    async def games(
        self, *, status: str, guild_id: int | None = None, player_id: int | None = None
    ) -> list[GameRow]:
        """Games of a status; only `guild_id`'s, and only those `player_id` sits in, if given."""
        sql = "SELECT * FROM games WHERE status = ?"
        params: tuple[Any, ...] = (status,)
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params += (guild_id,)
        if player_id is not None:
            sql += " AND id IN (SELECT game_id FROM seats WHERE player_id = ?)"
            params += (player_id,)
        return [_game(r) for r in await self._read.fetch(sql + " ORDER BY id", *params)]

    async def active_by_title(self) -> dict[str, int]:
        """How many games of each title are being played (for the metrics)."""
        rows = await self._read.fetch(
            "SELECT game, COUNT(*) AS n FROM games WHERE status = 'active' GROUP BY game"
        )
        return {r["game"]: int(r["n"]) for r in rows}

    async def game_in_thread(self, thread_id: int) -> GameRow | None:
        """The active game played in a thread (for commands typed there), if any."""
        row = await self._read.fetchone(
            "SELECT * FROM games WHERE thread_id = ? AND status = 'active'", thread_id
        )
        return _game(row) if row else None

    async def game_by_board(self, message_id: int) -> GameRow | None:
        """The active game whose board is `message_id`, if any."""
        row = await self._read.fetchone(
            "SELECT * FROM games WHERE board_message_id = ? AND status = 'active'", message_id
        )
        return _game(row) if row else None

    async def to_resume(self, shards: Shards | None = None) -> list[int]:
        """Games a start-up resumes: the active ones, and finished ones whose last board was
        never shown (a crash between the final move and its board) — of `shards`' servers
        only, when given (the other shards' processes resume theirs)."""
        rows = await self._read.fetch(
            "SELECT id, guild_id FROM games WHERE broken IS NULL AND (status = 'active' OR"
            " (status = 'finished' AND shown_step < step)) ORDER BY id"
        )
        return _of(rows, shards)

    async def behind(self, untouched_since: float, shards: Shards | None = None) -> list[int]:
        """Games whose board is behind their saved step and that nobody has touched since
        `untouched_since` (a board being published right now is left to its publisher);
        of `shards`' servers only, when given."""
        rows = await self._read.fetch(
            "SELECT id, guild_id FROM games WHERE broken IS NULL"
            " AND status IN ('active', 'finished') AND state IS NOT NULL"
            " AND (shown_step IS NULL OR shown_step < step) AND updated_at < ? ORDER BY id",
            untouched_since,
        )
        return _of(rows, shards)

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._read.fetch(
            "SELECT seat, player_id, name, is_bot, side FROM seats WHERE game_id = ? ORDER BY seat",
            game_id,
        )
        return [
            SeatRow(r["seat"], r["player_id"], r["name"], bool(r["is_bot"]), r["side"])
            for r in rows
        ]

    async def _insert_seat(self, db: Conn, game_id: int, seat: SeatRow) -> None:
        await db.execute(
            "INSERT INTO seats (game_id, seat, player_id, name, is_bot, side)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            game_id,
            seat.seat,
            seat.player_id,
            seat.name,
            int(seat.is_bot),
            seat.side,
        )

    async def add_seat(self, game_id: int, seat: SeatRow) -> None:
        async with self._transaction() as db:
            await self._insert_seat(db, game_id, seat)

    async def remove_seat(self, game_id: int, player_id: int) -> None:
        """Remove a player and close the gap, so seats stay numbered 0..n-1."""
        async with self._transaction() as db:
            await db.execute(
                "DELETE FROM seats WHERE game_id = ? AND player_id = ?", game_id, player_id
            )
            rows = await db.fetch(
                "SELECT player_id FROM seats WHERE game_id = ? ORDER BY seat", game_id
            )
            for index, row in enumerate(rows):  # negative first: no UNIQUE clash
                await db.execute(
                    "UPDATE seats SET seat = ? WHERE game_id = ? AND player_id = ?",
                    -1 - index,
                    game_id,
                    row[0],
                )
            await db.execute("UPDATE seats SET seat = -1 - seat WHERE game_id = ?", game_id)

    async def update_game(self, game_id: int, now: float, **fields: Any) -> None:
        """Set bookkeeping columns (message ids, status, deadline...) outside an action."""
        allowed = {
            "status",
            "lobby_message_id",
            "thread_id",
            "board_message_id",
            "ping_message_id",
            "deadline",
            "reminded",
            "shown_step",
            "shown_chapter",
            "broken",
            "ended_by",
            "end_votes",  # a JSON list
        }
        unknown = set(fields) - allowed
        if unknown:
            raise ValueError(f"not an updatable column: {sorted(unknown)}")
        columns = ", ".join(f"{name} = ?" for name in fields)
        async with self._statement() as db:
            await db.execute(
                f"UPDATE games SET {columns}, updated_at = ? WHERE id = ?",
                *fields.values(),
                now,
                game_id,
            )

    async def start_game(
        self, game_id: int, state: Mapping[str, Any], deadline: float | None, now: float
    ) -> None:
        async with self._transaction() as db:
            changed = await db.execute(
                "UPDATE games SET status = 'active', state = ?, step = 0, deadline = ?,"
                " reminded = 0, updated_at = ? WHERE id = ? AND status = 'lobby'",
                json.dumps(state),
                deadline,
                now,
                game_id,
            )
            if changed != 1:
                raise StaleStep(game_id)

    # --- the action log ------------------------------------------------------------------------

    async def record_action(
        self,
        game_id: int,
        *,
        step: int,
        player_id: int,
        action: Action,
        by_ai: bool,
        state: Mapping[str, Any],
        deadline: float | None,
        results: Iterable[ResultRow] | None,
        now: float,
    ) -> None:
        """Log the action taken at `step` and save the state after it, in one transaction,
        the game row locked meanwhile: of two processes acting on one step, exactly one
        writes.

        Raises StaleStep (writing nothing) if the game is no longer at `step`.
        """
        async with self._transaction() as db:
            game = await db.fetchone(
                "SELECT step, status, guild_id, game FROM games WHERE id = ?" + self.for_update,
                game_id,
            )
            if game is None or game["step"] != step or game["status"] != ACTIVE:
                raise StaleStep(game_id)
            await db.execute(
                "UPDATE games SET state = ?, step = step + 1, deadline = ?, reminded = 0,"
                " status = ?, updated_at = ? WHERE id = ?",
                json.dumps(state),
                deadline,
                FINISHED if results is not None else ACTIVE,
                now,
                game_id,
            )
            await db.execute(
                "INSERT INTO actions (game_id, step, player_id, action, by_ai, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                game_id,
                step,
                player_id,
                json.dumps({"verb": action.verb, "arg": action.arg}),
                int(by_ai),
                now,
            )
            if results is not None:
                await self._finish(db, game_id, game["guild_id"], game["game"], results, now)

    async def _finish(
        self,
        db: Conn,
        game_id: int,
        guild_id: int,
        game: str,
        results: Iterable[ResultRow],
        now: float,
    ) -> None:
        """A finished game's results, and its players' ratings updated from them."""
        rows = list(results)
        await self._lock_guild(db, guild_id)
        before = await self._ratings_in(db, guild_id, game)
        after = update([r.placing for r in rows], before)
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
        await self._save_ratings(db, guild_id, game, after)

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

    async def actions(self, game_id: int) -> list[LoggedAction]:
        rows = await self._read.fetch(
            "SELECT step, player_id, action, by_ai FROM actions WHERE game_id = ? ORDER BY step",
            game_id,
        )
        return [
            LoggedAction(
                r["step"], r["player_id"], Action(**json.loads(r["action"])), bool(r["by_ai"])
            )
            for r in rows
        ]

    # --- standings -------------------------------------------------------------------------

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

    # --- ratings ---------------------------------------------------------------------------

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
        exactly as each game's end did; returns how many games were rated."""
        async with self._transaction() as db:
            await self._lock_guild(db, guild_id)
            rows = await db.fetch(
                "SELECT game_id, game, player_id, is_bot, team, place, won FROM results"
                " WHERE guild_id = ? ORDER BY finished_at, game_id",
                guild_id,
            )
            games: dict[int, list[Row]] = {}
            for row in rows:
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
                before.update(after)
            await db.execute("DELETE FROM ratings WHERE guild_id = ?", guild_id)
            await db.executemany(
                "UPDATE results SET rating_before = ?, rating_after = ?"
                " WHERE game_id = ? AND player_id = ?",
                columns,
            )
            for game, per_player in ratings.items():
                await self._save_ratings(db, guild_id, game, per_player)
        return len(games)

    # --- history (read-only) ------------------------------------------------------------------

    async def finished_games(
        self,
        guild_id: int,
        *,
        game: str | None = None,
        player_id: int | None = None,
        limit: int,
        offset: int = 0,
    ) -> list[tuple[GameRow, float]]:
        """A guild's finished games, newest finish first, with when each finished; only
        `game`'s, and only those `player_id` sat in, when given."""
        sql = (
            "SELECT games.*, (SELECT MAX(finished_at) FROM results"
            " WHERE results.game_id = games.id) AS finished_at"
            " FROM games WHERE guild_id = ? AND status = 'finished'"
        )
        params: list[Any] = [guild_id]
        if game is not None:
            sql += " AND game = ?"
            params.append(game)
        if player_id is not None:
            sql += " AND id IN (SELECT game_id FROM seats WHERE player_id = ?)"
            params.append(player_id)
        sql += " ORDER BY finished_at DESC, id DESC LIMIT ? OFFSET ?"
        rows = await self._read.fetch(sql, *params, limit, offset)
        return [(_game(r), r["finished_at"] or r["updated_at"]) for r in rows]

    # --- guild settings ----------------------------------------------------------------------

    async def guild_turn_timer(self, guild_id: int) -> int:
        row = await self._read.fetchone(
            "SELECT turn_timer FROM guild_settings WHERE guild_id = ?", guild_id
        )
        return int(row[0]) if row else 0

    async def set_guild_turn_timer(self, guild_id: int, seconds: int) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, turn_timer) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET turn_timer = excluded.turn_timer",
                guild_id,
                seconds,
            )

    async def guild_language(self, guild_id: int) -> str | None:
        """The language the server chose for its games, if it chose one."""
        row = await self._read.fetchone(
            "SELECT language FROM guild_settings WHERE guild_id = ?", guild_id
        )
        return None if row is None or row[0] is None else str(row[0])

    async def set_guild_language(self, guild_id: int, language: str | None) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, language) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language",
                guild_id,
                language,
            )

    # --- member settings ---------------------------------------------------------------------

    async def text_board_members(self) -> set[int]:
        """Every member who asked for the text board after each of their moves."""
        rows = await self._read.fetch("SELECT user_id FROM member_settings WHERE text_board = 1")
        return {int(r[0]) for r in rows}

    async def set_text_board_default(self, user_id: int, on: bool) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO member_settings (user_id, text_board) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET text_board = excluded.text_board",
                user_id,
                int(on),
            )

    # --- the bot's own memory ------------------------------------------------------------------

    async def bot_state(self, key: str) -> str | None:
        row = await self._read.fetchone("SELECT value FROM bot_state WHERE key = ?", key)
        return None if row is None else str(row[0])

    async def set_bot_state(self, key: str, value: str) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO bot_state (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                key,
                value,
            )

    # --- forgetting (privacy) -----------------------------------------------------------------

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
                    " state = ? WHERE id = ?",
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
            for table in ("ratings", "guild_settings", "guild_departures"):
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

    # --- whole tables (copy-db) ----------------------------------------------------------------

    async def table_rows(self, table: str) -> list[dict[str, Any]]:
        """Every row of one of `TABLES`, as column → value."""
        if table not in TABLES:
            raise ValueError(f"not a table of Parlour: {table!r}")
        rows = await self._read.fetch(f"SELECT * FROM {table}")
        # keys(): a row iterates its values, not its column names
        return [{key: row[key] for key in row.keys()} for row in rows]  # noqa: SIM118

    async def count_games(self) -> int:
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


def _of(rows: Iterable[Row], shards: Shards | None) -> list[int]:
    return [r["id"] for r in rows if shards is None or shards.owns(r["guild_id"])]


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
