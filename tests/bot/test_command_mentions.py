"""Commands mentioned by the ids Discord gave them (`</risk new:id>`, shown in each reader's
language): the ids are kept when synced, read back at a start that sends nothing, asked of
Discord once where an older version kept none; without an id, the spoken name as code."""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.language.i18n import speaking
from bot.storage import Storage, open_storage
from bot.ui import command_sync
from bot.ui.command_sync import mention, sync_if_changed

APP = 7


@dataclass
class Command:
    name: str
    id: int


@dataclass
class Tree:
    """What `sync_if_changed` asks of discord.py's command tree, and the calls it made."""

    translator: Any = None
    calls: list[str] = field(default_factory=list)

    def get_commands(self, guild: Any = None) -> list[Any]:
        return []

    async def sync(self, guild: Any = None) -> list[Command]:
        self.calls.append("sync")
        return [Command("risk", 11), Command("help", 12)]

    async def fetch_commands(self, guild: Any = None) -> list[Command]:
        self.calls.append("fetch")
        return [Command("risk", 11), Command("help", 12)]


@pytest.fixture
async def storage(database_url: str) -> AsyncIterator[Storage]:
    storage = await open_storage(database_url)
    try:
        yield storage
    finally:
        await storage.close()


@pytest.fixture(autouse=True)
def no_ids() -> None:
    command_sync._ids.clear()


def test_an_unknown_command_is_its_spoken_name_as_code() -> None:
    assert mention("/risk new") == "`/risk new`"
    with speaking("es"):
        assert mention("/risk new") == "`/risk nueva`"


async def test_ids_are_kept_at_a_sync_and_read_back_at_a_start_that_sends_nothing(
    storage: Storage,
) -> None:
    tree = Tree()
    assert await sync_if_changed(tree, storage, APP, None)  # type: ignore[arg-type]
    assert mention("/risk new") == "</risk new:11>"
    command_sync._ids.clear()  # a new process
    assert not await sync_if_changed(tree, storage, APP, None)  # type: ignore[arg-type]
    assert tree.calls == ["sync"]
    with speaking("es"):
        assert mention("/risk rules") == "</risk rules:11>" and mention("/help") == "</help:12>"


async def test_ids_are_fetched_once_where_a_sync_kept_none(storage: Storage) -> None:
    """An older version synced the same commands and kept only the payload's hash."""
    key = f"commands synced: application {APP}, global"
    await storage.set_bot_state(key, hashlib.sha256(b"[]").hexdigest())  # an empty tree's
    tree = Tree()
    assert not await sync_if_changed(tree, storage, APP, None)  # type: ignore[arg-type]
    command_sync._ids.clear()
    assert not await sync_if_changed(tree, storage, APP, None)  # type: ignore[arg-type]
    assert tree.calls == ["fetch"] and mention("/help") == "</help:12>"
