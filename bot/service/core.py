"""The loaded-games core every part of the service stands on: each game's lock, the cache
of the games this process last saved, loading a game (refusing one this version cannot
read), the deadline of a turn, and a game rebuilt from its seed and action log.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.errors import GameUnreadable, UserError
from bot.language.i18n import _
from bot.log_format import about_game
from bot.service.loaded import LoadedGame
from bot.storage import LoggedAction, Storage
from rules.core import Engine, Event, Step, setup_rng, step_rng


class LoadedGames:
    """The games as saved, each loaded under its own lock and lent from the cache while
    unchanged; the lobby and play parts of `GameService` build on it."""

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
