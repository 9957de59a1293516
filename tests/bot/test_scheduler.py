"""The scheduler: one job per key, finished jobs forgotten, failures logged, and a
background lane that runs a few jobs at a time and gives way to live clicks."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.scheduler import Scheduler


async def test_scheduling_a_key_again_replaces_the_waiting_job() -> None:
    scheduler = Scheduler()
    ran: list[str] = []

    async def job(name: str) -> None:
        ran.append(name)

    scheduler.at((1, "timer"), 0.05, lambda: job("old"))
    scheduler.at((1, "timer"), 0.01, lambda: job("new"))
    await asyncio.sleep(0.1)
    assert ran == ["new"]
    assert len(scheduler) == 0  # finished jobs are forgotten


async def test_ensure_keeps_a_job_already_there_but_a_job_may_schedule_its_successor() -> None:
    scheduler = Scheduler()
    ran: list[int] = []

    async def move(n: int) -> None:
        ran.append(n)
        if n < 3:
            scheduler.ensure((1, "bots"), 0, lambda: move(n + 1))

    scheduler.ensure((1, "bots"), 0.01, lambda: move(1))
    scheduler.ensure((1, "bots"), 0, lambda: move(100))  # one bot loop per game, not two
    await asyncio.sleep(0.1)
    assert ran == [1, 2, 3]


async def test_a_failing_job_is_logged_and_forgotten(caplog: pytest.LogCaptureFixture) -> None:
    scheduler = Scheduler()

    async def broken() -> None:
        raise RuntimeError("boom")

    with caplog.at_level(logging.ERROR, logger="bot.scheduler"):
        scheduler.at((7, "timer"), 0, broken)
        await asyncio.sleep(0.02)
    assert "game 7: timer failed" in caplog.text and "boom" in caplog.text
    assert not scheduler.pending((7, "timer"))


async def test_the_background_lane_runs_two_at_a_time_after_giving_way() -> None:
    gave_way: list[float] = []
    running, most = 0, 0

    async def give_way(at_most: float) -> None:
        gave_way.append(at_most)

    scheduler = Scheduler(give_way=give_way, background_slots=2)

    async def job() -> None:
        nonlocal running, most
        running += 1
        most = max(most, running)
        await asyncio.sleep(0.02)
        running -= 1

    for game in range(10):
        scheduler.at((game, "resume"), 0, job, background=True)
    await asyncio.sleep(0.2)
    assert most == 2 and len(gave_way) == 10 and len(scheduler) == 0


async def test_a_game_that_ends_loses_its_waiting_jobs_and_close_cancels_all() -> None:
    scheduler = Scheduler()
    ran: list[str] = []

    async def job(name: str) -> None:
        ran.append(name)

    scheduler.at((1, "timer"), 0.05, lambda: job("timer 1"))
    scheduler.at((1, "bots"), 0.05, lambda: job("bots 1"))
    scheduler.at((2, "timer"), 0.05, lambda: job("timer 2"))
    scheduler.cancel_game(1)
    assert len(scheduler) == 1
    await scheduler.close()
    scheduler.at((3, "timer"), 0, lambda: job("after close"))  # ignored: the bot is stopping
    await asyncio.sleep(0.08)
    assert ran == [] and len(scheduler) == 0
