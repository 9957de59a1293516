"""Click storms: 30 clicks at once, by the players and by outsiders, while a bot is moving,
in every game. Every one is answered within Discord's 3 seconds, and exactly the moves the
rules allowed are applied (each click answered as a move is one logged move, and the rest
got a private answer)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from random import Random

import pytest

from bot.client import ParlourBot
from tests.e2e.conftest import ParlourFactory
from tests.e2e.driver import choose, eventually, is_board, offered, prompt
from tests.e2e.fake_discord import (
    CB_DEFERRED_UPDATE,
    CB_UPDATE_MESSAGE,
    JSON,
    FakeDiscord,
    FakeMessage,
    Interaction,
)
from tests.e2e.storm import Spec, Storm
from tests.games import STORMS

CLICKS = 30
# Every game with a bot seat (Cock & Bull is for two: one member and the bot).
WITH_BOTS = [s if s.bots else replace(s, humans=1, bots=1) for s in STORMS]


@pytest.mark.parametrize("spec", WITH_BOTS, ids=[s.game for s in WITH_BOTS])
async def test_thirty_clicks_at_once_during_a_bots_turn(
    fake: FakeDiscord, start_parlour: ParlourFactory, spec: Spec
) -> None:
    bot = await start_parlour(bot_move_delay=0.4)
    storm = Storm(fake, seed=3)
    table = await storm.open(spec, ("Ana", "Leo"))
    # Play until a bot is to move (its pause before moving is the storm's window). Each
    # click is let through before the next: the bot answers a shot at once and draws its
    # board after, and clicks on the board it replaces would only be refused.
    while "Bot" not in prompt(board := await _board(fake, table.thread_id)):
        assert storm.tally.clicks < 300 and not storm.finished(table), storm.report([table])
        await storm.click(table)
        await eventually(lambda: _quiet(bot))
    game = next(
        r
        for r in await bot.service.storage.games(status="active")
        if r.thread_id == table.thread_id
    )
    logged = len(await bot.service.storage.actions(game.id))
    rng = Random(7)
    members = [*table.players, *storm.outsiders]
    clicks = [_click(fake, rng.choice(members), board, rng) for _ in range(CLICKS)]
    recs = [r for r in await asyncio.gather(*clicks) if r is not None]
    callbacks = [await r.response() for r in recs]
    assert len(recs) >= CLICKS // 2
    assert fake.late_answers == [] and fake.unanswered() == []
    assert max(r.answered_after or 0 for r in recs) < 3.0
    # A deferred click (a Horse Collar shot) may still be refused: by a private follow-up.
    await eventually(lambda: _quiet(bot))
    applied = sum(
        c.type in (CB_UPDATE_MESSAGE, CB_DEFERRED_UPDATE)
        and not any(f.ephemeral for f in r.followups)
        for r, c in zip(recs, callbacks, strict=True)
    )
    by_humans = [a for a in (await bot.service.storage.actions(game.id))[logged:] if not a.by_ai]
    assert len(by_humans) == applied
    private = [c for c in callbacks if c.type not in (CB_UPDATE_MESSAGE, CB_DEFERRED_UPDATE)]
    assert all(c.message is not None and c.message.ephemeral for c in private if c.type == 4)


async def _quiet(bot: ParlourBot) -> bool:
    return not bot.publisher.busy and not bot.router.busy


async def _board(fake: FakeDiscord, thread_id: int) -> FakeMessage:
    """The live board (a chapter's closed board has no prompt and no buttons)."""
    return await fake.wait_for(
        lambda: (b := fake.latest_message(thread_id, is_board)) is not None and b.components and b
    )


async def _click(
    fake: FakeDiscord, user: JSON, board: FakeMessage, rng: Random
) -> Interaction | None:
    labels = offered(board)
    if not labels:
        return None
    return await choose(fake, user, board, rng.choice(labels))
