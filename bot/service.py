"""The async game service: lobbies, starting, acting, timers' deadlines, replay.

It loads a game, runs its rules engine (pure, synchronous) and saves the result; it knows
nothing of Discord. Every action runs under a per-game lock, checks the step the player
saw, and saves the new state and the action log in one transaction, so nothing a player
was told is done can be lost, and the seed plus the log replays any game.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, cast

from bot.errors import GameUnreadable, UserError, refused
from bot.language.i18n import GAME_LANGUAGE, N_, _, current
from bot.language.wording import count
from bot.log_format import about_game
from bot.storage import (
    ABANDONED,
    ACTIVE,
    CANCELLED,
    FINISHED,
    LOBBY,
    GameRow,
    LoggedAction,
    ResultRow,
    SeatRow,
    StaleStep,
    Storage,
)
from rules.core import (
    Action,
    Engine,
    Event,
    IllegalAction,
    Outcome,
    PlayerId,
    Step,
    setup_rng,
    step_rng,
)
from rules.seats import HAND_TO_AI, Seated

log = logging.getLogger(__name__)

MAX_BOTS = 11


@dataclass(frozen=True)
class LoadedGame:
    """A game as loaded: its row, seats and (once started) engine state."""

    row: GameRow
    seats: list[SeatRow]
    state: Any
    ai_seats: frozenset[PlayerId] = frozenset()  # the engine's `ai_seats` for `state`

    @property
    def names(self) -> dict[PlayerId, str]:
        """Each seat's player's name, by player id."""
        return {s.player_id: s.name for s in self.seats}

    @property
    def bots(self) -> frozenset[PlayerId]:
        """The bot seats' player ids (negative numbers)."""
        return frozenset(s.player_id for s in self.seats if s.is_bot)

    @property
    def autoplayed(self) -> frozenset[PlayerId]:
        """The seats the table plays itself: bots and the seats the AI took over (a
        resigner's, an absent player's), or everyone under the `autoplay` option (a game
        without decisions that the table prefers to watch)."""
        if self.row.options.get("autoplay"):
            return frozenset(s.player_id for s in self.seats)
        return self.bots | self.ai_seats

    @property
    def resigned(self) -> tuple[PlayerId, ...]:
        """Players who resigned (every game state keeps a `rules.seats.Seating`)."""
        return () if self.state is None else cast(Seated, self.state).seating.resigned

    @property
    def away(self) -> frozenset[PlayerId]:
        """Players whose seat the host handed to the AI, until they take it back."""
        return self.ai_seats - frozenset(self.resigned)

    @property
    def voters(self) -> list[PlayerId]:
        """Who a vote to end the game needs: every human still playing their own seat."""
        return [
            s.player_id
            for s in self.seats
            if not s.is_bot and s.player_id not in self.ai_seats | frozenset(self.resigned)
        ]

    @property
    def side_count(self) -> int:
        """How many sides players join (the `sides` option); 1 for a game of single seats."""
        return int(self.row.options.get("sides", 1))

    def in_play_order(self) -> list[PlayerId]:
        """Seats grouped by side (side 0 first), each side in joining order."""
        return [s.player_id for s in sorted(self.seats, key=lambda s: (s.side, s.seat))]


@dataclass(frozen=True)
class Played:
    """The result of one applied action."""

    table: LoadedGame
    player: PlayerId
    action: Action
    events: tuple[Event, ...]
    outcome: Outcome | None
    by_ai: bool
    was_to_act: frozenset[PlayerId]  # who could act before this action
    before: Any  # the state the action was applied to
    from_step: int  # the step `before` was at (several actions, for an AI's batched turn)


class GameService:
    """Lobbies, moves and endings: a game loaded, run through its engine, saved, under its lock."""

    def __init__(
        self,
        storage: Storage,
        engines: Mapping[str, Engine[Any]],
        *,
        clock: Callable[[], float] = time.time,
        fixed_seed: str | None = None,
    ) -> None:
        """Play the `engines` (by game name) over `storage`; `fixed_seed` seeds every game alike
        (reproducible demos and tests)."""
        self.storage = storage
        self.engines = engines
        self._clock = clock
        self._fixed_seed = fixed_seed
        # Held only around a load, an engine step and a save (never a Discord call or a
        # sleep). Weak values: a game nobody is acting on keeps no lock in memory.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        # Each game in play as this process last saved it: the next move's table lends its
        # state and seats, unread and undecoded, while the row is still at that step and
        # revision.
        self._latest: dict[int, LoadedGame] = {}

    def lock(self, game_id: int) -> asyncio.Lock:
        """The game's lock: held around a load, an engine step and a save, never a Discord call."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    def engine(self, game: str) -> Engine[Any]:
        """The rules engine of the game named `game`."""
        return self.engines[game]

    # --- loading ---------------------------------------------------------------------------

    async def table(self, game_id: int, *, known: LoadedGame | None = None) -> LoadedGame:
        """The game as saved; GameUnreadable if this version cannot load it. `known`, a
        table of this game as an action just saved it, lends its state and seats when the
        row is still at that step and revision (a step's state changes only when forgetting
        a member rewrites it, which counts a revision, and seats are fixed once the game
        started) instead of reading and decoding them again."""
        row = await self.storage.get_game(game_id)
        if row is None:
            raise UserError(_("That game no longer exists."))
        about_game(row.id, row.guild_id)  # this task's log lines concern it from now on
        if row.broken is not None:
            raise GameUnreadable(row.broken, marked=True)
        known = known or self._latest.get(game_id)
        if (
            known is not None
            and known.row.id == game_id
            and (known.row.step, known.row.revision) == (row.step, row.revision)
        ):
            return LoadedGame(row, known.seats, known.state, known.ai_seats)  # seats: set at start
        seats = await self.storage.seats(game_id)
        if row.game not in self.engines:
            raise GameUnreadable(f"no engine for {row.game!r}")
        try:
            state = self.engine(row.game).load(row.state) if row.state is not None else None
        except Exception as e:  # a state of another version, or a corrupted one
            raise GameUnreadable(f"state of game {game_id} can't be loaded: {e!r}") from e
        engine = self.engine(row.game)
        return LoadedGame(
            row, seats, state, frozenset() if state is None else engine.ai_seats(state)
        )

    def forget_cached(self, game_ids: Iterable[int]) -> None:
        """Read these games afresh at their next move: forgetting a member rewrote their
        seats and state without a new step."""
        for game_id in game_ids:
            self._latest.pop(game_id, None)

    async def game_in_thread(self, thread_id: int) -> LoadedGame | None:
        """The active game played in this thread (for commands typed there)."""
        row = await self.storage.game_in_thread(thread_id)
        return None if row is None else await self.table(row.id)

    # --- the lobby ---------------------------------------------------------------------------

    async def create_lobby(
        self,
        game: str,
        *,
        guild_id: int,
        channel_id: int,
        host_id: PlayerId,
        host_name: str,
        options: Mapping[str, Any],
        rematch_of: int | None = None,
    ) -> LoadedGame:
        """Open a lobby for `game`, hosted by `host_id`, with the server's turn timer and language
        unless `options` set them."""
        engine = self.engine(game)
        self._check_options(engine, options)
        options = dict(options)
        if "turn_timer" not in options:
            options["turn_timer"] = await self.storage.guild_turn_timer(guild_id)
        if GAME_LANGUAGE not in options:  # the server's choice, else the host's language
            options[GAME_LANGUAGE] = await self.storage.guild_language(guild_id) or current()
        game_id = await self.storage.create_game(
            game=game,
            guild_id=guild_id,
            channel_id=channel_id,
            host=SeatRow(0, host_id, host_name, False),
            options=options,
            seed=self._fixed_seed or secrets.token_hex(8),
            now=self._clock(),
            rematch_of=rematch_of,
        )
        return await self.table(game_id)

    @staticmethod
    def _check_options(engine: Engine[Any], options: Mapping[str, Any]) -> None:
        """Refuse bad options now, not when the host clicks Start: they are fine if some
        table size accepts them (missions need 3 players, sides one player each...)."""
        try:
            engine.validate_options(options)
        except IllegalAction as e:
            raise refused(e) from e

    async def _lobby(self, game_id: int) -> LoadedGame:
        table = await self.table(game_id)
        if table.row.status != LOBBY:
            raise UserError(
                _("This game has already started.")
                if table.row.status == ACTIVE
                else _("This lobby is closed.")
            )
        return table

    async def join(self, game_id: int, player: PlayerId, name: str, side: int = 0) -> LoadedGame:
        """Seat `player` in the lobby, on `side`; a UserError if they are in or it is full."""
        async with self.lock(game_id):
            table = await self._lobby(game_id)
            if player in table.names:
                raise UserError(_("You are already in this game."))
            if not 0 <= side < table.side_count:
                raise UserError(_("That side is not in this game."))
            self._check_room(table)
            seat = SeatRow(len(table.seats), player, name, False, side)
            await self.storage.add_seat(game_id, seat)
            return await self.table(game_id)

    async def add_bot(self, game_id: int, by: PlayerId) -> LoadedGame:
        """The host adds a bot seat, on the smallest side."""
        async with self.lock(game_id):
            table = await self._lobby(game_id)
            self._check_host(table, by, N_("add a bot"))
            self._check_room(table)
            taken = {p for p in table.bots}
            bot_id = next(-n for n in range(1, MAX_BOTS + 2) if -n not in taken)
            name = f"Bot {-bot_id}"
            sizes = [sum(s.side == side for s in table.seats) for side in range(table.side_count)]
            side = sizes.index(min(sizes))  # a bot fills the smallest side
            seat = SeatRow(len(table.seats), bot_id, name, True, side)
            await self.storage.add_seat(game_id, seat)
            return await self.table(game_id)

    async def leave(self, game_id: int, player: PlayerId) -> LoadedGame:
        """`player` leaves the lobby (the host cancels it instead)."""
        async with self.lock(game_id):
            table = await self._lobby(game_id)
            if player not in table.names:
                raise UserError(_("You are not in this game."))
            if player == table.row.host_id:
                raise UserError(_("You are hosting: use Cancel to close the lobby."))
            await self.storage.remove_seat(game_id, player)
            return await self.table(game_id)

    async def cancel(self, game_id: int, by: PlayerId) -> LoadedGame:
        """The host closes the lobby: the game never starts."""
        async with self.lock(game_id):
            table = await self._lobby(game_id)
            self._check_host(table, by, N_("cancel it"))
            await self.storage.update_game(game_id, self._clock(), status=CANCELLED)
            return await self.table(game_id)

    def check_can_start(self, table: LoadedGame, by: PlayerId) -> None:
        """Raise UserError unless `by` may start `table` now (cheap: no writes)."""
        if table.row.status != LOBBY:
            raise UserError(_("This game has already started."))
        self._check_host(table, by, N_("start it"))
        engine = self.engine(table.row.game)
        if len(table.seats) < engine.min_players:
            needs = _("{game} needs at least {players} ({joined} joined).")
            raise UserError(
                needs.format(
                    game=engine.title,
                    players=count(engine.min_players, "player", "players"),
                    joined=len(table.seats),
                )
            )
        sizes = [sum(s.side == side for s in table.seats) for side in range(table.side_count)]
        if len(set(sizes)) > 1:  # a game by sides: seats are grouped by side at the start
            unequal = _(
                "The sides are not equal ({sizes} players): join the smaller side, or "
                "**Add bot** fills it."
            )
            raise UserError(unequal.format(sizes=" v ".join(map(str, sizes))))

    async def start(self, game_id: int, by: PlayerId) -> LoadedGame:
        """The host starts the game: its first state saved and its turn timer's deadline set (see
        `check_can_start` for what may refuse it)."""
        async with self.lock(game_id):
            table = await self.table(game_id)
            self.check_can_start(table, by)
            engine = self.engine(table.row.game)
            try:
                state = self.initial_of(table)
            except IllegalAction as e:  # e.g. sides of unequal size
                raise refused(e) from e
            try:
                await self.storage.start_game(
                    game_id, engine.dump(state), self._deadline(table, state), self._clock()
                )
            except StaleStep as e:
                raise UserError(_("This game has already started.")) from e
            return await self.table(game_id)

    def _check_host(self, table: LoadedGame, by: PlayerId, what: str) -> None:
        if by != table.row.host_id:
            only = _("Only the host, {host}, can {what}.")
            raise UserError(only.format(host=f"<@{table.row.host_id}>", what=_(what)))

    def _check_room(self, table: LoadedGame) -> None:
        engine = self.engine(table.row.game)
        if len(table.seats) >= engine.max_players:
            full = _("The game is full ({players}).")
            raise UserError(full.format(players=count(engine.max_players, "player", "players")))

    # --- playing -----------------------------------------------------------------------------

    async def act(
        self,
        game_id: int,
        player: PlayerId,
        action: Action,
        expected_step: int,
        *,
        by_ai: bool = False,
        on_board: int | None = None,
    ) -> Played:
        """Apply `action` for `player` if the game is still at `expected_step` — and, for a
        click on a board message (`on_board`), if that message is not older than the game's
        current board: an older one that kept its buttons (Discord refused to edit it) takes
        no moves. A newer one is a board just posted whose id is not saved yet — ids grow
        with time, and a quick player may click it in that moment."""
        async with self.lock(game_id):
            table = await self.table(game_id)
            current = table.row.board_message_id
            if on_board is not None and current is not None and on_board < current:
                raise UserError(_("That board is out of date: use the latest one in the thread."))
            return await self._apply(table, player, action, expected_step, by_ai=by_ai)

    async def _apply(
        self,
        table: LoadedGame,
        player: PlayerId,
        action: Action,
        expected_step: int,
        *,
        by_ai: bool,
    ) -> Played:
        row = table.row
        if row.status != ACTIVE:
            raise UserError(
                _("This game is over.") if row.state else _("This game has not started.")
            )
        if player not in table.names:
            raise UserError(_("You are not playing in this game."))
        if expected_step != row.step:
            raise UserError(_("That button is out of date: the game has moved on."))
        engine = self.engine(row.game)
        rng = step_rng(row.seed, row.step)
        try:
            # On the loop: every engine's move takes at most a few ms (a shot's physics
            # included, `bench.engine`), less than a hop to a thread and back costs a busy loop.
            step = engine.apply(table.state, player, action, rng)
        except IllegalAction as e:
            raise refused(e) from e
        outcome = engine.outcome(step.state)
        results = None if outcome is None else _results(replace(table, state=step.state), outcome)
        dumped = engine.dump(step.state)
        deadline = self._deadline(table, step.state)
        try:
            await self.storage.record_action(
                row.id,
                step=row.step,
                revision=row.revision,
                player_id=player,
                action=action,
                by_ai=by_ai,
                state=dumped,
                deadline=deadline,
                results=results,
                now=self._clock(),
            )
        except StaleStep as e:
            raise UserError(_("That button is out of date: the game has moved on.")) from e
        # The row as just written, without reading it back.
        after = replace(
            row,
            step=row.step + 1,
            state=dumped,
            deadline=deadline,
            reminded=False,
            status=FINISHED if results is not None else ACTIVE,
        )
        saved = LoadedGame(after, table.seats, step.state, engine.ai_seats(step.state))
        if results is None:
            self._latest[row.id] = saved
        else:
            self._latest.pop(row.id, None)  # finished: not played again
        return Played(
            table=saved,
            player=player,
            action=action,
            events=step.events,
            outcome=outcome,
            by_ai=by_ai,
            was_to_act=engine.to_act(table.state),
            before=table.state,
            from_step=row.step,
        )

    async def play_bot(self, game_id: int) -> Played | None:
        """Let one bot seat that is to act play one action; None if no bot is to act."""
        async with self.lock(game_id):
            table = await self.table(game_id)
            if table.row.status != ACTIVE:
                return None
            engine = self.engine(table.row.game)
            bots = sorted(engine.to_act(table.state) & table.autoplayed)
            if not bots:
                return None
            return await self._ai_move(table, bots[0])

    async def time_out(self, game_id: int, expected_step: int) -> Played | None:
        """The turn timer ran out at `expected_step`: the AI acts for the absent player."""
        async with self.lock(game_id):
            table = await self.table(game_id)
            if table.row.status != ACTIVE or table.row.step != expected_step:
                return None  # they played in time
            engine = self.engine(table.row.game)
            absent = sorted(engine.to_act(table.state) - table.autoplayed)
            if not absent:
                return None
            return await self._ai_move(table, absent[0])

    async def play_ai_for(
        self, game_id: int, player: PlayerId, expected_step: int
    ) -> Played | None:
        """The AI's next action for `player` if the game is still at `expected_step` with
        `player` to act (the rest of a bot's or an absent player's turn); else None."""
        async with self.lock(game_id):
            table = await self.table(game_id)
            if table.row.status != ACTIVE or table.row.step != expected_step:
                return None
            if player not in self.engine(table.row.game).to_act(table.state):
                return None
            return await self._ai_move(table, player)

    async def _ai_move(self, table: LoadedGame, player: PlayerId) -> Played:
        engine = self.engine(table.row.game)
        # A separate stream from the step's own rng, so the AI's choice cannot shift the dice.
        rng = step_rng(f"{table.row.seed}:ai", table.row.step)
        action = await asyncio.to_thread(engine.choose, table.state, player, rng)
        return await self._apply(table, player, action, table.row.step, by_ai=True)

    async def mark_reminded(self, game_id: int) -> None:
        """Note that this turn's halfway reminder was sent, so a restart does not send it again."""
        await self.storage.update_game(game_id, self._clock(), reminded=1)

    async def set_ids(self, game_id: int, **ids: int | None) -> None:
        """Remember where the game lives in Discord (lobby, thread, board, ping messages)."""
        await self.storage.update_game(game_id, self._clock(), **ids)

    # --- leaving a game before its end (issue 17) --------------------------------------------

    async def seat_action(
        self,
        game_id: int,
        by: PlayerId,
        action: Action,
        *,
        manager: bool = False,
        seat: PlayerId | None = None,
    ) -> Played:
        """A seat action (`rules.seats`) at the game's current step, whoever is to act: `by`
        resigns or takes their seat back; the host (or `manager`) hands `seat` to the AI."""
        async with self.lock(game_id):
            table = await self.table(game_id)
            player = by
            if action == HAND_TO_AI:
                self._check_manager(table, by, manager, N_("hand a seat to the AI"))
                if seat is None or seat not in table.names or seat in table.bots:
                    raise UserError(_("Choose a member playing in this game."))
                player = seat
            return await self._apply(table, player, action, table.row.step, by_ai=False)

    async def end(self, game_id: int, by: PlayerId, *, manager: bool) -> LoadedGame:
        """The host (or `manager`) ends a started game: abandoned, no winner, no results."""
        async with self.lock(game_id):
            table = await self._active(game_id)
            self._check_manager(table, by, manager, N_("end this game"))
            await self.storage.update_game(
                game_id, self._clock(), status=ABANDONED, deadline=None, ended_by=by
            )
            self._latest.pop(game_id, None)
            return await self.table(game_id)

    async def vote_to_end(self, game_id: int, by: PlayerId) -> LoadedGame:
        """`by` votes to end the game; the last vote needed ends it as `end` does."""
        async with self.lock(game_id):
            table = await self._active(game_id)
            if by not in table.voters:
                raise UserError(_("Only the members still playing this game can vote to end it."))
            if by in table.row.end_votes:
                raise UserError(_("You have already voted to end this game."))
            votes = (*table.row.end_votes, by)
            ended = set(table.voters) <= set(votes)
            extra: dict[str, Any] = {"status": ABANDONED, "deadline": None} if ended else {}
            await self.storage.update_game(
                game_id, self._clock(), end_votes=json.dumps(votes), **extra
            )
            if ended:
                self._latest.pop(game_id, None)
            return await self.table(game_id)

    async def _active(self, game_id: int) -> LoadedGame:
        table = await self.table(game_id)
        if table.row.status != ACTIVE:
            raise UserError(
                _("This game is over.") if table.row.state else _("This game has not started.")
            )
        return table

    def _check_manager(self, table: LoadedGame, by: PlayerId, manager: bool, what: str) -> None:
        if by != table.row.host_id and not manager:
            only = _("Only the host, {host}, or a member who can manage threads can {what}.")
            raise UserError(only.format(host=f"<@{table.row.host_id}>", what=_(what)))

    async def abandon(self, game_id: int) -> None:
        """The game's thread is gone: stop its timers and hide it from /games."""
        await self.storage.update_game(game_id, self._clock(), status=ABANDONED, deadline=None)
        self._latest.pop(game_id, None)

    async def mark_shown(
        self,
        game_id: int,
        step: int,
        chapter: int,
        board_message_id: int | None,
        **ping: int | None,
    ) -> None:
        """The board message `board_message_id` now shows `step` (in `chapter`); with
        `ping_message_id`, the ping that went with it (one write for both)."""
        await self.storage.update_game(
            game_id,
            self._clock(),
            shown_step=step,
            shown_chapter=chapter,
            board_message_id=board_message_id,
            **ping,
        )

    async def mark_broken(self, game_id: int, reason: str) -> None:
        """Set a game aside that this version cannot load or show; the others play on."""
        await self.storage.update_game(game_id, self._clock(), broken=reason[:500])

    def _deadline(self, table: LoadedGame, state: Any) -> float | None:
        """When the humans to act time out; None without a turn timer or a human to act."""
        timer = int(table.row.options.get("turn_timer", 0))
        engine = self.engine(table.row.game)
        humans = engine.to_act(state) - table.autoplayed - engine.ai_seats(state)
        return self._clock() + timer if timer > 0 and humans else None

    # --- replay ------------------------------------------------------------------------------

    async def replay(self, game_id: int) -> Any:
        """Rebuild a game's state from its seed and action log alone."""
        table = await self.table(game_id)
        return (await self.replay_since(table, table.row.step)).before

    async def replay_since(self, table: LoadedGame, from_step: int) -> Replayed:
        """The state at `from_step` and every event from there to the saved step, rebuilt
        from the seed and the action log (a board that fell behind narrates what it missed)."""
        logged = await self.storage.actions(table.row.id)
        engine = self.engine(table.row.game)

        def run() -> Replayed:
            state = self.initial_of(table)
            before, events = state, list[Event]()
            for entry, step in replay_log(engine, table, state, logged):
                if entry.step == from_step:
                    before = state
                state = step.state
                if entry.step >= from_step:
                    events.extend(step.events)
            if from_step >= len(logged):
                before = state
            return Replayed(before, tuple(events), state)

        return await asyncio.to_thread(run)

    async def replay_all(
        self, table: LoadedGame
    ) -> tuple[Any, list[tuple[LoggedAction, Step[Any]]]]:
        """The initial state and every logged action with what it did, rebuilt from the
        seed (what the replay viewer steps through)."""
        logged = await self.storage.actions(table.row.id)
        engine = self.engine(table.row.game)

        def run() -> tuple[Any, list[tuple[LoggedAction, Step[Any]]]]:
            initial = self.initial_of(table)
            return initial, list(replay_log(engine, table, initial, logged))

        return await asyncio.to_thread(run)

    def initial_of(self, table: LoadedGame) -> Any:
        """The game's state before its first action, as `start` built it."""
        return self.engine(table.row.game).initial_state(
            table.in_play_order(), table.row.options, setup_rng(table.row.seed)
        )


def replay_log(
    engine: Engine[Any], table: LoadedGame, initial: Any, logged: Sequence[LoggedAction]
) -> Iterator[tuple[LoggedAction, Step[Any]]]:
    """Apply the logged actions from `initial`, each with its step's random source."""
    state = initial
    for entry in logged:
        step = engine.apply(
            state, entry.player_id, entry.action, step_rng(table.row.seed, entry.step)
        )
        state = step.state
        yield entry, step


@dataclass(frozen=True)
class Replayed:
    """A stretch of a game rebuilt from its log: the state it started from, what happened
    since, and the state at the end."""

    before: Any
    events: tuple[Event, ...]
    after: Any


def _results(table: LoadedGame, outcome: Outcome) -> list[ResultRow]:
    """Scoreboard rows; a resigner's is a loss whatever their place (a table where everyone
    resigned still places someone first). A game played by sides is rated side against
    side; any other, seat against seat."""
    bots = table.bots
    by_sides = table.side_count > 1
    resigned = frozenset(table.resigned)
    return [
        ResultRow(
            player_id=seat.player_id,
            is_bot=seat.player_id in bots,
            place=outcome.places[seat.player_id],
            score=outcome.scores.get(seat.player_id, 0),
            won=outcome.places[seat.player_id] == 1 and seat.player_id not in resigned,
            stats=outcome.stats.get(seat.player_id, {}),
            team=seat.side if by_sides else seat.seat,
        )
        for seat in table.seats
    ]
