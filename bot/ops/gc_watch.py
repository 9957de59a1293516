"""Garbage-collection pauses, measured all the time: a collection stops every coroutine, so
a long one is a stall every click of that moment waits through.

`gc.callbacks` time each collection. Every pause goes into the metrics (by generation), and
one longer than `warn_after` is logged, so an admin can tell a collection from a slow
database when the answers stall.
"""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

WARN_AFTER = 0.1  # seconds


class GcWatch:
    """Times every garbage collection (`gc.callbacks`): each pause to the metrics, a long one to the
    log as well."""

    def __init__(
        self, observe: Callable[[int, float], None], *, warn_after: float = WARN_AFTER
    ) -> None:
        """`observe` is told each collection's generation and pause (seconds); a pause longer than
        `warn_after` seconds is also logged."""
        self._observe = observe  # told each collection's generation and pause, in seconds
        self._warn_after = warn_after
        self._started = 0.0

    def start(self) -> None:
        """Time collections from now on (starting twice hooks in once)."""
        if self._callback not in gc.callbacks:
            gc.callbacks.append(self._callback)

    def stop(self) -> None:
        """Stop timing collections."""
        if self._callback in gc.callbacks:
            gc.callbacks.remove(self._callback)

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        pause = time.perf_counter() - self._started
        generation = info["generation"]
        self._observe(generation, pause)
        if pause > self._warn_after:
            log.warning(
                "garbage collection of generation %d paused the bot %.0f ms (%d collected)",
                generation,
                pause * 1000,
                info["collected"],
            )
