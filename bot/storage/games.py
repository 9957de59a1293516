"""Games, their seats and their action log: a game from its lobby to its last move, and the
queries that find games (to resume, to catch up, to list).

`record_action` is the one-transaction action: the game row read (and on PostgreSQL locked),
the step checked, the new state and the log entry written and, for a final move, the
results and ratings (`Ratings._finish`) — committed together or not at all.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from bot.shards import Shards
from bot.storage.conn import Conn, Row, columns
from bot.storage.notify_state import forget_game_dms
from bot.storage.ratings import Ratings
from bot.storage.rows import (
    ABANDONED,
    ACTIVE,
    CANCELLED,
    FINISHED,
    MAX_ID,
    UNRATED,
    GameRow,
    LoggedAction,
    NewGame,
    ResultRow,
    SeatRow,
)
from rules.core import Action


class StaleStep(Exception):
    """The game moved on since the caller loaded it (another click, another process):
    nothing was written."""


class Games(Ratings):
    """A game's life in storage. It builds on `Ratings`: a game's final action writes its
    results and ratings in the action's own transaction."""

    async def create_game(self, new: NewGame) -> int:
        """Open a lobby with its host in seat 0; the new game's id."""
        async with self._transaction() as db:
            return await insert_game(db, new)

    async def get_game(self, game_id: int) -> GameRow | None:
        """The game numbered `game_id`, if there is one."""
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
        """A game's seats, in seat order."""
        rows = await self._read.fetch(
            "SELECT seat, player_id, name, is_bot, side FROM seats WHERE game_id = ? ORDER BY seat",
            game_id,
        )
        return [
            SeatRow(r["seat"], r["player_id"], r["name"], bool(r["is_bot"]), r["side"])
            for r in rows
        ]

    async def add_seat(self, game_id: int, seat: SeatRow) -> None:
        """Seat a player (or a bot) at a game's table."""
        async with self._transaction() as db:
            await _insert_seat(db, game_id, seat)

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
        ended = fields.get("status") in (FINISHED, CANCELLED, ABANDONED)
        async with self._transaction() if ended else self._statement() as db:
            await db.execute(
                f"UPDATE games SET {columns}, updated_at = ? WHERE id = ?",
                *fields.values(),
                now,
                game_id,
            )
            if ended:
                await forget_game_dms(db, game_id)

    async def start_game(
        self, game_id: int, state: Mapping[str, Any], deadline: float | None, now: float
    ) -> None:
        """Turn a lobby into a game in play at step 0 with its first `state`.

        Raises StaleStep (writing nothing) if the game is no longer a lobby.
        """
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

    async def record_action(
        self,
        game_id: int,
        *,
        step: int,
        revision: int,
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
        writes. The game's `revision` is left as it is.

        Raises StaleStep (writing nothing) if the game is no longer at `step` and `revision`
        (forgetting a member rewrote the state the action was applied to).
        """
        async with self._transaction() as db:
            # The check and the write in one statement: a trip to the database fewer a move.
            game = await db.fetchone(
                "UPDATE games SET state = ?, step = step + 1, deadline = ?, reminded = 0,"
                " status = ?, updated_at = ?"
                " WHERE id = ? AND step = ? AND revision = ? AND status = ?"
                " RETURNING guild_id, game, options",
                json.dumps(state),
                deadline,
                FINISHED if results is not None else ACTIVE,
                now,
                game_id,
                step,
                revision,
                ACTIVE,
            )
            if game is None:
                raise StaleStep(game_id)
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
                rated = not json.loads(game["options"]).get(UNRATED, False)
                await self._finish(
                    db, game_id, game["guild_id"], game["game"], results, now, rated=rated
                )
                await forget_game_dms(db, game_id)

    async def last_action_at(self, game_id: int) -> float | None:
        """When the game's latest action was taken (None before its first)."""
        row = await self._read.fetchone(
            "SELECT MAX(created_at) AS at FROM actions WHERE game_id = ?", game_id
        )
        return None if row is None or row["at"] is None else float(row["at"])

    async def actions(self, game_id: int) -> list[LoggedAction]:
        """A game's action log, in step order."""
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

    async def finished_games(
        self,
        guild_id: int,
        *,
        game: str | None = None,
        player_id: int | None = None,
        between: tuple[float, float] | None = None,
        limit: int,
        offset: int = 0,
    ) -> list[tuple[GameRow, float]]:
        """A guild's finished games, newest finish first, with when each finished; only
        `game`'s, only those `player_id` sat in, and only those finished from `between[0]`
        until before `between[1]` (a season's), when given."""
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
        if between is not None:
            sql += (
                " AND id IN (SELECT game_id FROM results WHERE guild_id = ?"
                " AND finished_at >= ? AND finished_at < ?)"
            )
            params += [guild_id, *between]
        sql += " ORDER BY finished_at DESC, id DESC LIMIT ? OFFSET ?"
        rows = await self._read.fetch(sql, *params, limit, offset)
        return [(_game(r), r["finished_at"] or r["updated_at"]) for r in rows]

    async def finished_at(self, game_id: int) -> float | None:
        """When a game finished (None: it has no results)."""
        row = await self._read.fetchone(
            "SELECT MAX(finished_at) FROM results WHERE game_id = ?", game_id
        )
        return None if row is None or row[0] is None else float(row[0])


async def insert_game(db: Conn, new: NewGame) -> int:
    """Store a lobby with its host in seat 0, inside the caller's transaction (a tournament
    table claims its game in the same one); the new game's id."""
    row = await db.fetchone(
        "INSERT INTO games (game, guild_id, channel_id, host_id, status, options, seed,"
        " created_at, updated_at, rematch_of) VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?)"
        " RETURNING id",
        new.game,
        new.guild_id,
        new.channel_id,
        new.host.player_id,
        json.dumps(dict(new.options)),
        new.seed,
        new.now,
        new.now,
        new.rematch_of,
    )
    assert row is not None
    game_id = int(row["id"])
    await _insert_seat(db, game_id, new.host)
    return game_id


async def _insert_seat(db: Conn, game_id: int, seat: SeatRow) -> None:
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


def _game(row: Row) -> GameRow:
    values = columns(GameRow, row)
    return GameRow(
        **values
        | {
            "options": json.loads(values["options"]),
            "state": json.loads(values["state"]) if values["state"] is not None else None,
            "reminded": bool(values["reminded"]),
            "end_votes": tuple(json.loads(values["end_votes"])),
        }
    )


def _of(rows: Iterable[Row], shards: Shards | None) -> list[int]:
    return [r["id"] for r in rows if shards is None or shards.owns(r["guild_id"])]
