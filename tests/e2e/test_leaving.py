"""Leaving a game before its end, through the board's "Resign or end…" panel (issue 17):
resigning, ending by the host, a manager or a vote, refusals, and a seat handed to the AI."""

from __future__ import annotations

import discord

from bot.client import ParlourBot
from tests.e2e.conftest import ParlourFactory
from tests.e2e.driver import (
    JSON,
    board_message,
    choose,
    click_ok,
    eventually,
    is_over,
    newest_board,
    open_lobby,
    open_panel,
    play_one_move,
    play_to_the_end,
    start_game,
)
from tests.e2e.fake_discord import BUTTON, STRING_SELECT, FakeDiscord, FakeMessage
from tests.e2e.test_winners_circle import CHOICES as WC_CHOICES
from tests.e2e.test_winners_circle import PRIVATE as WC_PRIVATE

MENU = "Resign or end…"


async def panel_click(fake: FakeDiscord, user: JSON, panel: FakeMessage, label: str) -> str:
    """Click `label` in a private panel; the text the bot answered with."""
    callback = await (await choose(fake, user, panel, label)).response()
    return callback.message.content if callback.message is not None else ""


async def status(parlour: ParlourBot, game_id: int = 1) -> str:
    row = await parlour.service.storage.get_game(game_id)
    assert row is not None
    return row.status


async def scoreboard(fake: FakeDiscord, user: JSON, game: str) -> str:
    rec = await fake.slash(user, "scoreboard", options={"game": game})
    message = (await rec.response()).message
    return str(message.embeds[0]["description"]) if message.embeds else message.content


async def listed_games(fake: FakeDiscord, user: JSON) -> str:
    rec = await fake.slash(user, "games")
    return str((await rec.response()).message.embeds[0]["description"])


async def resign(fake: FakeDiscord, user: JSON, board: FakeMessage) -> None:
    """`user` resigns from `board`'s panel; returns once a board tells the others."""
    panel = await open_panel(fake, user, board, MENU)
    await panel_click(fake, user, panel, "Resign…")
    assert "You resigned." in await panel_click(fake, user, panel, "Resign")
    await fake.wait_for(
        lambda: "resigned" in str(newest_board(fake, board).embeds[0]["description"]) or None
    )


async def duel(fake: FakeDiscord) -> tuple[JSON, JSON, FakeMessage]:
    """Ana and Leo at a game of Cock & Bull; its board."""
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    return ana, leo, await start_game(fake, ana, "cock-and-bull", joiners=[leo])


async def test_resigning_a_duel_hands_the_win_to_the_opponent_and_counts_as_a_loss(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    parlour = await start_parlour()
    ana, leo, board = await duel(fake)
    panel = await open_panel(fake, leo, board, MENU)
    confirm_text = await panel_click(fake, leo, panel, "Resign…")
    assert "Are you sure?" in confirm_text
    assert "You resigned." in await panel_click(fake, leo, panel, "Resign")
    await eventually(lambda: _is(status(parlour), "finished"))
    board = newest_board(fake, board)
    await fake.wait_for(lambda: is_over(newest_board(fake, board)) or None)
    assert "resigned" in str(newest_board(fake, board).embeds[0]["description"])
    logged = await parlour.service.storage.actions(1)
    assert logged[-1].action.verb == "resign" and logged[-1].player_id == int(leo["id"])
    replayed = await parlour.service.replay(1)
    assert parlour.service.engine("cock_and_bull").outcome(replayed) is not None
    lines = (await scoreboard(fake, ana, "cock_and_bull")).splitlines()
    assert "1 W / 0 L" in lines[0] and ana["id"] in lines[0]
    assert "0 W / 1 L" in lines[1] and leo["id"] in lines[1]


async def test_keep_playing_changes_nothing(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    parlour = await start_parlour()
    _ana, leo, board = await duel(fake)
    panel = await open_panel(fake, leo, board, MENU)
    await panel_click(fake, leo, panel, "Resign…")
    assert "Carry on" in await panel_click(fake, leo, panel, "Keep playing")
    assert await status(parlour) == "active" and not await parlour.service.storage.actions(1)


async def test_hold_your_horses_resigner_is_played_out_by_the_ai_and_finishes_last(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    parlour = await start_parlour()
    ana, leo, mia = fake.make_user("Ana"), fake.make_user("Leo"), fake.make_user("Mia")
    board = await start_game(
        fake, ana, "hold-your-horses", joiners=[leo, mia], options={"races": 1}
    )
    for user in (ana, leo, mia):
        await resign(fake, user, board)
    # Every seat is the AI's now: it plays the race to its end, and every member who left
    # finishes last. (SQLite's one connection shows the final move's status to a read while
    # its transaction, results included, is still committing: wait for the results.)
    await eventually(lambda: _is(status(parlour), "finished"), timeout=30)
    await eventually(lambda: _scoreboard_has(fake, ana, "hold_your_horses", 3))
    lines = (await scoreboard(fake, ana, "hold_your_horses")).splitlines()
    assert len(lines) == 3 and all("0 W / 1 L" in line for line in lines), lines


async def test_the_host_ends_a_game_no_scoreboard_and_unlisted(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    parlour = await start_parlour()
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    board = await start_game(fake, ana, "risk", joiners=[leo])
    assert "Risk #1" in await listed_games(fake, ana)
    # Leo plays but does not host: refused, nothing changes.
    panel = await open_panel(fake, leo, board, MENU)
    assert "End game…" not in [b.get("label") for b in panel.buttons]
    outsider = fake.make_user("Zed")
    refused = await (await fake.click(outsider, board, label=MENU)).response()
    assert refused.message is not None and refused.message.ephemeral
    assert "not playing" in refused.message.content
    panel = await open_panel(fake, ana, board, MENU)
    assert "End this game" in await panel_click(fake, ana, panel, "End game…")
    assert "You ended the game." in await panel_click(fake, ana, panel, "End game")
    assert await status(parlour) == "abandoned"
    row = await parlour.service.storage.get_game(1)
    assert row is not None and row.ended_by == int(ana["id"])
    note = await fake.wait_for(
        lambda: fake.latest_message(board.channel_id, lambda m: m.content.startswith("⏹"))
    )
    assert f"Ended by <@{ana['id']}>" in note.content
    ended = newest_board(fake, board)
    assert ended.buttons == [] and "Ended by" in str(ended.embeds[0]["description"])
    assert "Risk #1" not in await listed_games(fake, ana)
    assert "0 W" not in await scoreboard(fake, ana, "risk")


async def test_a_manager_ends_a_game_they_do_not_play(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    parlour = await start_parlour()
    ana, leo, mod = fake.make_user("Ana"), fake.make_user("Leo"), fake.make_user("Mod")
    board = await start_game(fake, ana, "cock-and-bull", joiners=[leo])
    fake.grant(mod, discord.Permissions(manage_threads=True))
    panel = await open_panel(fake, mod, board, MENU)
    await panel_click(fake, mod, panel, "End game…")
    await panel_click(fake, mod, panel, "End game")
    assert await status(parlour) == "abandoned"


async def test_every_player_voting_ends_the_game(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    parlour = await start_parlour()
    ana, leo, board = await duel(fake)
    panel = await open_panel(fake, leo, board, MENU)
    assert "(1/2)" in await panel_click(fake, leo, panel, "Vote to end (0/2)")
    assert await status(parlour) == "active"
    panel = await open_panel(fake, leo, board, MENU)
    assert "already voted" in await panel_click(fake, leo, panel, "Vote to end (1/2)")
    panel = await open_panel(fake, ana, board, MENU)
    assert "ended the game" in await panel_click(fake, ana, panel, "Vote to end (1/2)")
    assert await status(parlour) == "abandoned"
    row = await parlour.service.storage.get_game(1)
    assert row is not None and row.ended_by is None


async def test_a_seat_handed_to_the_ai_is_played_until_taken_back(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    parlour = await start_parlour()
    ana, leo, board = await duel(fake)
    panel = await open_panel(fake, leo, board, MENU)
    assert "Hand a seat" not in str(panel.components)  # not the host
    panel = await open_panel(fake, ana, board, MENU)
    assert "The AI plays that seat now." in await panel_click(fake, ana, panel, "Leo")
    engine = parlour.service.engine("cock_and_bull")
    table = await parlour.service.table(1)
    assert engine.ai_seats(table.state) == {int(leo["id"])}
    # The AI rolls for Leo meanwhile.
    await eventually(lambda: _logged_by_ai(parlour, int(leo["id"])))
    panel = await open_panel(fake, leo, board, MENU)
    assert "Your seat is yours again." in await panel_click(fake, leo, panel, "Take my seat back")
    table = await parlour.service.table(1)
    assert engine.ai_seats(table.state) == frozenset()


async def _scoreboard_has(fake: FakeDiscord, user: JSON, game: str, rows: int) -> bool:
    return len((await scoreboard(fake, user, game)).splitlines()) >= rows


async def _is(value: object, wanted: str) -> bool:
    return await value == wanted  # type: ignore[misc]


async def _logged_by_ai(parlour: ParlourBot, player: int) -> bool:
    return any(a.by_ai and a.player_id == player for a in await parlour.service.storage.actions(1))


async def test_a_resigned_game_replays_to_its_end_with_the_resignation_told(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    await start_parlour()
    ana, leo, board = await duel(fake)
    await play_one_move(fake, [ana, leo], board)
    await resign(fake, leo, board)
    await fake.wait_for(lambda: is_over(newest_board(fake, board)) or None)

    rec = await fake.slash(ana, "replay", options={"id": 1})
    viewer = (await rec.response()).message
    assert viewer is not None and viewer.ephemeral
    await (await fake.click(ana, viewer, label="Last")).response()
    moves = str(viewer.embeds[0]["description"])
    (last,) = [line for line in moves.splitlines() if line.startswith("▶ **2.**")]
    assert last.startswith("▶ **2.** Leo · Resign — 🏳️") and "resigned" in last, moves


async def replays_to_its_state(parlour: ParlourBot, game_id: int = 1) -> None:
    """The resignation is in the log: a replay from the seed reaches the saved state."""
    assert await parlour.service.replay(game_id) == (await parlour.service.table(game_id)).state


async def test_a_two_player_risk_resigner_loses_at_once(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    parlour = await start_parlour()
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    board = await start_game(fake, ana, "risk", joiners=[leo])
    await resign(fake, leo, board)  # out of turn: Ana is to claim
    await eventually(lambda: _is(status(parlour), "finished"))
    await fake.wait_for(lambda: is_over(newest_board(fake, board)) or None)
    await replays_to_its_state(parlour)
    lines = (await scoreboard(fake, ana, "risk")).splitlines()
    assert ana["id"] in lines[0] and "1 W / 0 L" in lines[0]
    assert leo["id"] in lines[1] and "0 W / 1 L" in lines[1]


async def test_a_risk_resigner_among_three_leaves_neutral_armies_and_the_game_goes_on(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    parlour = await start_parlour()
    ana, leo, mia = (fake.make_user(n) for n in ("Ana", "Leo", "Mia"))
    board = await start_game(fake, ana, "risk", joiners=[leo, mia], options={"setup": "deal"})
    before = (await parlour.service.table(1)).state
    held = sum(1 for owner in before.owners if owner == int(mia["id"]))
    await resign(fake, mia, board)
    state = (await parlour.service.table(1)).state
    assert await status(parlour) == "active" and held > 0
    assert int(mia["id"]) not in state.owners  # every territory of hers is neutral now
    assert sum(1 for a, b in zip(before.owners, state.owners, strict=True) if a != b) == held
    await replays_to_its_state(parlour)
    refused = await (await fake.click(mia, newest_board(fake, board), label=MENU)).response()
    assert refused.message is not None and refused.message.ephemeral  # out of the game


async def test_a_winners_circle_resigner_is_played_out_by_the_ai_and_finishes_last(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    parlour = await start_parlour()
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    board = await start_game(fake, ana, "winners-circle", joiners=[leo])
    await resign(fake, leo, board)
    state = (await parlour.service.table(1)).state
    assert parlour.service.engine("winners_circle").ai_seats(state) == {int(leo["id"])}
    await play_to_the_end(
        fake, [ana], newest_board(fake, board), WC_CHOICES, private_label=WC_PRIVATE
    )
    await eventually(lambda: _is(status(parlour), "finished"), timeout=30)
    await replays_to_its_state(parlour)
    lines = (await scoreboard(fake, ana, "winners_circle")).splitlines()
    assert leo["id"] in lines[-1] and "0 W / 1 L" in lines[-1]


async def test_a_horse_collar_single_who_resigns_leaves_the_other_side_the_winner(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    parlour = await start_parlour()
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    lobby = await open_lobby(fake, ana, "horse-collar", {"frames": 1, "target": 11})
    await click_ok(fake, leo, lobby, "Join Blue")
    await fake.click(ana, lobby, label="Start")
    board = await fake.wait_for(lambda: board_message(fake))
    await resign(fake, leo, board)
    await eventually(lambda: _is(status(parlour), "finished"))
    await replays_to_its_state(parlour)
    lines = (await scoreboard(fake, ana, "horse_collar")).splitlines()
    assert ana["id"] in lines[0] and "1 W / 0 L" in lines[0]


async def forged(fake: FakeDiscord, board: FakeMessage, component: JSON) -> FakeMessage:
    """A message in the board's thread with one component of Parlour's form the bot never
    sent there (a custom client's, or an older board's): only its custom id and values count."""
    return await fake.post_as_bot(
        board.channel_id, content="forged", components=[{"type": 1, "components": [component]}]
    )


async def test_an_outsider_asking_to_resign_is_refused_not_asked_to_confirm(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    parlour = await start_parlour()
    _ana, _leo, board = await duel(fake)
    zed = fake.make_user("Zed")
    ask = {
        "type": BUTTON,
        "style": 2,
        "label": "Resign…",
        "custom_id": "v1:cock_and_bull:1:-:resign_ask",
    }
    refused = await (
        await fake.click(zed, await forged(fake, board, ask), label="Resign…")
    ).response()
    assert refused.message is not None and refused.message.ephemeral
    assert refused.message.content == "You are not playing in this game."
    assert await status(parlour) == "active" and not await parlour.service.storage.actions(1)


async def test_a_menu_choice_that_resigns_or_ends_is_refused_never_done_unconfirmed(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    """Resigning and ending are done only by their confirm buttons: a select menu whose
    option names `resign` or `end` (the zoom menu's id, a forged value) does nothing."""
    parlour = await start_parlour()
    ana, _leo, board = await duel(fake)
    for value in ("resign", "end", "end_ask", "start"):
        menu = {
            "type": STRING_SELECT,
            "custom_id": "v1:cock_and_bull:1:-:menu:0",
            "options": [{"label": "Zoom", "value": value}],
        }
        message = await forged(fake, board, menu)
        rec = await fake.select(ana, message, [value], custom_id=menu["custom_id"])
        refused = (await rec.response()).message
        assert refused is not None and refused.ephemeral, value
        assert refused.content == "That choice is not available.", value
    assert await status(parlour) == "active" and not await parlour.service.storage.actions(1)
