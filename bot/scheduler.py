"""One place for the work that happens later: bots' moves, turn timers, boards to repair.

Each job has a key (a game and a kind, e.g. `(12, "timer")`); scheduling a key again
replaces a job that has not started yet, so a game never has two timers or two bot loops.
Finished jobs are forgotten and their failures logged (never "Task exception was never
retrieved"). Background jobs — the backlog found at start-up — run a few at a time and give
way to players' clicks first, so a live click never waits behind hours of overdue timers.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

Key = tuple[int, str]
Job = Callable[[], Awaitable[None]]
BACKGROUND_SLOTS = 2
GIVE_WAY = 0.5  # seconds a background job waits at most for clicks in flight to finish


@dataclass
class _Entry:
    started: bool = False  # past its delay: cancelling it now could cut a move in half
    task: asyncio.Task[None] = field(init=False)


class Scheduler:
    """The bot's delayed jobs, at most one per key; background jobs a few at a time, after the
    clicks in flight."""

    def __init__(
        self,
        *,
        give_way: Callable[[float], Awaitable[None]] | None = None,
        background_slots: int = BACKGROUND_SLOTS,
    ) -> None:
        """`give_way(at_most)` waits for the clicks in flight (the router's `quiet`);
        `background_slots` background jobs run at once."""
        self._entries: dict[Key, _Entry] = {}
        self._slots = asyncio.Semaphore(background_slots)
        self._give_way = give_way
        self._closed = False

    def __len__(self) -> int:
        """How many jobs are waiting or running."""
        return len(self._entries)

    def pending(self, key: Key) -> bool:
        """Whether `key` has a job, waiting or running."""
        return key in self._entries

    def at(self, key: Key, delay: float, job: Job, *, background: bool = False) -> None:
        """Run `job` after `delay` seconds, in place of `key`'s job if that has not started.
        A job already running goes on (it re-checks the game's step before acting)."""
        if self._closed:
            return
        old = self._entries.get(key)
        if old is not None and not old.started:
            old.task.cancel()
        entry = _Entry()
        entry.task = asyncio.create_task(self._run(key, entry, delay, job, background))
        self._entries[key] = entry

    def ensure(self, key: Key, delay: float, job: Job, *, background: bool = False) -> None:
        """Schedule `job` unless `key` already has a job, waiting or running (other than
        the caller itself: a job may schedule its own successor)."""
        entry = self._entries.get(key)
        if entry is None or entry.task is asyncio.current_task():
            self.at(key, delay, job, background=background)

    def cancel(self, key: Key) -> None:
        """Drop `key`'s job if it is still waiting."""
        entry = self._entries.get(key)
        if entry is not None and not entry.started:
            entry.task.cancel()
            del self._entries[key]

    def cancel_game(self, game_id: int) -> None:
        """Drop a game's waiting jobs (it ended); a running one finishes on its own."""
        for key, entry in list(self._entries.items()):
            if key[0] == game_id and entry.task is not asyncio.current_task():
                if not entry.started:
                    entry.task.cancel()
                del self._entries[key]

    async def _run(self, key: Key, entry: _Entry, delay: float, job: Job, background: bool) -> None:
        try:
            if delay > 0:
                await asyncio.sleep(delay)
            if background:
                async with self._slots:
                    if self._give_way is not None:
                        await self._give_way(GIVE_WAY)
                    entry.started = True
                    await job()
            else:
                entry.started = True
                await job()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: %s failed", key[0], key[1])
        finally:
            if self._entries.get(key) is entry:
                del self._entries[key]

    async def close(self) -> None:
        """Cancel every job: they are re-armed from the database at the next start."""
        self._closed = True
        tasks = [e.task for e in self._entries.values()]
        self._entries.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
