"""Load: many games at once at a fixed aggregate rate, through one real bot process.

`python -m bot` runs against the fake Discord in this process. `--games` games of two
members each (`--game`: Cock & Bull, the default, or Risk; `Title` says how each is played)
are opened first (not measured); then, for `--seconds`, members click at `--rate`
interactions a second in all — open loop: a click goes out at its scheduled time to a game
whose board waits for a move, however long earlier answers took (a slot that finds no game
waiting is counted as missed, so a bot that falls behind shows as an achieved rate under
the target, not as a slower schedule). A game that ends is replaced by a new one, whose
slash command, join and start take their slots too.

Risk (`RISK`): each game is first played, unmeasured, through its set-up to the first
turn's attacks. Then the player to act attacks from and on the first territories the menus
offer, from every territory that can until none can, rolling with the most dice (never
Blitz, which fights a whole battle in one move) and moving everything in after a capture;
reinforcements are placed with Auto and the turn ends without fortifying. Nearly every
move measured is part of an attack: an attack's source or target picked, a roll, or a
move-in after a capture; reinforcements, turn ends and replaced games' set-ups are the
rest (the mix, by the label clicked, is printed as "moves by kind"). Every one of those
moves draws the 1600 px map.

Printed per (games, rate): the achieved rate, click → answer latency p50 / p99 / max, how
many answers came after Discord's 3 s (or never), the requests the bot made to Discord per
move (by route), the bot process's CPU (% of one core, and ms per interaction) and its
resident memory when idle, with the games open, at the end, and per open game. Results go
to `bench/results/load.json` (Risk: `load_risk.json`).

`soak` plays at a steady moderate rate for `--minutes` and prints a line a minute (rate,
p99, CPU, RSS, and what the bot logged about stalls): memory must level off.

This process stands in for Discord, so its own garbage collector is held while measuring
(`collector_held`): its full collections, over every message the fake keeps, would
otherwise be counted as the bot's latency.

Run: .venv/bin/python -m bench.load [table|soak] [--game risk] [--help]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import re
import tempfile
import time
from collections import Counter, deque
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from bench.bot_process import Usage, launch, usage
from bench.common import percentile, print_load, print_table, run_beside_the_bot, spread
from bench.results import ROOT, Run, argv_of, commit_of
from tests.databases import fresh_schema
from tests.e2e.driver import (
    COCK_AND_BULL_CHOICES,
    Choice,
    first_offered,
    human_turn,
    matches,
    play_one_move,
    start_game,
)
from tests.e2e.fake_discord import JSON, FakeDiscord, FakeMessage
from tests.e2e.fake_model import ANSWER_REQUIRED, RestCall
from tests.e2e.process import BotProcess, connected, process_env

DEADLINE = 3.0  # Discord's window for an answer
SETUP_SECONDS, SETUP_SECONDS_A_GAME = 60.0, 1.0  # connecting, and opening each game
STALL_SECONDS = 60.0  # beyond a stretch's own seconds: a bench waiting longer has stalled
MB = 1024 * 1024


@dataclass(frozen=True)
class Title:
    """A game as the load benches play it, two members a table: the labels the player to act
    picks (the first of `choices` the board offers), and what sets it apart from the others."""

    name: str  # as `--game` names it, and the slash command (with dashes)
    caption: str
    hot_paths: tuple[str, ...]  # what a move runs through: a change makes the figures stale
    rows: tuple[tuple[int, float], ...]  # (games, rate) measured when none are given
    profiled: tuple[int, float]  # (games, rate) `bench.profile` plays by default
    choices: tuple[Choice, ...] = COCK_AND_BULL_CHOICES
    # A label each game is played to, unpaced, before measuring (a set-up skipped).
    played_to: Choice | None = None
    # What a picked label counts as in the mix of moves printed (none: no mix printed).
    kinds: tuple[tuple[Choice, str], ...] = ()
    results: str = ""  # the suffix of its output files' names: bench/results/load<suffix>.json

    @property
    def command(self) -> str:
        return self.name.replace("_", "-")

    def kind_of(self, label: str | None) -> str:
        """What a move that picked `label` counts as (`kinds`)."""
        return next(
            (kind for choice, kind in self.kinds if label and matches(label, choice)), "other"
        )


COCK_AND_BULL = Title(
    "cock_and_bull",
    "Cock & Bull",
    ("bot", "cogs", "images", "rules/cock_and_bull", "rules/core.py", "pyproject.toml"),
    ((10, 10), (10, 25), (50, 25), (50, 50), (100, 50), (200, 100)),
    (50, 40.0),
)
# An option of a Risk territory menu, "Ukraine (3)": placed after Auto and before End turn
# in `RISK.choices`, it is only ever picked as an attack's source or target.
TERRITORY = re.compile(r"^\D.* \(\d+\)$")
RISK_ROLLS = ("Roll 3 dice", "Roll 2 dice", "Roll 1 die")
MOVE_IN_ALL = re.compile(r"^Move in \d+ \(all\)")
RISK = Title(
    "risk",
    "Risk",
    ("bot", "cogs", "images", "rules/risk", "rules/core.py", "pyproject.toml"),
    ((10, 5), (20, 10), (50, 20)),
    (20, 10.0),
    # Roll by roll with the most dice, everything moved in after a capture, set-up and
    # reinforcements by Auto, attacks until no territory can attack (then the turn ends, no
    # fortifying): never Blitz, so nearly every move is one step of an attack.
    choices=(*RISK_ROLLS, MOVE_IN_ALL, "Auto", TERRITORY, "End turn"),
    played_to="End attacks",  # the first turn's attacks: the set-up (26 Auto moves) skipped
    kinds=(
        *((roll, "attack: a roll") for roll in RISK_ROLLS),
        (TERRITORY, "attack: source or target picked"),
        (MOVE_IN_ALL, "move in after a capture"),
        ("Auto", "set-up or reinforcements (Auto)"),
        ("End turn", "end of turn"),
    ),
    results="_risk",
)
TITLES = {title.name: title for title in (COCK_AND_BULL, RISK)}


class Pacer:
    """Slots at `rate` a second on a fixed schedule; a slot goes to the longest waiting
    player, and one nobody waits for is missed (not saved up for later)."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.given = 0
        self.missed = 0
        self._waiting: deque[asyncio.Future[None]] = deque()

    async def slot(self) -> None:
        future = asyncio.get_running_loop().create_future()
        self._waiting.append(future)
        await future

    async def run(self, until: float) -> None:
        loop = asyncio.get_running_loop()
        start = loop.time()
        for n in range(int((until - start) * self.rate)):
            await asyncio.sleep(max(0.0, start + n / self.rate - loop.time()))
            while self._waiting and self._waiting[0].cancelled():
                self._waiting.popleft()
            if self._waiting:
                self._waiting.popleft().set_result(None)
                self.given += 1
            else:
                self.missed += 1


@dataclass
class Tally:
    moves: int = 0
    games_started: int = 0
    stuck: int = 0  # a move whose board did not show it within the driver's 5 s
    errors: list[str] = field(default_factory=list)
    kinds: Counter[str] = field(default_factory=Counter)  # moves by `Title.kinds`


async def _new_game(
    fake: FakeDiscord,
    players: list[JSON],
    pacer: Pacer | None,
    opening: asyncio.Lock,
    title: Title,
) -> FakeMessage:
    """Open, join and start a game: three interactions (three slots when paced). One game
    opens at a time: `start_game` finds its board as the newest thread's."""
    if pacer is not None:
        for _ in range(3):
            await pacer.slot()
    async with opening:
        return await start_game(fake, players[0], title.command, joiners=players[1:])


async def _played_to(
    fake: FakeDiscord, players: list[JSON], board: FakeMessage, title: Title
) -> FakeMessage:
    """`board`'s game played, unpaced, until its board offers `title.played_to`."""
    while title.played_to is not None and first_offered(board, (title.played_to,)) is None:
        up = await human_turn(fake, players, board, title.choices)
        assert up is not None, "the game ended before it was played to its measured part"
        board = await play_one_move(fake, players, up, title.choices)
    return board


async def play_game(
    fake: FakeDiscord,
    players: list[JSON],
    board: FakeMessage,
    pacer: Pacer,
    tally: Tally,
    title: Title,
) -> None:
    """`board`'s game played by its members to its end, each move waiting for a slot."""
    while True:
        try:
            up = await human_turn(fake, players, board, title.choices)
            if up is None:
                return
            await pacer.slot()
            if title.kinds:
                tally.kinds[title.kind_of(first_offered(up, title.choices))] += 1
            board = await play_one_move(fake, players, up, title.choices)
            tally.moves += 1
        except TimeoutError:
            tally.stuck += 1


async def _table(
    fake: FakeDiscord,
    players: list[JSON],
    board: FakeMessage,
    pacer: Pacer,
    opening: asyncio.Lock,
    tally: Tally,
    title: Title,
) -> None:
    """One game's members: each move waits for a slot; a finished game is replaced."""
    while True:
        await play_game(fake, players, board, pacer, tally, title)
        try:
            board = await _new_game(fake, players, pacer, opening, title)
            tally.games_started += 1
        except TimeoutError:
            tally.stuck += 1


@dataclass(frozen=True)
class Window:
    """What one measured stretch of play did."""

    seconds: float
    answers: list[float]  # ms from click to answer, of answered interactions
    late: int  # answered after the deadline, or not at all
    moves: int
    requests: Counter[str]
    bot_token: int  # of those, made with the bot's token (Discord's global rate limit)
    cpu_s: float
    main_cpu_s: float
    fake_cpu_s: float  # this process: the fake Discord and the members' drivers
    calls: list[RestCall] = field(default_factory=list)  # the requests themselves

    def per_answer_ms(self, cpu_s: float) -> float:
        """`cpu_s` (one of the CPU times above) in ms per interaction answered."""
        return 1000 * cpu_s / max(len(self.answers), 1)


def window(
    fake: FakeDiscord, start: float, end: float, moves: int, cpu: Usage, fake_cpu_s: float
) -> Window:
    """The interactions sent from `start` to `end`, and the requests made meanwhile; `cpu`:
    the bot's CPU seconds in that time, `fake_cpu_s` this process's."""
    sent = [i for i in fake.interactions if start <= i.sent_at < end and i.type in ANSWER_REQUIRED]
    answers = [i.answered_after * 1000 for i in sent if i.answered_after is not None]
    late = sum(1 for i in sent if i.answered_after is None or i.answered_after > DEADLINE)
    calls = [c for c in fake.calls if start <= c.at < end]
    requests = Counter(f"{c.method} {c.route}" for c in calls)
    bot_token = sum(1 for c in calls if c.bot_token)
    return Window(
        end - start,
        answers,
        late,
        moves,
        requests,
        bot_token,
        cpu.cpu_s,
        cpu.main_cpu_s,
        fake_cpu_s,
        calls,
    )


@dataclass
class Bench:
    title: Title
    fake: FakeDiscord
    bot: BotProcess
    boards: list[FakeMessage]
    players: list[list[JSON]]
    idle: Usage  # connected, no game yet
    opened: Usage  # every game open


@asynccontextmanager
async def launched(
    postgres: bool, workers: int | None, code: Path | None = None
) -> AsyncIterator[tuple[FakeDiscord, BotProcess, Usage]]:
    """The fake Discord and one bot process connected to it, with its usage while idle; the
    bot's code from the checkout `code` instead of this one's, when given."""
    async with FakeDiscord() as fake, _database(postgres) as database:
        with tempfile.TemporaryDirectory() as tmp:
            db = database or Path(tmp) / "parlour.sqlite3"
            more = {} if workers is None else {"PICTURE_WORKERS": str(workers)}
            env = process_env(fake, db, LOG_LEVEL="WARNING", **more)
            if code is not None:
                env["PYTHONPATH"] = str(code)  # before this checkout's installed package
            bot = await launch(Path(tmp) / "bot", env)
            try:
                async with in_time(SETUP_SECONDS, "connecting"):
                    await connected(fake, bot, 1)
                    await fake.wait_for(lambda: fake.commands() or None, timeout=15)
                yield fake, bot, usage(bot.proc.pid)
            finally:
                await bot.kill()


async def opened(
    fake: FakeDiscord, bot: BotProcess, idle: Usage, games: int, title: Title
) -> Bench:
    """`games` games of `title` open (and played to `title.played_to`), each of two new
    members, waiting for a move."""
    async with in_time(SETUP_SECONDS + SETUP_SECONDS_A_GAME * games, "opening"):
        players = [
            [fake.make_user(f"P{n:03d}a"), fake.make_user(f"P{n:03d}b")] for n in range(games)
        ]
        opening = asyncio.Lock()
        started = [await _new_game(fake, pair, None, opening, title) for pair in players]
        boards = await asyncio.gather(
            *(
                _played_to(fake, pair, board, title)
                for pair, board in zip(players, started, strict=True)
            )
        )
    return Bench(title, fake, bot, boards, players, idle, usage(bot.proc.pid))


@asynccontextmanager
async def running(
    games: int,
    postgres: bool,
    workers: int | None,
    code: Path | None = None,
    title: Title = COCK_AND_BULL,
) -> AsyncIterator[Bench]:
    """The fake Discord, one bot process and `games` games of `title` open (and played to
    `title.played_to`) and waiting for a move; the bot's code from the checkout `code`
    instead of this one's, when given."""
    async with launched(postgres, workers, code) as (fake, bot, idle):
        yield await opened(fake, bot, idle, games, title)


@asynccontextmanager
async def in_time(seconds: float, doing: str) -> AsyncIterator[None]:
    """A bench that stops moving ends with an error saying where, not a silent wait."""
    try:
        async with asyncio.timeout(seconds):
            yield
    except TimeoutError:
        raise SystemExit(f"bench stalled: {doing} took over {seconds:.0f} s") from None


@asynccontextmanager
async def _database(postgres: bool) -> AsyncIterator[str | None]:
    if not postgres:
        yield None
        return
    async with fresh_schema() as url:
        yield url


@asynccontextmanager
async def playing(bench: Bench, rate: float, tally: Tally) -> AsyncIterator[Pacer]:
    """Every table playing, paced at `rate`, while the block runs; the pacer's schedule is
    driven by the block (`pacer.run(until)`)."""
    pacer = Pacer(rate)
    opening = asyncio.Lock()
    tables = [
        asyncio.create_task(_table(bench.fake, pair, board, pacer, opening, tally, bench.title))
        for pair, board in zip(bench.players, bench.boards, strict=True)
    ]
    try:
        yield pacer
    finally:
        for task in tables:
            task.cancel()
        await asyncio.gather(*tables, return_exceptions=True)


@contextmanager
def collector_held() -> Iterator[None]:
    """This process is Discord's stand-in, and its own garbage collections would count as
    the bot's latency: full ones took 40–116 ms in a 30 s row at 100/s (the fake keeps every
    message). What was built before is frozen out of the collector's sight, and collecting
    waits until the block is over (`collect_now` lets a long block collect at a moment of
    its choosing)."""
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()


def collect_now() -> None:
    """Inside `collector_held`: collect what a stretch of the bench left, and freeze the
    rest (a soak collects once a minute, not whenever allocations say)."""
    gc.collect()
    gc.freeze()


async def measure(bench: Bench, rate: float, seconds: float) -> tuple[Window, Pacer, Tally]:
    tally = Tally()
    async with playing(bench, rate, tally) as pacer:
        with collector_held():
            before, ours = usage(bench.bot.proc.pid), time.process_time()
            start = time.monotonic()
            await pacer.run(start + seconds)
            end = time.monotonic()
        after, ours = usage(bench.bot.proc.pid), time.process_time() - ours
        await asyncio.sleep(DEADLINE)  # the last clicks' answers
    return window(bench.fake, start, end, tally.moves, used(before, after), ours), pacer, tally


def used(before: Usage, after: Usage) -> Usage:
    """CPU seconds between two readings (and the memory at the second)."""
    return Usage(after.cpu_s - before.cpu_s, after.rss_bytes, after.main_cpu_s - before.main_cpu_s)


def per_move(requests: Counter[str], moves: int) -> str:
    """Requests per move in all, then every route's."""
    total = sum(requests.values()) / max(moves, 1)
    each = ", ".join(f"{route} {n / max(moves, 1):.3f}" for route, n in requests.most_common() if n)
    return f"{total:.2f} ({each})"


def mix(kinds: Counter[str], games_started: int) -> str:
    """The moves played by kind, and the games started (three interactions each)."""
    moves = sum(kinds.values())
    each = ", ".join(f"{kind} {100 * n / max(moves, 1):.0f} %" for kind, n in kinds.most_common())
    return f"{moves} moves: {each}; {games_started} games started"


async def row(
    title: Title,
    games: int,
    rate: float,
    seconds: float,
    postgres: bool,
    workers: int | None,
    code: Path | None = None,
) -> tuple[tuple[object, ...], str, str]:
    """One measured row of the table, its requests per move by route, and its moves by
    kind."""
    async with running(games, postgres, workers, code, title) as bench:
        async with in_time(seconds + DEADLINE + STALL_SECONDS, "a measured stretch"):
            measured, pacer, tally = await measure(bench, rate, seconds)
        end = usage(bench.bot.proc.pid)
        errors = len(bench.bot.errors())
        for line in bench.bot.errors()[:3]:
            print(f"bot error: {line}")
        for line in stalls(bench.bot):
            print(f"{games} games at {rate:g}/s: {line}")
    done = len(measured.answers)
    rss_game = (end.rss_bytes - bench.idle.rss_bytes) / games / 1024
    cpu_ms, main_ms = (
        measured.per_answer_ms(measured.cpu_s),
        measured.per_answer_ms(measured.main_cpu_s),
    )
    cells = (
        commit_of(code or ROOT, title.hot_paths),
        games,
        f"{rate:g}",
        f"{done / measured.seconds:.1f}",
        *spread(measured.answers, (50, 99), 0),
        measured.late,
        pacer.missed,
        f"{100 * measured.cpu_s / measured.seconds:.0f} %",
        f"{cpu_ms:.1f}",
        f"{main_ms:.1f}",
        f"{cpu_ms - main_ms:.1f}",
        f"{measured.per_answer_ms(measured.fake_cpu_s):.1f}",
        f"{measured.bot_token / max(measured.moves, 1):.3f}",
        f"{bench.idle.rss_bytes / MB:.0f}/{end.rss_bytes / MB:.0f}",
        f"{rss_game:.0f}",
        errors,
    )
    at = f"{games} games at {rate:g}/s"
    return (
        cells,
        f"{at}: {per_move(measured.requests, measured.moves)}",
        f"{at}: {mix(tally.kinds, tally.games_started)}",
    )


KNEE_P99_MS = 100


def knee_of(rows: Sequence[Sequence[object]]) -> str | None:
    """The highest target rate of `rows` (one bot's, two rates or more) whose p99 held
    within the budget; "≥" it when every rate measured held."""
    p99, rate = HEADERS.index("p99 ms"), HEADERS.index("target/s")
    rates = [float(str(r[rate])) for r in rows]
    held = [
        float(str(r[rate]))
        for r in rows
        if str(r[p99]) != "-" and float(str(r[p99])) <= KNEE_P99_MS
    ]
    if len(set(rates)) < 2 or not held:
        return None
    return f"{'≥ ' if len(held) == len(rates) else ''}{max(held):g}"


HEADERS = (
    "bot at",
    "games",
    "target/s",
    "achieved/s",
    "p50 ms",
    "p99 ms",
    "max ms",
    "over 3 s",
    "missed",
    "bot CPU",
    "CPU ms/int",
    "loop process ms/int",
    "picture workers ms/int",
    "fake ms/int",
    "bot-token req/move",
    "RSS MB idle/end",
    "KB/game",
    "errors",
)


async def table(
    title: Title,
    pairs: Sequence[tuple[int, float]],
    seconds: float,
    postgres: bool,
    workers: int | None,
    run: Run,
    baseline: Path | None,
) -> None:
    """Each row measured (after the same row against `baseline`'s bot, when given)."""
    rows, routes, mixes = [], [], []
    for games, rate in pairs:
        for code in (baseline, None) if baseline is not None else (None,):
            cells, per_route, moves = await row(
                title, games, rate, seconds, postgres, workers, code
            )
            rows.append(cells)
            routes.append(f"{cells[0]}, {per_route}")
            mixes.append(f"{cells[0]}, {moves}")
    backend = "PostgreSQL" if postgres else "SQLite"
    run.table(
        f"{title.caption} games of two members, {seconds:.0f} s a row, one process, {backend}",
        HEADERS,
        rows,
    )
    if baseline is not None:
        cpu = HEADERS.index("CPU ms/int")
        for old, new in itertools.pairwise(rows):
            if old[0] != new[0] and old[1:3] == new[1:3]:
                ratio = float(new[cpu]) / float(old[cpu])  # type: ignore[arg-type]
                run.note(
                    f"{new[1]} games at {new[2]}/s: CPU per interaction {ratio:.2f}x of "
                    f"{old[0]}'s in the same run"
                )
    for name in dict.fromkeys(r[0] for r in rows):
        if (knee := knee_of([r for r in rows if r[0] == name])) is not None:
            run.note(f"{name}: the knee, the highest rate with p99 ≤ {KNEE_P99_MS} ms: {knee}/s")
    print("requests to Discord per move (REST calls, interaction answers included):")
    for line in routes:
        run.note(f"requests per move, {line}")
    for line in mixes if title.kinds else ():
        run.note(f"moves by kind, {line}")


async def soak(
    title: Title, games: int, rate: float, minutes: float, postgres: bool, workers: int | None
) -> None:
    tally = Tally()
    async with (
        running(games, postgres, workers, None, title) as bench,
        playing(bench, rate, tally) as pacer,
    ):
        pid = bench.bot.proc.pid
        print(f"{games} games at {rate:g}/s for {minutes:g} min; RSS idle {_mb(bench.idle)}")
        with collector_held():
            rows, seen = [], 0
            for minute in range(1, int(minutes) + 1):
                collect_now()
                before, start, moves = usage(pid), time.monotonic(), tally.moves
                ours = time.process_time()
                await pacer.run(start + 60)
                end, after, ours = time.monotonic(), usage(pid), time.process_time() - ours
                got = window(bench.fake, start, end, tally.moves - moves, used(before, after), ours)
                p99 = f"{percentile(got.answers, 99):.0f}" if got.answers else "-"
                logged = stalls(bench.bot)
                rows.append(
                    (
                        minute,
                        f"{len(got.answers) / got.seconds:.1f}",
                        p99,
                        got.late,
                        f"{100 * got.cpu_s / got.seconds:.0f} %",
                        _mb(after),
                        "; ".join(logged[seen:]) or "-",
                    )
                )
                seen = len(logged)
                print("  ".join(map(str, rows[-1])), flush=True)
        print_table(
            ("minute", "answered/s", "p99 ms", "over 3 s", "bot CPU", "RSS", "stalls logged"), rows
        )
        print(
            f"games finished and replaced: {tally.games_started}; errors logged: "
            f"{len(bench.bot.errors())}"
        )


def stalls(bot: BotProcess) -> list[str]:
    """What the bot logged about holding its event loop: long garbage collections
    (`bot.ops.gc_watch`) and blocked beats (`bot.ops.looplag`)."""
    return [line for line in bot.stderr if "paused the bot" in line or "loop blocked" in line]


def _mb(used: Usage) -> str:
    return f"{used.rss_bytes / MB:.1f} MB"


def add_title_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--game", choices=TITLES, default=COCK_AND_BULL.name, help="the game the members play"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", nargs="?", choices=("table", "soak"), default="table")
    add_title_option(parser)
    parser.add_argument("--games", type=int, help="games at once (default: the table's rows)")
    parser.add_argument(
        "--rate", type=float, nargs="+", help="interactions a second, in all (several: a row each)"
    )
    parser.add_argument("--seconds", type=float, default=30, help="measured, per row")
    parser.add_argument("--minutes", type=float, default=60, help="soak: how long")
    parser.add_argument(
        "--picture-workers", type=int, help="the bot's PICTURE_WORKERS (default: its own)"
    )
    parser.add_argument("--postgres", action="store_true", help="TEST_DATABASE_URL, not SQLite")
    parser.add_argument(
        "--baseline",
        type=Path,
        help="a checkout of an older version: each row is measured against its bot first",
    )
    args = parser.parse_args()
    title = TITLES[args.game]
    print_load("before")
    if args.mode == "soak":
        run_beside_the_bot(
            soak(
                title,
                args.games or 100,
                args.rate[0] if args.rate else 30,
                args.minutes,
                args.postgres,
                args.picture_workers,
            )
        )
    else:
        most_games, fastest = title.rows[-1]
        pairs = (
            title.rows
            if args.games is None and args.rate is None
            else [(args.games or most_games, rate) for rate in args.rate or (fastest,)]
        )
        run = Run(f"load{title.results}", title.hot_paths, argv_of(args.baseline))
        run_beside_the_bot(
            table(
                title, pairs, args.seconds, args.postgres, args.picture_workers, run, args.baseline
            )
        )
        run.save()
    print_load("after")


if __name__ == "__main__":
    main()
