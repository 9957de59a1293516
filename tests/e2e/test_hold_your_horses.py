"""Hold Your Horses end to end: the real client against the fake Discord."""

from __future__ import annotations

import itertools
from typing import Any

from bot.client import ParlourBot
from cogs.hold_your_horses import HoldYourHorsesPresenter
from rules.hold_your_horses.state import Phase, hand_of
from rules.registry import ENGINES
from tests.e2e.conftest import ParlourFactory
from tests.e2e.driver import (
    board_message,
    boards_in,
    is_result,
    move_number,
    newest_board,
    play_one_move,
    play_to_the_end,
    prompt,
    start_game,
)
from tests.e2e.fake_discord import FakeDiscord, FakeMessage

GAME = "hold-your-horses"
ROLL = ("Roll for a scratch", "Roll")
QUICK = {"races": 2, "track": "short"}  # a whole game in a few dozen rolls


def game_id(board: FakeMessage) -> int:
    return int(board.embeds[0]["title"].split()[-1].lstrip("#"))  # "Risk, game 42", "Risk · #42"


async def state_of(bot: ParlourBot, board: FakeMessage) -> Any:
    return (await bot.service.table(game_id(board))).state


def final_places(state: Any) -> dict[int, int]:
    outcome = ENGINES["hold_your_horses"].outcome(state)
    assert outcome is not None
    return dict(outcome.places)


async def test_full_three_player_game_with_private_hands(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    bot = await start_parlour()
    ana, leo, mia = (fake.make_user(n) for n in ("Ana", "Leo", "Mia"))
    players = [ana, leo, mia]
    board = await start_game(fake, ana, GAME, joiners=[leo, mia], options=QUICK)
    labels = [b["label"] for b in board.buttons]
    assert labels == ["Roll for a scratch", "My cards", "Text board", "Resign or end…"]
    assert "Race 1 of 2" in prompt(board) and f"<@{ana['id']}>" in prompt(board)

    # Each hand is shown to its holder only, and never in a public message.
    state = await state_of(bot, board)
    for user in players:
        await (await fake.click(user, board, label="My cards")).response()
    for user in players:
        (reply,) = [m.content for m in fake.ephemeral_for(user) if "Your cards" in m.content]
        hand = hand_of(state, int(user["id"]))
        shown = reply.split("**Your cards, race 1:** ")[1].splitlines()[0]
        assert sum(int(t.split("×")[1]) if "×" in t else 1 for t in shown.split(" · ")) == len(hand)
    replies = {u["username"]: fake.ephemeral_for(u) for u in players}
    assert len({id(m) for ms in replies.values() for m in ms}) == 3  # one each, none shared
    public = " ".join(m.content for m in fake.public_messages())
    assert "Your cards" not in public

    moves = await play_to_the_end(fake, players, board, ROLL)

    thread_id = board.channel_id
    boards = boards_in(fake, thread_id)
    assert len(boards) == 2  # one board message per race
    assert not boards[0].buttons  # race 1's board is closed, its finish shown
    assert "wins race 1" in boards[0].embeds[0]["description"]
    final = await state_of(bot, board)
    assert final.phase is Phase.OVER and len(final.grid) == 2
    assert moves >= 10
    result = fake.latest_message(thread_id, is_result)
    assert result is not None and "tokens won over 2 races" in result.content
    # Tokens are conserved: every player's tokens plus the pot is what was divided.
    assert sum(final.tokens) + final.pot == final.rules.tokens

    rec = await fake.slash(ana, "scoreboard", options={"game": "hold_your_horses"})
    lines = (await rec.response()).message.embeds[0]["description"].splitlines()
    assert len(lines) == 3 and "Races cashed" in lines[0]
    winners = {p for p, place in final_places(final).items() if place == 1}
    assert f"<@{min(winners)}>" in "".join(line for line in lines if "1 W" in line)


async def test_an_outsider_cannot_roll_or_see_a_hand(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    await start_parlour()
    ana, leo, eve = (fake.make_user(n) for n in ("Ana", "Leo", "Eve"))
    board = await start_game(fake, ana, GAME, joiners=[leo], options=QUICK)
    step = move_number(board)
    for user, label in [
        (eve, "My cards"),
        (eve, "Roll for a scratch"),
        (leo, "Roll for a scratch"),
    ]:
        await (await fake.click(user, board, label=label)).response()  # Ana rolls first
    replies = [m.content for m in fake.ephemeral_for(eve)]
    assert replies == ["You are not playing in this game."] * 2
    assert "not your roll" in fake.ephemeral_for(leo)[-1].content
    assert move_number(newest_board(fake, board)) == step


async def test_a_restart_in_the_middle_of_a_race_loses_nothing(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    bot = await start_parlour()
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    players = [ana, leo]
    board = await start_game(fake, ana, GAME, joiners=[leo], options=QUICK)
    while (await state_of(bot, board)).phase is Phase.SCRATCH:
        board = await play_one_move(fake, players, board, ROLL)
    for _ in range(3):
        board = await play_one_move(fake, players, board, ROLL)
    before = await state_of(bot, board)
    await bot.close()

    bot = await start_parlour()
    assert await state_of(bot, board) == before
    board = await play_one_move(fake, players, board, ROLL)  # the pre-restart board's button
    await play_to_the_end(fake, players, board, ROLL)
    gid = game_id(board)
    assert await bot.service.replay(gid) == (await bot.service.table(gid)).state


async def test_autoplay_rolls_for_everyone_at_a_steady_pace(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    pace = 0.15
    await start_parlour(autoplay_pace=pace)
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    board = await start_game(
        fake, ana, GAME, joiners=[leo], options={**QUICK, "races": 1, "autoplay": True}
    )
    # To watch, not to click: only the private hand, the text board and the way to leave or end.
    assert [b["label"] for b in board.buttons] == ["My cards", "Text board", "Resign or end…"]
    result = await fake.wait_for(
        lambda: fake.latest_message(board.channel_id, is_result), timeout=60
    )
    assert "wins" in result.content
    edits = [
        c.at for c in fake.calls if c.method == "PATCH" and c.path.endswith(f"/messages/{board.id}")
    ]
    assert len(edits) > 10
    gaps = [b - a for a, b in itertools.pairwise(edits)]
    assert min(gaps) >= pace * 0.9  # never faster than the pace: Discord's edit rate is safe
    assert board_message(fake) is not None


def test_the_presenter_words_a_scratch_with_who_pays() -> None:
    from rules.hold_your_horses.state import HorseScratched, Payment

    event = HorseScratched(
        roller=1,
        dice=(2, 3),
        horse=5,
        order=2,
        price=1,
        payments=(Payment(1, 2, 2, 2), Payment(2, 1, 1, 0)),
        pot=14,
    )
    (line,) = HoldYourHorsesPresenter().narrate([event], {1: "Ana", 2: "Leo"})
    assert "horse 5 scratched (2nd, 1 a card)" in line
    assert "Ana pays 2" in line and "Leo pays 0 (of 1: out of tokens)" in line
    assert "Pot 14" in line
