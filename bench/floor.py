"""The floor under a click: what discord.py itself costs a bot that answers a move, beside
what Parlour costs, in one run on one machine.

First `bench.load`'s row of `--game` (Cock & Bull, or Risk: `--games` games of two members,
clicking at `--rate` for `--seconds`) is measured against Parlour's bot, and the board its
first game shows at the end is kept: embed, buttons, menus and picture. Then the same fake
Discord serves `bench.floor_bot`, a discord.py client set up as Parlour's is that answers
every click by editing the clicked message into that board (the same embed, a fresh upload
of the same picture, the same buttons and menus) and does nothing else. As many boards as
games are clicked at the same rate, each on its first button by its member as soon as it
has its answer, open loop as in `bench.load`.

Printed per bot: the achieved rate, click → answer latency, the CPU per interaction (all the
bot's processes; the event loop's process apart) and the requests per interaction. The
floor's CPU is what any discord.py bot answering a move with a board pays here: gateway
frames parsed, the interaction built and dispatched to its item, the answer's multipart
request built and sent, its reply parsed, the event loop between. Parlour's figure less
the floor is Parlour's own work per move: the game, its storage, its picture, its pings.
With `--stages`, each bot is then sampled by py-spy as `bench.profile` samples (Parlour's in
a run of its own), and each bot's CPU per interaction is shared out by `bench.profile`'s
stages, side by side: where Parlour's work above the floor goes. Results go to
`bench/results/floor.json` (Risk's to `floor_risk.json`).

Run: .venv/bin/python -m bench.floor [--game risk] [--games N] [--rate N] [--seconds 20]
[--stages]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from bench.bot_process import launch, usage
from bench.common import print_load, run_beside_the_bot, spread
from bench.floor_bot import Shown
from bench.load import (
    COCK_AND_BULL,
    DEADLINE,
    RISK,
    SETUP_SECONDS,
    STALL_SECONDS,
    TITLES,
    Pacer,
    Tally,
    Title,
    Window,
    add_title_option,
    collector_held,
    in_time,
    measure,
    running,
    used,
    window,
)
from bench.load import HEADERS as LOAD_HEADERS
from bench.profile import GROUPS, STAGES, Profiled, profile, sampled
from bench.results import Run, argv_of, commit_of
from tests.e2e.fake_discord import JSON, FakeDiscord, FakeMessage
from tests.e2e.process import BotProcess, connected, process_env

# (games, rate) measured when none are given: each title's row in docs/PERFORMANCE.md.
ROWS = {COCK_AND_BULL.name: (200, 100.0), RISK.name: (20, 10.0)}
# `bench.load`'s columns from the games to the answers over 3 s, then CPU and requests.
HEADERS = ("bot", *LOAD_HEADERS[1:8], "CPU ms/int", "loop process ms/int", "requests/int")


def hot_paths(title: Title) -> tuple[str, ...]:
    return (*title.hot_paths, "bench/floor_bot.py")


async def parlour(title: Title, games: int, rate: float, seconds: float) -> tuple[Window, JSON]:
    """Parlour's row, and the board its first game showed at the end (`bench.floor_bot`'s
    `FLOOR_BOARD`)."""
    async with running(games, False, None, title=title) as bench:
        async with in_time(seconds + DEADLINE + STALL_SECONDS, "Parlour's stretch"):
            measured, _pacer, _tally = await measure(bench, rate, seconds)
        board = board_of(bench.fake.message(bench.boards[0].id))
    return measured, board


def board_of(message: FakeMessage) -> JSON:
    """A board message as `bench.floor_bot.Shown.of` reads it."""
    (embed,) = message.embeds
    picture = base64.b64encode(message.attachments[0].data).decode()
    return {"embed": embed, "components": message.components, "picture": picture}


@asynccontextmanager
async def floor_bot(board: JSON) -> AsyncIterator[tuple[FakeDiscord, BotProcess]]:
    """A fake Discord and `bench.floor_bot` connected to it, answering with `board`."""
    async with FakeDiscord() as fake:
        with tempfile.TemporaryDirectory() as tmp:
            saved = Path(tmp) / "board.json"
            saved.write_text(json.dumps(board))
            env = process_env(fake, Path(tmp) / "unused.sqlite3", FLOOR_BOARD=str(saved))
            bot = await launch(Path(tmp) / "bot", env, module="bench.floor_bot")
            try:
                async with in_time(SETUP_SECONDS, "starting the floor bot"):
                    await connected(fake, bot, 1)
                yield fake, bot
                for line in bot.errors()[:3]:
                    print(f"floor bot error: {line}")
            finally:
                await bot.kill()


@asynccontextmanager
async def clicking(
    fake: FakeDiscord, board: JSON, games: int, pacer: Pacer, tally: Tally
) -> AsyncIterator[None]:
    """`games` boards posted, each clicked by its member at `pacer`'s slots while the block
    runs."""
    shown = Shown.of(board)
    members = [
        asyncio.create_task(
            _member(
                fake,
                await fake.post_as_bot(fake.channel_id, components=shown.view(n).to_components()),
                fake.make_user(f"F{n:03d}"),
                pacer,
                tally,
            )
        )
        for n in range(games)
    ]
    try:
        yield
    finally:
        for task in members:
            task.cancel()
        await asyncio.gather(*members, return_exceptions=True)


async def floor(
    games: int, rate: float, seconds: float, board: JSON, staged: bool
) -> tuple[Window, Counter[str]]:
    """The floor bot's row: `games` boards clicked at `rate` for `seconds`; with `staged`,
    then as long again sampled by py-spy (`bench.profile.sampled`: its samples by stage)."""
    tally, pacer = Tally(), Pacer(rate)
    counts: Counter[str] = Counter()
    stretches = 2 * seconds if staged else seconds
    async with (
        floor_bot(board) as (fake, bot),
        clicking(fake, board, games, pacer, tally),
        in_time(3 + stretches + DEADLINE + STALL_SECONDS, "the floor's stretch"),
    ):
        await pacer.run(time.monotonic() + 3)  # warm: every board's first edit
        with collector_held():
            before, ours = usage(bot.proc.pid), time.process_time()
            start = time.monotonic()
            await pacer.run(start + seconds)
            end = time.monotonic()
        after, ours = usage(bot.proc.pid), time.process_time() - ours
        await asyncio.sleep(DEADLINE)  # the last clicks' answers
        if staged:
            counts = await sampled(bot.proc.pid, seconds, pacer)
        measured = window(fake, start, end, tally.moves, used(before, after), ours)
    return measured, counts


async def _member(
    fake: FakeDiscord, board: FakeMessage, user: JSON, pacer: Pacer, tally: Tally
) -> None:
    """A member who clicks their board's first button at each slot, once it has answered."""
    while True:
        await pacer.slot()
        message = fake.message(board.id)
        button = message.buttons[0]["custom_id"]  # a Risk board's menus come before them
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
        f"{measured.per_answer_ms(measured.cpu_s):.1f}",
        f"{measured.per_answer_ms(measured.main_cpu_s):.1f}",
        f"{requests / max(done, 1):.2f}",
    ]


@dataclass(frozen=True)
class Measured:
    """Both bots' rows, and with `--stages` both bots' CPU per interaction by stage."""

    parlour: Window
    floor: Window
    parlour_stages: Profiled | None
    floor_stages: Counter[str]


async def both(title: Title, games: int, rate: float, seconds: float, staged: bool) -> Measured:
    ours, board = await parlour(title, games, rate, seconds)
    least, counts = await floor(games, rate, seconds, board, staged)
    profiled = await profile(title, games, rate, seconds, None) if staged else None
    return Measured(ours, least, profiled, counts)


def stage_ms(measured: Measured) -> dict[str, tuple[float, float]]:
    """Each of `bench.profile`'s stages (and "other", "all"): (Parlour's ms/int, the floor's),
    each bot's CPU per interaction shared out by its own samples."""
    assert measured.parlour_stages is not None
    ours = measured.parlour_stages
    floor_ms = measured.floor.per_answer_ms(measured.floor.cpu_s)
    totals = (sum(ours.stages.values()) or 1, sum(measured.floor_stages.values()) or 1)
    shares = {}
    for name in (*(stage for stage, _ in STAGES), "other", "all"):
        parlour_share = ours.stages[name] / totals[0] if name != "all" else 1
        floor_share = measured.floor_stages[name] / totals[1] if name != "all" else 1
        shares[name] = (ours.cpu_ms * parlour_share, floor_ms * floor_share)
    return shares


def by_stage(measured: Measured) -> list[list[str]]:
    """Rows of stage, Parlour's ms/int, the floor's, and the difference."""
    return [
        [name, f"{a:.2f}", f"{b:.2f}", f"{a - b:+.2f}"]
        for name, (a, b) in stage_ms(measured).items()
    ]


def floor_and_picture(measured: Measured) -> str:
    """What any bot that answers with a board pays (the floor) plus Parlour's picture stages
    alone (`bench.profile.GROUPS`' "pictures"), beside Parlour's whole CPU per interaction."""
    shares = stage_ms(measured)
    picture = sum(shares[stage][0] for stage in GROUPS["pictures"])
    floor_ms, parlour_ms = shares["all"][1], shares["all"][0]
    return (
        f"the floor and Parlour's picture (its drawing, PNG encoding and hand-over) alone: "
        f"{floor_ms:.2f} + {picture:.2f} = {floor_ms + picture:.2f} ms an interaction, of "
        f"Parlour's {parlour_ms:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_title_option(parser)
    parser.add_argument("--games", type=int, help="games at once (default: `ROWS`)")
    parser.add_argument("--rate", type=float, help="interactions a second (default: `ROWS`)")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument(
        "--stages", action="store_true", help="then both sampled by py-spy, by stage"
    )
    args = parser.parse_args()
    title = TITLES[args.game]
    games, rate = args.games or ROWS[title.name][0], args.rate or ROWS[title.name][1]
    run = Run(f"floor{title.results}", hot_paths(title), argv=argv_of(None))
    print_load("before")
    measured = run_beside_the_bot(both(title, games, rate, args.seconds, args.stages))
    ours, least = measured.parlour, measured.floor
    commit = commit_of(paths=hot_paths(title))
    run.table(
        f"{title.caption} moves against Parlour's bot and the discord.py floor, {games} "
        f"games (boards) at {rate:g}/s, {args.seconds:g} s a row",
        HEADERS,
        [
            cells(commit, games, rate, ours),
            cells("discord.py floor", games, rate, least),
        ],
    )
    ms = [w.per_answer_ms(w.cpu_s) for w in (ours, least)]
    run.note(
        f"the floor is {ms[1] / ms[0]:.2f} of Parlour's CPU per interaction; Parlour's own "
        f"work above it: {ms[0] - ms[1]:.1f} ms an interaction"
    )
    if args.stages:
        run.table(
            f"CPU per interaction by stage (`bench.profile`'s), Parlour's bot and the floor, "
            f"{title.caption}, {games} games at {rate:g}/s, sampled {args.seconds:g} s each (ms)",
            ("stage", f"{commit} ms/int", "floor ms/int", "Parlour − floor"),
            by_stage(measured),
        )
        run.note(floor_and_picture(measured))
    run.save()
    print_load("after")


if __name__ == "__main__":
    main()
