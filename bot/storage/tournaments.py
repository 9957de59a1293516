"""Tournaments in storage: an event, its entrants, its rounds' tables and byes, and the
places at each table.

Every change of an event is one transaction, and each step of its life is a conditional
`UPDATE` that only one caller can win (two processes, or a command racing the clock): the
start, a round dealt, a table seated, a table's result stored, the end. A round's tables
are stored when it is dealt, before any game is made, so a restart seats the same tables;
a table's game is set once. `revision` counts the changes the card shows, so a card
behind is redrawn.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.shards import Shards
from bot.storage.conn import Conn, Connected, Row, columns
from bot.storage.games import insert_game
from bot.storage.rows import NewGame

SIGNUP, RUNNING, FINISHED, CANCELLED = "signup", "running", "finished", "cancelled"
OPEN = (SIGNUP, RUNNING)
IN, LEFT, DROPPED, WITHDRAWN = "in", "left", "dropped", "withdrawn"
MISSED_TO_WITHDRAW = 2  # rounds in a row the AI played for an entrant before they are withdrawn


@dataclass(frozen=True)
class TournamentRow:
    """A tournament as stored (see migration 015 for each column)."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    game: str
    options: dict[str, Any]
    rounds: int
    table_size: int
    starts_at: float
    checkin_at: float | None
    ready_window: float
    rated: bool
    seed: int
    state: str
    round: int
    paused: bool
    checkin_pinged: bool
    card_message_id: int | None
    revision: int
    card_revision: int
    created_at: float
    ended_at: float | None
    final_claimed_at: float | None
    final_message_id: int | None
    final_done: bool

    @property
    def open(self) -> bool:
        """Signing up or running."""
        return self.state in OPEN

    def checking_in(self, now: float) -> bool:
        """True while the check-in window is open (before the start)."""
        return self.state == SIGNUP and self.checkin_at is not None and now >= self.checkin_at

    @property
    def late_join_open(self) -> bool:
        """Joining is allowed until half the rounds have started."""
        return self.state == SIGNUP or (self.state == RUNNING and 2 * self.round < self.rounds)


@dataclass(frozen=True)
class EntrantRow:
    """An entrant of an event (see migration 015)."""

    member_id: int
    name: str
    joined_at: float
    first_round: int
    checked_in: bool
    status: str
    missed: int


@dataclass(frozen=True)
class TableRow:
    """One table of a round: its members in seat order, and its game once seated."""

    tournament_id: int
    round: int
    table_no: int
    members: tuple[int, ...]
    game_id: int | None
    ready_at: float | None
    ready_done: bool
    ready_waiting: bool  # looked at before some members' turn came: looked at again
    result_done: bool


@dataclass(frozen=True)
class PlaceRow:
    """An entrant's place at their table in a round (`replaced`: the AI stood in)."""

    round: int
    table_no: int
    member_id: int
    place: int
    replaced: bool


class Refused(Exception):
    """A change of an event that its state does not allow: nothing was written. `reason`
    names which (`gone`, `already_in`, `not_in`, `started`, `closed`, `too_late`, `dropped`,
    `no_checkin`, `checked_in`, `channel_busy`)."""

    def __init__(self, reason: str) -> None:
        """Refused for `reason`."""
        super().__init__(reason)
        self.reason = reason


class Tournaments(Connected):
    """Tournaments created, joined, started, dealt, played and ended."""

    async def create_tournament(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        game: str,
        options: Mapping[str, Any],
        rounds: int,
        table_size: int,
        starts_at: float,
        checkin_at: float | None,
        ready_window: float,
        rated: bool,
        seed: int,
        now: float,
    ) -> TournamentRow:
        """A new event signing up in `channel_id`; Refused('channel_busy') when the channel
        has an open one already."""
        async with self._transaction() as db:
            busy = await db.fetchone(
                "SELECT id FROM tournaments WHERE channel_id = ?"
                " AND state IN ('signup', 'running')",
                channel_id,
            )
            if busy is not None:
                raise Refused("channel_busy")
            row = await db.fetchone(
                "INSERT INTO tournaments (guild_id, channel_id, host_id, game, options, rounds,"
                " table_size, starts_at, checkin_at, ready_window, rated, seed, state, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'signup', ?) RETURNING *",
                guild_id,
                channel_id,
                host_id,
                game,
                json.dumps(dict(options)),
                rounds,
                table_size,
                starts_at,
                checkin_at,
                ready_window,
                int(rated),
                seed,
                now,
            )
        assert row is not None
        return _tournament(row)

    async def tournament(self, tournament_id: int) -> TournamentRow | None:
        """The event numbered `tournament_id`, if any."""
        return await self._one_event("SELECT * FROM tournaments WHERE id = ?", tournament_id)

    async def open_tournament_in(self, channel_id: int) -> TournamentRow | None:
        """The channel's event signing up or running, if any."""
        return await self._one_event(
            "SELECT * FROM tournaments WHERE channel_id = ? AND state IN ('signup', 'running')",
            channel_id,
        )

    async def guild_tournament(self, guild_id: int) -> TournamentRow | None:
        """The server's running event, else its next one to start, else its latest."""
        return await self._one_event(
            "SELECT * FROM tournaments WHERE guild_id = ? ORDER BY"
            " CASE state WHEN 'running' THEN 0 WHEN 'signup' THEN 1 ELSE 2 END,"
            " CASE WHEN state = 'signup' THEN starts_at ELSE -id END LIMIT 1",
            guild_id,
        )

    async def set_card(self, tournament_id: int, message_id: int) -> None:
        """The event's sign-up card was posted as `message_id`."""
        async with self._statement() as db:
            await db.execute(
                "UPDATE tournaments SET card_message_id = ? WHERE id = ?", message_id, tournament_id
            )

    async def card_shown(self, tournament_id: int, revision: int) -> None:
        """The card now shows the event at `revision`."""
        async with self._statement() as db:
            await db.execute(
                "UPDATE tournaments SET card_revision = ? WHERE id = ? AND card_revision < ?",
                revision,
                tournament_id,
                revision,
            )

    # --- entrants ----------------------------------------------------------------------------

    async def entrants(self, tournament_id: int) -> list[EntrantRow]:
        """Every entrant of the event, in joining order (those who left too)."""
        rows = await self._read.fetch(
            "SELECT * FROM tournament_entrants WHERE tournament_id = ?"
            " ORDER BY joined_at, member_id",
            tournament_id,
        )
        return [_entrant(r) for r in rows]

    async def join_tournament(
        self, tournament_id: int, member_id: int, name: str, now: float
    ) -> TournamentRow:
        """`member_id` joins (or rejoins, after leaving or being withdrawn); checked in at
        once inside the check-in window. Refused: in already, closed, too late, dropped."""
        async with self._transaction() as db:
            event = await self._event(db, tournament_id)
            if not event.open:
                raise Refused("closed")
            if not event.late_join_open:
                raise Refused("too_late")
            present = int(event.checking_in(now) or event.state == RUNNING)
            first = event.round + 1 if event.state == RUNNING else 1
            held = await db.fetchone(
                "SELECT status FROM tournament_entrants WHERE tournament_id = ? AND member_id = ?",
                tournament_id,
                member_id,
            )
            if held is None:
                await db.execute(
                    "INSERT INTO tournament_entrants (tournament_id, member_id, name, joined_at,"
                    " first_round, checked_in, status) VALUES (?, ?, ?, ?, ?, ?, 'in')",
                    tournament_id,
                    member_id,
                    name,
                    now,
                    first,
                    present,
                )
            elif held["status"] == IN:
                raise Refused("already_in")
            elif held["status"] == DROPPED:
                raise Refused("dropped")
            else:  # left before the start, or withdrawn: back in, with a clean slate of misses
                await db.execute(
                    "UPDATE tournament_entrants SET status = 'in', missed = 0, name = ?,"
                    " checked_in = ? WHERE tournament_id = ? AND member_id = ?",
                    name,
                    present,
                    tournament_id,
                    member_id,
                )
            return await self._changed(db, tournament_id)

    async def leave_tournament(self, tournament_id: int, member_id: int) -> TournamentRow:
        """`member_id` leaves before the start. Refused: started (or over), not in."""
        async with self._transaction() as db:
            event = await self._event(db, tournament_id)
            if event.state != SIGNUP:
                raise Refused("started" if event.state == RUNNING else "closed")
            return await self._change_entrant(
                db,
                "UPDATE tournament_entrants SET status = 'left', checked_in = 0"
                " WHERE tournament_id = ? AND member_id = ? AND status = 'in'",
                tournament_id,
                member_id,
            )

    async def check_in(self, tournament_id: int, member_id: int, now: float) -> TournamentRow:
        """`member_id` checks in. Refused: outside the window, not in, checked in already."""
        async with self._transaction() as db:
            event = await self._event(db, tournament_id)
            if not event.checking_in(now):
                raise Refused("no_checkin")
            held = await db.fetchone(
                "SELECT checked_in FROM tournament_entrants WHERE tournament_id = ?"
                " AND member_id = ? AND status = 'in'",
                tournament_id,
                member_id,
            )
            if held is None:
                raise Refused("not_in")
            if held["checked_in"]:
                raise Refused("checked_in")
            await db.execute(
                "UPDATE tournament_entrants SET checked_in = 1 WHERE tournament_id = ?"
                " AND member_id = ?",
                tournament_id,
                member_id,
            )
            return await self._changed(db, tournament_id)

    async def drop_entrant(self, tournament_id: int, member_id: int) -> TournamentRow:
        """An organiser drops `member_id` from the event (they may not rejoin)."""
        async with self._transaction() as db:
            event = await self._event(db, tournament_id)
            if not event.open:
                raise Refused("closed")
            return await self._change_entrant(
                db,
                "UPDATE tournament_entrants SET status = 'dropped' WHERE tournament_id = ?"
                " AND member_id = ? AND status IN ('in', 'withdrawn')",
                tournament_id,
                member_id,
            )

    # --- the event's steps -------------------------------------------------------------------

    async def claim_checkin_ping(self, tournament_id: int) -> bool:
        """Take the check-in ping (once: True for the one caller that gets it)."""
        return await self._won(
            "UPDATE tournaments SET checkin_pinged = 1, revision = revision + 1"
            " WHERE id = ? AND state = 'signup' AND checkin_pinged = 0",
            tournament_id,
        )

    async def start_tournament(
        self, tournament_id: int, now: float, *, min_entrants: int
    ) -> TournamentRow | None:
        """Start an event whose time has come, in one transaction: entrants not checked in
        (when there was a check-in) are dropped; fewer than `min_entrants` left cancels it.
        The event as it is now; None (nothing written) if it was not signing up or not due."""
        async with self._transaction() as db:
            row = await db.fetchone(
                "UPDATE tournaments SET state = 'running', revision = revision + 1"
                " WHERE id = ? AND state = 'signup' AND starts_at <= ? RETURNING *",
                tournament_id,
                now,
            )
            if row is None:
                return None
            event = _tournament(row)
            if event.checkin_at is not None:
                await db.execute(
                    "UPDATE tournament_entrants SET status = 'dropped' WHERE tournament_id = ?"
                    " AND status = 'in' AND checked_in = 0",
                    tournament_id,
                )
            counted = await db.fetchone(
                "SELECT COUNT(*) FROM tournament_entrants WHERE tournament_id = ?"
                " AND status = 'in'",
                tournament_id,
            )
            if counted is not None and int(counted[0]) < min_entrants:
                await db.execute(
                    "UPDATE tournaments SET state = 'cancelled', ended_at = ? WHERE id = ?",
                    now,
                    tournament_id,
                )
            return await self._event(db, tournament_id)

    async def store_round(
        self,
        tournament_id: int,
        number: int,
        tables: Sequence[Sequence[int]],
        byes: Sequence[int],
    ) -> bool:
        """Store round `number`'s tables and byes and make it the current round, in one
        transaction; False (nothing written) if the event is not running at round
        `number - 1` (another caller dealt it)."""
        async with self._transaction() as db:
            won = await db.execute(
                "UPDATE tournaments SET round = ?, revision = revision + 1"
                " WHERE id = ? AND state = 'running' AND round = ?",
                number,
                tournament_id,
                number - 1,
            )
            if won == 0:
                return False
            await db.executemany(
                "INSERT INTO tournament_tables (tournament_id, round, table_no, members)"
                " VALUES (?, ?, ?, ?)",
                [
                    (tournament_id, number, no, json.dumps(list(members)))
                    for no, members in enumerate(tables, start=1)
                ],
            )
            await db.executemany(
                "INSERT INTO tournament_byes (tournament_id, round, member_id) VALUES (?, ?, ?)",
                [(tournament_id, number, member) for member in byes],
            )
        return True

    async def round_tables(self, tournament_id: int, number: int) -> list[TableRow]:
        """Round `number`'s tables, table 1 first."""
        rows = await self._read.fetch(
            "SELECT * FROM tournament_tables WHERE tournament_id = ? AND round = ?"
            " ORDER BY table_no",
            tournament_id,
            number,
        )
        return [_table(r) for r in rows]

    async def all_tables(self, tournament_id: int) -> list[TableRow]:
        """Every table of every round dealt, in order."""
        rows = await self._read.fetch(
            "SELECT * FROM tournament_tables WHERE tournament_id = ? ORDER BY round, table_no",
            tournament_id,
        )
        return [_table(r) for r in rows]

    async def table_of_game(self, game_id: int) -> TableRow | None:
        """The tournament table a game is played at, if it is one."""
        row = await self._read.fetchone(
            "SELECT * FROM tournament_tables WHERE game_id = ?", game_id
        )
        return None if row is None else _table(row)

    async def byes(self, tournament_id: int) -> dict[int, list[int]]:
        """Each round's byes: round → member ids."""
        rows = await self._read.fetch(
            "SELECT round, member_id FROM tournament_byes WHERE tournament_id = ?"
            " ORDER BY round, member_id",
            tournament_id,
        )
        byes: dict[int, list[int]] = {}
        for r in rows:
            byes.setdefault(int(r["round"]), []).append(int(r["member_id"]))
        return byes

    async def seat_table(
        self, tournament_id: int, number: int, table_no: int, game: NewGame, ready_at: float
    ) -> int:
        """The table's game: made as the lobby `game` and set as the table's, its ready
        window ending at `ready_at`, in one transaction, if the table had none; else the
        game it has (nothing written). Claimed before the game is made, so a caller racing
        another waits on the table's row and, losing, makes nothing; and no kill leaves a
        game that no table knows."""
        where = " WHERE tournament_id = ? AND round = ? AND table_no = ?"
        key = (tournament_id, number, table_no)
        async with self._transaction() as db:
            claimed = await db.execute(
                f"UPDATE tournament_tables SET ready_at = ?{where} AND game_id IS NULL",
                ready_at,
                *key,
            )
            if claimed:
                game_id = await insert_game(db, game)
                await db.execute(f"UPDATE tournament_tables SET game_id = ?{where}", game_id, *key)
                return game_id
            row = await db.fetchone(f"SELECT game_id FROM tournament_tables{where}", *key)
        assert row is not None and row["game_id"] is not None, "no such table"
        return int(row["game_id"])

    async def ready_due(self, now: float, shards: Shards | None = None) -> list[TableRow]:
        """Seated tables of running events whose ready window has ended, not looked at yet."""
        rows = await self._read.fetch(
            "SELECT t.*, e.guild_id FROM tournament_tables AS t JOIN tournaments AS e"
            " ON e.id = t.tournament_id WHERE e.state = 'running' AND t.ready_done = 0"
            " AND t.game_id IS NOT NULL AND t.ready_at <= ?",
            now,
        )
        return [_table(r) for r in rows if shards is None or shards.owns(r["guild_id"])]

    async def ready_looked_at(self, tournament_id: int, number: int, table_no: int) -> bool:
        """The table's ready window was dealt with: True for the one caller that marks it."""
        return await self._won(_flag_table("ready_done"), tournament_id, number, table_no)

    async def ready_looked_at_again(
        self, tournament_id: int, number: int, table_no: int, was: float, again: float
    ) -> bool:
        """The table's ready window, ending at `was`, was looked at before some members'
        turn came: it is looked at again at `again`. True for the one caller that moves it."""
        return await self._won(
            "UPDATE tournament_tables SET ready_at = ?, ready_waiting = 1 WHERE tournament_id = ?"
            " AND round = ? AND table_no = ? AND ready_done = 0 AND ready_at = ?",
            again,
            tournament_id,
            number,
            table_no,
            was,
        )

    async def store_result(
        self,
        tournament_id: int,
        number: int,
        table_no: int,
        places: Mapping[int, int],
        replaced: frozenset[int],
    ) -> bool:
        """A table's places, in one transaction with each member's run of missed rounds (a
        member the AI stood for misses one more, and is withdrawn at `MISSED_TO_WITHDRAW`;
        the others' run ends). False (nothing written) if they were stored already."""
        async with self._transaction() as db:
            if await db.execute(_flag_table("result_done"), tournament_id, number, table_no) == 0:
                return False
            await db.executemany(
                "INSERT INTO tournament_results (tournament_id, round, table_no, member_id,"
                " place, replaced) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (tournament_id, number, table_no, member, place, int(member in replaced))
                    for member, place in places.items()
                ],
            )
            for member in places:
                if member in replaced:
                    await db.execute(
                        "UPDATE tournament_entrants SET missed = missed + 1,"
                        " status = CASE WHEN missed + 1 >= ? AND status = 'in' THEN 'withdrawn'"
                        " ELSE status END WHERE tournament_id = ? AND member_id = ?",
                        MISSED_TO_WITHDRAW,
                        tournament_id,
                        member,
                    )
                else:
                    await db.execute(
                        "UPDATE tournament_entrants SET missed = 0 WHERE tournament_id = ?"
                        " AND member_id = ?",
                        tournament_id,
                        member,
                    )
            await self._changed(db, tournament_id)
        return True

    async def places(self, tournament_id: int) -> list[PlaceRow]:
        """Every stored place of the event, by round and table."""
        rows = await self._read.fetch(
            "SELECT round, table_no, member_id, place, replaced FROM tournament_results"
            " WHERE tournament_id = ? ORDER BY round, table_no, place, member_id",
            tournament_id,
        )
        return [
            PlaceRow(r["round"], r["table_no"], r["member_id"], r["place"], bool(r["replaced"]))
            for r in rows
        ]

    async def set_paused(self, tournament_id: int, paused: bool) -> bool:
        """Pause or resume a running event: True if that changed it."""
        return await self._won(
            "UPDATE tournaments SET paused = ?, revision = revision + 1"
            " WHERE id = ? AND state = 'running' AND paused <> ?",
            int(paused),
            tournament_id,
            int(paused),
        )

    async def end_tournament(self, tournament_id: int, state: str, now: float) -> bool:
        """Finish (after the last round) or cancel an open event: True for the one caller
        that ends it."""
        return await self._won(
            "UPDATE tournaments SET state = ?, ended_at = ?, revision = revision + 1"
            " WHERE id = ? AND state IN ('signup', 'running')",
            state,
            now,
            tournament_id,
        )

    # --- the clock ---------------------------------------------------------------------------

    async def tournaments_to_tend(self, shards: Shards | None = None) -> list[TournamentRow]:
        """Events with something left to do: open ones, and ended ones whose card or final
        post is behind (of `shards`' servers, when given)."""
        rows = await self._read.fetch(
            "SELECT * FROM tournaments WHERE state IN ('signup', 'running')"
            " OR card_revision < revision OR (state = 'finished' AND final_done = 0) ORDER BY id"
        )
        return [t for t in map(_tournament, rows) if shards is None or shards.owns(t.guild_id)]

    async def next_tournament_time(self, shards: Shards | None = None) -> float | None:
        """The next start, check-in opening or ready window's end, of `shards`' servers."""
        rows = await self._read.fetch(
            "SELECT guild_id, starts_at AS at FROM tournaments WHERE state = 'signup'"
            " UNION ALL SELECT guild_id, checkin_at FROM tournaments WHERE state = 'signup'"
            " AND checkin_pinged = 0 AND checkin_at IS NOT NULL"
            " UNION ALL SELECT e.guild_id, t.ready_at FROM tournament_tables AS t"
            " JOIN tournaments AS e ON e.id = t.tournament_id WHERE e.state = 'running'"
            " AND t.ready_done = 0 AND t.ready_at IS NOT NULL"
        )
        owned = [float(r["at"]) for r in rows if shards is None or shards.owns(r["guild_id"])]
        return min(owned, default=None)

    async def claim_final(self, tournament_id: int, now: float, stale_before: float) -> bool:
        """Take the posting of a finished event's final standings, unless done or taken at
        `stale_before` or later (an older claim is a dead process's)."""
        return await self._won(
            "UPDATE tournaments SET final_claimed_at = ? WHERE id = ? AND state = 'finished'"
            " AND final_done = 0 AND (final_claimed_at IS NULL OR final_claimed_at < ?)",
            now,
            tournament_id,
            stale_before,
        )

    async def final_posted(self, tournament_id: int, message_id: int | None) -> None:
        """The final standings were posted as `message_id` (None: nowhere to post)."""
        async with self._statement() as db:
            await db.execute(
                "UPDATE tournaments SET final_done = 1, final_message_id = ? WHERE id = ?",
                message_id,
                tournament_id,
            )

    # --- helpers -----------------------------------------------------------------------------

    async def _one_event(self, sql: str, *args: Any) -> TournamentRow | None:
        """The one event `sql` reads, if any."""
        row = await self._read.fetchone(sql, *args)
        return None if row is None else _tournament(row)

    async def _event(self, db: Conn, tournament_id: int) -> TournamentRow:
        row = await db.fetchone("SELECT * FROM tournaments WHERE id = ?", tournament_id)
        if row is None:
            raise Refused("gone")
        return _tournament(row)

    async def _change_entrant(
        self, db: Conn, sql: str, tournament_id: int, member_id: int
    ) -> TournamentRow:
        """Change an entrant's row by `sql` (bound to the event and member); Refused('not_in')
        when it matched none; the event as it is now."""
        if await db.execute(sql, tournament_id, member_id) == 0:
            raise Refused("not_in")
        return await self._changed(db, tournament_id)

    async def _changed(self, db: Conn, tournament_id: int) -> TournamentRow:
        """Count a change the card shows; the event as it is now."""
        row = await db.fetchone(
            "UPDATE tournaments SET revision = revision + 1 WHERE id = ? RETURNING *",
            tournament_id,
        )
        assert row is not None
        return _tournament(row)


async def forget_in_tournaments(db: Conn, player_id: int) -> None:
    """A member forgotten in the tournament tables, inside `forget_player`'s transaction:
    their entries, places and byes go, and they leave the seat lists of the tables they
    were dealt to."""
    for table in ("tournament_entrants", "tournament_results", "tournament_byes"):
        await db.execute(f"DELETE FROM {table} WHERE member_id = ?", player_id)
    rows = await db.fetch(
        "SELECT tournament_id, round, table_no, members FROM tournament_tables"
        " WHERE members LIKE ?",
        f"%{player_id}%",
    )
    for r in rows:
        members = json.loads(r["members"])
        if player_id in members:
            await db.execute(
                "UPDATE tournament_tables SET members = ? WHERE tournament_id = ? AND round = ?"
                " AND table_no = ?",
                json.dumps([m for m in members if m != player_id]),
                r["tournament_id"],
                r["round"],
                r["table_no"],
            )


# A server's tournament tables, children first: `forget_guild` deletes them by the event's
# server.
TOURNAMENT_CHILDREN = (
    "tournament_results",
    "tournament_byes",
    "tournament_tables",
    "tournament_entrants",
)


async def forget_guild_tournaments(db: Conn, guild_id: int) -> None:
    """Every tournament of a server deleted, inside `forget_guild`'s transaction."""
    events = "SELECT id FROM tournaments WHERE guild_id = ?"
    for table in TOURNAMENT_CHILDREN:
        await db.execute(f"DELETE FROM {table} WHERE tournament_id IN ({events})", guild_id)
    await db.execute("DELETE FROM tournaments WHERE guild_id = ?", guild_id)


def _flag_table(flag: str) -> str:
    """The write that sets a table's `flag` column once (bound to the event, round and
    table number): it changes no row when another caller set it first."""
    return (
        f"UPDATE tournament_tables SET {flag} = 1 WHERE tournament_id = ?"
        f" AND round = ? AND table_no = ? AND {flag} = 0"
    )


def _tournament(row: Row) -> TournamentRow:
    values = columns(TournamentRow, row)
    return TournamentRow(
        **values
        | {
            "options": json.loads(values["options"]),
            "rated": bool(values["rated"]),
            "paused": bool(values["paused"]),
            "checkin_pinged": bool(values["checkin_pinged"]),
            "final_done": bool(values["final_done"]),
        }
    )


def _entrant(row: Row) -> EntrantRow:
    values = columns(EntrantRow, row)
    return EntrantRow(**values | {"checked_in": bool(values["checked_in"])})


def _table(row: Row) -> TableRow:
    values = columns(TableRow, row)
    return TableRow(
        **values
        | {
            "members": tuple(json.loads(values["members"])),
            "ready_done": bool(values["ready_done"]),
            "ready_waiting": bool(values["ready_waiting"]),
            "result_done": bool(values["result_done"]),
        }
    )
