"""Messages and requests per move: a lively thread must stay under Discord's rate of about
five messages per five seconds per channel, so a game posts at most one message per move on
average (its boards are edited; a player is pinged when their turn begins, not at every
step of it); and every request the bot makes (answers, edits, posts, deletions) counts
against its global rate, so a whole game stays within a budget of requests per move.
Counts, not times."""

from __future__ import annotations

import time

import pytest

from tests.e2e.conftest import ParlourFactory
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.storm import SPECS, Spec, Storm

MAX_CLICKS = 3000
# Requests to Discord, on average over a whole game.
ANSWERS_PER_CLICK = 2.0
CHANNEL_REQUESTS_PER_MOVE = 2.0


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
