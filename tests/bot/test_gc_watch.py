"""The collection watch times every garbage collection and names a long one in the log."""

from __future__ import annotations

import gc
import logging

import pytest

from bot.ops.gc_watch import GcWatch


def collect_watched(
    generation: int, warn_after: float, caplog: pytest.LogCaptureFixture
) -> list[tuple[int, float]]:
    """Run one collection of `generation` under a watch: the (generation, pause) it saw."""
    seen: list[tuple[int, float]] = []
    watch = GcWatch(lambda g, pause: seen.append((g, pause)), warn_after=warn_after)
    with caplog.at_level(logging.WARNING, logger="bot.ops.gc_watch"):
        watch.start()
        gc.collect(generation)
        watch.stop()
        gc.collect(generation)  # no longer watched
    return seen


def test_each_collection_is_timed_and_a_long_one_is_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    seen = collect_watched(2, 0, caplog)
    ((_, pause),) = [(g, pause) for g, pause in seen if g == 2]
    assert 0 < pause < 5
    assert any("generation 2 paused the bot" in r.getMessage() for r in caplog.records)


def test_a_short_collection_is_only_counted(caplog: pytest.LogCaptureFixture) -> None:
    seen = collect_watched(0, 60, caplog)
    assert [g for g, _ in seen].count(0) >= 1 and caplog.records == []
