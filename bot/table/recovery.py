"""Start-up and reconnects: every game carries on where the database says it is.

`run` may be called any number of times (discord.py fires `on_ready` again after a gateway
reconnect): it only schedules one `resume` job per game, keyed by game, so nothing is done
twice. A process running some of the bot's shards resumes only its shards' servers' games.
Each job reads its game once and, in the background lane (a few games at a time,
giving way to players' clicks): shows its latest saved step if the board is behind, or else
checks that its board and thread still exist (either may have been deleted while the bot
was away, and no deletion event reaches a bot that is not connected): a missing board is
posted again, a missing thread ends the game, as for a deletion seen while running. Then it
re-arms the game's turn timer and lets its bots move on. The reconciler looks for boards
left behind (a failed edit whose retry was lost with a restart) every minute.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Callable

import discord

from bot.errors import GameUnreadable
from bot.scheduler import Scheduler
from bot.service import GameService, LoadedGame
from bot.shards import Shards
from bot.storage import ACTIVE, Storage
from bot.table.autopilot import Autopilot
from bot.table.publisher import UNKNOWN_CHANNEL, UNKNOWN_MESSAGE, BoardPublisher

log = logging.getLogger(__name__)

RECONCILE_EVERY = 60.0  # seconds
SETTLE = 10.0  # a board updated this recently may still be on its way: not the reconciler's


class Recovery:
    """Carries every game on after a start or a reconnect, and repairs the boards left behind."""

    def __init__(
        self,
        client: discord.Client,
        service: GameService,
        storage: Storage,
        publisher: BoardPublisher,
        autopilot: Autopilot,
        scheduler: Scheduler,
        *,
        starting: Callable[[int], bool],
        shards: Shards | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """`starting(game_id)` says whether that game's Start click is in flight (it posts its own
        board); `shards`, when set, limits recovery to their servers' games."""
        self._client = client
        self._service = service
        self._storage = storage
        self._publisher = publisher
        self._autopilot = autopilot
        self._scheduler = scheduler
        self._starting = starting  # a game whose Start click is in flight posts its own board
        self._shards = shards  # only their servers' games: other processes have the rest
        self._clock = clock
        self.runs = 0  # how often recovery has run: once per gateway session

    async def run(self) -> int:
        """Schedule a resume of every game that needs one; returns how many."""
        game_ids = await self._storage.to_resume(self._shards)
        for game_id in game_ids:
            self._scheduler.ensure(
                (game_id, "resume"), 0, functools.partial(self._resume, game_id), background=True
            )
        log.info("resuming %d games", len(game_ids))
        self.runs += 1
        return len(game_ids)

    async def _resume(self, game_id: int) -> None:
        if self._starting(game_id):
            return
        try:
            table = await self._service.table(game_id)
        except GameUnreadable as e:
            if not e.marked:
                await self._publisher.set_aside(game_id, e.reason)
            return
        if table.row.behind or table.row.board_message_id is None:
            await self._publisher.publish(game_id, repair=True)  # a gone board or thread too
        elif not await self._board_checked(table):
            return
        self._autopilot.after(table, background=True)

    async def _board_checked(self, table: LoadedGame) -> bool:
        """Post the board again if it was deleted, end the game if its thread was; False
        when the game has ended so. One request: the board fetched, answered 404 with the
        code saying which of the two is gone."""
        row = table.row
        if row.status != ACTIVE or row.thread_id is None or row.board_message_id is None:
            return True
        thread = self._client.get_partial_messageable(row.thread_id)
        try:
            await thread.fetch_message(row.board_message_id)
        except discord.NotFound as e:
            if e.code == UNKNOWN_CHANNEL:
                await self._publisher.thread_deleted(row.id)
                return False
            board_now = await self._storage.game_by_board(row.board_message_id)
            if e.code == UNKNOWN_MESSAGE and board_now is not None:  # not replaced meanwhile
                await self._publisher.board_deleted(row.id)
        except discord.HTTPException as e:  # no access to the thread, Discord's trouble
            log.warning("game %s: its board could not be checked (%s)", row.id, e)
        return True

    async def reconcile_forever(self, every: float = RECONCILE_EVERY) -> None:
        """Bring up to date, now and then, any board still behind its saved game."""
        while True:
            await asyncio.sleep(every)
            try:
                behind = await self._storage.behind(self._clock() - SETTLE, self._shards)
            except Exception:
                log.exception("reconciler: could not list the boards behind")
                continue
            for game_id in behind:
                if not self._starting(game_id):
                    self._scheduler.ensure(
                        (game_id, "publish"),
                        0,
                        functools.partial(self._publisher.publish, game_id, repair=True),
                        background=True,
                    )
