"""Cock & Bull end to end: the real bot process code against the fake Discord."""

from __future__ import annotations

import asyncio

import discord
import pytest

from bot.client import ParlourBot
from bot.storage import Storage
from tests.e2e.conftest import ParlourFactory
from tests.e2e.driver import (
    click_ok,
    eventually,
    is_over,
    move_number,
    open_lobby,
    picture,
    play_one_move,
    play_to_the_end,
    player_to_act,
    private_replies,
    prompt,
    start_game,
)
from tests.e2e.fake_discord import FakeDiscord, FakeMessage

GAME = "cock-and-bull"


async def timed_game(fake: FakeDiscord, parlour: ParlourBot, seconds: int) -> FakeMessage:
    """Ana and Leo start a game with a turn timer of `seconds`, set as the server default
    (the slash menu offers minutes and hours only)."""
    await parlour.service.storage.set_guild_turn_timer(fake.guild_id, seconds)
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    return await start_game(fake, ana, GAME, joiners=[leo])


async def test_full_game_between_two_members_then_scoreboard(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    await start_parlour()
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    board = await start_game(fake, ana, GAME, joiners=[leo])

    thread = fake.threads[0]
    assert int(thread["parent_id"]) == fake.channel_id
    assert picture(board).size == (800, 560)
    assert "roll one die for the first turn" in prompt(board)
    # The first ping names both players and mentions nobody else.
    ping = await fake.wait_for(
        lambda: fake.latest_message(int(thread["id"]), lambda m: "game is on" in m.content)
    )
    sent = next(
        c.json
        for c in fake.calls
        if isinstance(c.response, dict) and c.response.get("id") == str(ping.id)
    )
    assert set(map(str, sent["allowed_mentions"]["users"])) == {ana["id"], leo["id"]}
    assert sent["allowed_mentions"]["parse"] == []

    moves = await play_to_the_end(fake, [ana, leo], board)
    assert moves > 5
    assert picture(board).size == (800, 560)
    result = await fake.wait_for(
        lambda: fake.latest_message(int(thread["id"]), lambda m: m.content.startswith("🏁"))
    )
    assert "wins" in result.content

    rec = await fake.slash(ana, "scoreboard", options={"game": "cock_and_bull"})
    text = (await rec.response()).message.embeds[0]["description"]
    lines = text.splitlines()
    assert len(lines) == 2
    assert "1 W / 0 L" in lines[0] and "0 W / 1 L" in lines[1]
    assert {ana["id"], leo["id"]} == {line.split("<@")[1].split(">")[0] for line in lines}
    assert "Flying Monkeys" in lines[0] and "Le Pews" in lines[0]

    rec = await fake.slash(leo, "stats", options={"user": leo})
    stats = (await rec.response()).message
    assert stats.ephemeral and stats.embeds[0]["fields"][0]["name"] == "Cock & Bull"


async def test_full_game_against_the_ai(fake: FakeDiscord, start_parlour: ParlourFactory) -> None:
    await start_parlour()
    ana = fake.make_user("Ana")
    board = await start_game(fake, ana, GAME, bots=1, options={"best_of": 3})
    assert "Bot 1" in prompt(board) or "Ana" in prompt(board)
    await play_to_the_end(fake, [ana], board)
    assert "wins the match" in prompt(board)
    rec = await fake.slash(ana, "scoreboard", options={"game": "cock_and_bull"})
    text = (await rec.response()).message.embeds[0]["description"]
    assert "🤖 Bot 1" in text and f"<@{ana['id']}>" in text


async def test_wrong_player_outsider_and_double_click(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    parlour = await start_parlour()
    ana, leo, eve = fake.make_user("Ana"), fake.make_user("Leo"), fake.make_user("Eve")
    board = await start_game(fake, ana, GAME, joiners=[leo])
    # Get past the start roll and the colour choice, to a plain "X to roll".
    while not prompt(board).endswith("to roll"):
        await play_one_move(fake, [ana, leo], board)
    actor = player_to_act(board, [ana, leo])
    other = leo if actor is ana else ana
    step = move_number(board)

    await fake.click(other, board, label="Roll")
    await fake.click(eve, board, label="Roll")
    await fake.wait_for(lambda: private_replies(fake, eve) and private_replies(fake, other))
    assert private_replies(fake, other) == ["It is not your turn."]
    assert private_replies(fake, eve) == ["You are not playing in this game."]
    assert move_number(board) == step

    # A double click: two clicks on the same board before either answer arrives.
    first, second = await asyncio.gather(
        fake.click(actor, board, label="Roll"), fake.click(actor, board, label="Roll")
    )
    answers = [await first.response(), await second.response()]
    refused = [a for a in answers if a.message is not None and a.message.ephemeral]
    assert len(refused) == 1
    assert "out of date" in refused[0].message.content
    game_id = (await parlour.service.storage.games(status="active"))[0].id
    assert len(await parlour.service.storage.actions(game_id)) == step + 1
    assert move_number(board) == step + 1


async def test_restart_mid_game_keeps_the_old_buttons_working(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    first = await start_parlour()
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    board = await start_game(fake, ana, GAME, joiners=[leo])
    for _ in range(6):
        await play_one_move(fake, [ana, leo], board)
    before = move_number(board)
    await first.close()

    second = await start_parlour()
    assert second is not first
    await play_one_move(fake, [ana, leo], board)  # the pre-restart message's button
    assert move_number(board) == before + 1
    await play_to_the_end(fake, [ana, leo], board)
    assert is_over(board)
    game = (await second.service.storage.games(status="finished"))[0]
    assert await second.service.replay(game.id) == (await second.service.table(game.id)).state


async def test_lobby_rules_are_enforced_with_private_errors(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    await start_parlour()
    ana, leo, eve = fake.make_user("Ana"), fake.make_user("Leo"), fake.make_user("Eve")
    lobby = await open_lobby(fake, ana, GAME, {"dice": "weighted", "best_of": 3})
    fields = {f["name"].split(" (")[0]: f["value"] for f in lobby.embeds[0]["fields"]}
    assert "weighted" in fields["House rules"] and "best of 3" in fields["House rules"]

    await fake.click(ana, lobby, label="Start")
    await fake.click(leo, lobby, label="Cancel")
    await fake.wait_for(lambda: len(private_replies(fake, ana)) == 1 and private_replies(fake, leo))
    assert "needs at least 2 players" in private_replies(fake, ana)[0]
    assert "Only the host" in private_replies(fake, leo)[0]

    await click_ok(fake, leo, lobby, "Join")
    assert any(b["label"] == "Join" and b.get("disabled") for b in lobby.buttons)  # full
    await fake.click(leo, lobby, label="Start")
    await fake.wait_for(lambda: len(private_replies(fake, leo)) == 2)
    assert not fake.threads

    await click_ok(fake, ana, lobby, "Cancel")
    assert not lobby.buttons and "cancelled" in lobby.embeds[0]["description"]
    rec = await fake.slash(eve, "games")
    games = (await rec.response()).message
    assert games.ephemeral and "No games right now" in games.embeds[0]["description"]


async def test_missing_thread_permission_is_explained(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    await start_parlour()
    ana = fake.make_user("Ana")
    perms = discord.Permissions(fake.bot_permissions(fake.channel_id))
    perms.create_public_threads = False
    perms.attach_files = False
    fake.set_bot_permissions(fake.channel_id, perms)
    rec = await fake.slash(ana, GAME, "new")
    reply = (await rec.response()).message
    assert reply.ephemeral
    assert "missing the **Create Public Threads and Attach Files** permissions" in reply.content
    assert not fake.public_messages()


async def test_turn_timer_reminds_then_the_ai_plays_for_the_absent(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    parlour = await start_parlour()
    board = await timed_game(fake, parlour, 1)
    thread_id = int(fake.threads[0]["id"])
    await fake.wait_for(
        lambda: fake.latest_message(thread_id, lambda m: "still your turn" in m.content),
        timeout=3,
    )
    await fake.wait_for(lambda: move_number(board) >= 1 or None, timeout=3)
    game_id = (await parlour.service.storage.games(status="active"))[0].id
    logged = await parlour.service.storage.actions(game_id)
    assert logged and all(a.by_ai for a in logged)


async def test_deleted_thread_abandons_the_game(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    parlour = await start_parlour()
    await timed_game(fake, parlour, 1)
    eve = fake.make_user("Eve")
    await fake.delete_channel(int(fake.threads[0]["id"]))
    # The timer's AI move finds the thread gone: the game is abandoned, not retried forever.
    storage = parlour.service.storage
    await eventually(lambda: _no_active_games(storage), timeout=4)
    assert len(await storage.games(status="abandoned")) == 1
    rec = await fake.slash(eve, "games")
    assert "No games right now" in (await rec.response()).message.embeds[0]["description"]


async def _no_active_games(storage: Storage) -> bool:
    return await storage.games(status="active") == []


async def test_turn_timer_survives_a_restart(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    first = await start_parlour()
    board = await timed_game(fake, first, 2)
    await first.close()  # before anyone moves; the deadline is in the database

    await start_parlour()
    # Nobody clicks: the re-armed timer lets the AI move for the absent players.
    await fake.wait_for(lambda: move_number(board) >= 1 or None, timeout=5)


async def test_permission_lost_before_start_is_explained_and_the_lobby_stays(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    await start_parlour()
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    lobby = await open_lobby(fake, ana, GAME)
    await click_ok(fake, leo, lobby, "Join")
    perms = discord.Permissions(fake.bot_permissions(fake.channel_id))
    perms.create_public_threads = False
    fake.set_bot_permissions(fake.channel_id, perms)
    await fake.click(ana, lobby, label="Start")
    await fake.wait_for(lambda: private_replies(fake, ana))
    assert "Create Public Threads" in private_replies(fake, ana)[0]
    assert not fake.threads
    assert any(b["label"] == "Start" for b in lobby.buttons)  # still a lobby: fix and retry


async def test_a_bot_rolls_for_first_turn_at_once_while_a_human_also_must(
    fake: FakeDiscord, start_parlour: ParlourFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    parlour = await start_parlour()
    monkeypatch.setattr(parlour.autopilot, "bot_move_delay", 30.0)  # a long readability pause
    ana = fake.make_user("Ana")
    board = await start_game(fake, ana, GAME, bots=1)
    # The start roll is simultaneous: the bot does not make Ana wait 30 s nor race her click.
    await fake.wait_for(lambda: "Bot 1" not in prompt(board) or None, timeout=3)
    assert move_number(board) == 1
