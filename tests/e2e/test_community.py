"""History, replays and rematches end to end: finished games listed, replayed move by move
in a private viewer, and played again from the final board."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image, ImageChops

import bot.table.history
from bot.client import ParlourBot
from bot.storage import GameRow
from cogs.replay_viewer import MAX_FRAMES
from tests.e2e.conftest import ParlourFactory
from tests.e2e.driver import (
    click_ok,
    is_board,
    is_over,
    is_result,
    picture,
    play_to_the_end,
    start_game,
)
from tests.e2e.fake_discord import JSON, FakeDiscord, FakeMessage
from tests.e2e.storm import Storm
from tests.e2e.storm import Table as StormTable
from tests.games import STORMS as SPECS

MAX_CLICKS = 4000
FOOTER = re.compile(r"Move (\d+) of (\d+) · \w+ (\d+) of (\d+)")


async def private_answer(
    fake: FakeDiscord, member: JSON, command: str, **options: object
) -> FakeMessage:
    rec = await fake.slash(member, command, options=options)
    message = (await rec.response()).message
    assert message is not None and message.ephemeral
    return message


async def click_viewer(
    fake: FakeDiscord, user: JSON, viewer: FakeMessage, label: str
) -> FakeMessage:
    """Click a viewer's button; the viewer is edited in place (the answer to the click)."""
    rec = await fake.click(user, viewer, label=label)
    callback = await rec.response()
    assert callback.message is viewer, callback.message and callback.message.content
    return viewer


def shown_step(viewer: FakeMessage) -> tuple[int, int, int]:
    """(step, last step, chapter number) from the viewer's footer."""
    match = FOOTER.fullmatch(viewer.embeds[0]["footer"]["text"])
    assert match, viewer.embeds[0]["footer"]
    return int(match[1]), int(match[2]), int(match[3])


def image_of(message: FakeMessage) -> Image.Image:
    (attachment,) = message.attachments
    assert 0 < len(attachment.description or "") <= 1024  # its alt text
    image = Image.open(io.BytesIO(attachment.data))
    image.load()
    return image.convert("RGB")


def same_pixels(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


async def chapter_starts(parlour: ParlourBot, game_id: int) -> list[int]:
    """Where each chapter begins, from the game's own replay and its presenter's chapters."""
    service = parlour.service
    table = await service.table(game_id)
    initial, steps = await service.replay_all(table)
    states = [initial, *(s.state for _, s in steps)]
    chapter = parlour.presenters.get(table.row.game).chapter
    return [0] + [n for n in range(1, len(states)) if chapter(states[n]) != chapter(states[n - 1])]


async def finished_row(parlour: ParlourBot, thread_id: int) -> GameRow:
    rows = await parlour.service.storage.games(status="finished")
    (row,) = [r for r in rows if r.thread_id == thread_id]
    return row


async def play_every_title(fake: FakeDiscord) -> tuple[Storm, list[StormTable]]:
    storm = Storm(fake, seed=3)
    tables = [await storm.open(spec, ("Ana", "Leo")) for spec in SPECS]
    while not all(storm.finished(t) for t in tables):
        assert storm.tally.clicks < MAX_CLICKS, storm.report(tables)
        await storm.click(storm.rng.choice([t for t in tables if not storm.finished(t)]))
    return storm, tables


async def test_every_title_is_listed_and_replays_to_its_final_board(
    fake: FakeDiscord, start_parlour: ParlourFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    parlour = await start_parlour(autoplay_pace=0.0)
    storm, tables = await play_every_title(fake)
    viewer_user = tables[0].players[0]

    for table in tables:
        row = await finished_row(parlour, table.thread_id)
        final = storm.board(table)
        assert final is not None and is_over(final)
        assert any(f["value"] == f"`/replay id:{row.id}`" for f in final.embeds[0]["fields"])

        viewer = await private_answer(fake, viewer_user, "replay", id=row.id)
        assert shown_step(viewer)[:2] == (0, row.step)
        assert "The start." in viewer.embeds[0]["description"]
        # Chapter by chapter to the end: every jump lands on the next chapter's start.
        starts = await chapter_starts(parlour, row.id)
        for index, start in enumerate(starts[1:], start=2):
            await click_viewer(fake, viewer_user, viewer, _next_chapter(viewer))
            assert shown_step(viewer)[0] == start and shown_step(viewer)[2] == index
        if starts[-1] < row.step:  # a game may end as its last chapter begins
            await click_viewer(fake, viewer_user, viewer, "Last")
        assert shown_step(viewer)[0] == row.step
        # The last picture is the final board's (its board.png: the result, no highlight).
        assert same_pixels(image_of(viewer), picture(final).convert("RGB")), row.game
        # The animated summary: one frame per chapter, as a private message of its own.
        animation = await summary_of(fake, viewer_user, viewer)
        assert getattr(animation, "n_frames", 1) == min(len(starts), MAX_FRAMES), row.game
        # And back a chapter: to the start of the last one.
        await click_viewer(fake, viewer_user, viewer, _chapter_back(viewer))
        assert shown_step(viewer)[0] == starts[-1] if starts[-1] < row.step else starts[-2]

    # One game step by step, from the first move to the last, the move list following.
    row = await finished_row(parlour, tables[0].thread_id)
    viewer = await private_answer(fake, viewer_user, "replay", id=row.id)
    for n in range(1, row.step + 1):
        await click_viewer(fake, viewer_user, viewer, "Next")
        assert shown_step(viewer)[0] == n
        assert f"▶ **{n}.**" in viewer.embeds[0]["description"]
    assert same_pixels(image_of(viewer), picture(storm.board(tables[0])).convert("RGB"))

    # /history: newest first, a page at a time, filtered by game and by member.
    monkeypatch.setattr(bot.table.history, "PAGE_SIZE", 2)
    listing = await private_answer(fake, viewer_user, "history")
    listed: list[int] = []
    for page in range(3):
        ids = [int(i) for i in re.findall(r"`/replay id:(\d+)`", listing.embeds[0]["description"])]
        listed += ids
        assert len(ids) == (2 if page < 2 else 1)
        if page < 2:
            await click_viewer(fake, viewer_user, listing, "Older")
    finished = [await finished_row(parlour, t.thread_id) for t in tables]
    assert sorted(listed) == sorted(r.id for r in finished)
    # Newest first: in the order of the games' result messages, latest first.
    announced = {r.id: _result_message(fake, r).id for r in finished}
    assert listed == sorted(listed, key=lambda i: -announced[i])
    assert "thread" in listing.embeds[0]["description"]

    risk = await private_answer(fake, viewer_user, "history", game="risk")
    (risk_id,) = re.findall(r"`/replay id:(\d+)`", risk.embeds[0]["description"])
    assert int(risk_id) == next(r.id for r in finished if r.game == "risk")
    # Storm players are made per table: this one played the first game only.
    mine = await private_answer(fake, viewer_user, "history", user=viewer_user)
    assert re.findall(r"id:(\d+)`", mine.embeds[0]["description"]) == [str(finished[0].id)]


async def summary_of(fake: FakeDiscord, member: JSON, viewer: FakeMessage) -> Image.Image:
    rec = await fake.click(member, viewer, label="Animated summary")
    sent = await fake.wait_for(lambda: rec.followups[-1] if rec.followups else None, 30)
    assert sent.ephemeral and re.search(r", one frame per \w+ \(\d+ frames?, ", sent.content)
    (attachment,) = sent.attachments
    assert attachment.filename in ("summary.gif", "summary.webp")
    assert "an animated summary, one frame per" in (attachment.description or "")
    return Image.open(io.BytesIO(attachment.data))


def _next_chapter(viewer: FakeMessage) -> str:
    return next(
        b["label"]
        for b in viewer.buttons
        if b["label"].startswith("Next ") and b["label"] != "Next"
    )


def _chapter_back(viewer: FakeMessage) -> str:
    return next(b["label"] for b in viewer.buttons if b["label"].endswith(" back"))


def _result_message(fake: FakeDiscord, row: GameRow) -> FakeMessage:
    message = fake.latest_message(row.thread_id or 0, is_result)
    assert message is not None
    return message


async def test_a_game_in_play_another_servers_or_none_is_refused(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    other = fake.general_channel_id(fake.create_guild("Elsewhere"))
    parlour = await start_parlour()
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    # A Risk game in play, with secret missions and cards: never replayed, never listed.
    board = await start_game(fake, ana, "risk", joiners=[leo], bots=1, options={"missions": 12})
    (active,) = await parlour.service.storage.games(status="active")
    refusal = await private_answer(fake, leo, "replay", id=active.id)
    assert refusal.content == (
        f"Game #{active.id} is still being played: its replay opens once it is over."
    )
    assert not refusal.embeds and not refusal.attachments and not refusal.components
    history = await private_answer(fake, leo, "history")
    assert history.embeds[0]["description"] == "No finished games yet."
    assert not history.attachments
    mission_words = ("mission", "Conquer", "Destroy", "card")
    assert not any(word in m.content for m in (refusal, history) for word in mission_words)
    assert "Rematch" not in [b.get("label") for b in board.buttons]

    # A finished game, asked for from another server: as if it did not exist.
    cb = await start_game(fake, ana, "cock-and-bull", bots=1)
    await play_to_the_end(fake, [ana], cb)
    (done,) = await parlour.service.storage.games(status="finished")
    rec = await fake.slash(ana, "replay", options={"id": done.id}, channel_id=other)
    elsewhere = (await rec.response()).message
    assert (
        elsewhere.ephemeral and elsewhere.content == f"There is no game #{done.id} in this server."
    )
    missing = await private_answer(fake, ana, "replay", id=done.id + 1000)
    assert missing.content == f"There is no game #{done.id + 1000} in this server."
    # In its own server it opens.
    viewer = await private_answer(fake, ana, "replay", id=done.id)
    assert viewer.embeds[0]["title"] == f"Replay · Cock & Bull #{done.id}"


async def test_rematch_opens_a_lobby_with_the_same_options_and_players_invited(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    parlour = await start_parlour()
    ana, leo, eve = fake.make_user("Ana"), fake.make_user("Leo"), fake.make_user("Eve")
    options = {"dice": "weighted", "point_limit": 3}
    board = await start_game(fake, ana, "cock-and-bull", joiners=[leo], options=options)
    await play_to_the_end(fake, [ana, leo], board)
    (old,) = await parlour.service.storage.games(status="finished")
    assert is_over(board)

    # Eve, who did not play, asks for a rematch: a lobby in the channel the game began in.
    rec = await fake.click(eve, board, label="Rematch")
    answer = (await rec.response()).message
    assert answer.ephemeral and "rematch lobby is up" in answer.content
    lobby = fake.latest_message(fake.channel_id, lambda m: m.content.startswith("🔁"))
    assert lobby is not None and answer.content.endswith(f"/{lobby.channel_id}/{lobby.id}")
    assert f"<@{ana['id']}> <@{leo['id']}>" in lobby.content
    sent = next(
        c.json
        for c in fake.calls
        if isinstance(c.response, dict) and c.response.get("id") == str(lobby.id)
    )
    assert sorted(map(str, sent["allowed_mentions"]["users"])) == sorted([ana["id"], leo["id"]])
    (new,) = await parlour.service.storage.games(status="lobby")
    assert new.id != old.id and new.host_id == int(eve["id"]) and new.channel_id == old.channel_id
    assert new.options == old.options

    # It works as every lobby does: Ana joins, Eve starts, and it is a game of its own.
    await click_ok(fake, ana, lobby, "Join")
    before = {int(t["id"]) for t in fake.threads}
    await fake.click(eve, lobby, label="Start")
    started_board = await fake.wait_for(
        lambda: next(
            (
                fake.latest_message(int(t["id"]), is_board)
                for t in fake.threads
                if int(t["id"]) not in before
            ),
            None,
        )
    )
    started = await parlour.service.table(new.id)
    assert started_board.channel_id == started.row.thread_id
    assert started.row.status == "active" and started.row.thread_id != old.thread_id
    assert [s.player_id for s in started.seats] == [int(eve["id"]), int(ana["id"])]
    assert (await parlour.service.table(old.id)).row.status == "finished"
    assert len(await parlour.service.storage.actions(old.id)) == old.step
    await play_to_the_end(fake, [eve, ana], started_board)
    history = await private_answer(fake, eve, "history")
    assert re.findall(r"id:(\d+)`", history.embeds[0]["description"]) == [str(new.id), str(old.id)]


async def test_rematch_clicked_again_or_at_once_opens_one_lobby_and_leads_to_it(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    parlour = await start_parlour()
    ana, leo, eve = fake.make_user("Ana"), fake.make_user("Leo"), fake.make_user("Eve")
    board = await start_game(fake, ana, "cock-and-bull", joiners=[leo])
    await play_to_the_end(fake, [ana, leo], board)

    # Ana and Leo click Rematch at the same moment: one lobby; each hears where it is.
    clicks = [await fake.click(user, board, label="Rematch") for user in (ana, leo)]
    answers = [(await c.response()).message for c in clicks]
    (lobby,) = await parlour.service.storage.games(status="lobby")
    lobbies = [m for m in fake.messages(fake.channel_id) if m.content.startswith("🔁")]
    assert len(lobbies) == 1
    for answer in answers:
        assert answer is not None and answer.ephemeral
    texts = sorted(a.content for a in answers if a is not None)
    assert texts[0].startswith("A rematch lobby is ")  # being opened, or open already
    assert texts[1].startswith("Your rematch lobby is up: ")

    # Eve, later, is led to that same lobby; nothing new is posted.
    again = await (await fake.click(eve, board, label="Rematch")).response()
    assert again.message is not None and again.message.ephemeral
    link = f"/{lobbies[0].channel_id}/{lobbies[0].id}"
    assert again.message.content.startswith("A rematch lobby is open already: ")
    assert again.message.content.endswith(link)
    assert [g.id for g in await parlour.service.storage.games(status="lobby")] == [lobby.id]

    # Once that lobby is cancelled, Rematch opens a new one.
    await click_ok(fake, ana if lobby.host_id == int(ana["id"]) else leo, lobbies[0], "Cancel")
    newer = await (await fake.click(eve, board, label="Rematch")).response()
    assert newer.message is not None and newer.message.content.startswith("Your rematch lobby")
    (reopened,) = await parlour.service.storage.games(status="lobby")
    assert reopened.id != lobby.id and reopened.rematch_of == lobby.rematch_of
