"""A database left by downtime: games whose turn timers ran out while the bot was away."""

from __future__ import annotations

import time
from pathlib import Path

from bot.service import GameService
from bot.storage import open_storage
from rules.registry import ENGINES
from tests.e2e.fake_discord import FakeDiscord


async def overdue_games(fake: FakeDiscord, database: Path, count: int) -> list[int]:
    """`count` Cock & Bull games of two members, started an hour ago with a 2-minute turn
    timer and a thread each, written into `database` (no bot may hold it open)."""
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    gone_since = time.time() - 3600
    storage = await open_storage(f"sqlite:///{database}")
    service = GameService(storage, ENGINES, clock=lambda: gone_since, fixed_seed="backlog")
    ids = []
    try:
        for _ in range(count):
            table = await service.create_lobby(
                "cock_and_bull",
                guild_id=fake.guild_id,
                channel_id=fake.channel_id,
                host_id=int(ana["id"]),
                host_name="Ana",
                options={"turn_timer": 120},
            )
            game_id = table.row.id
            await service.join(game_id, int(leo["id"]), "Leo")
            thread = fake.create_thread(fake.channel_id, f"Cock & Bull #{game_id}")
            await service.set_ids(game_id, thread_id=thread)
            await service.start(game_id, int(ana["id"]))
            ids.append(game_id)
    finally:
        await storage.close()
    return ids
