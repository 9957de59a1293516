"""The table runtime end to end: every interaction answered, boards that always catch up
with the saved game, moderators' deletions, games set aside, reconnects."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import pytest

from bot import client
from bot.client import ParlourBot
from bot.service import GameService
from bot.table import endings, publisher
from bot.ui.router import MOVED_ON, OLD_BUTTON
from tests.e2e.conftest import Launcher, ParlourFactory
from tests.e2e.driver import (
    board_message,
    click_ok,
    eventually,
    human_turn,
    is_board,
    is_result,
    move_number,
    newest_board,
    open_lobby,
    play_one_move,
    play_to_the_end,
    player_to_act,
    prompt,
    start_game,
)
from tests.e2e.fake_discord import BUTTON, CB_DEFERRED_UPDATE, FakeDiscord, FakeMessage
from tests.e2e.process import connected, process_env

GAME = "cock-and-bull"


def game_id(board: FakeMessage) -> int:
    return int(board.embeds[0]["title"].split()[-1].lstrip("#"))  # "Risk, game 42", "Risk · #42"


def last_ping(fake: FakeDiscord, thread_id: int, user_id: str) -> int:
    """The id of the newest message pinging the user (a new ping replaces the previous)."""
    ping = fake.latest_message(thread_id, lambda m: m.content.startswith(f"<@{user_id}>"))
    return 0 if ping is None else ping.id


async def saved_step(bot: ParlourBot, board: FakeMessage) -> int:
    return (await bot.service.table(game_id(board))).row.step


# --- every interaction gets an answer ---------------------------------------------------------


async def test_old_buttons_retired_commands_and_absurd_ids_get_a_clear_private_answer(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    await start_parlour()
    ana = fake.make_user("Ana")
    buttons = [
        ("v0:poker:12:-:deal", "A button of another version"),
        ("rematch:5", "A button of a retired kind"),
        (f"v1:cock_and_bull:{'9' * 40}:-:join", "A game id past any database"),
        ("v1:cock_and_bull:999:-:join", "A game that never was"),
    ]
    old = await fake.post_as_bot(
        fake.channel_id,
        content="An old lobby",
        components=[
            {
                "type": 1,
                "components": [
                    {"type": BUTTON, "style": 1, "label": label, "custom_id": cid}
                    for cid, label in buttons
                ],
            }
        ],
    )
    answers = []
    for _, label in buttons:
        reply = (await (await fake.click(ana, old, label=label)).response()).message
        assert reply is not None and reply.ephemeral
        answers.append(reply.content)
    assert answers == [
        OLD_BUTTON,
        OLD_BUTTON,
        "That game no longer exists.",
        "That game no longer exists.",
    ]
    fake.leftover_command("poker")
    reply = (await (await fake.slash(ana, "poker")).response()).message
    assert reply is not None and reply.ephemeral
    assert reply.content.startswith("That command is no longer part of Parlour")
    assert fake.unanswered() == [] and fake.late_answers == []


async def test_a_click_on_a_button_just_edited_off_its_board_gets_a_private_answer(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    """A member clicks the board a moment after another click changed it: Discord sends
    the click with the board as it is now, without the clicked button. discord.py drops
    such a click silently; the bot must still answer it ("This interaction failed" else)."""
    await start_parlour()
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    board = await start_game(fake, ana, GAME, joiners=[leo])
    seen = board.seen()  # Leo's screen, before Ana's roll reaches it
    step = move_number(board)
    await click_ok(fake, ana, board, "Roll one die")
    await fake.wait_for(lambda: move_number(board) > step or None)
    (gone,) = [
        b for b in seen.buttons if b["custom_id"] not in {c["custom_id"] for c in board.buttons}
    ][:1]
    rec = await fake.click(leo, board, custom_id=gone["custom_id"], seen=seen)
    reply = (await rec.response()).message
    assert reply is not None and reply.ephemeral
    assert reply.content == MOVED_ON
    assert fake.unanswered() == [] and fake.late_answers == []


async def test_game_commands_are_offered_in_servers_only(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    """A game needs a channel and a thread: its commands are not offered in DMs."""
    await start_parlour()
    contexts = {c["name"]: c.get("contexts") for c in fake.commands()}
    for name in ("cock-and-bull", "hold-your-horses", "winners-circle", "horse-collar", "risk"):
        assert contexts[name] == [0], name  # 0: a server (guild) channel
    assert contexts["help"] is None  # /help works anywhere


# --- moderators ---------------------------------------------------------------------------------


async def test_a_deleted_board_is_posted_again_and_the_game_goes_on(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    await start_parlour()
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    board = await start_game(fake, ana, GAME, joiners=[leo])
    for _ in range(3):
        board = await play_one_move(fake, [ana, leo], board)
    shown = move_number(board)
    await fake.delete_message(board)
    again = await fake.wait_for(lambda: (b := board_message(fake)) is not board and b)
    assert again.channel_id == board.channel_id and move_number(again) == shown
    assert prompt(again) == prompt(board)
    assert await play_to_the_end(fake, [ana, leo], again) > 0


async def test_a_deleted_thread_ends_the_game_and_unlists_it(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    bot = await start_parlour()
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    board = await start_game(fake, ana, GAME, joiners=[leo])
    board = await play_one_move(fake, [ana, leo], board)
    gid = game_id(board)
    await fake.delete_channel(board.channel_id)

    async def ended() -> bool:
        return (await bot.service.table(gid)).row.status == "abandoned"

    await eventually(ended)
    lobby = fake.latest_message(fake.channel_id, lambda m: bool(m.embeds))
    assert lobby is not None
    await fake.wait_for(lambda: "thread was deleted" in lobby.embeds[0]["description"] or None)
    listing = (await (await fake.slash(ana, "games")).response()).message
    assert listing is not None and f"#{gid}" not in listing.embeds[0]["description"]


# --- failures stay with their game ---------------------------------------------------------------


@pytest.mark.expected_errors("can't be loaded and is set aside")
async def test_a_game_that_cannot_be_loaded_is_set_aside_and_the_others_play_on(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    first = await start_parlour()
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    broken = await start_game(fake, ana, GAME, joiners=[leo])
    await start_game(fake, leo, GAME, joiners=[ana])
    await fake.wait_for(lambda: len(fake.threads) == 2 or None)
    second_thread = int(fake.threads[-1]["id"])
    healthy = await fake.wait_for(lambda: fake.latest_message(second_thread, is_board))
    broken_id = game_id(broken)
    await first.close()
    with sqlite3.connect(first.settings.sqlite_path or "") as db:  # a state of another version
        db.execute("UPDATE games SET state = ? WHERE id = ?", (json.dumps({"v": 99}), broken_id))
    bot = await start_parlour()

    async def set_aside() -> bool:
        return (await bot.service.storage.get_game(broken_id)).broken is not None  # type: ignore[union-attr]

    await eventually(set_aside)
    listing = (await (await fake.slash(ana, "games")).response()).message
    assert listing is not None
    (line,) = [x for x in listing.embeds[0]["description"].splitlines() if f"#{broken_id}**" in x]
    assert "can't be continued" in line
    roll = next(b["label"] for b in broken.buttons if "Roll" in b["label"])
    reply = (await (await fake.click(ana, broken, label=roll)).response()).message
    assert reply is not None and reply.ephemeral and "can't be continued" in reply.content
    assert await play_to_the_end(fake, [ana, leo], healthy) > 0


# --- a board behind its game catches up ---------------------------------------------------


BOARD_EDIT = r"/channels/\d+/messages/\d+"


async def test_a_failed_board_edit_after_a_bots_move_is_retried_and_the_player_pinged(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    bot = await start_parlour(bot_move_delay=0.2)
    ana = fake.make_user("Ana")
    board = await start_game(fake, ana, GAME, bots=1)
    while "Bot" not in prompt(newest_board(fake, board)):
        board = await play_one_move(fake, [ana], newest_board(fake, board))
    thread = board.channel_id
    before = last_ping(fake, thread, ana["id"])
    failed = fake.inject("PATCH", BOARD_EDIT, status=400, code=50035, times=1)
    await fake.wait_for(lambda: failed.hits or None)
    step = await saved_step(bot, board)
    assert move_number(newest_board(fake, board)) < step  # saved, not shown
    # The retry brings the board up to the saved game, and Ana is told it is her turn.
    await fake.wait_for(
        lambda: (
            (move_number(up := newest_board(fake, board)) >= step and "Ana" in prompt(up)) or None
        ),
        timeout=15,
    )
    # The ping follows the board.
    await fake.wait_for(lambda: last_ping(fake, thread, ana["id"]) > before or None)
    bot.autopilot.bot_move_delay = 0.0  # the pause made room for the fault; play on at once
    assert await play_to_the_end(fake, [ana], newest_board(fake, board)) > 0


async def test_a_board_edit_hung_when_the_process_is_killed_catches_up_at_restart(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path
) -> None:
    """The process dies between "saved" and "shown" (the bot's move is in the database, the
    board edit never came back): the next process shows it, pings the player, plays on."""
    env = process_env(fake, tmp_path / "parlour.sqlite3", BOT_MOVE_DELAY="0.2")
    first = await launch(tmp_path, env, forked=True)
    await connected(fake, first, 1)
    ana = fake.make_user("Ana")
    board = await start_game(fake, ana, GAME, bots=1)
    while "Bot" not in prompt(newest_board(fake, board)):
        board = await play_one_move(fake, [ana], newest_board(fake, board))
    shown = move_number(newest_board(fake, board))
    held = fake.inject("PATCH", BOARD_EDIT, hang=True, times=None)
    await fake.wait_for(lambda: held.held or None)
    await first.kill()
    first.assert_clean()
    held.remove()
    with sqlite3.connect(tmp_path / "parlour.sqlite3") as db:
        (saved,) = db.execute("SELECT step FROM games WHERE id = ?", (game_id(board),)).fetchone()
    assert saved > shown and move_number(newest_board(fake, board)) == shown
    before = last_ping(fake, board.channel_id, ana["id"])

    # The pause made room for the fault: the next process plays at once.
    second = await launch(tmp_path, env | {"BOT_MOVE_DELAY": "0"}, forked=True)
    await connected(fake, second, 2)
    await fake.wait_for(lambda: move_number(newest_board(fake, board)) >= saved or None)
    await fake.wait_for(lambda: "Ana" in prompt(newest_board(fake, board)) or None, timeout=10)
    await fake.wait_for(lambda: last_ping(fake, board.channel_id, ana["id"]) > before or None)
    assert await play_to_the_end(fake, [ana], newest_board(fake, board)) > 0
    second.assert_clean()


async def test_a_result_not_posted_when_the_bot_stopped_is_posted_at_the_next_start(
    fake: FakeDiscord, start_parlour: ParlourFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot stops after the final move's board is shown but before the game's result is
    posted: the next start posts it, once."""
    finish = endings.Endings.finish
    reached = asyncio.Event()

    async def stopped_here(*_args: object, **_kwargs: object) -> None:
        reached.set()
        await asyncio.Event().wait()  # the process dies here

    monkeypatch.setattr(endings.Endings, "finish", stopped_here)
    first = await start_parlour()
    players = [fake.make_user("Ana"), fake.make_user("Leo")]
    board = await start_game(fake, players[0], GAME, joiners=players[1:])
    while not await first.storage.games(status="finished"):
        up = await human_turn(fake, players, newest_board(fake, board))
        assert up is not None, "the result was posted"
        await play_one_move(fake, players, up)
    await asyncio.wait_for(reached.wait(), 5)  # the final move's board is shown
    await died(first, monkeypatch)
    assert fake.latest_message(board.channel_id, is_result) is None

    monkeypatch.setattr(endings.Endings, "finish", finish)
    await start_parlour()
    await fake.wait_for(lambda: fake.latest_message(board.channel_id, is_result))
    results = [m for m in fake.messages(board.channel_id) if is_result(m)]
    assert len(results) == 1, [m.content for m in results]


async def died(bot: ParlourBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot stops where a test held it, as if its process died there: closed with no
    grace for the work in flight (which a stopping bot would wait out for seconds)."""
    monkeypatch.setattr(client, "SHUTDOWN_GRACE", 0.0)
    await bot.close()


async def test_a_start_cut_short_after_its_thread_was_made_starts_there_when_clicked_again(
    fake: FakeDiscord, start_parlour: ParlourFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot stops after Start made the game's thread but before it saved it: the lobby
    still offers Start, and clicking it again starts the game in that thread (Discord makes
    one thread a message)."""
    set_ids = GameService.set_ids
    reached = asyncio.Event()

    async def stopped_at_the_thread(self: GameService, game_id: int, **ids: int) -> None:
        if "thread_id" in ids:
            reached.set()
            await asyncio.Event().wait()  # the process dies here
        await set_ids(self, game_id, **ids)

    monkeypatch.setattr(GameService, "set_ids", stopped_at_the_thread)
    first = await start_parlour()
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    lobby = await open_lobby(fake, ana, GAME)
    await click_ok(fake, leo, lobby, "Join")
    started = asyncio.ensure_future(fake.click(ana, lobby, label="Start"))
    await asyncio.wait_for(reached.wait(), 5)
    await died(first, monkeypatch)
    started.cancel()
    (thread,) = fake.threads

    monkeypatch.setattr(GameService, "set_ids", set_ids)
    await start_parlour()
    await click_ok(fake, ana, fake.message(lobby.id), "Start")
    board = await fake.wait_for(lambda: fake.latest_message(int(thread["id"]), is_board))
    assert [t["id"] for t in fake.threads] == [thread["id"]]
    assert player_to_act(board, [ana, leo]) is not None


async def test_rate_limited_board_edits_never_hold_a_click_past_its_deadline(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    """Discord answers 429 to the board edits of the bot's moves for a while (the channel's
    edit rate): discord.py waits each out, and meanwhile every click is answered in time."""
    bot = await start_parlour(bot_move_delay=0)
    ana = fake.make_user("Ana")
    board = await start_game(fake, ana, GAME, bots=1)
    limited = fake.inject("PATCH", BOARD_EDIT, retry_after=1.0, times=None)
    step = await saved_step(bot, board)
    while limited.hits < 4:
        up = newest_board(fake, board)
        actor = player_to_act(up, [ana])
        if actor is None:  # the bot's move, being shown slowly: Ana clicks anyway
            labels = [b["label"] for b in up.buttons]
            if labels:
                await (await fake.click(ana, up, label=labels[0])).response()
            await asyncio.sleep(0.1)
        else:
            await play_one_move(fake, [ana], up)
    limited.remove()
    assert await saved_step(bot, board) > step
    assert fake.late_answers == [] and fake.unanswered() == []
    assert max(i.answered_after or 0 for i in fake.interactions) < 3.0
    assert await play_to_the_end(fake, [ana], newest_board(fake, board)) > 0
    # The game went on, and Discord took its boards in move order: a board waiting out a
    # 429 was never overtaken by a newer one (which the late one would then undo).
    shown = shown_moves(fake, game_id(board))
    assert len(shown) > limited.hits and shown == sorted(shown), shown


def shown_moves(fake: FakeDiscord, game: int) -> list[int]:
    """The move number of every board of `game` that Discord accepted (edited, posted, or
    sent as a click's answer), in the order they arrived."""
    moves = []
    for call in fake.calls:
        if call.injected is not None or not 200 <= call.status < 300:
            continue
        body = call.json if isinstance(call.json, dict) else {}
        for embed in body.get("embeds") or (body.get("data") or {}).get("embeds") or []:
            if embed.get("title", "").endswith(f" {game}") and "footer" in embed:
                moves.append(int(embed["footer"]["text"].split()[-1]))
    return moves


async def test_a_reconnect_runs_recovery_again_and_does_nothing_twice(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    bot = await start_parlour()

    async def no_wait(shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py waits 5 s before identifying again (Discord's rate): not in a test."""

    bot.before_identify_hook = no_wait  # type: ignore[method-assign]
    ana = fake.make_user("Ana")
    board = await start_game(fake, ana, GAME, bots=1)
    for _ in range(3):
        up = await human_turn(fake, [ana], board)
        assert up is not None
        board = await play_one_move(fake, [ana], up)
    up = await human_turn(fake, [ana], board)  # the bot has moved: the board waits for Ana
    assert up is not None
    await eventually(lambda: _quiet(bot))
    thread_messages = len(fake.messages(board.channel_id))
    readies = fake.readies
    await fake.drop_gateway(resume=False)
    await fake.wait_for(lambda: fake.readies > readies or None, timeout=10)
    await eventually(lambda: _recovered_again(bot))
    await eventually(lambda: _quiet(bot))
    # Nothing was behind: the second recovery posted, pinged and moved nothing.
    assert len(fake.messages(board.channel_id)) == thread_messages
    assert await play_to_the_end(fake, [ana], newest_board(fake, board)) > 0
    logged = await bot.service.storage.actions(game_id(board))
    assert [a.step for a in logged] == list(range(len(logged)))


async def _quiet(bot: ParlourBot) -> bool:
    """No board is being published and no job is waiting or running."""
    return not bot.publisher.busy and len(bot.scheduler) == 0


async def _recovered_again(bot: ParlourBot) -> bool:
    return bot.recovery.runs == 2


async def test_a_click_whose_move_takes_long_is_deferred_in_time_then_shown(
    fake: FakeDiscord, start_parlour: ParlourFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever holds a click up (here, saving the move takes 2.8 s), Discord gets an
    answer within its 3 seconds — a deferral at 2.5 s — and the board shows the move after."""
    bot = await start_parlour()
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    board = await start_game(fake, ana, GAME, joiners=[leo])
    act = bot.service.act

    async def slow_act(*args: object, **kwargs: object) -> object:
        await asyncio.sleep(2.8)
        return await act(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(bot.service, "act", slow_act)
    step = move_number(board)
    rec = await fake.click(ana, board, label="Roll one die")
    callback = await rec.response()
    assert callback.type == CB_DEFERRED_UPDATE
    assert rec.answered_after is not None and 2.0 < rec.answered_after < 3.0
    await fake.wait_for(lambda: move_number(board) > step or None)
    assert fake.late_answers == [] and fake.unanswered() == []


async def test_only_the_current_board_takes_moves(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    """A board replaced while it still had buttons (Discord would not let the bot take them
    off) is answered "use the latest one", even at the game's current step."""
    bot = await start_parlour()
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    board = await start_game(fake, ana, GAME, joiners=[leo])
    await eventually(lambda: _quiet(bot))
    # The board is replaced behind the players' back: its message is forgotten, and the
    # next publish posts a new one, while the old one keeps its live buttons.
    await bot.service.set_ids(game_id(board), board_message_id=None)
    await bot.publisher.publish(game_id(board), repair=True)
    fresh = await fake.wait_for(lambda: (b := board_message(fake)) is not board and b)
    assert move_number(fresh) == move_number(board) and board.buttons
    reply = (await (await fake.click(ana, board, label="Roll one die")).response()).message
    assert reply is not None and reply.ephemeral
    assert reply.content == "That board is out of date: use the latest one in the thread."
    assert await play_to_the_end(fake, [ana, leo], fresh) > 0


async def test_a_board_clicked_before_its_id_is_saved_takes_the_move(
    fake: FakeDiscord, start_parlour: ParlourFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new board (a new chapter, or one that replaces a board too old to edit) is
    clickable the moment Discord shows it, before the bot has saved its id: a quick
    player's move there is taken, not called out of date."""
    bot = await start_parlour()
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    board = await start_game(fake, ana, GAME, joiners=[leo])
    await eventually(lambda: _quiet(bot))
    monkeypatch.setattr(publisher, "EDIT_AGE_LIMIT", 0.0)  # every move posts a fresh board
    set_ids = bot.service.set_ids
    clicked = asyncio.Event()

    async def slow_set_ids(*args: object, **kwargs: object) -> None:
        await clicked.wait()  # the next player clicks while the bot still has to save the id
        await set_ids(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(bot.service, "set_ids", slow_set_ids)
    await click_ok(fake, ana, board, "Roll one die")
    fresh = await fake.wait_for(lambda: (b := board_message(fake)) is not board and b)
    step = move_number(fresh)
    rec = await fake.click(leo, fresh, label="Roll one die")
    clicked.set()
    reply = (await rec.response()).message
    assert reply is None or not reply.ephemeral, reply.content
    await fake.wait_for(lambda: move_number(board_message(fake)) > step or None)
