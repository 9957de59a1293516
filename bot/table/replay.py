"""Finished games rebuilt from their seed and action log, for the replay viewer.

A replay holds every state of a game, what each action did and where each chapter (a race,
a turn, a side's turn) starts. Building one applies the whole log, so the last few are kept
(an LRU): stepping through a replay is then a lookup and a picture. A game still in play is
never replayed (its hidden information would show), nor another server's.
"""

from __future__ import annotations

import bisect
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.errors import UserError
from bot.language.i18n import _
from bot.service import GameService, LoadedGame
from bot.storage import ACTIVE, FINISHED, LOBBY, LoggedAction, Storage
from bot.table.presenter import Presenter
from bot.table.presenters import Presenters
from rules.core import Action, Event, PlayerId, Step

CACHED_GAMES = 8  # a long Risk game's states take a few MB


@dataclass(frozen=True)
class Replay:
    """A finished game, step by step: `states[n]` is the game after n actions."""

    table: LoadedGame
    states: Sequence[Any]
    moves: Sequence[tuple[PlayerId, Action] | None]  # who did what to reach each state
    events: Sequence[tuple[Event, ...]]  # what that action did
    chapter_starts: Sequence[int]  # the steps at which a chapter begins, 0 first

    @property
    def last(self) -> int:
        """The last step: the game as it finished."""
        return len(self.states) - 1

    def clamp(self, step: int) -> int:
        """`step` brought within the replay's steps."""
        return max(0, min(step, self.last))

    def chapter_index(self, step: int) -> int:
        """Which chapter (0, 1, ...) `step` is in."""
        return bisect.bisect_right(self.chapter_starts, step) - 1

    def chapter_back(self, step: int) -> int:
        """The start of `step`'s chapter, or of the one before when `step` is its start."""
        index = self.chapter_index(step)
        if self.chapter_starts[index] == step:
            index = max(0, index - 1)
        return self.chapter_starts[index]

    def chapter_on(self, step: int) -> int:
        """The start of the next chapter; the last step when `step` is in the last one."""
        index = self.chapter_index(step) + 1
        return self.chapter_starts[index] if index < len(self.chapter_starts) else self.last

    def chapter_ends(self) -> list[int]:
        """The last step of every chapter: one frame each for the animated summary."""
        return [start - 1 for start in self.chapter_starts[1:]] + [self.last]


class Replays:
    """The replays of recently viewed games (an LRU of `CACHED_GAMES`)."""

    def __init__(
        self,
        service: GameService,
        storage: Storage,
        presenters: Presenters,
        size: int = CACHED_GAMES,
    ) -> None:
        """Keep the replays of the last `size` games viewed."""
        self._service = service
        self._storage = storage
        self._presenters = presenters
        self._size = size
        self._cache: OrderedDict[int, Replay] = OrderedDict()

    async def open(self, game_id: int, guild_id: int) -> Replay:
        """The replay of finished game `game_id` of guild `guild_id`; a UserError for any
        game that is not one (missing, another server's, in play, never finished)."""
        cached = self._cache.get(game_id)
        if cached is not None and cached.table.row.guild_id == guild_id:
            self._cache.move_to_end(game_id)
            return cached
        table = await self._finished(game_id, guild_id)
        replay = await self.build(table)
        self._cache[game_id] = replay
        while len(self._cache) > self._size:
            self._cache.popitem(last=False)
        return replay

    def forget_all(self) -> None:
        """Drop every replay kept: a member was forgotten, and replays name them."""
        self._cache.clear()

    async def _finished(self, game_id: int, guild_id: int) -> LoadedGame:
        missing = UserError(_("There is no game #{id} in this server.").format(id=game_id))
        row = await self._storage.get_game(game_id)
        if row is None or row.guild_id != guild_id:
            raise missing  # another server's games are not even named
        if row.status in (LOBBY, ACTIVE):
            playing = _("Game #{id} is still being played: its replay opens once it is over.")
            raise UserError(playing.format(id=game_id))
        if row.status != FINISHED:
            unfinished = _("Game #{id} was not played to the end, so it has no replay.")
            raise UserError(unfinished.format(id=game_id))
        return await self._service.table(game_id)

    async def build(self, table: LoadedGame) -> Replay:
        """Replay `table`'s whole log (in a worker thread)."""
        initial, steps = await self._service.replay_all(table)
        return assemble(table, self._presenters.get(table.row.game), initial, steps)


def assemble(
    table: LoadedGame,
    presenter: Presenter[Any],
    initial: Any,
    steps: Sequence[tuple[LoggedAction, Step[Any]]],
) -> Replay:
    """A replay from a game's initial state and its replayed steps, chapters found."""
    states = [initial, *(step.state for _, step in steps)]
    starts = [0] + [
        n
        for n in range(1, len(states))
        if presenter.chapter(states[n]) != presenter.chapter(states[n - 1])
    ]
    return Replay(
        table=table,
        states=states,
        moves=[None, *((entry.player_id, entry.action) for entry, _ in steps)],
        events=[(), *(step.events for _, step in steps)],
        chapter_starts=starts,
    )
