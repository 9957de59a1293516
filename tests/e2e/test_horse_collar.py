"""Horse Collar end to end: the real client against the fake Discord, shots set up with the
board's select menus and the "Same again" button, replays and still boards, sides and bots."""

from __future__ import annotations

import io
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from random import Random
from typing import Any

from PIL import Image

from bot.client import ParlourBot
from bot.language.i18n import speaking
from cogs.horse_collar import ANGLE_MENU, CURRENT, RELEASE_MENU, SHOOT_MENU, HorseCollarPresenter
from rules.horse_collar import ENGINE
from rules.horse_collar.actions import line_up_action, shoot_action
from rules.horse_collar.shots import Noise
from rules.horse_collar.state import (
    GameWon,
    HickeyPaid,
    TargetReached,
    TieFrame,
    TurnResult,
    TurnScored,
    VoidReason,
    Weight,
    WeightShot,
)
from tests.e2e.conftest import ParlourFactory
from tests.e2e.driver import (
    JSON,
    board_message,
    boards_in,
    eventually,
    is_result,
    move_number,
    newest_board,
    open_lobby,
    play_to_the_end,
    prompt,
)
from tests.e2e.fake_discord import (
    CB_DEFERRED_UPDATE,
    CB_UPDATE_MESSAGE,
    STRING_SELECT,
    FakeDiscord,
    FakeMessage,
    Interaction,
)

GAME = "horse-collar"
SAME_AGAIN = "Same again"
QUICK = {"frames": 1}  # one frame: each side's turn of 8 shots, then the higher score wins

# A singles turn that uses every control: (menu, option label prefix), or "Same again".
Step = tuple[str, str] | str
TURN_PLAN: tuple[tuple[Step, ...], ...] = (
    ((SHOOT_MENU, "3 zone, 3 in"),),
    ((RELEASE_MENU, "Left of centre"), (SHOOT_MENU, "3 zone, 2 in")),
    ((RELEASE_MENU, "Right of centre"), (ANGLE_MENU, "0.25° left"), (SHOOT_MENU, "3 zone, 3 in")),
    (SAME_AGAIN,),
    ((RELEASE_MENU, "Left rail"), (ANGLE_MENU, "Straight"), (SHOOT_MENU, "Hang the end")),
    ((RELEASE_MENU, "Right rail"), SAME_AGAIN),
    ((RELEASE_MENU, "In line with"), (SHOOT_MENU, "3 zone, 2½ in")),  # tap a weight on
    ((RELEASE_MENU, "Centre"), (SHOOT_MENU, "2 zone (8 in)")),
)


def game_id(board: FakeMessage) -> int:
    return int(board.embeds[0]["title"].split()[-1].lstrip("#"))  # "Risk, game 42", "Risk · #42"


async def state_of(bot: ParlourBot, board: FakeMessage) -> Any:
    return (await bot.service.table(game_id(board))).state


def image_of(board: FakeMessage) -> tuple[str, Image.Image]:
    (attachment,) = board.attachments
    image = Image.open(io.BytesIO(attachment.data))
    image.load()
    assert board.embeds[0]["image"]["url"] == f"attachment://{attachment.filename}"
    return attachment.filename, image


def assert_still_board(board: FakeMessage) -> None:
    filename, image = image_of(board)
    assert filename == "board.png" and image.format == "PNG"


def assert_replay(board: FakeMessage) -> None:
    filename, image = image_of(board)
    assert filename == "replay.gif" and image.format == "GIF"
    assert getattr(image, "n_frames", 1) > 5  # animated: the slide, then the board at rest
    assert len(board.attachments[0].data) < 1_000_000  # small enough to upload fast


def menu_options(board: FakeMessage, menu: str) -> list[JSON]:
    return list(board.find_component(STRING_SELECT, placeholder=menu)["options"])


def description(board: FakeMessage) -> str:
    return str(board.embeds[0]["description"])


async def act(fake: FakeDiscord, user: JSON, board: FakeMessage, step: Step) -> Interaction:
    """One control: pick the first option of a menu whose label starts so, or Same again.
    Returns once the move is on the board, and the next board is up after a turn."""
    before = move_number(board)
    if isinstance(step, str):
        rec = await fake.click(user, board, label=step)
    else:
        menu, label = step
        value = next(o["value"] for o in menu_options(board, menu) if o["label"].startswith(label))
        rec = await fake.select(user, board, [value], placeholder=menu)
    callback = await rec.response()
    assert callback.message is None or not callback.message.ephemeral, callback.message.content

    def shown() -> bool | None:
        # A move that ends a side's turn closes this board and posts the next one.
        moved = move_number(board) > before
        up = bool(board.components) or newest_board(fake, board) is not board
        return (moved and up) or None

    await fake.wait_for(shown)
    # No error after a deferral (its follow-ups are public: the next board, a ping).
    assert not [m.content for m in rec.followups if m.ephemeral]
    return rec


async def lobby_with_sides(
    fake: FakeDiscord, host: JSON, joins: Sequence[tuple[JSON, str]], options: dict[str, Any]
) -> FakeMessage:
    lobby = await open_lobby(fake, host, GAME, options)
    for user, side in joins:
        rec = await fake.click(user, lobby, label=f"Join {side}")
        assert not (await rec.response()).message.ephemeral  # type: ignore[union-attr]
    return lobby


async def start(fake: FakeDiscord, host: JSON, lobby: FakeMessage) -> FakeMessage:
    await fake.click(host, lobby, label="Start")
    return await fake.wait_for(lambda: board_message(fake))


async def singles(fake: FakeDiscord, options: dict[str, Any]) -> tuple[JSON, JSON, FakeMessage]:
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    lobby = await lobby_with_sides(fake, ana, [(leo, "Blue")], options)
    return ana, leo, await start(fake, ana, lobby)


def refusal(rec: Interaction) -> Callable[[], list[FakeMessage] | None]:
    """Waits for the private answer sent after a deferred click."""
    return lambda: [m for m in rec.followups if m.ephemeral] or None


# --- a full singles game, every control ----------------------------------------------------


async def test_a_singles_game_with_selects_replays_and_the_scoreboard(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    bot = await start_parlour()
    ana, leo, board = await singles(fake, {**QUICK, "hickey": 2})
    players = {int(ana["id"]): ana, int(leo["id"]): leo}
    lobby = fake.messages()[-1]
    assert "Hickey jar: stake 2" in str(lobby.embeds[0]["fields"])

    # The first board: three menus and Same again, the current settings marked, a still PNG.
    assert [c.get("placeholder") for c in board.components[0]["components"]] == [RELEASE_MENU]
    assert [b["label"] for b in board.buttons] == [SAME_AGAIN, "Text board", "Resign or end…"]
    releases = menu_options(board, RELEASE_MENU)
    assert [o["label"] for o in releases][:4] == ["Left rail", "Left", "Left of centre", "Centre"]
    assert [o["label"] for o in releases if o.get("description") == CURRENT] == ["Centre"]
    shots = menu_options(board, SHOOT_MENU)
    assert len(shots) == 17 and shots[-1]["label"] == "Knock it off"
    assert [o["label"] for o in shots if o.get("description") == CURRENT] == ["3 zone, 3 in"]
    assert len(menu_options(board, ANGLE_MENU)) == 7
    assert f"Frame 1, Red: <@{ana['id']}> to shoot R1 (1 of 8)" == prompt(board)
    assert_still_board(board)

    shot_responses: list[float] = []
    for _turn in range(2):
        for plan in TURN_PLAN:
            shooter = players[(await state_of(bot, board)).shooter]
            for step in plan:
                sent = time.monotonic()
                rec = await act(fake, shooter, board, step)
                callback = rec.callback
                assert callback is not None
                shooting = isinstance(step, str) or step[0] == SHOOT_MENU
                if shooting:
                    # The click is deferred at once, before the physics and the replay.
                    assert callback.type == CB_DEFERRED_UPDATE
                    shot_responses.append(time.monotonic() - sent)
                    assert_replay(board)  # the answer edits this board with the replay
                    assert "shot" in description(board)
                else:
                    assert callback.type == CB_UPDATE_MESSAGE
                    assert_still_board(board)
                    assert "sets up:" in description(board)
            board = newest_board(fake, board)

    assert max(shot_responses) < 3.0  # Discord's limit for the first response
    thread_id = board.channel_id
    boards = boards_in(fake, thread_id)
    assert len(boards) == 3  # one per side's turn, and the final board
    red_turn, blue_turn, final = boards
    for closed in (red_turn, blue_turn):
        assert not closed.components  # a finished turn's board stays, without controls
        assert_replay(closed)  # ending on the eighth shot's replay
        assert "shot B4" in description(closed)
    assert "**Red** (Ana)" in description(red_turn)
    assert "Frame 1: **Blue**'s turn with the hammer, Leo shoots first." in description(red_turn)
    assert_still_board(final)
    assert [b["label"] for b in final.buttons] == ["Rematch"]  # nothing left to play

    state = await state_of(bot, board)
    assert state.over and len(state.history) == 2
    result = await fake.wait_for(lambda: fake.latest_message(thread_id, is_result))
    assert "after 1 frame, and the Hickey jar of" in result.content
    for turn, closed in zip(state.history, (red_turn, blue_turn), strict=True):
        if turn.void is None:
            assert f"scored **{turn.points}**" in description(closed)
        else:
            assert "nothing counts" in description(closed) or "void" in description(closed)
            assert "🫙 Hickey" in description(closed)  # a turn that scored nothing pays

    rec = await fake.slash(ana, "scoreboard", options={"game": "horse_collar"})
    lines = (await rec.response()).message.embeds[0]["description"].splitlines()  # type: ignore[union-attr]
    assert len(lines) == 2
    assert all(
        "Hangers" in line and "Corner hangers" in line and "Hickeys" in line for line in lines
    )
    top = min(state.winners)
    assert f"<@{state.sides[top][0]}>" in lines[0] and "1 W" in lines[0]


# --- 2 v 2 with a bot --------------------------------------------------------------------------


async def test_two_against_two_with_a_bot_filling_the_smaller_side(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    bot = await start_parlour()
    ana, leo, mia = (fake.make_user(n) for n in ("Ana", "Leo", "Mia"))
    lobby = await lobby_with_sides(fake, ana, [(leo, "Blue"), (mia, "Blue")], QUICK)
    assert [b["label"] for b in lobby.buttons][:2] == ["Join Red", "Join Blue"]

    refused = await (await fake.click(ana, lobby, label="Start")).response()
    assert refused.message is not None and refused.message.ephemeral
    assert "sides are not equal (1 v 2 players)" in refused.message.content

    await (await fake.click(ana, lobby, label="Add bot")).response()
    players = str(lobby.embeds[0]["fields"][0]["value"])
    assert players.splitlines()[0] == f"**Red:** <@{ana['id']}>, 🤖 Bot 1"
    board = await start(fake, ana, lobby)

    state = await state_of(bot, board)
    assert state.sides == ((int(ana["id"]), -1), (int(leo["id"]), int(mia["id"])))
    moves = await play_to_the_end(fake, [ana, leo, mia], board, (SAME_AGAIN,))
    assert moves == 12  # Ana, Leo and Mia shoot 4 each; the bot its 4 on its own

    final = await state_of(bot, board)
    assert final.over and len(final.history) == 2
    red_turn = boards_in(fake, board.channel_id)[0]
    assert "**Bot 1** shot B4" in description(red_turn)  # the bot's shots are shown too
    assert_replay(red_turn)
    result = await fake.wait_for(lambda: fake.latest_message(board.channel_id, is_result))
    assert "wins with" in result.content or "share" in result.content


# --- a restart between shots --------------------------------------------------------------------


async def test_a_restart_between_shots_keeps_the_old_board_working(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    bot = await start_parlour()
    ana, _leo, board = await singles(fake, QUICK)
    await act(fake, ana, board, (RELEASE_MENU, "Right of centre"))
    await act(fake, ana, board, SAME_AGAIN)
    before = await state_of(bot, board)
    assert before.shot == 1
    await bot.close()

    bot = await start_parlour()
    assert await state_of(bot, board) == before
    rec = await act(fake, ana, board, (SHOOT_MENU, "3 zone, 4 in"))  # the pre-restart board
    assert rec.callback is not None and rec.callback.type == CB_DEFERRED_UPDATE
    assert_replay(board)
    await act(fake, ana, board, SAME_AGAIN)
    gid = game_id(board)
    state = (await bot.service.table(gid)).state
    assert state.shot == 3 and state.aims[0].target == "in_4"  # the settings survived
    assert await bot.service.replay(gid) == state


# --- wrong player and outsider ------------------------------------------------------------------


async def test_the_wrong_player_and_an_outsider_are_refused_privately(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    await start_parlour()
    _ana, leo, board = await singles(fake, QUICK)
    eve = fake.make_user("Eve")
    step = move_number(board)
    value = menu_options(board, RELEASE_MENU)[0]["value"]
    for user in (leo, eve):
        await (await fake.select(user, board, [value], placeholder=RELEASE_MENU)).response()
        rec = await fake.click(user, board, label=SAME_AGAIN)  # deferred, then refused
        await fake.wait_for(refusal(rec))
    assert [m.content for m in fake.ephemeral_for(leo)] == ["It is not your shot."] * 2
    assert [m.content for m in fake.ephemeral_for(eve)] == ["You are not playing in this game."] * 2
    assert move_number(newest_board(fake, board)) == step
    assert_still_board(board)


async def test_rules_and_lobby_options(fake: FakeDiscord, start_parlour: ParlourFactory) -> None:
    bot = await start_parlour()
    ana = fake.make_user("Ana")
    rules = (await (await fake.slash(ana, GAME, "rules")).response()).message
    assert rules is not None and rules.ephemeral and "hammer" in rules.embeds[0]["description"]
    options = {
        "sides": 4,
        "target": 21,
        "table": 12,
        "foul_line": "long",
        "corner_hanger": 13,
        "short_weight_voids_turn": False,
        "board_speed": "slow",
        "turn_timer": 600,
    }
    lobby = await open_lobby(fake, ana, GAME, options)

    async def lobby_saved() -> bool:  # the command's last step, after its reply
        return (await bot.service.table(game_id(lobby))).row.lobby_message_id == lobby.id

    await eventually(lobby_saved)
    labels = [b["label"] for b in lobby.buttons]
    assert labels[:4] == ["Join Red", "Join Blue", "Join Green", "Join Gold"]
    house = lobby.embeds[0]["fields"][1]["value"]
    for text in (
        "Sides: 4",
        "Target: 21",
        "Table: 12 ft",
        "Foul line: long",
        "Board speed: slow",
        "Corner hanger: 13",
        "Short weight voids the turn: off",
        "Turn timer: 10 minutes",
    ):
        assert text in house


# --- the presenter's wording ---------------------------------------------------------------


NAMES = {1: "Ana", 2: "Leo"}


def test_a_shot_is_narrated_with_its_value_knocks_and_falls() -> None:
    state = ENGINE.initial_state([1, 2], {}, Random(0))
    # R1 in the 3 zone off to the right, R2 up the table; R3 lines up with R1 and knocks it.
    board = (Weight(0, 2_000, 8_000), Weight(1, 30_000, 0))
    state = replace(state, weights=board, shot=2)
    state = ENGINE.apply(state, 1, line_up_action(0), Random(0)).state
    step = ENGINE.apply(state, 1, shoot_action("off"), Random(0))
    (shot,) = [e for e in step.events if isinstance(e, WeightShot)]
    (line,) = HorseCollarPresenter().narrate([shot], NAMES)
    assert line.startswith("**Ana** shot R3 (In line with R1, straight, knock it off):")
    assert "; knocked R1" in line or "; knocked on R1" in line


def test_turns_hickey_target_and_tie_frames_are_worded() -> None:
    presenter = HorseCollarPresenter()
    weights = (Weight(0, 3_000, 0),)
    scored = TurnScored((1,), TurnResult(0, 1, weights, (3, 2, 2, 1, 1, 1), 10, None), 10)
    void = TurnScored((2, 3), TurnResult(1, 1, weights, (2,), 0, VoidReason.NO_THREE), 4)
    short = TurnScored((2,), TurnResult(1, 2, weights, (3,), 0, VoidReason.SHORT_WEIGHT), 4)
    names = {**NAMES, 3: "Mia"}
    lines = presenter.narrate(
        [
            scored,
            void,
            short,
            HickeyPaid((2, 3), 10, 10),
            HickeyPaid((2,), 5, 15),
            TargetReached(0, 53, 51),
            TieFrame((0, 1), 4, 55),
        ],
        names,
    )
    assert lines == [
        "**Red** (Ana) scored **10** (3 + 2 + 2 + 1 + 1 + 1). Total **10**.",
        "**Blue** (Leo and Mia): no 3 or better, nothing counts. Total 4.",
        "**Blue** (Leo): a short weight is left on the board, the turn is void. Total 4.",
        "🫙 Hickey: Leo and Mia put 5 each in the jar (jar 10).",
        "🫙 Hickey: Leo puts 5 in the jar (jar 15).",
        "🎯 **Red** reached the target of 51 with 53! The frame is still finished.",
        "⚖️ **Red** and **Blue** are tied at 55: tie frame 4, among them.",
    ]
    won = presenter.narrate([TargetReached(1, 51, 51), GameWon((1,), (2,), (40, 51), 0)], names)
    assert won == ["🎯 **Blue** reached the target of 51 with 51!"]  # the hammer: won at once


def test_a_noisy_shot_still_has_one_line() -> None:
    state = ENGINE.initial_state([1, 2], {}, Random(0))
    step = ENGINE.resolve_shot(state, Noise(1.5, 0.0))  # far too hard: off the end
    (shot,) = [e for e in step.events if isinstance(e, WeightShot)]
    (line,) = HorseCollarPresenter().narrate([shot], NAMES)
    assert "slid off the end into the alley" in line


def test_a_new_frame_prompt_gives_the_frame_scores() -> None:
    presenter = HorseCollarPresenter()
    state = ENGINE.initial_state([1, 2], {}, Random(0))
    threes = tuple(Weight(i, 3_000, (i - 4) * 2_400) for i in range(8))  # 8 weights worth 3
    state = ENGINE.finish_turn(replace(state, weights=threes, shot=8)).state
    assert presenter.prompt(state, NAMES) == "Frame 1, Blue (hammer): <@2> to shoot R1 (1 of 8)"
    step = ENGINE.finish_turn(replace(state, weights=threes[:1], shot=8))
    assert presenter.narrate(step.events, NAMES) == [
        "**Blue** (Leo) scored **3** (3). Total **3**.",
        "Frame 2: **Red**'s turn, Ana shoots first.",
    ]
    assert presenter.prompt(step.state, NAMES) == (
        "Frame 1: Red +24, Blue +3 → Red 24, Blue 3 · Frame 2, Red: <@1> to shoot R1 (1 of 8)"
    )
    assert presenter.chapter(step.state) == 2  # a new board message for each side's turn


def test_the_standings_count_the_weights_on_the_board_in_either_language() -> None:
    """After a frame's first shot one weight is on the board: "1 weight", "1 tejo que vale"."""
    presenter = HorseCollarPresenter()
    state = ENGINE.initial_state([1, 2], {}, Random(0))
    one = replace(state, weights=(Weight(0, 3_000, 0),), shot=1)
    two = replace(state, weights=(Weight(0, 3_000, 0), Weight(1, 3_000, 2_400)), shot=2)
    assert presenter.standings(one, NAMES)[1] == "On the board: 1 weight worth 3; 0 in the alley"
    assert presenter.standings(two, NAMES)[1] == (
        "On the board: 2 weights worth 3 + 3; 0 in the alley"
    )
    with speaking("es"):
        assert presenter.standings(one, NAMES)[1] == "En la mesa: 1 tejo que vale 3; 0 en el foso"
        assert presenter.standings(two, NAMES)[1] == (
            "En la mesa: 2 tejos que valen 3 + 3; 0 en el foso"
        )
