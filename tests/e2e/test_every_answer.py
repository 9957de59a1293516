"""Every interaction that reaches `python -m bot` gets an answer, Parlour's or not,
well-formed or not: clicks discord.py would drop (a button no longer on its message, an id
past Discord's 100 characters) and boxes Parlour never opens."""

from __future__ import annotations

import copy
from pathlib import Path

from bot.ui.router import MOVED_ON, OLD_BOX
from tests.e2e.conftest import Launcher
from tests.e2e.driver import click_ok, move_number, start_game
from tests.e2e.fake_discord import BUTTON, FakeDiscord, FakeMessage, Interaction
from tests.e2e.process import connected, process_env


async def private_answer(rec: Interaction) -> str:
    reply = (await rec.response()).message
    assert reply is not None and reply.ephemeral, "no private answer"
    return reply.content


async def test_clicks_discord_py_drops_and_boxes_parlour_never_opens_are_answered(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path
) -> None:
    bot = await launch(tmp_path, process_env(fake, tmp_path / "parlour.sqlite3"), forked=True)
    await connected(fake, bot, 1)
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    board = await start_game(fake, ana, "cock-and-bull", joiners=[leo])

    # Leo clicks the board as his screen still shows it, after Ana's roll changed it.
    seen, step = board.seen(), move_number(board)
    await click_ok(fake, ana, board, "Roll one die")
    await fake.wait_for(lambda: move_number(board) > step or None)
    now = {b["custom_id"] for b in board.buttons}
    gone = next(b["custom_id"] for b in seen.buttons if b["custom_id"] not in now)
    rec = await fake.click(leo, board, custom_id=gone, seen=seen)
    assert await private_answer(rec) == MOVED_ON

    # A client that shows a button Discord would never have let the bot send: its id is
    # Parlour's form, 130 characters long.
    forged = FakeMessage(copy.deepcopy(board.data), list(board.attachments))
    long_id = f"v1:cock_and_bull:1:{step + 1}:roll:{'1' * 100}"
    forged.data["components"] = [
        {
            "type": 1,
            "components": [
                {"type": BUTTON, "style": 1, "label": "Roll", "custom_id": long_id, "id": 9}
            ],
        }
    ]
    rec = await fake.click(leo, board, custom_id=long_id, seen=forged)
    assert await private_answer(rec) == MOVED_ON

    # Boxes: a Parlour id that is not a number box's, another bot's, one past 100 characters.
    for custom_id in ("v1:cock_and_bull:1:-:join", "poker:box", f"v1:cock_and_bull:1:3:{'a' * 90}"):
        assert await private_answer(await fake.submit_raw_modal(ana, board, custom_id)) == OLD_BOX

    assert fake.unanswered() == [] and fake.late_answers == []
    bot.assert_clean()
