"""Boards drawn in worker processes: the same picture as in a thread, in the language of
the request; a worker stuck on a drawing, or gone in the middle of one, is replaced and the
board drawn again; a drawing's own error reaches its caller; a caller that gives up never
leaves its picture to the next one; with no worker left, a thread draws; no worker outlives
a bot process killed outright."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib
import multiprocessing
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.language.i18n import _, speaking
from bot.table import pictures
from bot.table.pictures import PictureWorkers
from bot.table.presenter import Picture
from cogs.cock_and_bull import CockAndBullPresenter
from images import pieces, words
from images.words import use_translations
from rules.core import Event, PlayerId, setup_rng
from rules.registry import ENGINES
from tests.e2e.process import REPO
from tests.images.drawn import forget_worded_layers

NAMES = {1: "Ana", 2: "Leo"}


class WordingPresenter(CockAndBullPresenter):
    """A picture that is only a word of the catalog: which language drew it shows."""

    def picture(
        self, state: Any, names: Mapping[PlayerId, str], events: Sequence[Event] = ()
    ) -> Picture:
        return Picture(_("Resign or end…").encode())


class StuckOncePresenter(CockAndBullPresenter):
    """Spins forever on its first picture (as Pillow's quantizer rarely does), then draws."""

    def __init__(self, mark: Path) -> None:
        self.mark = mark

    def picture(
        self, state: Any, names: Mapping[PlayerId, str], events: Sequence[Event] = ()
    ) -> Picture:
        if not self.mark.exists():
            self.mark.touch()
            while True:
                time.sleep(1)
        return super().picture(state, names, events)


@contextlib.asynccontextmanager
async def a_worker() -> AsyncIterator[PictureWorkers]:
    """One picture worker, prepared as the bot prepares its own (`cogs.pictures`); this
    process draws with the bot's catalogs meanwhile too."""
    # The module as imported now: a bot closed in this process unloaded its extensions,
    # and a worker is sent `prepare` by name.
    prepare = importlib.import_module("cogs.pictures").prepare
    worded = words._installed  # put back after: pictures kept are keyed by language alone
    prepare(None)
    workers = PictureWorkers(1, [CockAndBullPresenter()])
    workers.prepare_with(functools.partial(prepare, None))
    try:
        await workers.ready()
        yield workers
    finally:
        workers.stop()
        # What was drawn here with the bot's catalogs is not what a later test's words are.
        use_translations(worded)
        forget_worded_layers()
        pieces.forget()


@pytest.fixture
async def one_worker() -> AsyncIterator[PictureWorkers]:
    """A worker of its own, for a test that stops, replaces or blocks it."""
    async with a_worker() as workers:
        yield workers


@pytest_asyncio.fixture(scope="class", loop_scope="class")
async def shared_worker() -> AsyncIterator[PictureWorkers]:
    """One worker for a class of tests that only ask it to draw and leave it as it was."""
    async with a_worker() as workers:
        yield workers


def a_state() -> Any:
    return ENGINES["cock_and_bull"].initial_state([1, 2], {}, setup_rng("pictures"))


@pytest.mark.asyncio(loop_scope="class")
class TestAWorkerKeptForDrawing:
    """Tests that only ask one worker to draw and leave it as they found it share it (a
    worker takes a second of CPU to start); it stops before the tests that count workers."""

    @pytest.mark.parametrize("language", ["en", "es"])
    async def test_a_worker_draws_the_board_a_thread_draws(
        self, shared_worker: PictureWorkers, language: str
    ) -> None:
        presenter = CockAndBullPresenter()
        with speaking(language):  # a Spanish board has Spanish words drawn in it
            in_worker = await shared_worker.draw(presenter, a_state(), NAMES, ())
            in_thread = await asyncio.to_thread(presenter.picture, a_state(), NAMES, ())
        assert in_worker.data[:8] == b"\x89PNG\r\n\x1a\n" and in_worker == in_thread

    async def test_spanish_and_english_boards_differ(self, shared_worker: PictureWorkers) -> None:
        presenter = CockAndBullPresenter()
        with speaking("es"):
            spanish = await shared_worker.draw(presenter, a_state(), NAMES, ())
        assert spanish != await shared_worker.draw(presenter, a_state(), NAMES, ())

    async def test_a_worker_speaks_the_language_of_the_request(
        self, shared_worker: PictureWorkers
    ) -> None:
        presenter = WordingPresenter()
        with speaking("es"):
            spanish = await shared_worker.draw(presenter, a_state(), NAMES, ())
        english = await shared_worker.draw(presenter, a_state(), NAMES, ())
        assert spanish.data.decode() == "Abandonar o terminar…"
        assert english.data.decode() == "Resign or end…"

    async def test_a_drawings_own_error_reaches_its_caller_and_the_worker_draws_on(
        self,
        shared_worker: PictureWorkers,
    ) -> None:
        workers = [worker.pid for worker in multiprocessing.active_children()]
        with pytest.raises(ValueError, match="no picture"):
            await shared_worker.draw(LabelPresenter("fail"), a_state(), NAMES, ())
        assert (
            await shared_worker.draw(LabelPresenter("next"), a_state(), NAMES, ())
        ).data == b"next"
        assert [worker.pid for worker in multiprocessing.active_children()] == workers


async def test_a_stuck_worker_is_replaced_and_the_board_drawn_again(
    one_worker: PictureWorkers, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ten seconds, shortened; time enough still for a new worker to start and draw the board
    # on a machine the parallel tests keep busy.
    monkeypatch.setattr(pictures, "DRAW_TIMEOUT", 5.0)
    stuck = [worker.pid for worker in multiprocessing.active_children()]
    assert stuck
    picture = await one_worker.draw(StuckOncePresenter(tmp_path / "mark"), a_state(), NAMES, ())
    assert picture.data[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "mark").exists()  # it was stuck once
    assert not any(_alive(pid) for pid in stuck)  # and that worker is gone


class LabelPresenter(CockAndBullPresenter):
    """A picture that is only its label, drawn after `delay` seconds; "fail" raises, and
    "exit" ends the worker's process the first time (while `mark` does not exist)."""

    def __init__(self, label: str, delay: float = 0.0, mark: Path | None = None) -> None:
        self.label, self.delay, self.mark = label, delay, mark

    def picture(
        self, state: Any, names: Mapping[PlayerId, str], events: Sequence[Event] = ()
    ) -> Picture:
        time.sleep(self.delay)
        if self.label == "fail":
            raise ValueError("no picture")
        if self.label == "exit" and self.mark is not None and not self.mark.exists():
            self.mark.touch()
            os._exit(1)
        return Picture(self.label.encode())


async def test_a_worker_gone_in_the_middle_of_a_drawing_is_replaced_and_it_draws_again(
    one_worker: PictureWorkers, tmp_path: Path
) -> None:
    gone = [worker.pid for worker in multiprocessing.active_children()]
    exits = LabelPresenter("exit", mark=tmp_path / "mark")
    picture = await asyncio.wait_for(one_worker.draw(exits, a_state(), NAMES, ()), 30)
    assert picture.data == b"exit" and (tmp_path / "mark").exists()
    assert not any(_alive(pid) for pid in gone)


async def test_when_no_worker_can_start_again_boards_are_drawn_in_a_thread(
    one_worker: PictureWorkers, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def cannot_start(*_args: Any) -> None:
        raise OSError("no more processes")

    monkeypatch.setattr(one_worker, "_start", cannot_start)
    exits = LabelPresenter("exit", mark=tmp_path / "mark")  # in a thread, it draws
    picture = await asyncio.wait_for(one_worker.draw(exits, a_state(), NAMES, ()), 30)
    # The worker that drew "exit" may still be exiting; none was started in its place.
    ending = multiprocessing.active_children()
    await asyncio.to_thread(lambda: [child.join(30) for child in ending])
    assert picture.data == b"exit" and not multiprocessing.active_children()
    assert (await one_worker.draw(LabelPresenter("next"), a_state(), NAMES, ())).data == b"next"


async def test_a_caller_that_gives_up_never_leaves_its_picture_to_the_next_one(
    one_worker: PictureWorkers,
) -> None:
    slow = asyncio.create_task(one_worker.draw(LabelPresenter("slow", 0.5), a_state(), NAMES, ()))
    await asyncio.sleep(0.1)  # the one worker is drawing it
    slow.cancel()
    next_one = await one_worker.draw(LabelPresenter("next"), a_state(), NAMES, ())
    assert slow.cancelled() and next_one.data == b"next"


A_BOT_WITH_A_WORKER = """
import asyncio
from bot.table.pictures import PictureWorkers
async def main():
    workers = PictureWorkers(1)
    await workers.ready()
    print("ready", flush=True)
    await asyncio.sleep(60)
asyncio.run(main())
"""


def test_no_worker_outlives_its_bot_process_killed_outright() -> None:
    bot = subprocess.Popen(
        [sys.executable, "-c", A_BOT_WITH_A_WORKER], cwd=REPO, stdout=subprocess.PIPE, text=True
    )
    assert bot.stdout is not None and bot.stdout.readline() == "ready\n"
    workers = _children(bot.pid)
    assert workers
    bot.kill()  # SIGKILL: the pool is never shut down
    bot.wait()
    for _attempt in range(100):  # a worker looks for its parent every second
        if not any(_alive(pid) for pid in workers):
            break
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in workers)


A_BOT_KILLED_WHILE_ITS_WORKER_DRAWS = """
import asyncio
from bot.table.pictures import PictureWorkers
from tests.bot.test_pictures import NAMES, LabelPresenter, a_state, patient_worker
async def main():
    workers = PictureWorkers(1)
    workers.prepare_with(patient_worker)
    await workers.ready()
    drawing = workers.draw(LabelPresenter("slow", 1.0), a_state(), NAMES, ())
    asyncio.get_running_loop().create_task(drawing)
    await asyncio.sleep(0.3)
    print("drawing", flush=True)
    await asyncio.sleep(60)
asyncio.run(main())
"""


def patient_worker() -> None:
    """A worker that looks for its bot process only every minute: one whose bot is killed
    in the middle of a drawing finishes it first."""
    pictures.ORPHAN_CHECK = 60


def test_a_worker_whose_bot_is_killed_in_the_middle_of_a_drawing_exits_quietly() -> None:
    bot = subprocess.Popen(
        [sys.executable, "-c", A_BOT_KILLED_WHILE_ITS_WORKER_DRAWS],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert bot.stdout is not None and bot.stdout.readline() == "drawing\n"
    workers = _children(bot.pid)
    bot.kill()
    bot.wait()
    for _attempt in range(50):  # the drawing ends a second after it started
        if not any(_alive(pid) for pid in workers):
            break
        time.sleep(0.1)
    assert workers and not any(_alive(pid) for pid in workers)
    assert bot.stderr is not None and bot.stderr.read() == ""  # the worker's stderr too


def _children(parent: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (stat := _stat(int(entry))) and int(stat[1]) == parent:
            found.append(int(entry))
    return found


def _alive(pid: int) -> bool:
    stat = _stat(pid)
    return stat is not None and stat[0] != "Z"  # a zombie has exited


def _stat(pid: int) -> list[str] | None:
    """State and parent pid of a process, None if there is none."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(") ", 1)[1].split()[:2]
    except (FileNotFoundError, ProcessLookupError):
        return None
