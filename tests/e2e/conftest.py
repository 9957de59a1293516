"""Shared end-to-end fixtures: the fake Discord, Parlour bots against it, no logged errors."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

import discord
import pytest
import yarl

from bot.client import ParlourBot
from bot.settings import Settings
from tests.draw_layers import run_layers
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.forked import ForkServer
from tests.e2e.process import BotProcess, Process

ParlourFactory = Callable[..., Awaitable[ParlourBot]]


class Launcher(Protocol):
    """Starts `python -m bot *args` (or `module`, a stand-in for it) in `cwd` with `env`;
    `forked`: forked from the test's fork server (`tests/e2e/fork_server.py`) instead."""

    async def __call__(
        self,
        cwd: Path,
        env: Mapping[str, str],
        *args: str,
        module: str = "bot",
        forked: bool = False,
    ) -> BotProcess: ...


WATCHED_LOGGERS = ("discord", "bot", "cogs")


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(autouse=True)
def no_logged_errors(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail the test if the client or the bot logged an error (e.g. a failing callback),
    but for those a test expects: `@pytest.mark.expected_errors("text in the message")`,
    each of which must then be logged."""
    marker = request.node.get_closest_marker("expected_errors")
    expected = list(marker.args) if marker else []
    collector = _Collect()
    for name in WATCHED_LOGGERS:
        logging.getLogger(name).addHandler(collector)
    yield
    for name in WATCHED_LOGGERS:
        logging.getLogger(name).removeHandler(collector)
    messages = [r.getMessage() for r in collector.records]
    for text in expected:
        assert any(text in m for m in messages), f"expected an error saying {text!r}"
    unexpected = [
        r
        for r, m in zip(collector.records, messages, strict=True)
        if not any(t in m for t in expected)
    ]
    assert not unexpected, "\n".join(map(logging.Formatter().format, unexpected))


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as fake:
        # Set through monkeypatch so the real endpoints come back after the test.
        monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
        gateway = yarl.URL(fake.gateway_url)
        monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", gateway)
        yield fake
        assert fake.faults == []


@pytest.fixture
async def start_parlour(
    fake: FakeDiscord, tmp_path: Path, layer_cache: Path
) -> AsyncIterator[ParlourFactory]:
    """Start Parlour bots on one database, as `python -m bot` would; closed at teardown.
    Their pictures keep their layers in the run's `layer_cache`, as the bot processes do,
    so that each worker loads what another drew instead of drawing it again.

    Calling it again after closing the first bot is a restart.
    """
    running: list[tuple[ParlourBot, asyncio.Task[None]]] = []
    settings = Settings(
        token=fake.token,
        database_url=f"sqlite:///{tmp_path / 'parlour.sqlite3'}",
        api_base=fake.api_base,
        gateway_url=fake.gateway_url,
        game_seed="e2e",
        bot_move_delay=0.0,
        cache_dir=str(layer_cache),
    )

    async def start(**overrides: Any) -> ParlourBot:
        """`overrides` change settings for this bot, e.g. `autoplay_pace=0.2`."""
        bot = ParlourBot(replace(settings, **overrides), guild_ready_timeout=0.1)
        await bot.login(settings.token or "")
        running.append((bot, asyncio.create_task(bot.connect())))
        await asyncio.wait_for(bot.wait_until_ready(), 5)
        return bot

    yield start
    for bot, task in running:
        if not bot.is_closed():
            await bot.close()
        await task


@pytest.fixture(scope="session")
def layer_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The picture layers' `CACHE_DIR` of every bot process in the run, whichever worker
    started it: the first to draw a layer leaves it for the others (a layer is written
    atomically, images/layer_cache.py), and no test writes in the home directory."""
    run = tmp_path_factory.getbasetemp()
    if "PYTEST_XDIST_WORKER" in os.environ:
        run = run.parent  # the run's own, above each worker's
    return run_layers(run)


class ForkServers:
    """The worker's fork server, started at its first forked launch and shared by its tests,
    one at a time (started again if a test's end left it dead)."""

    def __init__(self, cache_dir: Path) -> None:
        self.cache_dir = cache_dir
        self.server: ForkServer | None = None

    async def running(self) -> ForkServer:
        if self.server is None or not self.server.alive:
            self.server = await ForkServer.start(self.cache_dir)
        return self.server

    async def detach(self) -> None:
        if self.server is not None:
            await self.server.detach()


@pytest.fixture(scope="session")
def fork_servers(layer_cache: Path) -> Iterator[ForkServers]:
    servers = ForkServers(layer_cache)
    yield servers
    if servers.server is not None:
        servers.server.stop()


@pytest.fixture
async def launch(
    fake: FakeDiscord, layer_cache: Path, fork_servers: ForkServers
) -> AsyncIterator[Launcher]:
    """Start `python -m bot` processes (with the run's `layer_cache` unless `env` names
    another); every one is killed at teardown (before the fake Discord closes).

    They draw pictures in a thread (`PICTURE_WORKERS=0`) unless `env` asks for workers: a
    worker is one more interpreter to start and warm at each start, and the storms restart
    the bot a hundred times; the workers have their own tests (tests/bot/test_pictures.py,
    and the processes of tests/e2e/test_hosting.py and test_process.py that ask for one).

    A `forked` process comes from the worker's fork server (`fork_servers`): the imports
    and the pictures' warm-up are most of a start, and its children find both done, in the
    run's `layer_cache`. Tests of the start itself start `python -m bot` anew."""
    started: list[BotProcess] = []

    async def start(
        cwd: Path, env: Mapping[str, str], *args: str, module: str = "bot", forked: bool = False
    ) -> BotProcess:
        env = {"CACHE_DIR": str(layer_cache), "PICTURE_WORKERS": "0", **env}
        proc: Process
        if forked:
            proc = await (await fork_servers.running()).launch(cwd, env, *args, module=module)
        else:
            proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                module,
                *args,
                cwd=cwd,
                env=env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.PIPE,
            )
        started.append(BotProcess(proc))
        return started[-1]

    try:
        yield start
    finally:
        for bot in started:
            await bot.kill()
            print(f"--- stderr of bot process {bot.proc.pid} ---\n{bot.log}")
        await fork_servers.detach()
