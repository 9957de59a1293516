"""Scale-out figures: the storage backends side by side, and shard processes' throughput.

- `latency`: `bench.latency`'s measurement (the real bot and the fake Discord in one
  process, members clicking back to back) once on SQLite and once on PostgreSQL, in the
  same run: click → first response p50 / p99 per backend.
- `throughput`: real `python -m bot` processes over one PostgreSQL database, against the
  fake Discord in this process: `--servers` servers (half on each shard), `--games` Cock &
  Bull games of two members in each, every member clicking as soon as the board shows their
  turn, for `--seconds`. Once with one process (not sharded), once with two (shards 0 and 1
  of 2). Prints answered interactions per second for each, and their ratio.

The PostgreSQL server is `TEST_DATABASE_URL` (default postgresql://postgres@127.0.0.1:5432/test);
every run works in a fresh schema, dropped afterwards.

Run: .venv/bin/python -m bench.scale {latency,throughput} [--help]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from bench.bot_process import launch
from bench.common import print_load, print_table, spread
from bench.latency import measure
from tests.databases import fresh_schema
from tests.e2e.driver import human_turn, play_one_move, start_game
from tests.e2e.fake_discord import JSON, FakeDiscord, FakeMessage
from tests.e2e.process import connected, on_shard, process_env

GAME = "cock-and-bull"


# --- latency ------------------------------------------------------------------------------------


async def latency(games: list[str], moves: int, seconds: float) -> None:
    rows = []
    for game in games:
        for backend in ("sqlite", "postgres"):
            if backend == "sqlite":
                log = await measure(game, moves, seconds, "bench-scale")
            else:
                async with fresh_schema() as url:
                    log = await measure(game, moves, seconds, "bench-scale", url)
            values = [v for k, vs in log.latencies.items() if "→" not in k for v in vs]
            rows.append((game, backend, len(values), *spread(values, (50, 99)), log.missing))
    print("click → first response (ms), the same clicks on each backend")
    print_table(("game", "backend", "interactions", "p50", "p99", "max", "unanswered"), rows)


# --- throughput ---------------------------------------------------------------------------------


async def _keep_playing(
    fake: FakeDiscord, channel: int, players: list[JSON], until: float, opening: asyncio.Lock
) -> None:
    """One table: play Cock & Bull games back to back in `channel` until `until`. Games
    open one at a time (`opening`): `start_game` finds its board as the newest thread's."""
    board: FakeMessage | None = None
    while time.monotonic() < until:
        up = None if board is None else await human_turn(fake, players, board)
        if up is None:  # no game yet, or it ended: a new one
            host, guests = players[0], players[1:]
            async with opening:
                board = await start_game(fake, host, GAME, joiners=guests, channel_id=channel)
            continue
        board = await play_one_move(fake, players, up)


async def _throughput(
    shards: int, servers: int, games: int, seconds: float, url: str
) -> tuple[float, int, list[float], int]:
    async with FakeDiscord() as fake:
        for n in range(servers):
            fake.create_guild(f"Server {n}", shard=(n % 2, 2))
        with tempfile.TemporaryDirectory() as tmp:
            bots = []
            for shard in range(shards):
                more = {"SHARD_COUNT": "2", "SHARD_IDS": str(shard)} if shards > 1 else {}
                env = process_env(fake, url, LOG_LEVEL="WARNING", **more)
                bots.append(await launch(Path(tmp) / f"p{shard}", env))
                if shards > 1:
                    await on_shard(fake, bots[-1], [shard, 2], 1)
                else:
                    await connected(fake, bots[-1], 1)
            await fake.wait_for(lambda: fake.commands() or None, timeout=15)
            guilds = [g for g in fake.guild_ids if g != fake.guild_id]
            members = [fake.make_user(f"Player{n:03d}") for n in range(2 * games * len(guilds))]
            started = time.monotonic()
            until = started + seconds
            opening = asyncio.Lock()
            tables = [
                _keep_playing(
                    fake, fake.general_channel_id(g), members[2 * i : 2 * i + 2], until, opening
                )
                for i, g in enumerate(g for g in guilds for _ in range(games))
            ]
            await asyncio.gather(*tables)
            elapsed = time.monotonic() - started
            answered = [
                i.answered_after * 1000
                for i in fake.interactions
                if i.answered_after is not None and i.sent_at >= started
            ]
            errors = 0
            for bot in bots:
                await bot.kill()
                errors += len(bot.errors())
    return len(answered) / elapsed, len(answered), answered, errors


async def throughput(servers: int, games: int, seconds: float) -> None:
    rows, rates = [], []
    for shards in (1, 2):
        async with fresh_schema() as url:
            rate, count, answered, errors = await _throughput(shards, servers, games, seconds, url)
        rates.append(rate)
        label = "1 process" if shards == 1 else "2 processes (shards 0, 1 of 2)"
        rows.append((label, count, f"{rate:.1f}", *spread(answered, (50, 99)), errors))
    print(f"{servers} servers × {games} games of two members, {seconds:.0f} s, PostgreSQL")
    print_table(("bot", "interactions", "per second", "p50 ms", "p99 ms", "max ms", "errors"), rows)
    print(f"2 processes / 1 process: {rates[1] / rates[0]:.2f}×")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="run", required=True)
    lat = sub.add_parser("latency", help="click → answer on SQLite and on PostgreSQL")
    lat.add_argument("--game", action="append", help="default: cock_and_bull and risk")
    lat.add_argument("--moves", type=int, default=150, help="main moves per game and backend")
    lat.add_argument("--seconds", type=float, default=20, help="at most, per game and backend")
    thr = sub.add_parser("throughput", help="interactions per second, 1 vs 2 shard processes")
    thr.add_argument("--servers", type=int, default=4, help="servers, half on each shard")
    thr.add_argument("--games", type=int, default=3, help="games at once in each server")
    thr.add_argument("--seconds", type=float, default=30, help="of play, per configuration")
    args = parser.parse_args()
    print_load("before")
    if args.run == "latency":
        asyncio.run(latency(args.game or ["cock_and_bull", "risk"], args.moves, args.seconds))
    else:
        asyncio.run(throughput(args.servers, args.games, args.seconds))
    print_load("after")


if __name__ == "__main__":
    main()
