"""Boards for everyone, through the fake Discord: every picture's alt text, the 📝 text
board (private, the board's moves with the same ids and checks, the setting to get it after
each move) and Risk's 🔍 zoom (a continent at full size, picked in a menu)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from images.risk_zoom import KEY_ROW, ZOOM_CAPTION, zoom_box
from tests.e2e.conftest import ParlourFactory
from tests.e2e.driver import (
    choose,
    move_number,
    open_panel,
    player_to_act,
    start_game,
)
from tests.e2e.fake_discord import STRING_SELECT, FakeDiscord, FakeMessage, walk_components
from tests.e2e.payloads import Payloads, check_alt_texts
from tests.e2e.storm import Spec, Storm
from tests.e2e.test_leaving import MENU, panel_click
from tests.games import STORMS as SPECS

JSON = dict[str, Any]
TEXT_BOARD = "Text board"
MAX_CLICKS = 3000


def move_ids(message: FakeMessage) -> set[str]:
    """The custom ids of a message's moves: buttons tied to a step (`v1:<game>:<id>:<step>:`)."""
    return {b["custom_id"] for b in message.buttons if b["custom_id"].split(":")[3] != "-"}


async def open_text_board(fake: FakeDiscord, user: JSON, board: FakeMessage) -> FakeMessage:
    callback = await (await fake.click(user, board, label=TEXT_BOARD)).response()
    panel = callback.message
    assert panel is not None and panel.ephemeral and panel.visible_to == int(user["id"])
    return panel


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.game)
async def test_every_picture_of_a_whole_game_has_alt_text_naming_the_player_to_act(
    fake: FakeDiscord, start_parlour: ParlourFactory, spec: Spec
) -> None:
    """A game of each title in English, played to its end by members clicking at random:
    every picture it posts (its boards, and Horse Collar's replays) has its alt text."""
    await start_parlour(autoplay_pace=0.0)
    storm = Storm(fake, seed=5)
    table = await storm.open(spec, ("Ana", "Leo"))
    while not storm.finished(table):
        assert storm.tally.clicks < MAX_CLICKS, storm.report([table])
        await storm.click(table)
    public, _private = Payloads(fake).split()
    check_alt_texts(public, {int(u["id"]): u["username"] for u in table.players})


async def duel_read_as_text(fake: FakeDiscord) -> tuple[JSON, JSON, FakeMessage, FakeMessage]:
    """Ana and Leo at a game of Cock & Bull: Ana, Leo, its board and Leo's text board."""
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    board = await start_game(fake, ana, "cock-and-bull", joiners=[leo])
    return ana, leo, board, await open_text_board(fake, leo, board)


async def test_the_text_board_is_private_and_plays_like_the_board(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    await start_parlour()
    ana, leo, board, leos = await duel_read_as_text(fake)
    # Both roll one die for the first turn: the board's Roll is each one's move.
    panel = await open_text_board(fake, ana, board)
    (embed,) = panel.embeds
    assert embed["title"].startswith("Text board, Cock and Bull, game ")
    text = embed["description"]
    assert "roll one die for the first turn" in text and "Ana: Mantle 0 of 36" in text
    assert "<@" not in text  # names, for a screen reader, not mention ids
    assert move_ids(panel) == move_ids(leos) == move_ids(board)  # the same ids
    # A move made on the text board is the board's: the board moves on, the panel is redrawn.
    step = move_number(board)
    callback = await (await choose(fake, ana, panel, "Roll one die")).response()
    assert callback.message is panel  # answered by redrawing the text board itself
    await fake.wait_for(lambda: move_number(board) > step or None)
    assert f"move {move_number(board)}" in panel.embeds[0]["title"]
    assert move_ids(panel) == set()  # Ana has rolled: nothing more for her to do now
    # The same checks as the board's: Leo's text board, drawn before Ana's roll, is stale.
    refused = await (await choose(fake, leo, leos, "Roll one die")).response()
    assert refused.message is not None and refused.message.ephemeral
    assert "out of date" in refused.message.content
    # "Read again" brings it up to date, with his roll.
    await (await choose(fake, leo, leos, "Read again")).response()
    assert move_ids(leos) == move_ids(board) != set()
    # An outsider reads the board too, with no moves and nobody's secrets.
    mia = fake.make_user("Mia")
    theirs = await open_text_board(fake, mia, board)
    assert move_ids(theirs) == set()
    assert "Only you see this" not in theirs.embeds[0]["description"]


async def test_a_text_board_read_again_after_the_game_was_ended_reads_as_ended(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    await start_parlour()
    ana, leo, board, leos = await duel_read_as_text(fake)
    assert move_ids(leos) != set()
    panel = await open_panel(fake, ana, board, MENU)
    await panel_click(fake, ana, panel, "End game…")
    assert "You ended the game." in await panel_click(fake, ana, panel, "End game")
    await (await choose(fake, leo, leos, "Read again")).response()
    text = leos.embeds[0]["description"]
    assert text.startswith("This game was abandoned. Ended by **Ana**.\n"), text
    assert "roll one die" not in text and "Only you see this" not in text
    assert move_ids(leos) == set()
    assert [b["label"] for b in leos.buttons] == ["Read again", "Show this after each of my moves"]


async def test_a_member_can_get_the_text_board_after_each_move(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    parlour = await start_parlour()
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    board = await start_game(fake, ana, "cock-and-bull", joiners=[leo])
    panel = await open_text_board(fake, leo, board)
    await (await choose(fake, leo, panel, "Show this after each of my moves")).response()
    assert "Stop showing this after my moves" in [b["label"] for b in panel.buttons]
    assert await parlour.service.storage.text_board_members() == {int(leo["id"])}
    before = len(fake.ephemeral_for(leo))
    rec = await fake.click(leo, board, label="Roll one die")  # on the public board
    await rec.response()
    latest = await fake.wait_for(
        lambda: (len(fake.ephemeral_for(leo)) > before and fake.ephemeral_for(leo)[-1]) or None
    )
    assert latest.embeds and latest.embeds[0]["title"].startswith("Text board")
    assert latest.embeds[0]["description"].startswith("**Leo** rolled")  # what his move did
    # Ana never asked: her moves are answered as before, with no text board.
    ana_before = len(fake.ephemeral_for(ana))
    await (await fake.click(ana, board, label="Roll one die")).response()
    assert len(fake.ephemeral_for(ana)) == ana_before


async def test_risk_zoom_shows_a_continent_at_full_size(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    await start_parlour()
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    board = await start_game(fake, ana, "risk", joiners=[leo])
    actor = player_to_act(board, [ana, leo]) or ana
    callback = await (await fake.click(actor, board, label="Zoom")).response()
    zoom = callback.message
    assert zoom is not None and zoom.ephemeral
    (attachment,) = zoom.attachments
    assert attachment.filename == "zoom.png" and attachment.description
    assert len(attachment.description) <= 1024
    (menu,) = [c for c in walk_components(zoom.components) if c["type"] == STRING_SELECT]
    assert [o["label"] for o in menu["options"]] == [
        "North America",
        "South America",
        "Europe",
        "Africa",
        "Asia",
        "Australia",
    ]
    # The turn's key facts in the text: what to do, and every territory of the continent.
    text = zoom.embeds[0]["description"]
    first = text.splitlines()[0]
    assert first.split(": ")[0] in ("**Ana**", "**Leo**")  # no "▶" ("play button") first
    asia = next(o for o in menu["options"] if o["label"] == "Asia")
    await (await fake.select(actor, zoom, [asia["value"]], custom_id=menu["custom_id"])).response()
    assert zoom.embeds[0]["title"].endswith(", game 1, Asia")  # as a screen reader says it
    assert "Kamchatka:" in zoom.embeds[0]["description"]
    (attachment,) = zoom.attachments
    assert "Asia" in (attachment.description or "") and "Kamchatka" in attachment.description
    # Under the caption, a row at least for the owner key (the players' swatches and names).
    picture = Image.open(io.BytesIO(attachment.data))
    top, bottom = zoom_box("asia", "en")[1::2]
    assert picture.height >= bottom - top + ZOOM_CAPTION + KEY_ROW
