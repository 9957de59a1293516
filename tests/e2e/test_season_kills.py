"""A season's end, with a real `python -m bot` process killed by SIGKILL right after each
persisted step of it (`tests/e2e/kill_after.py`), then started again: one card in the
channel, one archive, one next season. (SQLite here: two shard processes on PostgreSQL are
`tests/e2e/test_season_shards.py`'s, the end's races on both backends
`tests/bot/test_seasons.py`'s.)

The fake Discord forgets the card's nonce here (`nonce_window = 0`), so a card posted before
the kill is found by the restarted process's own look through the channel, and the server's
language changes between the two processes, so that look cannot lean on the card's words.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from bot.storage import Storage, open_storage
from tests.bot.test_ratings import ANA, LEO, finish
from tests.e2e.conftest import Launcher
from tests.e2e.driver import eventually
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.process import START_TIMEOUT, connected, process_env
from tests.e2e.test_seasons import is_card

HOUR = 3600.0


async def seasons_of(storage: Storage, guild: int) -> list[dict[str, Any]]:
    rows = await storage.table_rows("seasons")
    return sorted((r for r in rows if r["guild_id"] == guild), key=lambda r: r["number"])


async def finals_of(storage: Storage, guild: int) -> list[dict[str, Any]]:
    return [r for r in await storage.table_rows("season_finals") if r["guild_id"] == guild]


async def due_season(storage: Storage, guild: int, channel: int, *, recur: str) -> None:
    """A season of `guild` that ended a minute ago, with two games of Ana and Leo in it."""
    now = time.time()
    await storage.start_season(
        guild,
        name="Sprint",
        ends_at=now - 60,
        games=None,
        recur=recur,
        channel_id=channel,
        now=now - HOUR,
    )
    for places in ([(ANA, 1), (LEO, 2)], [(LEO, 1), (ANA, 2)]):
        await finish(storage, places, guild=guild, now=now - HOUR / 2)


@pytest.mark.parametrize("step", ["end", "claim", "post", "store"])
async def test_a_kill_9_after_each_step_of_the_end_leaves_one_card_archive_and_next_season(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path, step: str
) -> None:
    fake.nonce_window = 0.0
    database = tmp_path / "parlour.sqlite3"
    database_url = f"sqlite:///{database}"
    guild, channel = fake.guild_id, fake.channel_id
    # A second server, whose season falls due between the two processes: its card tells
    # that the restarted process has been through its cards (in the order they ended).
    witness = fake.create_guild("Witness")
    storage = await open_storage(database_url)
    try:
        await storage.set_season_min_games(guild, 1)
        await due_season(storage, guild, channel, recur="weekly")
    finally:
        await storage.close()
    env = process_env(fake, database)

    plant = {"KILL_AFTER": f"season-{step}"}
    killed = await launch(tmp_path, env | plant, module="tests.e2e.kill_after", forked=True)
    status = await asyncio.wait_for(killed.proc.wait(), START_TIMEOUT)
    assert status == -9, killed.log  # SIGKILL, at the step
    killed.assert_clean()

    cards = [m for m in fake.messages(channel) if is_card(m)]
    storage = await open_storage(database_url)
    try:
        ended, *_ = await seasons_of(storage, guild)
        archive = await finals_of(storage, guild)
        # Where the process died, as the database and the channel tell.
        assert ended["status"] == "ended" and len(archive) == 2
        assert (ended["card_claimed_at"] is not None) == (step != "end")
        assert len(cards) == (0 if step in ("end", "claim") else 1)
        assert bool(ended["card_done"]) == (step == "store")
        await storage.set_guild_language(guild, "es")
        await due_season(storage, witness, fake.general_channel_id(witness), recur="none")
    finally:
        await storage.close()

    again = await launch(tmp_path, env, forked=True)
    await connected(fake, again, 2)
    await fake.wait_for(
        lambda: any(is_card(m) for m in fake.messages(fake.general_channel_id(witness))) or None,
        timeout=START_TIMEOUT,
    )
    storage = await open_storage(database_url, inspect=True)  # beside the running bot
    try:

        async def done() -> bool:
            return all(s["card_done"] for s in await storage.table_rows("seasons") if s["ended_at"])

        await eventually(done)  # the witness's card is posted; its id is stored next
        cards = [m for m in fake.messages(channel) if is_card(m)]
        assert len(cards) == 1, [m.embeds[0]["title"] for m in cards]
        seasons = await seasons_of(storage, guild)
        assert [(s["number"], s["status"]) for s in seasons] == [(1, "ended"), (2, "running")]
        assert seasons[0]["card_message_id"] == cards[0].id
        assert await finals_of(storage, guild) == archive  # the archive as it was frozen
    finally:
        await storage.close()
    again.assert_clean()
