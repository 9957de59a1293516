"""Load: a tournament's tables against ordinary games, through one real bot process.

`bench.load`'s machinery (one `python -m bot` against the fake Discord in this process,
members clicking open loop at a fixed rate in all) measures two stretches of one bot:

1. The peer: `--tables` ordinary Cock & Bull games of two members (opened as `bench.load`
   opens them), each played once from its first move to its end.
2. The event: a Cock & Bull tournament of twice `--tables` entrants (tables of two, so
   `--tables` tables a round) over `--rounds` rounds, created by `/tournament create` once
   the peer's games have ended, joined on its card by every entrant, and starting by
   itself at its time (the first whole minute after the joins: a start is given to the
   minute). Its stretch runs from the first thread made to the final standings posted,
   each table's members (named by the bot's ping in its thread) playing its game to its
   end. A round starts when every table of the one before has ended, so the stretch holds
   `--rounds` − 1 round changes, during which no member of the event has a click in
   flight.

Both stretches play whole games, so their moves are alike, at the same rate in all (open
loop, as `bench.load`'s: a slot that finds no move waiting, as a round's last games end,
is missed).

Requests to Discord are sorted by the token they use. Interaction-token: answers and the
follow-ups and edits through the interaction's webhook. Bot-token (Discord's global limit):
a table's opening (its thread made, and the bot's posts in it before its first click: the
event's ping and first board, an ordinary game's first board), which is per round or per
game, not per move, and shown apart; the standings card's edits, at most one per
`CARD_EVERY` seconds per event; and the rest, by route. Per move, with openings aside, the
event's bot-token requests less the peer's must be ≤ 0.1, and the event's click p99 ≤
100 ms. Results go to `bench/results/load_tournament.json`.

Run: .venv/bin/python -m bench.load_tournament [--tables 50] [--rounds 2] [--rate 50]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import math
import re
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

import discord

from bench.bot_process import usage
from bench.common import percentile, print_load, run_beside_the_bot, spread
from bench.load import (
    COCK_AND_BULL,
    DEADLINE,
    KNEE_P99_MS,
    STALL_SECONDS,
    Bench,
    Pacer,
    Tally,
    Window,
    collector_held,
    in_time,
    launched,
    opened,
    play_game,
    stalls,
    used,
    window,
)
from bench.results import Run
from cogs.tournaments import CARD_EVERY
from tests.e2e.driver import boards_in
from tests.e2e.fake_discord import JSON, FakeDiscord, FakeMessage
from tests.e2e.fake_model import Interaction, RestCall

# The load table's fastest rate for as many games as the event's default tables.
TABLES = 50
RATE = max(rate for games, rate in COCK_AND_BULL.rows if games == TABLES)
ADDED_PER_MOVE = 0.1  # bot-token requests per move an event may add to its games'
# A game's moves, generously (Cock & Bull's members click about 175), for how long a round
# may take before the bench ends saying it stalled.
MOVES_A_GAME = 400
# Signing up: the command, then each entrant's Join click (about 30 ms on 2 cores).
SIGN_UP_SECONDS, JOIN_SECONDS = 10.0, 0.1
EVENT = re.compile(r"^Tournament #\d+ · round (?P<round>\d+) · table \d+$")  # a table's thread
MENTION = re.compile(r"<@(\d+)>")
IN_CHANNEL = re.compile(r"^/channels/(?P<id>\d+)/")
GLOBALLY_LIMITED = 429


@dataclass
class Requests:
    """A stretch's requests to Discord, sorted by token and kind (routes as `bench.load`
    counts them)."""

    interaction: Counter[str] = field(default_factory=Counter)
    openings: Counter[str] = field(default_factory=Counter)  # bot token
    opening_calls: list[RestCall] = field(default_factory=list)
    card_edits: list[float] = field(default_factory=list)  # bot token: when each was made
    other: Counter[str] = field(default_factory=Counter)  # bot token

    @property
    def bot_token(self) -> int:
        return self.openings.total() + len(self.card_edits) + self.other.total()

    def per_move(self, moves: int) -> float:
        """Bot-token requests per move, openings aside."""
        return (len(self.card_edits) + self.other.total()) / max(moves, 1)


def first_clicks(interactions: Sequence[Interaction]) -> dict[int, float]:
    """When each channel (a game's thread) got its first interaction."""
    first: dict[int, float] = {}
    for rec in interactions:
        first.setdefault(rec.channel_id, rec.sent_at)
    return first


def sort_requests(
    calls: Sequence[RestCall],
    threads: set[int],
    first_click: Mapping[int, float],
    card_id: int | None,
) -> Requests:
    """`calls` sorted (see the module): a post in one of `threads` before its first click
    (`first_click`) opens it; `card_id` is the standings card's message. A bot-token request
    refused by the global limit is left out: discord.py makes it again once the limit
    allows, and that one is counted."""
    sorted_ = Requests()
    for call in calls:
        route = f"{call.method} {call.route}"
        if not call.bot_token:
            sorted_.interaction[route] += 1
            continue
        if call.status == GLOBALLY_LIMITED:
            continue  # refused, and made again: counted apart (`Stretch.limited`)
        where = IN_CHANNEL.match(call.path)
        channel = int(where["id"]) if where else None
        opening = call.method == "POST" and (
            call.path.endswith("/threads")
            or (
                channel in threads
                and call.path.endswith("/messages")
                and call.at < first_click.get(channel, math.inf)
            )
        )
        if opening:
            sorted_.openings[route] += 1
            sorted_.opening_calls.append(call)
        elif call.method == "PATCH" and card_id is not None and call.path.endswith(f"/{card_id}"):
            sorted_.card_edits.append(call.at)
        else:
            sorted_.other[route] += 1
    return sorted_


@dataclass(frozen=True)
class RoundStart:
    """A round's tables opened: how many, the bot-token requests, the seconds it took."""

    round: int
    tables: int
    requests: int
    seconds: float


def round_starts(openings: Sequence[RestCall], rounds_of: Mapping[int, int]) -> list[RoundStart]:
    """The event's table openings (`Requests.opening_calls`) by round, from each table
    thread's round (`rounds_of`): a thread's creation answers with its id, a post names it."""
    by_round: dict[int, list[tuple[int, float]]] = {}
    for call in openings:
        where = IN_CHANNEL.match(call.path)
        made = call.path.endswith("/threads") and isinstance(call.response, dict)
        thread = int(call.response["id"]) if made else int(where["id"]) if where else 0
        if thread in rounds_of:
            by_round.setdefault(rounds_of[thread], []).append((thread, call.at))
    return [
        RoundStart(
            number,
            len({thread for thread, _at in calls}),
            len(calls),
            max(at for _t, at in calls) - min(at for _t, at in calls),
        )
        for number, calls in sorted(by_round.items())
    ]


def closest(times: Sequence[float]) -> float | None:
    """The shortest gap between two of `times` (seconds), None for fewer than two."""
    gaps = [b - a for a, b in itertools.pairwise(sorted(times))]
    return min(gaps) if gaps else None


@dataclass(frozen=True)
class Stretch:
    """One measured stretch: its window (`bench.load`'s figures) and its requests sorted."""

    name: str
    tables: int
    rate: float
    window: Window
    played_s: float  # seconds clicks could be given (the event's: until its final post)
    missed: int
    requests: Requests
    limited: int  # bot-token requests refused by the global limit (429)


def sorted_stretch(
    name: str,
    got: Window,
    played_s: float,
    missed: int,
    fake: FakeDiscord,
    threads: set[int],
    first_click: Mapping[int, float],
    card_id: int,
    tables: int,
    rate: float,
) -> Stretch:
    """A measured stretch with its requests sorted and its global 429s counted."""
    mine = {id(call) for call in got.calls}
    limited = sum(1 for call in fake.globally_limited if id(call) in mine)
    requests = sort_requests(got.calls, threads, first_click, card_id)
    return Stretch(name, tables, rate, got, played_s, missed, requests, limited)


def cells(stretch: Stretch) -> list[object]:
    got, requests = stretch.window, stretch.requests
    moves = got.moves
    return [
        stretch.name,
        stretch.tables,
        f"{stretch.rate:g}",
        f"{len(got.answers) / max(stretch.played_s, 1e-9):.1f}",
        moves,
        *spread(got.answers, (50, 99), 0),
        got.late,
        stretch.missed,
        f"{100 * got.cpu_s / got.seconds:.0f} %",
        f"{got.per_answer_ms(got.cpu_s):.1f}",
        f"{requests.interaction.total() / max(moves, 1):.3f}",
        f"{requests.bot_token / max(moves, 1):.3f}",
        requests.openings.total(),
        len(requests.card_edits),
        f"{requests.per_move(moves):.3f}",
        stretch.limited,
    ]


HEADERS = (
    "stretch",
    "tables",
    "target/s",
    "achieved/s",
    "moves",
    "p50 ms",
    "p99 ms",
    "max ms",
    "over 3 s",
    "missed",
    "bot CPU",
    "CPU ms/int",
    "interaction-token req/move",
    "bot-token req/move",
    "table openings (bot token)",
    "card edits",
    "bot-token req/move, openings aside",
    "global 429s",
)


def limits(ordinary: Stretch, event: Stretch) -> list[list[object]]:
    """The issue's two limits against the figures: the bot-token requests per move the
    event adds (openings aside), and its click p99."""
    added = event.requests.per_move(event.window.moves) - ordinary.requests.per_move(
        ordinary.window.moves
    )
    p99 = percentile(event.window.answers, 99) if event.window.answers else math.inf
    return [
        [
            "bot-token requests per move added by the event, openings aside",
            f"≤ {ADDED_PER_MOVE:g}",
            f"{added:+.3f}",
            "holds" if added <= ADDED_PER_MOVE else "exceeded",
        ],
        [
            "click → answer p99 at the event's tables",
            f"≤ {KNEE_P99_MS} ms",
            f"{p99:.1f} ms (ordinary games: {spread(ordinary.window.answers, (99,), 0)[0]} ms)",
            "holds" if p99 <= KNEE_P99_MS else "exceeded",
        ],
    ]


def routes(counts: Counter[str], moves: int) -> str:
    return ", ".join(f"{route} {n / max(moves, 1):.3f}" for route, n in counts.most_common())


def notes(stretch: Stretch) -> list[str]:
    """A stretch's requests per move by route, per token and kind."""
    requests, moves = stretch.requests, stretch.window.moves
    lines = [
        f"{stretch.name}: interaction-token requests per move: "
        f"{routes(requests.interaction, moves) or 'none'}",
        f"{stretch.name}: bot-token requests per move, openings aside: "
        f"{routes(requests.other, moves) or 'none'}"
        + (
            f", standings card edits {len(requests.card_edits) / max(moves, 1):.3f}"
            if requests.card_edits
            else ""
        ),
        f"{stretch.name}: table openings (bot token, not per move): "
        f"{', '.join(f'{route} {n}' for route, n in requests.openings.most_common()) or 'none'}",
    ]
    gap = closest(requests.card_edits)
    if requests.card_edits:
        most = 1 / (CARD_EVERY * stretch.rate)  # an edit every CARD_EVERY s, however games end
        lines.append(
            f"{stretch.name}: {len(requests.card_edits)} standings card edits over "
            f"{stretch.window.seconds:.0f} s, the closest two {gap or 0:.1f} s apart; at "
            f"most one per {CARD_EVERY:g} s, so at most {most:.4f} a move at {stretch.rate:g} "
            "moves a second, however the games' ends fall"
        )
    return lines


# --- the run -------------------------------------------------------------------------------------


def whole_minute_after(moment: float) -> float:
    """The first whole UTC minute at or after `moment` (a start is given to the minute)."""
    return 60.0 * math.ceil(moment / 60)


def start_text(moment: float) -> str:
    """`moment` as `/tournament create` takes a UTC time on a day."""
    return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%d %H:%M")


async def sign_up(fake: FakeDiscord, rounds: int, entrants: list[JSON], starts: str) -> int:
    """An event created by a member who may manage the server, starting at `starts` (UTC),
    and joined on its card by every entrant; its card's message id."""
    host = fake.make_user("Host")
    fake.grant(host, discord.Permissions(manage_guild=True))
    options = {"game": COCK_AND_BULL.name, "rounds": rounds, "starts_in": starts}
    rec = await fake.slash(host, "tournament", "create", options=options)
    card = (await rec.response()).message
    assert card is not None and not card.ephemeral, card and card.content
    for member in entrants:
        answer = (await (await fake.click(member, card, label="Join")).response()).message
        assert answer is not None and not answer.ephemeral, answer and answer.content
        card = answer
    return card.id


async def _seated(
    fake: FakeDiscord, thread: int, people: Mapping[int, JSON], pacer: Pacer, tally: Tally
) -> None:
    """A table's members, named by the bot's ping in its thread, play its game to its end."""

    def ping() -> FakeMessage | None:
        return next((m for m in fake.messages(thread) if MENTION.search(m.content)), None)

    named = await fake.wait_for(ping)
    members = [people[int(m)] for m in MENTION.findall(named.content) if int(m) in people]

    def board() -> FakeMessage | None:
        shown = boards_in(fake, thread)
        return shown[-1] if shown else None

    await play_game(fake, members, await fake.wait_for(board), pacer, tally, COCK_AND_BULL)


def event_threads(fake: FakeDiscord) -> dict[int, int]:
    """Each of the event's table threads with its round."""
    found = {}
    for thread in fake.threads:
        if match := EVENT.match(thread.get("name", "")):
            found[int(thread["id"])] = int(match["round"])
    return found


def final_post(fake: FakeDiscord) -> FakeMessage | None:
    return fake.latest_message(
        fake.channel_id,
        lambda m: bool(m.embeds) and "final standings" in str(m.embeds[0].get("title")),
    )


async def paced(
    fake: FakeDiscord,
    pid: int,
    rate: float,
    start: float,
    limit: float,
    play: Callable[[Pacer, Tally], Awaitable[None]],
    settle: float = DEADLINE,
) -> tuple[Window, float, Pacer]:
    """`play` driven by clicks paced at `rate` until it returns: its window from `start`
    (a `time.monotonic()` moment) until `settle` seconds later (late answers, edits held
    back), the seconds it played, and the pacer."""
    tally, pacer = Tally(), Pacer(rate)
    with collector_held():
        before, ours = usage(pid), time.process_time()
        slots = asyncio.create_task(pacer.run(asyncio.get_running_loop().time() + limit))
        try:
            await play(pacer, tally)
            played = time.monotonic() - start
            slots.cancel()  # no slot is missed while the bench waits
            await asyncio.sleep(settle)
            end = time.monotonic()
        finally:
            slots.cancel()
            await asyncio.gather(slots, return_exceptions=True)
        after, ours = usage(pid), time.process_time() - ours
    return window(fake, start, end, tally.moves, used(before, after), ours), played, pacer


async def play_ordinary(bench: Bench, rate: float, limit: float) -> tuple[Window, float, Pacer]:
    """Every open game played to its end, once, at `rate`."""

    async def play(pacer: Pacer, tally: Tally) -> None:
        await asyncio.gather(
            *(
                play_game(bench.fake, pair, board, pacer, tally, COCK_AND_BULL)
                for pair, board in zip(bench.players, bench.boards, strict=True)
            )
        )

    return await paced(bench.fake, bench.bot.proc.pid, rate, time.monotonic(), limit, play)


async def play_event(
    fake: FakeDiscord, pid: int, people: Mapping[int, JSON], rate: float, limit: float
) -> tuple[Window, float, Pacer]:
    """The event played from its start to its final post, each table seated as its thread
    appears: its window (from the first thread made, until the card's last edit could have
    come), the seconds until the final post, and the pacer."""
    since = len(fake.calls)
    await fake.wait_for(lambda: event_threads(fake) or None, timeout=limit)
    start = next(c.at for c in fake.calls[since:] if c.path.endswith("/threads"))

    async def play(pacer: Pacer, tally: Tally) -> None:
        tables: dict[int, asyncio.Task[None]] = {}
        try:
            while final_post(fake) is None:
                for thread in event_threads(fake).keys() - tables.keys():
                    tables[thread] = asyncio.create_task(
                        _seated(fake, thread, people, pacer, tally)
                    )
                await fake.wait_for(
                    lambda: final_post(fake) or (event_threads(fake).keys() - tables.keys()),
                    timeout=limit,
                )
        finally:
            for task in tables.values():
                task.cancel()
            await asyncio.gather(*tables.values(), return_exceptions=True)

    return await paced(fake, pid, rate, start, limit, play, CARD_EVERY + DEADLINE)


async def bench(tables: int, rounds: int, rate: float, postgres: bool, run: Run) -> None:
    entrants = 2 * tables
    async with launched(postgres, None) as (fake, bot, idle):
        peer = await opened(fake, bot, idle, tables, COCK_AND_BULL)
        a_round = tables * MOVES_A_GAME / rate + STALL_SECONDS
        async with in_time(a_round, "the ordinary games"):
            ordinary, ordinary_played, ordinary_pacer = await play_ordinary(peer, rate, a_round)
        people = {int(p["id"]): p for p in (fake.make_user(f"T{n:03d}") for n in range(entrants))}
        starts_at = whole_minute_after(time.time() + SIGN_UP_SECONDS + JOIN_SECONDS * entrants)
        # Every entrant in before the start, or the event would have fewer tables.
        async with in_time(starts_at - time.time() - 1, "signing up"):
            card = await sign_up(fake, rounds, list(people.values()), start_text(starts_at))
        wait = starts_at - time.time()
        print(f"ordinary games measured; the event starts in {wait:.0f} s")
        limit = wait + STALL_SECONDS + rounds * a_round
        async with in_time(limit, "the event"):
            event, played, event_pacer = await play_event(fake, bot.proc.pid, people, rate, limit)
        rounds_of = event_threads(fake)
        first = first_clicks(fake.interactions)
        threads = {int(t["id"]) for t in fake.threads}
        stretches = [
            sorted_stretch(name, got, played, missed, fake, threads, first, card, tables, rate)
            for name, got, played, missed in (
                (f"{tables} ordinary games", ordinary, ordinary_played, ordinary_pacer.missed),
                (f"the event, {rounds} rounds", event, played, event_pacer.missed),
            )
        ]
        starts_of = round_starts(stretches[1].requests.opening_calls, rounds_of)
        errors = bot.errors()
        logged = stalls(bot)
    backend = "PostgreSQL" if postgres else "SQLite"
    run.table(
        f"Cock & Bull: {tables} ordinary games, then a tournament of {entrants} entrants at "
        f"{tables} tables of two over {rounds} rounds, one process, {backend}",
        HEADERS,
        [cells(s) for s in stretches],
    )
    record(run, stretches, starts_of)
    run.note(f"errors logged: {len(errors)}; stalls logged: {len(logged)}")
    for line in [*errors[:3], *logged[:3]]:
        print(f"bot: {line}")


def record(run: Run, stretches: list[Stretch], starts: list[RoundStart]) -> None:
    """The limits, and the notes: requests by route, the round starts, the window."""
    ordinary, event = stretches
    run.table("The limits", ("limit", "allowed", "measured", "verdict"), limits(ordinary, event))
    for stretch in stretches:
        for line in notes(stretch):
            run.note(line)
    for start in starts:
        run.note(
            f"round {start.round} started: {start.tables} tables opened with {start.requests} "
            f"bot-token requests in {start.seconds:.1f} s (threads, pings, first boards: "
            "per round, not per move)"
        )
    run.note(
        f"{event.name}: the stretch runs from the first thread made to the final post (and "
        "the card's last edit), so it holds every round change; no click of the event is in "
        "flight during one: a round starts when every table of the one before has ended"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=TABLES, help="tables (and ordinary games)")
    parser.add_argument("--rounds", type=int, default=2, help="the event's rounds (2 to 12)")
    parser.add_argument("--rate", type=float, default=RATE, help="interactions a second, in all")
    parser.add_argument("--postgres", action="store_true", help="TEST_DATABASE_URL, not SQLite")
    args = parser.parse_args()
    run = Run("load_tournament", COCK_AND_BULL.hot_paths, sys.argv[1:])
    print_load("before")
    run_beside_the_bot(bench(args.tables, args.rounds, args.rate, args.postgres, run))
    run.save()
    print_load("after")


if __name__ == "__main__":
    main()
