"""Work budgets per move, counted (never timed) through the real path: members play every
title to its end against the fake Discord, and each move — from the click (a panel or a
number box opened first included) until the bot is quiet — may draw at most one picture,
write the move in one database transaction, and send only the requests below, by kind.

A change that adds a picture, a write or a request to a move fails here. A deliberate one
changes its budget in the same commit, with the reason beside it.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.client import ParlourBot
from tests.e2e.conftest import ParlourFactory
from tests.e2e.driver import eventually
from tests.e2e.fake_discord import FakeDiscord, RestCall
from tests.e2e.storm import Spec, Storm
from tests.games import TEST_SPECS

MAX_MOVES = 400

# Per move. Pictures: the board's, once (a chapter's closing board and the next one show
# the same state, drawn once); each game's test spec says how many (`pictures_per_move`).
# The move itself: the state, the log row and, at the end, results and ratings, together.
TRANSACTIONS = 1
# Bookkeeping written after Discord shows the move: the step and chapter shown with the
# ping that went with them, and a new board's id the moment it is posted (or, at the end,
# the last ping forgotten).
STATEMENTS = 2
# Requests, by kind. The click's answer; its follow-ups (a ping, a new chapter's board,
# the result, a private line) and the deletion of the ping before; and with the bot's token,
# only what no click can carry: the lobby message (another channel) at the end, and the board
# after a move made in a private panel (whose answer edits the panel).
ANSWERS = 2  # a panel or a number box opened, then the move
FOLLOW_UPS = 4
BOT_TOKEN = 1
# Over a whole game, requests with the bot's token per move (Discord allows the whole bot
# 50 a second, all shards together): the thread, the first board and the lobby's edits,
# shared by all its moves. A secret move, made in a private panel, needs the bot's token
# for the board each time (hidden bets: about one move in twelve).
BOT_TOKEN_PER_MOVE = 0.05
# Direct messages (with the bot's token too, paced apart from the rest): none in a game of
# members who chose pings; for members who chose DMs, a move that begins someone's turn
# sends them one, opening their DM channel first the first time.
DMS = 0
DMS_WHEN_CHOSEN = 2
# A DM is kept and claimed in the database, in one transaction of its own, before it is
# sent: a restart (even a kill) never sends a turn's DM twice.
DM_TRANSACTIONS = 1
BOT_TOKEN_PER_SECRET_MOVE_GAME = 0.1

# Each game's whole games: its test spec's `budgets` (tests/games.py).
SPECS = [budget for spec in TEST_SPECS.values() for budget in spec.budgets]


@dataclass
class Work:
    """What the bot did in a stretch of play."""

    pictures: int = 0
    transactions: int = 0
    statements: int = 0
    requests: Counter[str] = field(default_factory=Counter)
    routes: list[str] = field(default_factory=list)


class Meter:
    """Counts the bot's pictures, database writes and requests to Discord."""

    def __init__(self, fake: FakeDiscord, bot: ParlourBot, monkeypatch: pytest.MonkeyPatch):
        self.fake = fake
        self.bot = bot
        self.counts = Counter[str]()
        draw = bot.pictures.draw

        async def counted_draw(*args: Any, **kwargs: Any) -> Any:
            self.counts["pictures"] += 1
            return await draw(*args, **kwargs)

        monkeypatch.setattr(bot.pictures, "draw", counted_draw)
        storage: Any = bot.storage
        for name, kind in (("_transaction", "transactions"), ("_statement", "statements")):
            monkeypatch.setattr(storage, name, self._counting(getattr(storage, name), kind))

    def _counting(self, open_: Callable[[], Any], kind: str) -> Callable[[], Any]:
        @asynccontextmanager
        async def counted() -> AsyncIterator[Any]:
            self.counts[kind] += 1
            async with open_() as db:
                yield db

        return counted

    async def measure(self, play: Callable[[], Awaitable[object]]) -> Work:
        """The work done from `play` until the bot is quiet again (requests: by kind, and
        every route in order, for a failure's message)."""
        counts, calls = Counter(self.counts), len(self.fake.calls)
        await play()
        await eventually(self._quiet, timeout=15)
        done = self.counts - counts
        return Work(
            done["pictures"],
            done["transactions"],
            done["statements"],
            Counter(_kind(self.fake, c) for c in self.fake.calls[calls:]),
            [f"{c.method} {c.route}" for c in self.fake.calls[calls:]],
        )

    async def _quiet(self) -> bool:
        return (
            not self.bot.publisher.busy
            and not self.bot.router.busy
            and not self.bot.notifier.sending
        )


def _kind(fake: FakeDiscord, call: RestCall) -> str:
    if fake.is_dm(call):
        return "dm"
    if call.path.startswith("/interactions/"):
        return "answer"
    if call.path.startswith("/webhooks/"):
        return "follow-up"
    return "bot-token"


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: "-".join([spec.game, *spec.options]))
async def test_every_move_of_a_whole_game_stays_within_its_work_budget(
    fake: FakeDiscord,
    start_parlour: ParlourFactory,
    monkeypatch: pytest.MonkeyPatch,
    spec: Spec,
) -> None:
    bot = await start_parlour()
    meter = Meter(fake, bot, monkeypatch)
    storm = Storm(fake, seed=7)
    table = await storm.open(spec, ("Ana", "Leo"))
    await eventually(meter._quiet)
    moves: list[Work] = []
    while not storm.finished(table):
        assert len(moves) < MAX_MOVES, storm.report([table])
        work = await meter.measure(lambda: storm.play_turn(table))
        if work.requests:
            moves.append(work)
    (row,) = await bot.storage.games(status="finished")
    assert row.step > 0 and len(moves) >= row.step / 2, (len(moves), row.step)
    for n, work in enumerate(moves):
        where = f"move {n} of {len(moves)}: {work}"
        assert work.pictures <= TEST_SPECS[spec.game].pictures_per_move, where
        assert work.transactions <= TRANSACTIONS, where
        assert work.statements <= STATEMENTS, where
        assert work.requests["answer"] <= ANSWERS, where
        assert work.requests["follow-up"] <= FOLLOW_UPS, where
        assert work.requests["bot-token"] <= BOT_TOKEN, where
        assert work.requests["dm"] <= DMS, where
    bot_token = sum(w.requests["bot-token"] for w in moves) / row.step
    budget = (
        BOT_TOKEN_PER_SECRET_MOVE_GAME if spec.options.get("hidden_bets") else BOT_TOKEN_PER_MOVE
    )
    assert bot_token <= budget, (bot_token, [w.routes for w in moves if w.requests["bot-token"]])
    assert storm.tally.unanswered == [] and fake.globally_limited == []


async def test_members_who_chose_dms_add_one_dm_a_turn_and_nothing_else(
    fake: FakeDiscord, start_parlour: ParlourFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ana and Leo chose DMs and are away between moves (the notifier's clock moves on a
    few minutes before each): every move stays within the budgets above, plus at most one
    DM (and its channel opened once); a game sends at most one DM per move."""
    bot = await start_parlour()
    meter = Meter(fake, bot, monkeypatch)
    later = [0.0]
    bot.notifier.clock = lambda: time.time() + later[0]
    storm = Storm(fake, seed=7)
    table = await storm.open(Spec("cock_and_bull"), ("Ana", "Leo"))
    for player in table.players:
        await (await fake.slash(player, "settings", "me", options={"notify": "dm"})).response()
    await eventually(meter._quiet)
    moves: list[Work] = []
    while not storm.finished(table):
        assert len(moves) < MAX_MOVES, storm.report([table])
        later[0] += 600.0  # ten minutes between moves: nobody is watching
        work = await meter.measure(lambda: storm.play_turn(table))
        if work.requests:
            moves.append(work)
    for n, work in enumerate(moves):
        where = f"move {n} of {len(moves)}: {work}"
        dm_writes = DM_TRANSACTIONS if work.requests["dm"] else 0
        assert work.transactions <= TRANSACTIONS + dm_writes, where
        assert work.statements <= STATEMENTS, where
        assert work.requests["answer"] <= ANSWERS, where
        assert work.requests["follow-up"] <= FOLLOW_UPS, where
        assert work.requests["bot-token"] <= BOT_TOKEN, where
        assert work.requests["dm"] <= DMS_WHEN_CHOSEN, where
    dms = sum(len(fake.dms(p)) for p in table.players)
    assert 0 < dms <= len(moves), (dms, len(moves))
    opened = sum(w.routes.count("POST /users/@me/channels") for w in moves)
    assert opened == len([p for p in table.players if fake.dms(p)])
    assert storm.tally.unanswered == [] and fake.globally_limited == []


async def test_a_burst_of_games_stays_well_inside_discords_global_limit(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    """Twelve games, every player to act clicking at once, round after round: the moves
    ride on their clicks' interactions, so the bot's token, which Discord limits to 50
    requests a second for the whole bot, is hardly used."""
    await start_parlour()
    storm = Storm(fake, seed=3)
    tables = [await storm.open(Spec("cock_and_bull"), (f"Ana{n}", f"Leo{n}")) for n in range(12)]
    started, clicks = time.monotonic(), len(fake.interactions)
    for _ in range(20):
        await asyncio.gather(*(storm.play_turn(t) for t in tables))
    moves = len(fake.interactions) - clicks
    bot_token = [c for c in fake.calls if c.at >= started and c.bot_token]
    assert moves >= 200 and fake.globally_limited == []
    assert len(bot_token) <= 0.05 * moves, [f"{c.method} {c.route}" for c in bot_token]
    assert storm.tally.unanswered == [] and fake.unanswered() == []
