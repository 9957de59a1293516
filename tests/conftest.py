"""Fixtures every test package may use: the database URLs of both backends; and how the
suite runs in parallel (pytest-xdist, `-n auto` in pyproject.toml's addopts)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.language.i18n import speaking
from bot.ops.warm_up import settle_memory
from cogs.pictures import TRANSLATIONS
from images.words import use_translations
from tests.databases import fresh_schema
from tests.draw_layers import run_layers
from tests.rewrite_ahead import rewrite_ahead

REPO = Path(__file__).resolve().parents[1]
E2E = REPO / "tests" / "e2e"
_DRAWING = pytest.StashKey[subprocess.Popen[bytes]]()
WORKERS_PER_CORE = 2  # most slow tests wait (on a bot process, a timer) with the CPU idle


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: as many workers as `PYTEST_XDIST_AUTO_NUM_WORKERS` says, else two per core
    so that one worker's waits are another's CPU time; none (the tests run in this process)
    with `-s`, whose output only this process shows."""
    if config.option.capture == "no":
        return 0
    if count := os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS", "").strip():
        return int(count)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return WORKERS_PER_CORE * (cores or 1)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests first, so that none starts late and keeps the run waiting at its
    end: those marked `starts_first` (long tests of one process, e.g. mypy over the tree),
    then those that start real bot processes (the `launch` fixture), then the rest of the end-to-end
    tests (the fake Discord); the quick tests fill the workers' gaps. Each worker takes
    the next test as it finishes one (`--maxschedchunk 1` in pyproject.toml's addopts).

    The end-to-end tests of each file are spread over their kind's turn: a file's tests
    often wait alike (on a timer, a process, a rate limit), and side by side they would
    leave both cores idle."""

    def rank(item: pytest.Item) -> int:
        fixtures = getattr(item, "fixturenames", ())
        if item.get_closest_marker("starts_first"):
            return 0
        return 1 if "launch" in fixtures else 2 if "fake" in fixtures else 3

    ranked: dict[int, list[pytest.Item]] = {}
    for item in items:
        ranked.setdefault(rank(item), []).append(item)
    items[:] = [
        item
        for r in sorted(ranked)
        for item in (_spread_by_file(ranked[r]) if r in (1, 2) else ranked[r])
    ]


def _spread_by_file(items: list[pytest.Item]) -> list[pytest.Item]:
    """Each file's tests spread evenly over the whole list, in their order: a file of
    fifteen waits among the others from the first to the last, not all at the end."""
    files: dict[str, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(item.nodeid.split("::")[0], []).append(item)
    spread = [
        ((n + 0.5) / len(tests), item) for tests in files.values() for n, item in enumerate(tests)
    ]
    return [item for _, item in sorted(spread, key=lambda placed: placed[0])]


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collecting imported lives as long as the process: set out of the garbage
    collector's sight, and young collections made rarer, as a bot process does once it has
    started (`settle_memory`): the tests allocate as busily as a bot, and full collections
    of the modules and caches a worker holds were about 5 % of its CPU."""
    settle_memory()


def pytest_sessionstart(session: pytest.Session) -> None:
    """In the process that runs the workers of a parallel run, before they start: if the
    run has end-to-end tests, start drawing the pictures' layers into the run's layer cache
    (`tests/draw_layers.py`); and where bytecode is not written, rewrite the test modules'
    asserts once for all the workers (`rewrite_ahead`)."""
    config = session.config
    if not getattr(config.option, "numprocesses", None) or hasattr(config, "workerinput"):
        return
    if any(_overlap(Path(arg.split("::")[0]).resolve(), E2E) for arg in config.args):
        layers = run_layers(config._tmp_path_factory.getbasetemp())
        drawing = [sys.executable, "-m", "tests.draw_layers", str(layers)]
        config.stash[_DRAWING] = subprocess.Popen(drawing, cwd=REPO)
    if sys.dont_write_bytecode:
        rewrite_ahead(config)


def pytest_sessionfinish(session: pytest.Session) -> None:
    if (drawing := session.config.stash.get(_DRAWING, None)) is not None:
        assert drawing.wait() == 0, "the layers could not be drawn"


def _overlap(path: Path, folder: Path) -> bool:
    return path.is_relative_to(folder) or folder.is_relative_to(path)


@pytest.fixture
async def postgres_url() -> AsyncIterator[str]:
    """A fresh PostgreSQL schema of its own (skipped without a server, failed under CI)."""
    async with fresh_schema() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgres"])
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """Each backend in turn: the test runs once on SQLite and once on PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'parlour.sqlite3'}"
        return
    async with fresh_schema() as url:
        yield url


@pytest.fixture(params=["en", "es"])
def spoken(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each language in turn, spoken by the bot and its pictures (the bot's catalogs
    installed for the pictures, and taken away after)."""
    use_translations(TRANSLATIONS)
    try:
        with speaking(request.param):
            yield request.param
    finally:
        use_translations(None)
