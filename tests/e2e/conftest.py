"""Shared end-to-end fixtures: the fake Discord, Parlour bots against it, no logged errors."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import discord
import pytest
import yarl

from bot.client import ParlourBot
from bot.settings import Settings
from tests.e2e.fake_discord import FakeDiscord

ParlourFactory = Callable[..., Awaitable[ParlourBot]]
WATCHED_LOGGERS = ("discord", "bot", "cogs")


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(autouse=True)
def no_logged_errors() -> Iterator[None]:
    """Fail the test if the client or the bot logged an error (e.g. a failing callback)."""
    collector = _Collect()
    for name in WATCHED_LOGGERS:
        logging.getLogger(name).addHandler(collector)
    yield
    for name in WATCHED_LOGGERS:
        logging.getLogger(name).removeHandler(collector)
    assert not collector.records, "\n".join(map(logging.Formatter().format, collector.records))


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
async def start_parlour(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[ParlourFactory]:
    """Start Parlour bots on one database, as `python -m bot` would; closed at teardown.

    Calling it again after closing the first bot is a restart.
    """
    running: list[tuple[ParlourBot, asyncio.Task[None]]] = []
    settings = Settings(
        token=fake.token,
        database_path=str(tmp_path / "parlour.sqlite3"),
        api_base=fake.api_base,
        gateway_url=fake.gateway_url,
        game_seed="e2e",
        bot_move_delay=0.0,
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
