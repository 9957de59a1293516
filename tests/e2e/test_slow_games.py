"""Games that last for days meet Discord's limits: threads archive when nobody writes, and
Discord refuses edits of boards that are old. The game goes on with a fresh board."""

from __future__ import annotations

import asyncio
import re

import pytest

from bot.table import publisher
from tests.e2e.conftest import ParlourFactory
from tests.e2e.driver import (
    board_message,
    human_turn,
    move_number,
    play_one_move,
    play_to_the_end,
    start_game,
)
from tests.e2e.fake_discord import FakeDiscord, FakeMessage

GAME = "cock-and-bull"


def thread_of(fake: FakeDiscord, board: FakeMessage) -> dict[str, object]:
    return fake.channel(board.channel_id)["thread_metadata"]  # type: ignore[no-any-return]


async def test_threads_archive_after_a_week_and_an_archived_one_is_opened_again(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    bot = await start_parlour(bot_move_delay=0.1)
    ana = fake.make_user("Ana")
    board = await start_game(fake, ana, GAME, bots=1)
    assert thread_of(fake, board)["auto_archive_duration"] == 10080  # a week, not a day
    up = await human_turn(fake, [ana], board)
    assert up is not None
    await fake.archive_thread(board.channel_id)  # a day without a word
    # Ana's move is answered by the click; the bot's next edit meets the archived thread.
    board = await play_one_move(fake, [ana], up)
    await fake.wait_for(lambda: not thread_of(fake, board)["archived"] or None)
    bot.autopilot.bot_move_delay = 0.0  # the pause parted the bot's edit from the click
    assert await play_to_the_end(fake, [ana], board_message(fake) or board) > 0


async def test_a_board_discord_will_not_edit_any_more_is_replaced_by_a_fresh_one(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    """Discord limits edits of messages over an hour old (code 30046): the move is shown on a
    fresh board; the old board, which kept its buttons, takes no more moves."""
    bot = await start_parlour(bot_move_delay=0.1)
    ana = fake.make_user("Ana")
    old = await start_game(fake, ana, GAME, bots=1)
    up = await human_turn(fake, [ana], old)
    assert up is not None
    refused = fake.inject(
        "PATCH", rf"/channels/\d+/messages/{old.id}", status=400, code=30046, times=None
    )
    await play_one_move(fake, [ana], up)  # answered by the click itself: allowed
    fresh = await fake.wait_for(lambda: (b := board_message(fake)) is not old and b)
    assert refused.hits >= 1 and fresh.channel_id == old.channel_id
    assert old.components  # Discord refused to take its buttons off too
    label = next(
        b["label"] for b in old.buttons if re.match("Roll|Take|Play|Flip|Remove", b["label"])
    )
    reply = (await (await fake.click(ana, old, label=label)).response()).message
    assert reply is not None and reply.ephemeral and "out of date" in reply.content
    refused.remove()
    bot.autopilot.bot_move_delay = 0.0  # the pause parted the bot's edit from the click
    up = await human_turn(fake, [ana], fresh)
    assert up is not None and await play_to_the_end(fake, [ana], up) > 0


async def test_a_turn_that_outlives_an_hour_gets_a_fresh_board(
    fake: FakeDiscord, start_parlour: ParlourFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(publisher, "EDIT_AGE_LIMIT", 0.5)  # an hour, shortened
    await start_parlour(bot_move_delay=0.1)
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    first = await start_game(fake, ana, GAME, joiners=[leo])
    board = await play_one_move(fake, [ana, leo], first)
    assert board is first  # edited while young
    await asyncio.sleep(0.6)
    step = move_number(board)
    await play_one_move(fake, [ana, leo], board)
    fresh = await fake.wait_for(lambda: (b := board_message(fake)) is not first and b)
    assert move_number(fresh) == step + 1
    await fake.wait_for(lambda: not first.components or None)  # the old board lost its buttons
