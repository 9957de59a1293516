"""The event-loop watch names what holds the loop, while it holds it."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from bot.ops.looplag import LoopWatch


def hold_the_loop_for(seconds: float) -> None:
    time.sleep(seconds)  # what a blocking call in a handler would do


async def test_a_stall_is_reported_with_the_stack_that_caused_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    seen: list[float] = []
    watch = LoopWatch(beat=0.02, warn_after=0.1, observe=seen.append)
    with caplog.at_level(logging.WARNING, logger="bot.ops.looplag"):
        watch.start()
        await asyncio.sleep(0.1)
        hold_the_loop_for(0.4)
        await asyncio.sleep(0.1)
        await watch.stop()
    (record,) = caplog.records
    assert "event loop blocked for" in record.getMessage()
    assert "hold_the_loop_for" in record.getMessage()
    assert 300 < watch.worst < 1000
    assert len(seen) == watch.histogram.total() and 0.3 < max(seen) < 1.0  # told to the metrics
    assert watch.percentile(50) < 50  # the other beats were on time
    assert f"worst {watch.worst} ms" in watch.summary()


async def test_a_free_loop_reports_nothing(caplog: pytest.LogCaptureFixture) -> None:
    watch = LoopWatch(beat=0.02, warn_after=0.1)
    with caplog.at_level(logging.WARNING, logger="bot.ops.looplag"):
        watch.start()
        await asyncio.sleep(0.2)
        await watch.stop()
    assert caplog.records == []
