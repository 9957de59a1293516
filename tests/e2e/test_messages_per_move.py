"""Messages and requests per move: a lively thread must stay under Discord's rate of about
five messages per five seconds per channel, so a game posts at most one message per move on
average (its boards are edited; a player is pinged when their turn begins, not at every
step of it); and every request the bot makes (answers, edits, posts, deletions) counts
against its global rate, so a whole game stays within a budget of requests per move.
Counts, not times."""

from __future__ import annotations

import asyncio
import re
import time

import pytest

from bot.table.pings import PINGS_AT_ONCE
from tests.e2e.conftest import ParlourFactory
from tests.e2e.driver import prompt
from tests.e2e.fake_discord import FakeDiscord, RestCall
from tests.e2e.storm import Spec, Storm, Table
from tests.games import STORMS as SPECS

MAX_CLICKS = 3000
# Requests to Discord, on average over a whole game.
ANSWERS_PER_CLICK = 2.0
CHANNEL_REQUESTS_PER_MOVE = 2.0
MAX_TURN_MOVES = 40
FOLLOW_UP = r"/webhooks/\d+/[^/]+"  # a message sent with an interaction's token: a ping here


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.game)
async def test_a_whole_game_stays_within_its_messages_and_requests_per_move(
    fake: FakeDiscord, start_parlour: ParlourFactory, spec: Spec
) -> None:
    parlour = await start_parlour(autoplay_pace=0.0)
    storm = Storm(fake, seed=5)
    table = await storm.open(spec, ("Ana", "Leo"))
    started = time.monotonic()
    while not storm.finished(table):
        assert storm.tally.clicks < MAX_CLICKS, storm.report([table])
        await storm.click(table)
    (row,) = [r for r in await parlour.storage.games(status="finished")]
    posted = [
        c
        for c in fake.calls
        if c.method == "POST" and c.path == f"/channels/{table.thread_id}/messages"
    ]
    # Boards of new chapters, pings and the result: fewer than the moves.
    assert row.step > 0 and len(posted) <= row.step, (len(posted), row.step)
    requests = fake.requests_per_route(since=started)
    clicks = sum(1 for i in fake.interactions if i.sent_at >= started)
    answers = sum(n for route, n in requests.items() if _answers(route))
    channel = sum(n for route, n in requests.items() if not _answers(route))
    # Answers to clicks: the answer itself (the board edited in it when it can be), and
    # now and then a private follow-up (a refusal after a deferral, a panel's news).
    assert answers <= ANSWERS_PER_CLICK * clicks, (answers, clicks, requests)
    # The bot's own requests in the game's channels: pings and their predecessors'
    # deletion when a turn changes hands, boards of new chapters, edits for bots' moves.
    assert channel <= CHANNEL_REQUESTS_PER_MOVE * row.step, (channel, row.step, requests)


def _answers(route: str) -> bool:
    """A request made with an interaction's token (not counted against a channel's rate)."""
    return route.split()[1].startswith(("/interactions/", "/webhooks/"))


async def test_pings_beyond_a_few_at_once_wait_while_boards_go_on_answering(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    """Many turns passing at the same moment: a ping costs about as much as an answer, so
    pings beyond `PINGS_AT_ONCE` wait, and the clicks' answers (the boards) go first."""
    await start_parlour()
    storm = Storm(fake, seed=3)
    spec = Spec("cock_and_bull")
    tables = [await storm.open(spec, (f"Ana{n}", f"Leo{n}")) for n in range(PINGS_AT_ONCE + 1)]
    pings = fake.inject("POST", FOLLOW_UP, hang=True, times=None)
    for n, table in enumerate(tables):
        await _until_a_turn_begins(storm, table)  # answered: the board shows it
        if n < PINGS_AT_ONCE:
            await fake.wait_for(lambda n=n: pings.held == n + 1)
    await asyncio.sleep(0.3)  # time enough for a ping that did not wait
    assert (pings.hits, pings.held) == (PINGS_AT_ONCE, PINGS_AT_ONCE)
    pings.remove()  # the waiting ping goes too
    await fake.wait_for(lambda: len(_sent(fake, FOLLOW_UP)) == len(tables))


def _sent(fake: FakeDiscord, path: str) -> list[RestCall]:
    """The POSTs to `path` that Discord accepted."""
    return [
        c
        for c in fake.calls
        if c.method == "POST" and re.fullmatch(path, c.path) and c.status == 200
    ]


async def _until_a_turn_begins(storm: Storm, table: Table) -> None:
    """Moves until the prompt names a player it did not name before: their turn began, and
    they are due a ping."""
    for _ in range(MAX_TURN_MOVES):
        before = _named(storm, table)
        assert await storm.play_turn(table), storm.report([table])
        if _named(storm, table) - before:
            return
    raise AssertionError(f"no turn began\n{storm.report([table])}")


def _named(storm: Storm, table: Table) -> set[str]:
    board = storm.board(table)
    assert board is not None
    text = prompt(board)
    return {p["username"] for p in table.players if p["username"] in text}
