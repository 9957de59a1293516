"""Metrics and health over real HTTP: what an admin's Prometheus and process supervisor see."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot import __version__
from tests.e2e.conftest import Launcher, ParlourFactory
from tests.e2e.driver import eventually, play_one_move, start_game
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.process import BotProcess, connected, process_env

GAME = "cock-and-bull"
Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def get(port: int, path: str) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}") as response,
    ):
        return response.status, await response.text()


async def scrape(port: int) -> Samples:
    status, text = await get(port, "/metrics")
    assert status == 200
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def sample(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


async def test_the_real_process_serves_health_and_metrics_of_what_it_did(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path
) -> None:
    port = free_port()
    bot = await launch(tmp_path, process_env(fake, tmp_path / "db.sqlite3", METRICS_PORT=str(port)))
    await connected(fake, bot, 1)
    await eventually(lambda: _healthy(port))  # 503 until the gateway session is ready
    assert await get(port, "/healthz") == (200, "ok\n")

    ana, leo, eve = (fake.make_user(n) for n in ("Ana", "Leo", "Eve"))
    board = await start_game(fake, ana, GAME, joiners=[leo])
    moves = 3
    for _ in range(moves):
        await play_one_move(fake, [ana, leo], board)
    refusal = await (await fake.click(eve, board, label=board.buttons[0]["label"])).response()
    assert refusal.message is not None and refusal.message.ephemeral

    samples = await scrape(port)
    clicks = "parlour_interactions_total"
    # Joins, Start and the moves are clicks; the outsider's is refused.
    assert sample(samples, clicks, kind="component", outcome="ok") == 2 + moves
    assert sample(samples, clicks, kind="component", outcome="refused") == 1
    assert sample(samples, clicks, kind="application_command", outcome="ok") == 1  # /… new
    answered = sample(samples, "parlour_answer_seconds_count", kind="component")
    assert answered == sample(samples, clicks, kind="component", outcome="ok") + 1
    within_3s = sample(samples, "parlour_answer_seconds_bucket", kind="component", le="3.0")
    assert within_3s == answered
    assert sample(samples, "parlour_games_active", game="cock_and_bull") == 1
    assert sample(samples, "parlour_games_active", game="risk") == 0
    assert sample(samples, "parlour_event_loop_lag_seconds_count") > 0
    assert sample(samples, "parlour_gc_pause_seconds_count", generation="0") > 0
    assert 0 <= sample(samples, "parlour_gateway_latency_seconds") < 5
    await bot.kill()
    bot.assert_clean()


async def test_what_a_hoster_sees_of_the_process_its_servers_and_discords_429s(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path
) -> None:
    """The process's own figures, the version, the servers the bot is in (a join and a
    leave logged by id and size, not by name), and a 429 of Discord's counted by scope."""
    port = free_port()
    bot = await launch(tmp_path, process_env(fake, tmp_path / "db.sqlite3", METRICS_PORT=str(port)))
    await connected(fake, bot, 1)
    await eventually(lambda: _healthy(port))  # ready: a server added from now on is a join
    fake.inject("POST", r"/channels/\d+/messages", retry_after=0.05)  # discord.py waits, retries
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    board = await start_game(fake, ana, GAME, joiners=[leo])
    await play_one_move(fake, [ana, leo], board)
    samples = await scrape(port)
    assert sample(samples, "parlour_discord_rate_limited_total", scope="user") == 1
    assert sample(samples, "parlour_build_info", version=__version__) == 1
    assert sample(samples, "parlour_guilds") == len(fake.guild_ids)
    for figure in ("start_time_seconds", "resident_memory_bytes", "open_fds", "max_fds"):
        assert sample(samples, f"process_{figure}") > 0, figure
    assert ("process_cpu_seconds_total", frozenset()) in samples

    joined = fake.create_guild("Hidden Grove of Zephyrine")
    await eventually(lambda: _guilds(port, len(fake.guild_ids)))
    await eventually(lambda: _logged(bot, f"added to server {joined} ("))
    fake.remove_bot(joined)
    await eventually(lambda: _guilds(port, len(fake.guild_ids) - 1))
    await bot.kill()
    assert f"added to server {joined} (" in bot.log and f"removed from server {joined} (" in bot.log
    assert "Zephyrine" not in bot.log
    bot.assert_clean()


async def _logged(bot: BotProcess, text: str) -> bool:
    return text in bot.log


async def _guilds(port: int, count: int) -> bool:
    return sample(await scrape(port), "parlour_guilds") == count


async def test_health_says_503_while_the_gateway_or_the_database_is_down(
    fake: FakeDiscord, start_parlour: ParlourFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    port = free_port()
    bot = await start_parlour(metrics_port=port)
    assert (await get(port, "/healthz"))[0] == 200

    reconnect = asyncio.Event()

    async def held(shard_id: int | None, *, initial: bool = False) -> None:
        await reconnect.wait()  # the gateway stays down until the test lets it come back

    bot.before_identify_hook = held  # type: ignore[method-assign]
    readies = fake.readies
    await fake.drop_gateway(resume=False)
    status, text = await get(port, "/healthz")
    assert status == 503 and "gateway" in text
    reconnect.set()
    await fake.wait_for(lambda: fake.readies > readies or None, timeout=10)
    await eventually(lambda: _healthy(port))

    async def unreachable() -> int:
        raise ConnectionError("database gone")

    monkeypatch.setattr(bot.storage, "schema_version", unreachable)
    status, text = await get(port, "/healthz")
    assert status == 503 and "database" in text and "gateway" not in text


async def _healthy(port: int) -> bool:
    return (await get(port, "/healthz"))[0] == 200
