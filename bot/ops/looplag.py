"""Event-loop lag, measured all the time: when something holds the loop, every click waits.

A coroutine on the loop beats every `beat` seconds; a watchdog thread notices a beat that
is late by more than `warn_after` and logs what the loop's thread is running at that moment
(its Python stack), so the culprit is named while it blocks, not guessed afterwards. Every
beat's lateness goes into a histogram of milliseconds (bounded memory), summed up in the
log when the bot stops: its p99 and worst.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable

log = logging.getLogger(__name__)

# Four beats a second: each beat and each of the watchdog's checks wakes a thread, which
# cost an idle bot 5.5 ms of CPU a second at twenty of each (a tenth of a Risk move's
# CPU at ten moves a second). A hold of the loop over half a second is always caught.
BEAT = 0.25
WARN_AFTER = 0.25
MAX_MS = 60_000  # a lag longer than a minute counts as a minute


class LoopWatch:
    """Measures how late the event loop runs a beat, and names what blocks it while it blocks."""

    def __init__(
        self,
        *,
        beat: float = BEAT,
        warn_after: float = WARN_AFTER,
        observe: Callable[[float], None] | None = None,
    ) -> None:
        """A beat every `beat` seconds; a stall longer than `warn_after` seconds is logged with the
        loop's stack; `observe` is also told every beat's lateness, in seconds (the metrics)."""
        self._beat = beat
        self._observe = observe  # also told every beat's lateness, in seconds (metrics)
        self._warn_after = warn_after
        self._last = time.monotonic()
        self._loop_thread = threading.get_ident()
        self._stop = threading.Event()
        self._task: asyncio.Task[None] | None = None
        self._started = time.monotonic()
        self.histogram: Counter[int] = Counter()  # beats by lateness, in whole milliseconds

    def start(self) -> None:
        """Start beating on the running loop and watching from a thread (call it on the loop)."""
        self._loop_thread = threading.get_ident()
        self._last = self._started = time.monotonic()
        self._task = asyncio.get_running_loop().create_task(self._beats())
        threading.Thread(target=self._watch, name="loop-watch", daemon=True).start()

    async def stop(self) -> None:
        """Stop beating and watching, and log the summary."""
        self._stop.set()
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
            log.info("%s", self.summary())

    def percentile(self, p: float) -> int:
        """The lag (ms) that `p` percent of the beats did not exceed."""
        total = self.histogram.total()
        seen = 0
        for ms in sorted(self.histogram):
            seen += self.histogram[ms]
            if seen >= total * p / 100:
                return ms
        return 0

    @property
    def worst(self) -> int:
        """The longest lag seen, in ms."""
        return max(self.histogram, default=0)

    def summary(self) -> str:
        """The lag seen since `start`, in one line: p50, p99 and worst, in ms."""
        minutes = (time.monotonic() - self._started) / 60
        return (
            f"event loop lag over {minutes:.1f} min: p50 {self.percentile(50)} ms, "
            f"p99 {self.percentile(99)} ms, worst {self.worst} ms"
        )

    async def _beats(self) -> None:
        while True:
            before = time.monotonic()
            await asyncio.sleep(self._beat)
            now = time.monotonic()
            late = max(0.0, now - before - self._beat)
            self.histogram[min(MAX_MS, round(late * 1000))] += 1
            if self._observe is not None:
                self._observe(late)
            self._last = now

    def _watch(self) -> None:
        reported = False
        while not self._stop.wait(self._beat):
            late = time.monotonic() - self._last - self._beat
            if late <= self._warn_after:
                reported = False
                continue
            if reported:
                continue  # one report per stall
            reported = True
            frame = sys._current_frames().get(self._loop_thread)
            where = "".join(traceback.format_stack(frame, limit=8)) if frame else "?"
            log.warning("event loop blocked for %.2f s so far; it is running:\n%s", late, where)
