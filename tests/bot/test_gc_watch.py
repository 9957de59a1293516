"""The collection watch times every garbage collection and names a long one in the log."""

from __future__ import annotations

import gc
import logging

import pytest

from bot.gc_watch import GcWatch


def test_each_collection_is_timed_and_a_long_one_is_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    seen: list[tuple[int, float]] = []
    watch = GcWatch(lambda generation, pause: seen.append((generation, pause)), warn_after=0)
    with caplog.at_level(logging.WARNING, logger="bot.gc_watch"):
        watch.start()
        gc.collect(2)
        watch.stop()
        gc.collect(2)  # no longer watched
    (full,) = [(g, pause) for g, pause in seen if g == 2]
    assert 0 < full[1] < 5
    assert any("generation 2 paused the bot" in r.getMessage() for r in caplog.records)


def test_a_short_collection_is_only_counted(caplog: pytest.LogCaptureFixture) -> None:
    seen: list[tuple[int, float]] = []
    watch = GcWatch(lambda generation, pause: seen.append((generation, pause)), warn_after=60)
    with caplog.at_level(logging.WARNING, logger="bot.gc_watch"):
        watch.start()
        gc.collect(0)
        watch.stop()
    assert (0, seen[0][1]) in seen and caplog.records == []
