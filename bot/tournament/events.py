"""A tournament's life, without Discord: created, joined and left, checked in, started,
dealt round by round, its tables seated as games, their ends scored, and finished.

Every step is a storage transaction won by one caller (`bot.storage.tournaments`), so a
step repeated after a restart, or by a command racing the clock, changes nothing twice.
A round is stored when it is dealt, before any game is made (`deal_next`); a table's game
is made as a lobby in the transaction that claims the table for it, and only then seated
and started (`seat`), so a restart finds it, never seats the table twice, and never finds
a lobby that no table knows. What Discord shows of all this is
`bot.tournament.clock`'s and the cog's.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.errors import UserError, refused
from bot.language.i18n import _
from bot.service import GameService, LoadedGame, Played
from bot.storage import ABANDONED, ACTIVE, CANCELLED, FINISHED, LOBBY, UNRATED, Storage
from bot.storage.tournaments import CANCELLED as EVENT_CANCELLED
from bot.storage.tournaments import FINISHED as EVENT_FINISHED
from bot.storage.tournaments import (
    IN,
    RUNNING,
    SIGNUP,
    EntrantRow,
    Refused,
    TableRow,
    TournamentRow,
)
from bot.tournament.pairing import Entrant, deal_round
from bot.tournament.scoring import Standing, TableResult, standings
from rules.core import IllegalAction, PlayerId
from rules.seats import HAND_TO_AI

# Each game's table sizes a tournament may use, and the size offered when none is given.
TABLE_SIZES: dict[str, tuple[int, int]] = {
    "cock_and_bull": (2, 2),
    "hold_your_horses": (2, 12),
    "winners_circle": (2, 6),
    "horse_collar": (2, 4),
    "risk": (2, 6),
}
DEFAULT_TABLE_SIZE = {
    "cock_and_bull": 2,
    "hold_your_horses": 6,
    "winners_circle": 4,
    "horse_collar": 2,
    "risk": 4,
}
MIN_ROUNDS, MAX_ROUNDS = 2, 12
READY_WINDOW = 300.0  # seconds a seated member has to make a first move
MIN_TABLES = 2  # an event needs at least two of the game's smallest tables to start
MAX_LEAD = 30 * 86400.0  # an event starts within this of its creation


@dataclass(frozen=True)
class Plan:
    """An event as its organiser asked for it, checked by `check_plan`."""

    game: str
    rounds: int
    table_size: int
    starts_at: float
    checkin_at: float | None
    ready_window: float
    rated: bool
    options: Mapping[str, Any]


class TournamentService:
    """Tournaments' steps over storage and the game service (see the module)."""

    def __init__(
        self,
        games: GameService,
        storage: Storage,
        *,
        clock: Callable[[], float] = time.time,
        draw_seed: Callable[[], int] = lambda: secrets.randbits(62),
    ) -> None:
        """Run events whose tables are `games`' games, stored in `storage`, by `clock`."""
        self.games = games
        self.storage = storage
        self.clock = clock
        self._draw_seed = draw_seed

    # --- sign-up ---------------------------------------------------------------------------

    def check_plan(self, plan: Plan) -> None:
        """Refuse (UserError) rounds, a table size, a start or house rules no event can use."""
        if not MIN_ROUNDS <= plan.rounds <= MAX_ROUNDS:
            rounds = _("An event has {low} to {high} rounds.")
            raise UserError(rounds.format(low=MIN_ROUNDS, high=MAX_ROUNDS))
        low, high = TABLE_SIZES[plan.game]
        if not low <= plan.table_size <= high:
            title = self.games.engine(plan.game).title
            if low == high:
                sized = _("{game} is played at tables of {low}.")
            else:
                sized = _("{game} tables seat {low} to {high} players.")
            raise UserError(sized.format(game=title, low=low, high=high))
        now = self.clock()
        if plan.starts_at <= now:
            raise UserError(_("The start must be in the future."))
        if plan.starts_at - now > MAX_LEAD:
            raise UserError(_("The start must be within 30 days."))
        try:
            self.games.engine(plan.game).validate_options(plan.options)
        except IllegalAction as e:
            raise refused(e) from e

    async def create(
        self, plan: Plan, *, guild_id: int, channel_id: int, host_id: int
    ) -> TournamentRow:
        """A new event signing up in the channel (refused if it has an open one)."""
        self.check_plan(plan)
        try:
            return await self.storage.create_tournament(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                game=plan.game,
                options=dict(plan.options),
                rounds=plan.rounds,
                table_size=plan.table_size,
                starts_at=plan.starts_at,
                checkin_at=plan.checkin_at,
                ready_window=plan.ready_window,
                rated=plan.rated,
                seed=self._draw_seed(),
                now=self.clock(),
            )
        except Refused as e:
            raise UserError(refusal(e.reason)) from e

    async def event(self, tournament_id: int) -> TournamentRow:
        """The event numbered `tournament_id` (UserError if there is none)."""
        event = await self.storage.tournament(tournament_id)
        if event is None:
            raise UserError(_("That tournament no longer exists."))
        return event

    async def join(self, tournament_id: int, member: int, name: str) -> TournamentRow:
        """`member` joins (late joining until half the rounds have started)."""
        joined = self.storage.join_tournament(tournament_id, member, name, self.clock())
        return await _refusing(joined)

    async def leave(self, tournament_id: int, member: int) -> TournamentRow:
        """`member` leaves before the start."""
        return await _refusing(self.storage.leave_tournament(tournament_id, member))

    async def check_in(self, tournament_id: int, member: int) -> TournamentRow:
        """`member` checks in, inside the window."""
        return await _refusing(self.storage.check_in(tournament_id, member, self.clock()))

    async def drop(self, tournament_id: int, member: int) -> TournamentRow:
        """An organiser drops `member`."""
        try:
            return await self.storage.drop_entrant(tournament_id, member)
        except Refused as e:
            if e.reason == "not_in":
                raise UserError(_("That member is not in this tournament.")) from e
            raise UserError(refusal(e.reason)) from e

    async def pause(self, event: TournamentRow, paused: bool) -> None:
        """Pause (no round starts by itself) or resume a running event."""
        if event.state != RUNNING:
            raise UserError(_("Only a running tournament can be paused or resumed."))
        if not await self.storage.set_paused(event.id, paused):
            raise UserError(
                _("The tournament is paused already.")
                if paused
                else _("The tournament is not paused.")
            )

    async def cancel(self, event: TournamentRow) -> None:
        """An organiser cancels an open event: nobody scores; its games in play go on."""
        if not await self.storage.end_tournament(event.id, EVENT_CANCELLED, self.clock()):
            raise UserError(_("This tournament is over already."))

    # --- the start and the rounds ----------------------------------------------------------

    def min_entrants(self, event: TournamentRow) -> int:
        """Entrants an event needs at its start: two of the game's smallest tables."""
        return MIN_TABLES * self.games.engine(event.game).min_players

    async def start(self, event: TournamentRow) -> TournamentRow | None:
        """Start an event whose time has come (absentees dropped; cancelled if too few):
        None if it was not due or another caller started it."""
        return await self.storage.start_tournament(
            event.id, self.clock(), min_entrants=self.min_entrants(event)
        )

    async def round_complete(self, event: TournamentRow) -> bool:
        """Every table of the current round has its result (true before round 1)."""
        tables = await self.storage.round_tables(event.id, event.round)
        return all(t.result_done for t in tables)

    async def deal_next(self, event: TournamentRow) -> bool:
        """Deal and store the next round (the pairing computed from what is stored, so a
        second try deals the same tables); False if another caller dealt it, or the event
        has fewer active entrants than a table needs."""
        number = event.round + 1
        entrants = [e for e in await self.storage.entrants(event.id) if e.status == IN]
        engine = self.games.engine(event.game)
        if len(entrants) < engine.min_players:
            return False
        table_list = await self.storage.all_tables(event.id)
        past_byes = {m for members in (await self.storage.byes(event.id)).values() for m in members}
        if number == 1:
            ratings = await self.ratings(event)
            seats = [
                Entrant(e.member_id, 0.0, ratings.get(e.member_id, 0.0), e.member_id in ratings)
                for e in entrants
            ]
        else:
            lines = {s.member_id: s for s in await self.standings(event, entrants)}
            seats = [
                Entrant(e.member_id, lines[e.member_id].points, lines[e.member_id].buchholz, True)
                for e in entrants
            ]
        dealt = deal_round(
            seed=event.seed,
            round_number=number,
            entrants=seats,
            history=[t.members for t in table_list],
            table_size=event.table_size,
            min_size=engine.min_players,
            past_byes=past_byes,
        )
        return await self.storage.store_round(event.id, number, dealt.tables, dealt.byes)

    async def seat(self, event: TournamentRow, table: TableRow) -> LoadedGame:
        """The table's game, made and started if it is not yet: a lobby hosted by its first
        member, made and claimed for the table in one transaction (a racing caller gets the
        same game), then everyone seated and the game started with the event's house rules
        and the server's turn timer."""
        game_id = table.game_id
        host = table.members[0]
        names = await self._names(event.id)
        if game_id is None:
            ready_at = self.clock() + event.ready_window
            where = (event.id, table.round, table.table_no)
            lobby = await self.games.create_lobby(
                event.game,
                guild_id=event.guild_id,
                channel_id=event.channel_id,
                host_id=host,
                host_name=names.get(host, str(host)),
                options=self._table_options(event, table),
                store=lambda new: self.storage.seat_table(*where, new, ready_at),
            )
            game_id = lobby.row.id
        game = await self.games.table(game_id)
        if game.row.status == LOBBY:
            by_sides = event.game == "horse_collar"  # each player a side of their own
            for seat, member in enumerate(table.members):
                if member not in game.names:
                    side = seat if by_sides else 0
                    await self.games.join(game_id, member, names.get(member, str(member)), side)
            game = await self.games.start(game_id, host)
        return game

    @staticmethod
    def _table_options(event: TournamentRow, table: TableRow) -> dict[str, Any]:
        options = dict(event.options)
        if not event.rated:
            options[UNRATED] = True
        if event.game == "horse_collar":
            options["sides"] = len(table.members)
        return options

    async def _names(self, tournament_id: int) -> dict[int, str]:
        return {e.member_id: e.name for e in await self.storage.entrants(tournament_id)}

    async def look_at_ready(self, table: TableRow) -> list[Played]:
        """The table's ready window has ended: each member who has made no move yet although
        their turn came (they are to act now, or the turn timer played for them) is handed
        to the AI for the rest of the game. A member whose turn has not come could not move:
        the table is looked at again, and the AI takes their seat once they have been to act
        for a whole window, counted from the table's last move, without moving. The
        hand-overs made (none if another caller looked first)."""
        if table.game_id is None or table.ready_at is None:
            return []
        game = await self.games.table(table.game_id)
        event = await self.storage.tournament(table.tournament_id)
        due: list[int] = []
        again = None
        if game.row.status == ACTIVE and event is not None:
            due, again = await self._unready(table, game, event.ready_window)
        where = (table.tournament_id, table.round, table.table_no)
        if again is None:
            claimed = await self.storage.ready_looked_at(*where)
        else:
            claimed = await self.storage.ready_looked_at_again(*where, table.ready_at, again)
        if not claimed:
            return []
        return [
            await self.games.seat_action(
                game.row.id, game.row.host_id, HAND_TO_AI, manager=True, seat=PlayerId(member)
            )
            for member in due
        ]

    async def _unready(
        self, table: TableRow, game: LoadedGame, window: float
    ) -> tuple[list[int], float | None]:
        """At a look at the table's ready window: the members the AI takes the seat of now,
        and when to look again (None: every member has moved or is played by the AI)."""
        logged = await self.storage.actions(game.row.id)
        moved = {a.player_id for a in logged if not a.by_ai}
        stood_in = {a.player_id for a in logged if a.by_ai}
        to_act = self.games.engine(game.row.game).to_act(game.state)
        now = self.clock()
        # Looked at again: a member to act now has been so since the last move at the latest.
        last = await self.storage.last_action_at(game.row.id) if table.ready_waiting else None
        due: list[int] = []
        later: list[float] = []
        for member in table.members:
            if member in moved or member in game.ai_seats:
                continue
            if member in stood_in or (member in to_act and (last is None or now >= last + window)):
                due.append(member)
            else:  # their turn has not come, or came less than a window ago
                later.append(
                    last + window if member in to_act and last is not None else now + window
                )
        return due, min(later, default=None)

    async def stand_in(self, event: TournamentRow, member: int) -> list[Played]:
        """The AI takes `member`'s seat at their table in play this round (dropped by an
        organiser); the hand-over made, if any."""
        handed = []
        for table in await self.storage.round_tables(event.id, event.round):
            if member not in table.members or table.game_id is None or table.result_done:
                continue
            game = await self.games.table(table.game_id)
            if game.row.status == ACTIVE and member not in game.ai_seats:
                handed.append(
                    await self.games.seat_action(
                        table.game_id,
                        game.row.host_id,
                        HAND_TO_AI,
                        manager=True,
                        seat=PlayerId(member),
                    )
                )
        return handed

    async def collect(self, event: TournamentRow) -> list[TableRow]:
        """Store the places of the current round's tables whose games have ended: the
        tables stored now."""
        stored = []
        for table in await self.storage.round_tables(event.id, event.round):
            if table.result_done or table.game_id is None:
                continue
            game = await self.games.table(table.game_id)
            if game.row.status not in (FINISHED, ABANDONED, CANCELLED):
                continue
            places, replaced = self._places(table, game)
            if await self.storage.store_result(
                event.id, table.round, table.table_no, places, replaced
            ):
                stored.append(table)
        return stored

    def _places(self, table: TableRow, game: LoadedGame) -> tuple[dict[int, int], frozenset[int]]:
        """Each member's place at their table: the game's, except that members the AI stood
        in for share the last place. A game ended before its end places everyone alike."""
        replaced = frozenset(m for m in table.members if m in game.away)
        outcome = (
            self.games.engine(game.row.game).outcome(game.state)
            if game.row.status == FINISHED
            else None
        )
        played = [m for m in table.members if m not in replaced]
        given = {m: (outcome.places.get(PlayerId(m), 1) if outcome else 1) for m in played}
        ranks = sorted(set(given.values()))
        # Competition ranking among those who played: ties keep sharing their place.
        place_of = {value: 1 + sum(1 for v in given.values() if v < value) for value in ranks}
        places = {m: place_of[given[m]] for m in played}
        places |= {m: len(played) + 1 for m in replaced}
        return places, replaced

    async def advance(self, event: TournamentRow, *, by_hand: bool = False) -> str | None:
        """After a round ended: the next one dealt (unless paused and not `by_hand`), or the
        event finished after the last. What happened: 'dealt', 'finished' or None."""
        if event.state != RUNNING or not await self.round_complete(event):
            return None
        if event.round >= event.rounds:
            ended = await self.storage.end_tournament(event.id, EVENT_FINISHED, self.clock())
            return "finished" if ended else None
        if event.paused and not by_hand:
            return None
        if await self.deal_next(event):
            return "dealt"
        if (await self.event(event.id)).round != event.round:
            return None  # another caller dealt it
        # Too few entrants left for a table: the event ends with the standings as they are.
        ended = await self.storage.end_tournament(event.id, EVENT_FINISHED, self.clock())
        return "finished" if ended else None

    async def next_round(self, event: TournamentRow) -> str:
        """`/tournament next-round`: the next round now, if the current one is over."""
        if event.state == SIGNUP:
            raise UserError(_("The tournament has not started yet."))
        if event.state != RUNNING:
            raise UserError(_("This tournament is over already."))
        if not await self.round_complete(event):
            busy = _("Round {round} is still being played.")
            raise UserError(busy.format(round=event.round))
        done = await self.advance(event, by_hand=True)
        if done is None:
            raise UserError(_("The next round has started already."))
        return done

    # --- standings -------------------------------------------------------------------------

    async def ratings(self, event: TournamentRow) -> dict[int, float]:
        """Each member's rating for the first round's order: the running season's, else the
        all-time one (shown points)."""
        ratings = {
            r.player_id: float(r.rating.points)
            for r in await self.storage.ratings(event.guild_id, event.game, with_ai=False)
        }
        season = await self.storage.running_season(event.guild_id)
        if season is not None and season.games in (None, event.game):
            for line in await self.storage.season_board(season, event.game, 0):
                if line.player_id is not None:
                    ratings[line.player_id] = float(line.rating)
        return ratings

    async def standings(
        self, event: TournamentRow, entrants: Sequence[EntrantRow] | None = None
    ) -> list[Standing]:
        """The event's standings from its stored places and byes: every entrant who played
        or is in, leader first."""
        places = await self.storage.places(event.id)
        tables: dict[tuple[int, int], dict[int, int]] = {}
        for p in places:
            tables.setdefault((p.round, p.table_no), {})[p.member_id] = p.place
        results = [TableResult(number, seats) for (number, _no), seats in tables.items()]
        byes = await self.storage.byes(event.id)
        everyone = entrants if entrants is not None else await self.storage.entrants(event.id)
        played = {p.member_id for p in places} | {m for ms in byes.values() for m in ms}
        ranked = [e.member_id for e in everyone if e.status == IN or e.member_id in played]
        return standings(
            seed=event.seed,
            entrants=ranked,
            results=results,
            byes=byes,
            ratings=await self.ratings(event),
        )


def refusal(reason: str) -> str:
    """A refused change of an event, worded for the member."""
    words = {
        "gone": _("That tournament no longer exists."),
        "already_in": _("You are in this tournament already."),
        "not_in": _("You are not in this tournament."),
        "started": _("The tournament has started: you can no longer leave it."),
        "closed": _("This tournament is over."),
        "too_late": _("Joining closed once half the rounds had started."),
        "dropped": _("An organiser dropped you from this tournament."),
        "no_checkin": _("Check-in is not open now."),
        "checked_in": _("You have checked in already."),
        "channel_busy": _("This channel has a tournament already: one at a time per channel."),
    }
    return words[reason]


async def _refusing(call: Any) -> TournamentRow:
    try:
        row: TournamentRow = await call
    except Refused as e:
        raise UserError(refusal(e.reason)) from e
    return row
