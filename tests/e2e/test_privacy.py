"""`/privacy` and `/forget-me` through the real client against the fake Discord, on both
backends; and a server's data kept 30 days after the bot is removed, unless it comes back."""

from __future__ import annotations

import gzip
import json
import sys
import time
from random import Random

import pytest

from bot.client import ParlourBot
from bot.ops.forget import RETENTION, purge_departed
from bot.storage.notify_state import StoredDm
from tests.databases import dump
from tests.e2e.conftest import ParlourFactory
from tests.e2e.driver import (
    click_ok,
    eventually,
    is_over,
    newest_board,
    offered,
    open_lobby,
    start_game,
)
from tests.e2e.fake_discord import FakeDiscord, FakeMessage
from tests.e2e.test_community import private_answer
from tests.e2e.test_leaving import resign, scoreboard

GAME = "cock-and-bull"
ZED_NAME = "Zephyrine Quillfeather"  # found nowhere else


async def status(parlour: ParlourBot, game_id: int) -> str | None:
    row = await parlour.service.storage.get_game(game_id)
    return None if row is None else row.status


async def test_privacy_says_what_is_kept_in_the_members_language(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    await start_parlour()
    english = await private_answer(fake, fake.make_user("Ana"), "privacy")
    text = str(english.embeds[0]["description"])
    assert "What Parlour keeps about you" in text and "`/forget-me`" in text
    spanish = await private_answer(fake, fake.make_user("Eva", locale="es-ES"), "privacy")
    texto = str(spanish.embeds[0]["description"])
    assert "Qué guarda Parlour de ti" in texto and "`/olvidarme`" in texto


async def test_forget_me_removes_the_member_everywhere_and_games_replay(
    fake: FakeDiscord, start_parlour: ParlourFactory, database_url: str
) -> None:
    parlour = await start_parlour(database_url=database_url)
    zed, leo = fake.make_user(ZED_NAME), fake.make_user("Leo")
    finished = await start_game(fake, zed, GAME, joiners=[leo])
    await resign(fake, leo, finished)  # game 1: Zed wins
    in_play = await start_game(fake, leo, GAME, joiners=[zed])  # game 2
    hosted = await open_lobby(fake, zed, GAME)  # game 3
    joined = await open_lobby(fake, leo, GAME)  # game 4
    await click_ok(fake, zed, joined, "Join")
    assert zed["id"] in str(hosted.embeds) and zed["id"] in str(joined.embeds)  # mentioned
    assert f"<@{zed['id']}>" in await scoreboard(fake, leo, "cock_and_bull")
    # What the notifier keeps of them: a turn's DM, and their DMs refused once.
    storage = parlour.service.storage
    line = f"🎲 Your turn, {ZED_NAME}"
    await storage.queue_dm(StoredDm(int(zed["id"]), 2, fake.guild_id, 1, 3, False, line, "x"))
    await storage.dms_refused(int(zed["id"]), fake.guild_id, 5.0)
    assert zed["id"] in dump(database_url) and ZED_NAME in dump(database_url)

    ask = await private_answer(fake, zed, "forget-me")
    assert "It can't be undone" in ask.content
    kept = await fake.click(zed, ask, label="Keep my data")
    assert (await kept.response()).message.content == "Nothing was changed."  # type: ignore[union-attr]
    assert zed["id"] in dump(database_url)

    ask = await private_answer(fake, zed, "forget-me")
    done = await fake.click(zed, ask, label="Forget me")
    answer = (await done.response()).message
    assert answer is not None and answer.content == (
        "Parlour has forgotten you: 3 games now name you “Former player”."
    )
    text = dump(database_url)
    assert zed["id"] not in text and ZED_NAME not in text
    # Resigned first: Leo won the game in play, and its board says so.
    assert await status(parlour, 2) == "finished"
    await eventually(lambda: _over(fake, in_play))
    final = str(newest_board(fake, in_play).embeds)
    assert ZED_NAME not in final and "Former player" in final
    # The lobbies no longer name them: the one they hosted is closed, the other open.
    assert zed["id"] not in str(hosted.embeds) and not hosted.buttons
    assert zed["id"] not in str(joined.embeds) and "Join" in offered(joined)
    # The others' results stand; every finished game still replays.
    standings = await scoreboard(fake, leo, "cock_and_bull")
    assert f"<@{leo['id']}>" in standings and zed["id"] not in standings
    for game_id in (1, 2):
        viewer = await private_answer(fake, leo, "replay", id=game_id)
        assert viewer.embeds and "Former player" in str(viewer.embeds[0])


async def test_a_rematch_invites_the_players_left_not_a_forgotten_one(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    """A forgotten member's seat is a former player's: the rematch of their game pings and
    invites only the members still named, never the stand-in that replaced them."""
    parlour = await start_parlour()
    zed, leo, eve = fake.make_user(ZED_NAME), fake.make_user("Leo"), fake.make_user("Eve")
    board = await start_game(fake, zed, GAME, joiners=[leo])
    await resign(fake, leo, board)
    await eventually(lambda: _over(fake, board))
    ask = await private_answer(fake, zed, "forget-me")
    await (await fake.click(zed, ask, label="Forget me")).response()
    (stand_in,) = {s.player_id for s in (await parlour.service.table(1)).seats} - {int(leo["id"])}

    await (await fake.click(eve, newest_board(fake, board), label="Rematch")).response()
    lobby = fake.latest_message(fake.channel_id, lambda m: m.content.startswith("🔁"))
    assert lobby is not None
    assert f"<@{leo['id']}>: click **Join**" in lobby.content
    assert str(stand_in) not in lobby.content and zed["id"] not in lobby.content
    sent = next(
        c.json
        for c in fake.calls
        if isinstance(c.response, dict) and c.response.get("id") == str(lobby.id)
    )
    assert list(map(str, sent["allowed_mentions"]["users"])) == [leo["id"]]


async def _over(fake: FakeDiscord, board: FakeMessage) -> bool:
    return is_over(newest_board(fake, board))


async def test_a_server_the_bot_left_is_deleted_after_30_days_unless_it_came_back(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    parlour = await start_parlour()
    storage = parlour.service.storage
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    await start_game(fake, ana, GAME, joiners=[leo])
    guild = fake.guild_id

    async def departed() -> list[int]:
        return await storage.guilds_left_before(time.time() + 1)

    async def left() -> bool:
        return await departed() == [guild]

    async def back() -> bool:
        return await departed() == []

    fake.remove_bot(guild)  # kicked: on_guild_remove
    await eventually(left)
    fake.add_bot_back(guild)  # invited again: kept
    await eventually(back)
    fake.remove_bot(guild)
    await eventually(left)
    assert await purge_departed(parlour.storage, now=time.time() + RETENTION - 60) == []
    assert await status(parlour, 1) == "active"
    assert await purge_departed(parlour.storage, now=time.time() + RETENTION + 60) == [guild]
    assert await status(parlour, 1) is None
    assert await departed() == []


async def test_my_data_is_the_members_own_and_shows_no_hidden_bet_of_another(
    fake: FakeDiscord, start_parlour: ParlourFactory, database_url: str
) -> None:
    """`/my-data` answers privately with a JSON file of the member's games, seats, own
    moves, results, ratings and settings, from every server; in a game of hidden bets, the
    other player's bets (their moves, the state holding them) are not in it."""
    parlour = await start_parlour(database_url=database_url)
    service = parlour.service
    zed, leo = fake.make_user(ZED_NAME), fake.make_user("Leo")
    finished = await start_game(fake, zed, GAME, joiners=[leo])
    await resign(fake, leo, finished)  # Zed wins: a result and a rating
    await start_game(fake, leo, "winners-circle", joiners=[zed], options={"hidden_bets": True})
    (secret,) = await service.storage.games(status="active")
    rng = Random(4)
    for _ in range(8):  # both place their hidden chips
        table = await service.table(secret.id)
        engine = service.engine(table.row.game)
        player = min(engine.to_act(table.state))
        action = rng.choice(engine.legal_actions(table.state, player))
        await service.act(secret.id, player, action, table.row.step)
    logged = await service.storage.actions(secret.id)
    leos = [e.action for e in logged if e.player_id == int(leo["id"])]
    assert any(a.verb == "bet_hidden" for a in leos)  # his chip values, secret till the end
    await service.storage.set_text_board_default(int(zed["id"]), True)
    await service.storage.set_notify(fake.guild_id, int(zed["id"]), "dm")
    line = f"🎲 Your turn in **Winner's Circle #{secret.id}**"
    dm = StoredDm(int(zed["id"]), secret.id, fake.guild_id, 1, 4, False, line, "your turn")
    await service.storage.queue_dm(dm)  # a turn's DM, waiting to go out
    await service.storage.dms_refused(int(zed["id"]), fake.guild_id, 86_400.0)

    answer = await private_answer(fake, zed, "my-data")

    assert answer.content.startswith("Your data in Parlour, from every server: 2 games")
    (attachment,) = answer.attachments
    assert attachment.filename == "parlour-my-data.json"
    data = json.loads(attachment.data)
    assert data["member"] == zed["id"] and data["settings"] == {"text_board": True}
    assert data["turn_notifications"] == [{"server": str(fake.guild_id), "notify": "dm"}]
    assert data["turn_dms"] == [
        {
            "game_id": secret.id,
            "server": str(fake.guild_id),
            "step": 4,
            "timer_reminder": False,
            "text": line,
            "status": "waiting",
            "sent_at": None,
        }
    ]
    assert data["dms_refused"] == [
        {"server": str(fake.guild_id), "at": "1970-01-02T00:00:00+00:00", "you_were_told": False}
    ]
    first, second = data["games"]
    assert first["game"] == "cock_and_bull" and first["your_result"]["won"] is True
    assert [s["name"] for s in first["seats"]] == [ZED_NAME, "Leo"]
    assert [s["you"] for s in first["seats"]] == [True, False]
    assert [r["game"] for r in data["ratings"]] == ["cock_and_bull"]
    assert second["game"] == "winners_circle" and second["house_rules"]["hidden_bets"] is True
    zeds = [e.step for e in logged if e.player_id == int(zed["id"])]
    assert zeds and [m["step"] for m in second["your_moves"]] == zeds
    # Nothing of Leo but what the board shows: his name; not his id, moves or chips.
    text = attachment.data.decode()
    assert leo["id"] not in text
    leo_steps = {e.step for e in logged if e.player_id == int(leo["id"])}
    assert not leo_steps & {m["step"] for m in second["your_moves"]}
    zed_moves = [
        f"{e.action.verb}:{e.action.arg}".rstrip(":")
        for e in logged
        if e.player_id == int(zed["id"])
    ]
    assert [m["move"] for m in second["your_moves"]] == zed_moves
    assert "state" not in second  # a saved state holds everyone's chips
    elsewhere = await private_answer(fake, leo, "my-data")  # his own copy: his bets
    theirs = json.loads(elsewhere.attachments[0].data)
    assert [m["step"] for m in theirs["games"][1]["your_moves"]] == sorted(leo_steps)


async def test_my_data_in_spanish(fake: FakeDiscord, start_parlour: ParlourFactory) -> None:
    await start_parlour()
    eva = fake.make_user("Eva", locale="es-ES")
    answer = await private_answer(fake, eva, "my-data")
    assert answer.content.startswith("Tus datos en Parlour, de todos los servidores: 0 partidas")
    assert json.loads(answer.attachments[0].data)["games"] == []


async def test_my_data_too_large_for_a_file_is_compressed_then_refused(
    fake: FakeDiscord, start_parlour: ParlourFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    await start_parlour()
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    await start_game(fake, ana, GAME, joiners=[leo])
    whole = await private_answer(fake, ana, "my-data")
    size = len(whole.attachments[0].data)

    # The module the bot loaded as an extension (discord.py loads its own copy).
    monkeypatch.setattr(sys.modules["cogs.privacy"], "ATTACHMENT_LIMIT", size - 1)
    packed = await private_answer(fake, ana, "my-data")
    (attachment,) = packed.attachments
    assert attachment.filename == "parlour-my-data.json.gz"
    assert json.loads(gzip.decompress(attachment.data)) == json.loads(whole.attachments[0].data)

    monkeypatch.setattr(sys.modules["cogs.privacy"], "ATTACHMENT_LIMIT", 100)
    refused = await private_answer(fake, ana, "my-data")
    assert refused.attachments == [] and "python -m bot export-user" in refused.content
