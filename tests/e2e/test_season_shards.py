"""Seasons over two `python -m bot` processes, shards 0 and 1 of 2, on one PostgreSQL
database: every season that fell due while both were down ends once, and its card is posted
once, by the process of its server's shard."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.storage import open_storage
from tests.e2e.conftest import Launcher
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.process import on_shard
from tests.e2e.test_seasons import is_card
from tests.e2e.test_shards import start_shard


async def test_two_shard_processes_end_each_season_once_with_one_card(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path, postgres_url: str
) -> None:
    for shard in (0, 1, 0, 1):
        fake.create_guild(f"Server on shard {shard}", shard=(shard, 2))
    guilds = fake.guild_ids
    storage = await open_storage(postgres_url)
    try:
        for guild in guilds:  # each with a weekly season over before the processes start
            await storage.start_season(
                guild,
                name="Past",
                ends_at=2.0,
                games=None,
                recur="weekly",
                channel_id=fake.general_channel_id(guild),
                now=1.0,
            )
    finally:
        await storage.close()

    zero, one = await asyncio.gather(
        *(start_shard(fake, launch, tmp_path, postgres_url, shard) for shard in (0, 1))
    )
    await asyncio.gather(on_shard(fake, zero, [0, 2], 1), on_shard(fake, one, [1, 2], 1))

    def cards() -> dict[int, list[int]]:
        return {
            g: [m.id for m in fake.messages(fake.general_channel_id(g)) if is_card(m)]
            for g in guilds
        }

    await fake.wait_for(lambda: all(cards().values()) or None, timeout=30)
    storage = await open_storage(postgres_url)
    try:
        for guild in guilds:
            rows = [r for r in await storage.table_rows("seasons") if r["guild_id"] == guild]
            assert sorted((r["number"], r["status"]) for r in rows) == [
                (1, "ended"),
                (2, "running"),
            ]
            (ended,) = [r for r in rows if r["number"] == 1]
            assert [ended["card_message_id"]] == cards()[guild]
    finally:
        await storage.close()
    posted = {
        (call.client, fake.guild_of(call))
        for call in fake.calls
        if call.method == "POST" and call.path.endswith("/messages") and fake.guild_of(call)
    }
    assert posted == {(f"shard{fake.shard_of(g, 2)}", g) for g in guilds}
    zero.assert_clean()
    one.assert_clean()
