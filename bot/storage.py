"""SQLite persistence through one aiosqlite connection. All SQL lives here.

Migrations are the numbered files in `migrations/`, applied in order at start-up and tracked
with `PRAGMA user_version`.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from typing import Any

import aiosqlite

from bot.instance_lock import InstanceLock
from rules.core import Action

LOBBY, ACTIVE, FINISHED, CANCELLED, ABANDONED = (
    "lobby",
    "active",
    "finished",
    "cancelled",
    "abandoned",
)


# A player's totals over a group of results rows; `_standing` reads them.
_TOTALS = (
    "player_id, is_bot, COUNT(*) AS played, SUM(won) AS wins, SUM(1 - won) AS losses,"
    " SUM(score) AS points, json_group_array(json(stats)) AS s"
)


MAX_ID = 2**63 - 1  # SQLite's INTEGER range


class StaleStep(Exception):
    """The game moved on since the caller loaded it: nothing was written."""


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


@dataclass(frozen=True)
class StandingRow:
    player_id: int
    is_bot: bool
    played: int
    wins: int
    losses: int
    points: int
    stats: dict[str, int]


def _migrations() -> list[tuple[int, str]]:
    files = resources.files("bot") / "migrations"
    found = [
        (int(f.name.split("_", 1)[0]), f.read_text())
        for f in files.iterdir()
        if f.name.endswith(".sql")
    ]
    return sorted(found)


def _game(row: aiosqlite.Row) -> GameRow:
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
    )


class Storage:
    def __init__(self, db: aiosqlite.Connection, lock: InstanceLock | None = None) -> None:
        self._db = db
        self._lock = lock
        # One connection is shared by every task: one transaction at a time on it.
        self._write = asyncio.Lock()

    @classmethod
    async def open(cls, path: str, lock: InstanceLock | None = None) -> Storage:
        """Open (and migrate) the database, holding `lock` (taken here if not given: raises
        DatabaseInUse if another process holds it)."""
        lock = lock or InstanceLock.acquire(path)
        try:
            db = await aiosqlite.connect(path, isolation_level=None)  # we BEGIN/COMMIT
        except BaseException:
            lock.release()
            raise
        db.row_factory = aiosqlite.Row
        storage = cls(db, lock)
        try:
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA foreign_keys = ON")
            await db.execute("PRAGMA synchronous = NORMAL")  # WAL + NORMAL: durable at commit
            await storage.migrate()
        except BaseException:
            await storage.close()  # aiosqlite's worker thread would keep the process alive
            raise
        return storage

    async def close(self) -> None:
        await self._db.close()
        if self._lock is not None:
            self._lock.release()

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._write:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    async def schema_version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        assert row is not None
        return int(row[0])

    async def migrate(self) -> None:
        current = await self.schema_version()
        for number, sql in _migrations():
            if number <= current:
                continue
            # One script, one transaction: a migration applies whole or not at all.
            try:
                await self._db.executescript(
                    f"BEGIN IMMEDIATE;\n{sql}\n;PRAGMA user_version = {number:d};\nCOMMIT;"
                )
            except BaseException:
                if self._db.in_transaction:
                    await self._db.execute("ROLLBACK")
                raise

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
    ) -> int:
        async with self._transaction() as db:
            cur = await db.execute(
                "INSERT INTO games (game, guild_id, channel_id, host_id, status, options, seed,"
                " created_at, updated_at) VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?)",
                (
                    game,
                    guild_id,
                    channel_id,
                    host.player_id,
                    json.dumps(dict(options)),
                    seed,
                    now,
                    now,
                ),
            )
            game_id = cur.lastrowid
            assert game_id is not None
            await self._insert_seat(db, game_id, host)
        return game_id

    async def get_game(self, game_id: int) -> GameRow | None:
        if not 0 < game_id <= MAX_ID:
            return None  # an absurd id from an old or forged button: no such game
        async with self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        return _game(row) if row else None

    async def games(self, *, status: str, guild_id: int | None = None) -> list[GameRow]:
        sql = "SELECT * FROM games WHERE status = ?"
        params: tuple[Any, ...] = (status,)
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params += (guild_id,)
        async with self._db.execute(sql + " ORDER BY id", params) as cur:
            return [_game(r) for r in await cur.fetchall()]

    async def active_by_title(self) -> dict[str, int]:
        """How many games of each title are being played (for the metrics)."""
        async with self._db.execute(
            "SELECT game, COUNT(*) FROM games WHERE status = 'active' GROUP BY game"
        ) as cur:
            return {game: count for game, count in await cur.fetchall()}

    async def game_in_thread(self, thread_id: int) -> GameRow | None:
        """The active game played in a thread (for commands typed there), if any."""
        async with self._db.execute(
            "SELECT * FROM games WHERE thread_id = ? AND status = 'active'", (thread_id,)
        ) as cur:
            row = await cur.fetchone()
        return _game(row) if row else None

    async def game_by_board(self, message_id: int) -> GameRow | None:
        """The active game whose board is `message_id`, if any."""
        async with self._db.execute(
            "SELECT * FROM games WHERE board_message_id = ? AND status = 'active'", (message_id,)
        ) as cur:
            row = await cur.fetchone()
        return _game(row) if row else None

    async def to_resume(self) -> list[int]:
        """Games a start-up resumes: the active ones, and finished ones whose last board was
        never shown (a crash between the final move and its board)."""
        async with self._db.execute(
            "SELECT id FROM games WHERE broken IS NULL AND (status = 'active' OR"
            " (status = 'finished' AND shown_step < step)) ORDER BY id"
        ) as cur:
            return [r[0] for r in await cur.fetchall()]

    async def behind(self, untouched_since: float) -> list[int]:
        """Games whose board is behind their saved step and that nobody has touched since
        `untouched_since` (a board being published right now is left to its publisher)."""
        async with self._db.execute(
            "SELECT id FROM games WHERE broken IS NULL AND status IN ('active', 'finished')"
            " AND state IS NOT NULL AND (shown_step IS NULL OR shown_step < step)"
            " AND updated_at < ? ORDER BY id",
            (untouched_since,),
        ) as cur:
            return [r[0] for r in await cur.fetchall()]

    async def seats(self, game_id: int) -> list[SeatRow]:
        async with self._db.execute(
            "SELECT seat, player_id, name, is_bot, side FROM seats WHERE game_id = ? ORDER BY seat",
            (game_id,),
        ) as cur:
            rows = await cur.fetchall()
        return [
            SeatRow(r["seat"], r["player_id"], r["name"], bool(r["is_bot"]), r["side"])
            for r in rows
        ]

    async def _insert_seat(self, db: aiosqlite.Connection, game_id: int, seat: SeatRow) -> None:
        await db.execute(
            "INSERT INTO seats (game_id, seat, player_id, name, is_bot, side)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, seat.seat, seat.player_id, seat.name, int(seat.is_bot), seat.side),
        )

    async def add_seat(self, game_id: int, seat: SeatRow) -> None:
        async with self._transaction() as db:
            await self._insert_seat(db, game_id, seat)

    async def remove_seat(self, game_id: int, player_id: int) -> None:
        """Remove a player and close the gap, so seats stay numbered 0..n-1."""
        async with self._transaction() as db:
            await db.execute(
                "DELETE FROM seats WHERE game_id = ? AND player_id = ?", (game_id, player_id)
            )
            async with db.execute(
                "SELECT player_id FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
            ) as cur:
                remaining = [r[0] for r in await cur.fetchall()]
            for index, pid in enumerate(remaining):  # negative first: no UNIQUE clash
                await db.execute(
                    "UPDATE seats SET seat = ? WHERE game_id = ? AND player_id = ?",
                    (-1 - index, game_id, pid),
                )
            await db.execute("UPDATE seats SET seat = -1 - seat WHERE game_id = ?", (game_id,))

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
        }
        unknown = set(fields) - allowed
        if unknown:
            raise ValueError(f"not an updatable column: {sorted(unknown)}")
        columns = ", ".join(f"{name} = ?" for name in fields)
        async with self._transaction() as db:
            await db.execute(
                f"UPDATE games SET {columns}, updated_at = ? WHERE id = ?",
                (*fields.values(), now, game_id),
            )

    async def start_game(
        self, game_id: int, state: Mapping[str, Any], deadline: float | None, now: float
    ) -> None:
        async with self._transaction() as db:
            cur = await db.execute(
                "UPDATE games SET status = 'active', state = ?, step = 0, deadline = ?,"
                " reminded = 0, updated_at = ? WHERE id = ? AND status = 'lobby'",
                (json.dumps(state), deadline, now, game_id),
            )
            if cur.rowcount != 1:
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
        """Log the action taken at `step` and save the state after it, in one transaction.

        Raises StaleStep (writing nothing) if the game is no longer at `step`.
        """
        async with self._transaction() as db:
            cur = await db.execute(
                "UPDATE games SET state = ?, step = step + 1, deadline = ?, reminded = 0,"
                " status = ?, updated_at = ? WHERE id = ? AND step = ? AND status = 'active'",
                (
                    json.dumps(state),
                    deadline,
                    FINISHED if results is not None else ACTIVE,
                    now,
                    game_id,
                    step,
                ),
            )
            if cur.rowcount != 1:
                raise StaleStep(game_id)
            await db.execute(
                "INSERT INTO actions (game_id, step, player_id, action, by_ai, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    step,
                    player_id,
                    json.dumps({"verb": action.verb, "arg": action.arg}),
                    int(by_ai),
                    now,
                ),
            )
            if results is not None:
                await self._insert_results(db, game_id, results, now)

    async def _insert_results(
        self, db: aiosqlite.Connection, game_id: int, results: Iterable[ResultRow], now: float
    ) -> None:
        for r in results:
            await db.execute(
                "INSERT INTO results (game_id, player_id, guild_id, game, is_bot, place, score,"
                " won, stats, finished_at) SELECT id, ?, guild_id, game, ?, ?, ?, ?, ?, ?"
                " FROM games WHERE id = ?",
                (
                    r.player_id,
                    int(r.is_bot),
                    r.place,
                    r.score,
                    int(r.won),
                    json.dumps(dict(r.stats)),
                    now,
                    game_id,
                ),
            )

    async def actions(self, game_id: int) -> list[LoggedAction]:
        async with self._db.execute(
            "SELECT step, player_id, action, by_ai FROM actions WHERE game_id = ? ORDER BY step",
            (game_id,),
        ) as cur:
            rows = await cur.fetchall()
        return [
            LoggedAction(
                r["step"], r["player_id"], Action(**json.loads(r["action"])), bool(r["by_ai"])
            )
            for r in rows
        ]

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
        async with self._db.execute(sql, (*params, limit, offset)) as cur:
            rows = await cur.fetchall()
        return [(_game(r), r["finished_at"] or r["updated_at"]) for r in rows]

    # --- standings -------------------------------------------------------------------------

    async def standings(self, guild_id: int, game: str) -> list[StandingRow]:
        """Per player in a guild for one game, ranked by wins minus losses, then points."""
        async with self._db.execute(
            f"SELECT {_TOTALS} FROM results WHERE guild_id = ? AND game = ? GROUP BY player_id"
            " ORDER BY SUM(won) - SUM(1 - won) DESC, SUM(score) DESC, player_id",
            (guild_id, game),
        ) as cur:
            rows = await cur.fetchall()
        return [_standing(r) for r in rows]

    async def player_stats(self, guild_id: int, player_id: int) -> dict[str, StandingRow]:
        """One player's record in a guild, per game."""
        async with self._db.execute(
            f"SELECT game, {_TOTALS} FROM results WHERE guild_id = ? AND player_id = ?"
            " GROUP BY game ORDER BY game",
            (guild_id, player_id),
        ) as cur:
            rows = await cur.fetchall()
        return {r["game"]: _standing(r) for r in rows}

    # --- guild settings ----------------------------------------------------------------------

    async def guild_turn_timer(self, guild_id: int) -> int:
        async with self._db.execute(
            "SELECT turn_timer FROM guild_settings WHERE guild_id = ?", (guild_id,)
        ) as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def set_guild_turn_timer(self, guild_id: int, seconds: int) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, turn_timer) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET turn_timer = excluded.turn_timer",
                (guild_id, seconds),
            )


def _standing(row: aiosqlite.Row) -> StandingRow:
    totals: dict[str, int] = {}
    for stats in json.loads(row["s"]):
        for key, value in stats.items():
            totals[key] = totals.get(key, 0) + int(value)
    return StandingRow(
        player_id=row["player_id"],
        is_bot=bool(row["is_bot"]),
        played=row["played"],
        wins=row["wins"],
        losses=row["losses"],
        points=row["points"],
        stats=totals,
    )
