"""The table runtime under the conditions it was built for, through the real `python -m bot`
process and the fake Discord from `tests/e2e` (members play as in `tests/e2e/storm.py`:
mostly the player to act, sometimes out of turn, outsiders, old boards).

- `storm`: the five games, each to its end, with the process killed (SIGKILL) every
  `--kill-every` clicks and started again: clicks unanswered or answered after Discord's
  3 s, games that did not end, answers p50 / p99 / max.
- `restart`: a database with `--backlog` games whose turn timers ran out while the bot was
  down, and live games: process start → first answer, a new Risk game's Start → first
  board, then click → answer p50 / p99 in the first 10 s after the restart, and how long the
  backlog took.
- `mixed`: the five games played continuously for `--minutes` (a finished game is replaced
  by a new one); the process is stopped with SIGTERM and its event-loop lag (p50, p99,
  worst) read from the summary it logs.

Run: .venv/bin/python -m bench.runtime {storm,restart,mixed} [--help]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import signal
import sqlite3
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from bench import bot_process
from bench.common import print_load, print_table, spread
from tests.e2e.backlog import overdue_games
from tests.e2e.driver import is_board, open_lobby
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.process import BotProcess, connected, process_env
from tests.e2e.storm import Storm, Table
from tests.games import STORMS

NAMES = ("Ana", "Leo", "Mia", "Noa")
LAG = re.compile(r"event loop lag over ([\d.]+) min: p50 (\d+) ms, p99 (\d+) ms, worst (\d+) ms")


async def launch(fake: FakeDiscord, folder: Path, **settings: str) -> BotProcess:
    return await bot_process.launch(
        folder, process_env(fake, folder / "parlour.sqlite3", **settings)
    )


def answers_ms(fake: FakeDiscord, since: float = 0.0) -> list[float]:
    """Every answered interaction sent after `since` (monotonic): sent → answered, in ms."""
    return [
        i.answered_after * 1000
        for i in fake.interactions
        if i.answered_after is not None and i.sent_at >= since
    ]


async def in_fake(work: Callable[[FakeDiscord, Path], Awaitable[None]]) -> None:
    async with FakeDiscord() as fake:
        with tempfile.TemporaryDirectory() as tmp:
            await work(fake, Path(tmp))


# --- storm ------------------------------------------------------------------------------------


async def storm(fake: FakeDiscord, folder: Path, kill_every: int, seed: int) -> None:
    bot = await launch(fake, folder, AUTOPLAY_PACE="0")
    await connected(fake, bot, 1)
    players = Storm(fake, seed)
    tables = [await players.open(spec, NAMES) for spec in STORMS]
    restarts, started, errors = 0, time.perf_counter(), 0
    while not all(players.finished(t) for t in tables) and players.tally.clicks < 20_000:
        await players.click(players.rng.choice([t for t in tables if not players.finished(t)]))
        if players.tally.clicks >= kill_every * (restarts + 1):
            await bot.kill()
            errors += len(bot.errors())
            restarts += 1
            bot = await launch(fake, folder, AUTOPLAY_PACE="0")
            await connected(fake, bot, restarts + 1)
    await bot.kill()
    errors += len(bot.errors())
    answers = answers_ms(fake)
    print(f"storm: SIGKILL every {kill_every} clicks, seed {seed}")
    print_table(
        ("games ended", "clicks", "restarts", "unanswered", "over 3 s", "p50", "p99", "max", "s"),
        [
            (
                f"{sum(players.finished(t) for t in tables)} of {len(tables)}",
                players.tally.clicks,
                restarts,
                len(players.tally.unanswered) + len(fake.unanswered()),
                len(fake.late_answers),
                *spread(answers, (50, 99)),
                f"{time.perf_counter() - started:.0f}",
            )
        ],
    )
    print("errors logged by the processes:", errors)


# --- restart ------------------------------------------------------------------------------------


async def restart(fake: FakeDiscord, folder: Path, games: int, seconds: float) -> None:
    first = await launch(fake, folder)
    await connected(fake, first, 1)
    players = Storm(fake, 5)
    live = [await players.open(spec, NAMES) for spec in STORMS[:2]]
    await first.kill()
    ids = await overdue_games(fake, folder / "parlour.sqlite3", games)

    spawned = time.monotonic()
    bot = await launch(fake, folder)
    await connected(fake, bot, 2)
    connected_at = time.monotonic()
    rec = await fake.slash(fake.make_user("Eve"), "games")
    await rec.response()
    first_answer = (rec.sent_at + (rec.answered_after or 0)) - spawned
    risk_board = await _first_risk_board(fake)
    worked_off = asyncio.create_task(
        _until_worked_off(folder / "parlour.sqlite3", ids, connected_at)
    )
    until = connected_at + seconds
    while time.monotonic() < until:
        await players.click(players.rng.choice(live))
    answers = answers_ms(fake, since=connected_at)
    await bot.kill()
    print(f"restart: {games} overdue turn timers, live clicks for {seconds:.0f} s after connecting")
    print_table(
        (
            "start → first answer s",
            "first answer after connect ms",
            "clicks",
            "p50",
            "p99",
            "max",
            "over 3 s",
            "backlog done s",
            "Risk: Start → board ms",
        ),
        [
            (
                f"{first_answer:.2f}",
                f"{(rec.answered_after or 0) * 1000:.0f}",
                len(answers),
                *spread(answers, (50, 99)),
                len(fake.late_answers),
                await worked_off,
                f"{risk_board * 1000:.0f}",
            )
        ],
    )


async def _first_risk_board(fake: FakeDiscord) -> float:
    """Seconds from a new Risk game's Start click to its first board in the thread."""
    host, guest = fake.make_user("Ida"), fake.make_user("Eli")
    lobby = await open_lobby(fake, host, "risk")
    await (await fake.click(guest, lobby, label="Join")).response()
    threads = {int(t["id"]) for t in fake.threads}
    started = time.monotonic()
    await fake.click(host, lobby, label="Start")
    await fake.wait_for(
        lambda: next(
            (
                m
                for t in fake.threads
                if int(t["id"]) not in threads
                for m in fake.messages(int(t["id"]))
                if is_board(m)
            ),
            None,
        )
    )
    return time.monotonic() - started


async def _until_worked_off(database: Path, ids: list[int], since: float) -> str:
    """Seconds from `since` until every backlog game has moved on and shows it."""
    marks = ",".join("?" * len(ids))
    while time.monotonic() - since < 300:
        with sqlite3.connect(database) as db:
            (left,) = db.execute(
                f"SELECT COUNT(*) FROM games WHERE id IN ({marks})"
                " AND (step < 1 OR shown_step IS NULL OR shown_step < step)",
                ids,
            ).fetchone()
        if left == 0:
            return f"{time.monotonic() - since:.1f}"
        await asyncio.sleep(0.1)
    return "> 300"


# --- mixed ----------------------------------------------------------------------------------------


async def mixed(fake: FakeDiscord, folder: Path, minutes: float, seed: int) -> None:
    bot = await launch(fake, folder)
    await connected(fake, bot, 1)
    players = Storm(fake, seed)
    tables: list[Table] = [await players.open(spec, NAMES) for spec in STORMS]
    finished = 0
    until = time.monotonic() + minutes * 60
    while time.monotonic() < until:
        table = players.rng.choice(tables)
        if players.finished(table):
            finished += 1
            tables[tables.index(table)] = await players.open(table.spec, NAMES)
            continue
        await players.click(table)
    bot.proc.send_signal(signal.SIGTERM)
    await asyncio.wait_for(bot.proc.wait(), 30)
    await bot.kill()
    found = LAG.search(bot.log)
    answers = answers_ms(fake)
    print(f"mixed: the five games for {minutes:g} min ({finished} finished), then SIGTERM")
    print_table(
        ("clicks", "p50", "p99", "max", "over 3 s", "loop lag p50", "p99", "worst"),
        [
            (
                len(answers),
                *spread(answers, (50, 99)),
                len(fake.late_answers),
                *(found.groups()[1:] if found else ("?", "?", "?")),
            )
        ],
    )
    print("exit code", bot.proc.returncode, "; errors logged:", len(bot.errors()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    one = commands.add_parser("storm", help="every game to its end, SIGKILL every N clicks")
    one.add_argument("--kill-every", type=int, default=40)
    one.add_argument("--seed", type=int, default=1)
    two = commands.add_parser("restart", help="first answers after a restart with a backlog")
    two.add_argument("--backlog", type=int, default=300)
    two.add_argument("--seconds", type=float, default=10)
    three = commands.add_parser("mixed", help="the five games for minutes; event-loop lag")
    three.add_argument("--minutes", type=float, default=10)
    three.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print_load("before")
    if args.command == "storm":
        asyncio.run(in_fake(lambda f, d: storm(f, d, args.kill_every, args.seed)))
    elif args.command == "restart":
        asyncio.run(in_fake(lambda f, d: restart(f, d, args.backlog, args.seconds)))
    else:
        asyncio.run(in_fake(lambda f, d: mixed(f, d, args.minutes, args.seed)))
    print_load("after")


if __name__ == "__main__":
    main()
