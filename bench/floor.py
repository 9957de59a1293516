"""The floor under a click: what discord.py itself costs a bot that answers a move, beside
what Parlour costs, in one run on one machine.

First `bench.load`'s Cock & Bull row (`--games` games of two members, clicking at `--rate`
for `--seconds`) is measured against Parlour's bot, and the board its first game shows at
the end is kept: embed, buttons and picture. Then the same fake Discord serves
`bench.floor_bot`, a discord.py client set up as Parlour's is that answers every click by
editing the clicked message into that board (the same embed, a fresh upload of the same
picture, the same buttons) and does nothing else. As many boards as games are clicked at the
same rate, each by its member as soon as it has its answer, open loop as in `bench.load`.

Printed per bot: the achieved rate, click → answer latency, the CPU per interaction (all the
bot's processes; the event loop's process apart) and the requests per interaction. The
floor's CPU is what any discord.py bot answering a move with a board pays here: gateway
frames parsed, the interaction built and dispatched to its item, the answer's multipart
request built and sent, its reply parsed, the event loop between. Parlour's figure less
the floor is Parlour's own work per move: the game, its storage, its picture, its pings.
Results go to `bench/results/floor.json`.

Run: .venv/bin/python -m bench.floor [--games 200] [--rate 100] [--seconds 20]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import tempfile
import time
from pathlib import Path

from bench.bot_process import launch, usage
from bench.common import print_load, spread
from bench.floor_bot import Shown
from bench.load import (
    COCK_AND_BULL,
    DEADLINE,
    SETUP_SECONDS,
    STALL_SECONDS,
    Pacer,
    Tally,
    Window,
    collector_held,
    in_time,
    measure,
    running,
    used,
    window,
)
from bench.results import Run, argv_of, commit_of
from tests.e2e.fake_discord import JSON, FakeDiscord, FakeMessage
from tests.e2e.process import connected, process_env

HOT_PATHS = (*COCK_AND_BULL.hot_paths, "bench/floor_bot.py")
HEADERS = (
    "bot",
    "games",
    "target/s",
    "achieved/s",
    "p50 ms",
    "p99 ms",
    "max ms",
    "over 3 s",
    "CPU ms/int",
    "loop process ms/int",
    "requests/int",
)


async def parlour(games: int, rate: float, seconds: float) -> tuple[Window, JSON]:
    """Parlour's row, and the board its first game showed at the end (`bench.floor_bot`'s
    `FLOOR_BOARD`)."""
    async with running(games, False, None) as bench:
        async with in_time(seconds + DEADLINE + STALL_SECONDS, "Parlour's stretch"):
            measured, _pacer, _tally = await measure(bench, rate, seconds)
        board = board_of(bench.fake.message(bench.boards[0].id))
    return measured, board


def board_of(message: FakeMessage) -> JSON:
    """A board message as `bench.floor_bot.Shown.of` reads it."""
    (embed,) = message.embeds
    picture = base64.b64encode(message.attachments[0].data).decode()
    return {"embed": embed, "components": message.components, "picture": picture}


async def floor(games: int, rate: float, seconds: float, board: JSON) -> Window:
    """The floor bot's row: `games` boards clicked at `rate` for `seconds`."""
    async with FakeDiscord() as fake:
        with tempfile.TemporaryDirectory() as tmp:
            saved = Path(tmp) / "board.json"
            saved.write_text(json.dumps(board))
            env = process_env(fake, Path(tmp) / "unused.sqlite3", FLOOR_BOARD=str(saved))
            bot = await launch(Path(tmp) / "bot", env, module="bench.floor_bot")
            try:
                async with in_time(SETUP_SECONDS, "starting the floor bot"):
                    await connected(fake, bot, 1)
                channel = fake.channel_id
                shown = Shown.of(board)
                boards = [
                    (
                        await fake.post_as_bot(channel, components=shown.view(n).to_components()),
                        fake.make_user(f"F{n:03d}"),
                    )
                    for n in range(games)
                ]
                tally, pacer = Tally(), Pacer(rate)
                clicking = [
                    asyncio.create_task(_member(fake, message.id, user, pacer, tally))
                    for message, user in boards
                ]
                try:
                    async with in_time(seconds + DEADLINE + STALL_SECONDS, "the floor's stretch"):
                        await pacer.run(time.monotonic() + 3)  # warm: every board's first edit
                        with collector_held():
                            before, ours = usage(bot.proc.pid), time.process_time()
                            start = time.monotonic()
                            await pacer.run(start + seconds)
                            end = time.monotonic()
                        after, ours = usage(bot.proc.pid), time.process_time() - ours
                        await asyncio.sleep(DEADLINE)
                finally:
                    for task in clicking:
                        task.cancel()
                    await asyncio.gather(*clicking, return_exceptions=True)
                for line in bot.errors()[:3]:
                    print(f"floor bot error: {line}")
            finally:
                await bot.kill()
        return window(fake, start, end, tally.moves, used(before, after), ours)


async def _member(
    fake: FakeDiscord, message_id: int, user: JSON, pacer: Pacer, tally: Tally
) -> None:
    """A member who clicks their board's first button at each slot, once it has answered."""
    while True:
        await pacer.slot()
        message = fake.message(message_id)
        button = message.components[0]["components"][0]["custom_id"]
        interaction = await fake.click(user, message, custom_id=button)
        try:
            await interaction.response(timeout=DEADLINE + 2)
            tally.moves += 1
        except TimeoutError:
            tally.stuck += 1


def cells(bot: str, games: int, rate: float, measured: Window) -> list[object]:
    done = len(measured.answers)
    requests = sum(measured.requests.values())
    return [
        bot,
        games,
        f"{rate:g}",
        f"{done / measured.seconds:.1f}",
        *spread(measured.answers, (50, 99), 0),
        measured.late,
        f"{1000 * measured.cpu_s / max(done, 1):.1f}",
        f"{1000 * measured.main_cpu_s / max(done, 1):.1f}",
        f"{requests / max(done, 1):.2f}",
    ]


async def both(games: int, rate: float, seconds: float) -> tuple[Window, Window]:
    ours, board = await parlour(games, rate, seconds)
    return ours, await floor(games, rate, seconds, board)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rate", type=float, default=100.0)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    run = Run("floor", HOT_PATHS, argv=argv_of(None))
    print_load("before")
    ours, least = asyncio.run(both(args.games, args.rate, args.seconds))
    commit = commit_of(paths=HOT_PATHS)
    run.table(
        f"Cock & Bull moves against Parlour's bot and the discord.py floor, {args.games} "
        f"games (boards) at {args.rate:g}/s, {args.seconds:g} s a row",
        HEADERS,
        [
            cells(commit, args.games, args.rate, ours),
            cells("discord.py floor", args.games, args.rate, least),
        ],
    )
    ms = [1000 * w.cpu_s / max(len(w.answers), 1) for w in (ours, least)]
    run.note(
        f"the floor is {ms[1] / ms[0]:.2f} of Parlour's CPU per interaction; Parlour's own "
        f"work above it: {ms[0] - ms[1]:.1f} ms an interaction"
    )
    run.save()
    print_load("after")


if __name__ == "__main__":
    main()
