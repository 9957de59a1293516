"""Where a move's CPU goes: `bench.load`'s games (Cock & Bull; `--game risk`: Risk, played
as `bench.load.RISK` says) played at a steady rate while py-spy samples the bot's processes
(the event loop's and its picture workers), each sample put in the stage of the work it
belongs to.

A sample's stage is that of the innermost Python frame a stage claims (`STAGES`, first match
from the leaf up); samples of a thread waiting (for a socket, a queue, a lock, the GIL, the
disk) are left out. py-spy reads the C frames too (`--native`): the event loop waiting in
epoll shows the same Python frames as the loop's own C code at work, and only the C frames
tell them apart (without them, half the samples ending in the loop were the loop idle). The
CPU per interaction, measured from /proc over the same number of seconds just before the
sampling, is shared out by the stages' samples. py-spy stops the bot for each sample, which
costs it CPU (about a tenth more at 100 a second): read while the bot runs on
(`--nonblocking`), stacks change under the reader, and twice as many samples ended in the
event loop's own frame. With `--baseline DIR` the same run is made first against another
checkout's bot.

Needs py-spy (`.venv/bin/pip install py-spy`; it reads the bot's memory, so run as root or
with ptrace allowed). Run: .venv/bin/python -m bench.profile [--game risk] [--seconds 20]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import shutil
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from bench.bot_process import usage
from bench.common import print_load, run_beside_the_bot
from bench.load import (
    STALL_SECONDS,
    TITLES,
    Pacer,
    Tally,
    Title,
    add_title_option,
    collector_held,
    in_time,
    mix,
    playing,
    running,
    used,
)
from bench.results import ROOT, Run, argv_of, commit_of

# (stage, pattern of a frame "function (file:line)"), the first that a frame matches.
STAGES = (
    (
        "PNG encode",
        r"^to_png |\(images/png\.py|zlib_ng|PngImagePlugin|ImageFile\.py"
        r"|Image\.quantize|Image\.save ",
    ),
    ("picture drawing", r"\(images/|\(cogs/[a-z_]+\.py:\d+\)$"),
    (
        "picture hand-over",
        # An older bot's process pool; the bot's only asyncio streams: its workers' sockets.
        r"multiprocessing/|concurrent/futures/process\.py|asyncio/streams\.py"
        r"|bot/table/pictures\.py",
    ),
    ("rules engine", r"\(rules/"),
    ("storage", r"aiosqlite|asyncpg|bot/storage/|sqlite3"),
    (
        "requests to Discord",
        r"aiohttp/client|aiohttp/http_writer|aiohttp/multipart|aiohttp/formdata|aiohttp/payload|discord/http\.py|discord/webhook/|InteractionResponse|discord/file\.py",
    ),
    (
        "gateway and parsing",
        r"discord/gateway\.py|discord/state\.py|aiohttp/client_ws|zlib|json/|discord/message\.py|discord/interactions\.py|discord/embeds\.py|discord/components\.py",
    ),
    ("discord.py dispatch", r"discord/ui/|discord/client\.py|discord/ext/|discord/app_commands/"),
    ("board and wording", r"bot/table/(board|publisher|pings|endings)\.py|bot/language/|babel/"),
    ("routing and service", r"\(bot/"),
    # No Python frame above the loop's own: C code the loop runs (uvloop's sockets, timers
    # and callbacks; aiohttp's C parsers of HTTP answers and gateway frames).
    ("event loop, in C", r"^Runner\.run \(asyncio/runners\.py"),
    ("event loop, in asyncio", r"asyncio/"),
)
SAMPLES_A_SECOND = 100  # each stops the bot for a moment: not more than the shares need
# The stages by whose code they are: the summary line each profile's notes give.
GROUPS = {
    "pictures": ("PNG encode", "picture drawing", "picture hand-over"),
    "discord.py, aiohttp and the event loop": (
        "requests to Discord",
        "gateway and parsing",
        "discord.py dispatch",
        "event loop, in C",
        "event loop, in asyncio",
    ),
    "the rest of the bot": (
        "rules engine",
        "storage",
        "board and wording",
        "routing and service",
        "other",
    ),
}
# A thread waiting, not working: its samples are left out (a pipe's read or write blocks
# until the other side is ready; the copy itself is cheap).
WAITING = re.compile(
    r"^(select|poll|_poll|wait|acquire|get|sleep|_recv|recv|recv_bytes|_recv_bytes|accept|"
    r"_worker|_connection_worker_thread|Condition\.wait|Event\.wait|Queue\.get|"
    r"EpollSelector\.select|_PollLikeSelector\.select|SemLock\.__enter__|_exit_with|"
    r"Thread\.join|wait_result_broken_or_wakeup|Connection\._send|Connection\._recv) "
)


# The C calls in which a thread waits (the kernel's, libc's): a sample whose C frames below
# its innermost Python frame include one is a thread waiting, not working.
WAITING_IN_C = re.compile(
    r"^(epoll_pwait|epoll_wait|poll|ppoll|select|pselect6?|pthread_cond_wait"
    r"|pthread_cond_timedwait|sem_wait|sem_timedwait|__futex_abstimed_wait\w*|nanosleep"
    r"|clock_nanosleep|fsync|fdatasync|waitpid|wait4|PyThread_acquire_lock_timed) "
)
PYTHON_FRAME = re.compile(r"\([^()]*\.py:\d+\)$|\(<frozen ")


def stage_of(frames: list[str]) -> str | None:
    """The stage of a sample (frames root first), None for a waiting thread."""
    if not frames:
        return None  # a process's line with no Python frame
    leaf = frames[-1].strip()
    if WAITING.match(leaf) or leaf.startswith(("_connection_worker_thread", "select ")):
        return None
    for frame in reversed(frames):
        for stage, pattern in STAGES:
            if re.search(pattern, frame):
                return stage
    return "other"


def stages(raw: str) -> Counter[str]:
    """Samples per stage from py-spy's raw (collapsed) output."""
    counts: Counter[str] = Counter()
    for line in raw.splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack:
            continue
        frames = [f for f in stack.split(";") if not f.startswith("process ")]
        python = [i for i, frame in enumerate(frames) if PYTHON_FRAME.search(frame)]
        below = frames[python[-1] + 1 :] if python else frames
        if any(WAITING_IN_C.match(frame) for frame in below):
            continue
        stage = stage_of([frames[i] for i in python])
        if stage is not None:
            counts[stage] += int(count)
    return counts


@dataclass(frozen=True)
class Profiled:
    """What one profiled stretch of play gave."""

    stages: Counter[str]  # samples per stage
    cpu_ms: float  # the bot's CPU per interaction
    answered: int  # interactions
    moves: str  # the moves played by kind (`bench.load.mix`)


async def profile(
    title: Title, games: int, rate: float, seconds: float, code: Path | None
) -> Profiled:
    """`games` games of `title` played at `rate` for `seconds`, py-spy sampling the bot."""
    async with (
        running(games, False, None, code, title) as bench,
        in_time(3 + 2 * seconds + STALL_SECONDS, "profiling"),
    ):
        tally = Tally()
        async with playing(bench, rate, tally) as pacer:
            await pacer.run(time.monotonic() + 3)  # warm: every game's first moves
            kinds, started = Counter(tally.kinds), tally.games_started
            with collector_held():
                # The CPU first, unsampled: py-spy stops the bot for each sample, at a cost.
                before, sent = usage(bench.bot.proc.pid), len(bench.fake.interactions)
                await pacer.run(time.monotonic() + seconds)
                cpu = used(before, usage(bench.bot.proc.pid))
                answered = len(bench.fake.interactions) - sent
                counts = await sampled(bench.bot.proc.pid, seconds, pacer)
                moves = mix(tally.kinds - kinds, tally.games_started - started)
    return Profiled(counts, 1000 * cpu.cpu_s / max(answered, 1), answered, moves)


async def sampled(pid: int, seconds: float, pacer: Pacer) -> Counter[str]:
    """Samples per stage of process `pid` and its children while `pacer` runs `seconds`."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "raw.txt"
        spy = await asyncio.create_subprocess_exec(
            *(py_spy(), "record", "--subprocesses", "--native"),
            *("--rate", str(SAMPLES_A_SECOND)),
            *("--format", "raw", "--output", str(out), "--pid", str(pid)),
            *("--duration", str(int(seconds))),
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        await pacer.run(time.monotonic() + seconds)
        await spy.wait()
        return stages(out.read_text())


def grouped(got: Profiled, total: int) -> str:
    """CPU per interaction by `GROUPS`, in words."""
    parts = (
        f"{name} {got.cpu_ms * sum(got.stages[stage] for stage in stages) / total:.2f}"
        for name, stages in GROUPS.items()
    )
    return f"ms/int by whose code: {', '.join(parts)}"


def py_spy() -> str:
    found = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if not Path(found).exists():
        raise SystemExit("py-spy is needed: .venv/bin/pip install py-spy")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_title_option(parser)
    parser.add_argument("--games", type=int, help="default: 50 (Risk: 20)")
    parser.add_argument("--rate", type=float, help="interactions a second (default: 40; Risk: 10)")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--baseline", type=Path, help="a checkout of an older version")
    args = parser.parse_args()
    title = TITLES[args.game]
    games, rate = args.games or title.profiled[0], args.rate or title.profiled[1]
    print_load("before")
    run = Run(f"profile{title.results}", title.hot_paths, argv_of(args.baseline))
    columns: list[str] = []
    rows = {name: [name] for name, _ in (*STAGES, ("other", ""), ("all", ""))}
    for code in (args.baseline, None) if args.baseline is not None else (None,):
        got = run_beside_the_bot(profile(title, games, rate, args.seconds, code))
        total = sum(got.stages.values()) or 1
        columns.append(f"{commit_of(code or ROOT, title.hot_paths)} ms/int")
        for name, cells in rows.items():
            share = got.stages[name] / total if name != "all" else 1
            cells.append(f"{got.cpu_ms * share:.2f}")
        run.note(f"{columns[-1][:-7]}: {got.answered} interactions, {total} samples")
        run.note(f"{columns[-1][:-7]}: {grouped(got, total)}")
        if title.kinds:
            run.note(f"{columns[-1][:-7]}: moves by kind, {got.moves}")
    run.table(
        f"CPU per interaction by stage, {title.caption}, {games} games at {rate:g}/s, "
        f"{args.seconds:g} s, the bot's processes together (ms)",
        ("stage", *columns),
        list(rows.values()),
    )
    run.save()
    print_load("after")


if __name__ == "__main__":
    main()
