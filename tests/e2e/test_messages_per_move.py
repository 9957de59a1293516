"""Messages per move: a lively thread must stay under Discord's rate of about five
messages per five seconds per channel, so a game posts at most one message per move on
average (its boards are edited; a player is pinged when their turn begins, not at every
step of it). A count, not a time."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import ParlourFactory
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.storm import SPECS, Spec, Storm

MAX_CLICKS = 3000


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.game)
async def test_a_whole_game_posts_at_most_one_message_per_move(
    fake: FakeDiscord, start_parlour: ParlourFactory, spec: Spec
) -> None:
    parlour = await start_parlour(autoplay_pace=0.0)
    storm = Storm(fake, seed=5)
    table = await storm.open(spec, ("Ana", "Leo"))
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
