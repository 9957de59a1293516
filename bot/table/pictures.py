"""Where board pictures are drawn: in a worker thread, or in worker processes.

Drawing a board and encoding its PNG is most of a move's CPU, and Pillow holds the GIL for
much of it, so in a thread it competes with the event loop for one core. With
`PICTURE_WORKERS` > 0 pictures are drawn in that many processes instead: the event loop
keeps its core and the drawing uses the others. A worker is started by `spawn` (never a
fork of a process running an event loop and threads), warms every game's static layers
before its first job, speaks the language of the request it is drawing, and exits when
the bot process is gone, even after SIGKILL.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.language.i18n import current, languages, speaking
from bot.table.presenter import Picture, Presenter
from rules.core import Event, PlayerId, setup_rng
from rules.registry import ENGINES

log = logging.getLogger(__name__)

ORPHAN_CHECK = 1.0  # seconds between a worker's checks that the bot process still exists
DRAW_TIMEOUT = 10.0  # seconds: a board takes milliseconds, a replay GIF well under one

_pool: ProcessPoolExecutor | None = None
_planned: tuple[int, Iterable[Presenter[Any]], Callable[[], None] | None] = (0, (), None)


def use_workers(
    count: int, presenters: Iterable[Presenter[Any]], setup: Callable[[], None] | None = None
) -> None:
    """Draw in `count` worker processes (0: in a thread of this process) once `ready` has
    started them. `presenters` may still be filling up (the game cogs load after this
    one): workers take them when they start. `setup` runs first in each worker (picklable:
    a module-level function or a partial of one)."""
    global _planned
    stop()
    _planned = (count, presenters, setup)


async def ready() -> None:
    """Start the worker processes, if any, and wait until each is up and warm."""
    global _pool
    count, presenters, setup = _planned
    if count <= 0:
        return
    if _pool is None:
        _pool = ProcessPoolExecutor(
            count,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker,
            initargs=(os.getpid(), tuple(presenters), setup),
        )
    loop = asyncio.get_running_loop()
    await asyncio.gather(*(loop.run_in_executor(_pool, os.getpid) for _ in range(count)))


def stop() -> None:
    """Shut the picture workers down without waiting: until `ready` starts them again, pictures are
    drawn in a thread."""
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None


async def draw(
    presenter: Presenter[Any], state: Any, names: Mapping[PlayerId, str], events: Sequence[Event]
) -> Picture:
    """`presenter`'s picture of `state` after `events`, in the language spoken now. In a
    worker, a drawing that takes longer than `DRAW_TIMEOUT` is given up: the workers are
    killed and new ones draw it once more (Pillow's quantizer can spin forever on rare
    occasions, and a thread could never be stopped)."""
    if _pool is None:  # a thread inherits the language being spoken
        return await asyncio.to_thread(presenter.picture, state, names, events)
    job = (current(), presenter, state, dict(names), tuple(events))
    try:
        return await _in_worker(job)
    except (BrokenProcessPool, TimeoutError) as error:
        log.error("picture worker lost or stuck (%r); starting new ones", error)
        _kill_workers()
        await ready()
        return await _in_worker(job)


async def _in_worker(job: tuple[Any, ...]) -> Picture:
    assert _pool is not None
    future = asyncio.get_running_loop().run_in_executor(_pool, _draw, *job)
    return await asyncio.wait_for(future, DRAW_TIMEOUT)


def _kill_workers() -> None:
    """Kill the worker processes (a stuck one never takes a shutdown) and forget the pool."""
    for child in multiprocessing.active_children():  # the bot starts no other processes
        child.kill()
    stop()


def warm(presenters: Iterable[Presenter[Any]]) -> None:
    """Draw one board of every game in every language, so no player's click pays for a
    renderer's cold start (its static layers: from the disk cache, or drawn and cached)."""
    for presenter in presenters:
        engine = ENGINES[presenter.game]
        seats = list(range(1, engine.min_players + 1))
        state = engine.initial_state(seats, {}, setup_rng("warm-up"))
        for language in languages():  # the layers with words are drawn once per language
            with speaking(language):
                presenter.render_png(state, {})


def _draw(
    language: str,
    presenter: Presenter[Any],
    state: Any,
    names: Mapping[PlayerId, str],
    events: Sequence[Event],
) -> Picture:
    with speaking(language):
        return presenter.picture(state, names, events)


def _start_worker(
    parent: int, presenters: Sequence[Presenter[Any]], setup: Callable[[], None] | None
) -> None:
    if setup is not None:
        setup()
    threading.Thread(target=_exit_with, args=(parent,), daemon=True).start()
    warm(presenters)


def _exit_with(parent: int) -> None:
    """Exit once the bot process is gone (a killed parent never shuts its pool down)."""
    while os.getppid() == parent:
        time.sleep(ORPHAN_CHECK)
    os._exit(0)
