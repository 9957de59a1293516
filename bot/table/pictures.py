"""Where board pictures are drawn: in a worker thread, or in worker processes.

Drawing a board and encoding its PNG is most of a move's CPU, and Pillow holds the GIL for
much of it, so in a thread it competes with the event loop for one core. With
`PICTURE_WORKERS` > 0 pictures are drawn in that many processes instead: the event loop
keeps its core and the drawing uses the others. A worker is started by `spawn` (never a
fork of a process running an event loop and threads), warms every game's static layers
before its first job, speaks the language of the request it is drawing, and exits when
the bot process is gone, even after SIGKILL.

Each worker talks to the event loop over its own socket, read and written by the loop
itself: a job costs the loop a pickle and two socket operations. (`ProcessPoolExecutor`
hands each job through two threads of the bot's process, a queue feeder and a result
reader, and those hand-overs cost the loop several times the drawing's own pickling.)
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pickle
import socket
import struct
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from bot.language.i18n import current, languages, speaking
from bot.table.presenter import Picture, Presenter
from rules.core import Event, PlayerId, setup_rng
from rules.registry import ENGINES

log = logging.getLogger(__name__)

ORPHAN_CHECK = 1.0  # seconds between a worker's checks that the bot process still exists
DRAW_TIMEOUT = 10.0  # seconds: a board takes milliseconds, a replay GIF well under one
# A message's length, as `multiprocessing.connection.Connection` frames it on the worker's side.
_LENGTH = struct.Struct("!i")


class WorkerLost(Exception):
    """A picture worker exited, or broke its side of the conversation, during a job."""


@dataclass(eq=False)
class _Worker:
    """One picture process and the loop's end of its socket."""

    process: BaseProcess
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter

    async def receive(self) -> bytes:
        try:
            (size,) = _LENGTH.unpack(await self.reader.readexactly(_LENGTH.size))
            return await self.reader.readexactly(size)
        except (asyncio.IncompleteReadError, ConnectionError) as error:
            raise WorkerLost(f"picture worker {self.process.pid} exited") from error

    async def run(self, job: bytes) -> Any:
        """The worker's answer to `job`: its picture, or the exception drawing it raised."""
        self.writer.write(_LENGTH.pack(len(job)) + job)
        drawn, value = pickle.loads(await self.receive())
        if not drawn:
            raise value
        return value

    def close(self) -> None:
        """End the conversation: the worker exits when it reads the end of its socket."""
        self.writer.close()

    def kill(self) -> None:
        self.close()
        self.process.kill()


class PictureWorkers:
    """Where this bot's pictures are drawn: `count` worker processes once `ready` started them,
    or a thread of this process (0, or until then, or when none is left)."""

    def __init__(self, count: int = 0, presenters: Iterable[Presenter[Any]] = ()) -> None:
        """`presenters` may still be filling up (the game cogs load after the client builds
        this): workers take them when they start."""
        self._count = count
        self._presenters = presenters
        self._setup: Callable[[], None] | None = None
        self._workers: set[_Worker] = set()
        self._idle: asyncio.Queue[_Worker] | None = None  # None: drawn in a thread

    def prepare_with(self, setup: Callable[[], None]) -> None:
        """Run `setup` first in each worker (picklable: a module-level function or a partial
        of one): what the bot can't import, the pictures' own preparation (`cogs.pictures`)."""
        self._setup = setup

    async def ready(self) -> None:
        """Start the worker processes, if any, and wait until each is up and warm."""
        if self._count <= 0 or self._idle is not None:
            return
        idle: asyncio.Queue[_Worker] = asyncio.Queue()
        started = await asyncio.gather(*(self._start() for _ in range(self._count)))
        for worker in started:
            idle.put_nowait(worker)
        self._idle = idle

    def stop(self) -> None:
        """Shut the picture workers down without waiting: until `ready` starts them again,
        pictures are drawn in a thread."""
        for worker in self._workers:
            worker.close()
        self._workers.clear()
        self._idle = None

    async def draw(
        self,
        presenter: Presenter[Any],
        state: Any,
        names: Mapping[PlayerId, str],
        events: Sequence[Event],
    ) -> Picture:
        """`presenter`'s picture of `state` after `events`, in the language spoken now. In a
        worker, a drawing that takes longer than `DRAW_TIMEOUT` is given up: that worker is
        killed and a new one draws it once more (Pillow's quantizer can spin forever on rare
        occasions, and a thread could never be stopped); so is a drawing whose worker died."""
        if (idle := self._usable()) is None:  # a thread inherits the language being spoken
            return await asyncio.to_thread(presenter.picture, state, names, events)
        job = pickle.dumps(
            (current(), presenter, state, dict(names), tuple(events)), pickle.HIGHEST_PROTOCOL
        )
        try:
            return await self._in_worker(idle, job)
        except (WorkerLost, TimeoutError) as error:
            log.error("picture worker lost or stuck (%r); drawing again in a new one", error)
        if (idle := self._usable()) is None:  # stopped meanwhile, or no worker could start again
            return await asyncio.to_thread(presenter.picture, state, names, events)
        return await self._in_worker(idle, job)

    def _usable(self) -> asyncio.Queue[_Worker] | None:
        """The queue of idle workers; None while pictures are drawn in a thread (no workers
        started, or none left)."""
        return self._idle if self._workers else None

    async def _in_worker(self, idle: asyncio.Queue[_Worker], job: bytes) -> Picture:
        worker = await idle.get()
        # The job runs to its end even if the caller is cancelled: a worker is handed on only
        # between jobs, never with an answer still to read.
        job_done = asyncio.ensure_future(self._run(idle, worker, job))
        job_done.add_done_callback(_observed)
        return await asyncio.shield(job_done)

    async def _run(self, idle: asyncio.Queue[_Worker], worker: _Worker, job: bytes) -> Picture:
        try:
            picture: Picture = await asyncio.wait_for(worker.run(job), DRAW_TIMEOUT)
        except (WorkerLost, TimeoutError):
            worker.kill()
            self._workers.discard(worker)
            if idle is self._idle:  # not stopped meanwhile
                await self._replace(idle)
            raise
        except BaseException:
            idle.put_nowait(worker)  # the drawing's own error: the worker is fine
            raise
        idle.put_nowait(worker)
        return picture

    async def _replace(self, idle: asyncio.Queue[_Worker]) -> None:
        """A new worker in the place of a lost one (while none starts, the others draw, or a
        thread when none is left)."""
        try:
            idle.put_nowait(await self._start())
        except Exception:
            log.exception("a new picture worker could not be started")

    async def _start(self) -> _Worker:
        """A new worker process, once it is warm."""
        ours, theirs = socket.socketpair()
        context = multiprocessing.get_context("spawn")
        process = context.Process(
            target=_serve,
            args=(theirs, os.getpid(), tuple(self._presenters), self._setup),
            daemon=True,
        )
        process.start()
        theirs.close()  # the worker holds its own copy: its exit ends the stream
        reader, writer = await asyncio.open_unix_connection(sock=ours)
        worker = _Worker(process, reader, writer)
        self._workers.add(worker)
        await worker.receive()  # an empty message: warm, waiting for jobs
        return worker


def _observed(job_done: asyncio.Future[Picture]) -> None:
    """Read a job's error, so that one whose caller gave up is not reported as never read."""
    if not job_done.cancelled():
        job_done.exception()


def warm(presenters: Iterable[Presenter[Any]]) -> None:
    """Draw one board of every game in every language, so no player's click pays for a
    renderer's cold start (its static layers: from the disk cache, or drawn and cached).
    Once per process: what a drawing warms (layers, fonts, catalogs) is the process's, and
    a second bot in it finds them warm."""
    for presenter in presenters:
        engine = ENGINES[presenter.game]
        seats = list(range(1, engine.min_players + 1))
        state = engine.initial_state(seats, {}, setup_rng("warm-up"))
        for language in languages():  # the layers with words are drawn once per language
            if (presenter.game, language) not in _warmed:
                with speaking(language):
                    presenter.render_png(state, {})
                _warmed.add((presenter.game, language))


_warmed: set[tuple[str, str]] = set()  # (game, language) drawn in this process


def _draw(
    language: str,
    presenter: Presenter[Any],
    state: Any,
    names: Mapping[PlayerId, str],
    events: Sequence[Event],
) -> Picture:
    with speaking(language):
        return presenter.picture(state, names, events)


def _serve(
    sock: socket.socket,
    parent: int,
    presenters: Sequence[Presenter[Any]],
    setup: Callable[[], None] | None,
) -> None:
    """A worker process: warm up, then draw each job read from `sock` until its end. A
    failure is logged (`setup` sets the log up as the bot's: JSON lines in JSON mode), not
    printed by multiprocessing, and ends the worker with status 1 (the bot replaces it)."""
    try:
        if setup is not None:
            setup()
        threading.Thread(target=_exit_with, args=(parent,), daemon=True).start()
        warm(presenters)
    except Exception:
        log.exception("picture worker %d could not start", os.getpid())
        sys.exit(1)
    conn = Connection(sock.detach())
    try:
        conn.send_bytes(b"")  # warm: ready for jobs
        while True:
            conn.send_bytes(_answer(conn.recv_bytes()))
    except (EOFError, OSError):
        return  # the bot closed its end, or is gone (even in the middle of a drawing)


def _answer(job: bytes) -> bytes:
    """The pickled (drawn, picture or exception) for a pickled job."""
    try:
        result: tuple[bool, Any] = (True, _draw(*pickle.loads(job)))
    except Exception as error:
        result = (False, error)
    try:
        return pickle.dumps(result, pickle.HIGHEST_PROTOCOL)
    except Exception:  # an exception that does not pickle
        return pickle.dumps((False, RuntimeError(repr(result[1]))), pickle.HIGHEST_PROTOCOL)


def _exit_with(parent: int) -> None:
    """Exit once the bot process is gone, even in the middle of a drawing that never ends."""
    while os.getppid() == parent:
        time.sleep(ORPHAN_CHECK)
    os._exit(0)
