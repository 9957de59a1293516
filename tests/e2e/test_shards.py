"""Two `python -m bot` processes, shards 0 and 1 of 2, over one PostgreSQL database."""

from __future__ import annotations

from pathlib import Path

from bot.service import GameService
from bot.storage import open_storage
from rules.registry import ENGINES
from tests.e2e.conftest import Launcher
from tests.e2e.driver import (
    eventually,
    move_number,
    play_one_move,
    play_to_the_end,
    start_game,
)
from tests.e2e.fake_discord import FakeDiscord, FakeMessage
from tests.e2e.process import BotProcess, on_shard, process_env
from tests.e2e.test_metrics import free_port, get

GAME = "cock-and-bull"


async def test_two_shard_processes_share_postgresql_and_survive_a_sigkill(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path, postgres_url: str
) -> None:
    """Servers on both shards, a game of two members and a game against a bot seat in every
    server; the process of shard 1 is killed (SIGKILL) mid-game and started again. Every
    game ends, every move is in the database and replays, and each process acted only in
    its own shard's servers (its REST calls tell), shard 0's alone syncing commands."""
    for shard in (0, 1, 0, 1):
        fake.create_guild(f"Server on shard {shard}", shard=(shard, 2))
    by_shard = {s: [g for g in fake.guild_ids if fake.shard_of(g, 2) == s] for s in (0, 1)}
    assert all(len(guilds) >= 2 for guilds in by_shard.values())

    ports = {shard: free_port() for shard in (0, 1)}

    async def start(shard: int) -> BotProcess:
        return await start_shard(
            fake, launch, tmp_path, postgres_url, shard, METRICS_PORT=str(ports[shard])
        )

    zero = await start(0)
    await on_shard(fake, zero, [0, 2], 1)
    await fake.wait_for(lambda: fake.commands() or None, timeout=15)  # shard 0 synced them
    one = await start(1)
    await on_shard(fake, one, [1, 2], 1)

    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    players = [ana, leo]
    duels: list[FakeMessage] = []
    for guild in fake.guild_ids:
        channel = fake.general_channel_id(guild)
        duels.append(await start_game(fake, ana, GAME, joiners=[leo], channel_id=channel))
        await start_game(fake, leo, GAME, bots=1, channel_id=channel)  # the bot plays on
    for board in duels:
        for _ in range(3):
            await play_one_move(fake, players, board)

    await one.kill()  # mid-game, no goodbye; its games wait in the database
    one.assert_clean()
    one = await start(1)
    await on_shard(fake, one, [1, 2], 2)
    # Its recovery took up its own servers' games only: both games of each.
    await fake.wait_for(lambda: "resuming" in one.log or None)
    assert f"resuming {2 * len(by_shard[1])} games" in one.log

    for board in duels:
        shown = move_number(board)
        await play_one_move(fake, players, board)  # the old boards still work
        assert move_number(board) == shown + 1
        await play_to_the_end(fake, players, board)
    bot_games = [t for t in fake.threads if not any(b.channel_id == int(t["id"]) for b in duels)]
    for thread in bot_games:
        board = fake.latest_message(int(thread["id"]), lambda m: bool(m.embeds))
        assert board is not None
        await play_to_the_end(fake, [leo], board)

    storage = await open_storage(postgres_url)
    try:
        service = GameService(storage, ENGINES)

        async def every_last_board_marked_shown() -> bool:
            # A result is posted before its board is marked shown (bot/table/publisher.py).
            return all(r.shown_step == r.step for r in await storage.games(status="finished"))

        await eventually(every_last_board_marked_shown)
        assert await storage.games(status="active") == []
        finished = await storage.games(status="finished")
        assert len(finished) == 2 * len(fake.guild_ids)
        for row in finished:
            assert len(await storage.actions(row.id)) == row.step  # nothing lost
            assert await service.replay(row.id) == (await service.table(row.id)).state
            assert row.shown_step == row.step  # every last board shown
    finally:
        await storage.close()

    acted = {
        (call.client, fake.guild_of(call))
        for call in fake.calls
        if call.client is not None and fake.guild_of(call) is not None
    }
    for shard in (0, 1):
        assert {g for client, g in acted if client == f"shard{shard}"} == set(by_shard[shard])
    syncs = {c.client for c in fake.calls if c.method == "PUT" and c.path.endswith("/commands")}
    assert syncs == {"shard0"}
    for shard in (0, 1):  # each sharded process reports itself healthy, its shard connected
        assert await get(ports[shard], "/healthz") == (200, "ok\n")
    zero.assert_clean()
    one.assert_clean()


async def start_shard(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path, postgres_url: str, shard: int, **more: str
) -> BotProcess:
    """Shard `shard` of two as a real bot process on `postgres_url`, in a folder of its own,
    reaching the fake through an API address of its own (so its requests tell its shard)."""
    folder = tmp_path / f"shard{shard}"
    folder.mkdir(exist_ok=True)
    env = process_env(
        fake,
        postgres_url,
        SHARD_COUNT="2",
        SHARD_IDS=str(shard),
        DISCORD_API_BASE=fake.api_base_for(f"shard{shard}"),
        **more,
    )
    return await launch(folder, env, forked=True)
