"""Risk end to end: the real client against the fake Discord, a human among AI generals."""

from __future__ import annotations

import json
from dataclasses import replace

from bot.client import ParlourBot
from rules.risk import ENGINE
from rules.risk.actions import Verb
from rules.risk.missions import mission_text
from rules.risk.queries import attack_sources, attack_targets, trade_options
from rules.risk.state import Phase, RiskState
from tests.e2e.conftest import ParlourFactory
from tests.e2e.driver import (
    boards_in,
    choose_ok,
    click_ok,
    eventually,
    is_result,
    move_number,
    newest_board,
    open_panel,
    picture,
    start_game,
)
from tests.e2e.fake_discord import JSON, FakeDiscord, FakeMessage
from tests.rules.risk.scenario import position

GAME = "risk"
PANEL = "My cards & mission"


def game_id(board: FakeMessage) -> int:
    return int(board.embeds[0]["title"].split()[-1].lstrip("#"))  # "Risk, game 42", "Risk · #42"


async def state_of(bot: ParlourBot, board: FakeMessage) -> RiskState:
    state: RiskState = (await bot.service.table(game_id(board))).state
    return state


def menu(board: FakeMessage, placeholder: str) -> JSON:
    return next(
        c
        for row in board.components
        for c in row.get("components", [])
        if c.get("placeholder", "").startswith(placeholder)
    )


async def choose(fake: FakeDiscord, user: JSON, board: FakeMessage, placeholder: str) -> str:
    """Pick the first option of a select menu; returns the option's label."""
    found = menu(board, placeholder)
    options = found["options"]
    rec = await fake.select(user, board, [options[0]["value"]], placeholder=found["placeholder"])
    callback = await rec.response()
    assert callback.message is None or not callback.message.ephemeral, callback.message.content
    return str(options[0]["label"])


async def board_at(fake: FakeDiscord, board: FakeMessage, step: int) -> FakeMessage:
    """The thread's live board once it shows `step` (the database moves first)."""
    return await fake.wait_for(
        lambda: (up := newest_board(fake, board)).components and move_number(up) == step and up
    )


async def until_moved(fake: FakeDiscord, bot: ParlourBot, board: FakeMessage, step: int) -> None:
    async def moved() -> bool:
        return (await bot.service.table(game_id(board))).row.step > step

    await eventually(moved)


async def two_members_to_the_first_attack(
    fake: FakeDiscord, bot: ParlourBot
) -> tuple[FakeMessage, RiskState, dict[int, JSON]]:
    """A game of Ana and Leo, set up with Auto until the first player may attack: its
    board, its state, and the members by id."""
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    board = await start_game(fake, ana, GAME, joiners=[leo])
    players = {int(ana["id"]): ana, int(leo["id"]): leo}
    while (state := await state_of(bot, board)).phase is not Phase.ATTACK:
        step = (await bot.service.table(game_id(board))).row.step
        board = await board_at(fake, board, step)
        await click_ok(fake, players[state.player], board, "Auto")
        await until_moved(fake, bot, board, step)
    return board, state, players


async def play_human_turn(
    fake: FakeDiscord, bot: ParlourBot, board: FakeMessage, user: JSON, attack: bool
) -> bool:
    """Play `user`'s turn by clicks: a set traded from the private panel's menu as soon as
    there is one, Auto for placing, one blitz through the menus when `attack`, then end the
    turn. True if an attack was made."""
    uid = int(user["id"])
    attacked = False
    while True:
        table = await bot.service.table(game_id(board))
        state: RiskState = table.state
        if state.phase is Phase.OVER or state.player != uid or state.phase is Phase.DEFEND:
            return attacked
        step = table.row.step
        board = await board_at(fake, board, step)
        if state.phase is Phase.REINFORCE and not state.source and trade_options(state, uid):
            # Trade the first set as soon as there is one, from the private panel's menu.
            panel = await open_panel(fake, user, board, PANEL)
            await choose_ok(fake, user, panel, menu(panel, "Trade a set")["options"][0]["label"])
        elif state.phase in (Phase.SETUP_PLACE, Phase.SETUP_CLAIM, Phase.REINFORCE):
            await click_ok(fake, user, board, "Auto")
        elif state.phase is Phase.ATTACK and attack and not attacked and not state.source:
            if attack_sources(state, uid):
                await choose(fake, user, board, "Attack from")
            else:
                await click_ok(fake, user, board, "End attacks")
        elif state.phase is Phase.ATTACK and state.source and not state.target:
            await choose(fake, user, board, "Attack…")
        elif state.phase is Phase.ATTACK and state.target:
            await click_ok(fake, user, board, "Blitz")
            attacked = True
        elif state.phase is Phase.ATTACK:
            await click_ok(fake, user, board, "End attacks")
        elif state.phase is Phase.MOVE_IN:
            first = next(b["label"] for b in board.buttons if b["label"].startswith("Move in"))
            await click_ok(fake, user, board, first)
        else:  # FORTIFY
            await click_ok(fake, user, board, "End turn")
        await until_moved(fake, bot, board, step)


async def test_a_human_among_two_ai_generals_plays_to_the_end(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    bot = await start_parlour()
    ana = fake.make_user("Ana")
    board = await start_game(fake, ana, GAME, bots=2, options={"turn_limit": 12})
    assert picture(board).size[0] == 1600
    attacks = 0
    while fake.latest_message(board.channel_id, is_result) is None:
        state = await state_of(bot, board)
        if state.phase is not Phase.OVER and state.player == int(ana["id"]):
            attacks += await play_human_turn(fake, bot, board, ana, attack=True)

        async def progressed() -> bool:
            s = await state_of(bot, board)
            return s.phase is Phase.OVER or s.player == int(ana["id"])

        await eventually(progressed, timeout=30)
        if (await state_of(bot, board)).phase is Phase.OVER:
            await fake.wait_for(lambda: fake.latest_message(board.channel_id, is_result))
    final = await state_of(bot, board)
    assert final.phase is Phase.OVER and final.winners
    boards = boards_in(fake, board.channel_id)
    assert len(boards) >= final.turn  # one board message per turn (and the set-up)
    assert all(not m.components for m in boards[:-1])  # closed boards keep no buttons
    text = " ".join(m.embeds[0]["description"] for m in boards)
    assert "⚔️" in text and " vs " in text  # battle lines
    assert attacks >= 1
    assert final.trades[final.seat_of(int(ana["id"]))] >= 1  # from the panel's menu of sets
    rec = await fake.slash(ana, "scoreboard", options={"game": "risk"})
    assert "Captures" in (await rec.response()).message.embeds[0]["description"]


async def test_cards_and_missions_are_private_to_their_holder(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    bot = await start_parlour()
    ana, leo, mia = (fake.make_user(n) for n in ("Ana", "Leo", "Mia"))
    board = await start_game(fake, ana, GAME, joiners=[leo, mia], options={"missions": 12})
    state = await state_of(bot, board)
    names = {int(u["id"]): u["username"] for u in (ana, leo, mia)}
    for user in (ana, leo, mia):
        await (await fake.click(user, board, label=PANEL)).response()
    for user in (ana, leo, mia):
        mine = mission_text(state, int(user["id"]), names).split(" You hold")[0]
        (panel,) = [m for m in fake.ephemeral_for(user) if "Your cards" in m.content]
        assert mine in panel.content
        others = [
            m.content for u in (ana, leo, mia) if u is not user for m in fake.ephemeral_for(u)
        ]
        public = [m.content + str(m.embeds) for m in fake.public_messages()]
        assert all(mine not in text for text in public + others)


async def test_a_restart_mid_turn_keeps_the_pending_attack(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    bot = await start_parlour()
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    board = await start_game(fake, ana, GAME, joiners=[leo])
    players = {int(ana["id"]): ana, int(leo["id"]): leo}
    # Set-up by Auto until the first real turn reaches its attack phase.
    while (state := await state_of(bot, board)).phase is not Phase.ATTACK:
        user = players[state.player]
        step = (await bot.service.table(game_id(board))).row.step
        board = await board_at(fake, board, step)
        await click_ok(fake, user, board, "Auto")
        await until_moved(fake, bot, board, step)
    user = players[state.player]
    board = await board_at(fake, board, (await bot.service.table(game_id(board))).row.step)
    source = await choose(fake, user, board, "Attack from")
    before = await state_of(bot, board)
    assert before.source and source.startswith(before.source.replace("_", " ").title()[:4])
    await bot.close()

    bot = await start_parlour()
    assert await state_of(bot, board) == before
    await choose(fake, user, board, "Attack…")  # the pre-restart board's menu
    after = await state_of(bot, board)
    assert after.target and after.source == before.source
    gid = game_id(board)
    assert await bot.service.replay(gid) == (await bot.service.table(gid)).state


async def test_the_attack_command_picks_source_and_target(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    bot = await start_parlour()
    board, state, players = await two_members_to_the_first_attack(fake, bot)
    source = attack_sources(state, state.player)[0]
    target = attack_targets(state, source)[0]
    other = next(u for p, u in players.items() if p != state.player)
    rec = await fake.slash(
        other, "risk", "attack", options={"from": source, "to": target}, channel_id=board.channel_id
    )
    refusal = (await rec.response()).message
    assert refusal.ephemeral and "your turn" in refusal.content
    rec = await fake.slash(
        players[state.player],
        "risk",
        "attack",
        options={"from": source, "to": target},
        channel_id=board.channel_id,
    )
    await rec.response()  # deferred first: the attack is then applied and shown
    done = await fake.wait_for(
        lambda: next(
            (m for m in fake.ephemeral_for(players[state.player]) if "Attacking" in m.content), None
        )
    )
    assert "roll or blitz" in done.content
    after = await state_of(bot, board)
    assert (after.source, after.target) == (source, target)
    labels = [b["label"] for b in newest_board(fake, board).buttons]
    assert "Blitz" in labels and "Roll 1 die" in labels


async def test_an_absent_general_is_reminded_then_the_ai_plays_their_whole_turn(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    bot = await start_parlour()
    await bot.service.storage.set_guild_turn_timer(fake.guild_id, 1)
    ana = fake.make_user("Ana")
    board = await start_game(fake, ana, GAME, bots=1)  # Ana never clicks

    async def ana_has_played_a_turn() -> bool:
        state = await state_of(bot, board)
        return state.turn >= 3 or state.phase is Phase.OVER  # turns 1 and 2: one each

    await eventually(ana_has_played_a_turn, timeout=20)
    await fake.wait_for(
        lambda: fake.latest_message(board.channel_id, lambda m: "still your turn" in m.content)
    )
    logged = await bot.service.storage.actions(game_id(board))
    anas = [a for a in logged if a.player_id == int(ana["id"])]
    assert anas and all(a.by_ai for a in anas)
    # A whole turn: reinforcements placed, attacks made and ended, a fortification.
    assert {Verb.AUTO, Verb.ATTACK_FROM, Verb.END_ATTACKS, Verb.FORTIFY} <= {
        a.action.verb for a in anas
    }
    # One timeout plays the rest of the turn: far fewer reminders than Ana's actions.
    reminders = [m for m in fake.messages(board.channel_id) if "still your turn" in m.content]
    assert len(reminders) < len(anas) / 2


async def test_any_number_moves_in_from_the_menu_and_a_bad_number_is_refused(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    """After a capture the board offers every number that may move in: the least, half and
    all as buttons, the others in a menu. A number outside the rules (sent by a tampered or
    outdated client; later, typed) is refused privately with the range, and nothing moves."""
    bot = await start_parlour()
    board, state, players = await two_members_to_the_first_attack(fake, bot)
    user = players[state.player]
    # The strongest attack there is, blitzed: with the game's fixed seed it takes the target.
    source = max(attack_sources(state, state.player), key=state.armies_on)
    target = min(attack_targets(state, source), key=state.armies_on)
    path = {"from": source, "to": target}
    await (
        await fake.slash(user, "risk", "attack", options=path, channel_id=board.channel_id)
    ).response()
    await eventually(lambda: _picked(bot, board, target))
    step = (await bot.service.table(game_id(board))).row.step
    await click_ok(fake, user, await board_at(fake, board, step), "Blitz")
    await until_moved(fake, bot, board, step)
    captured = await state_of(bot, board)
    assert captured.phase is Phase.MOVE_IN, "the blitz did not take the territory"
    step = (await bot.service.table(game_id(board))).row.step
    board = await board_at(fake, board, step)
    lo = captured.move_min
    hi = lo + captured.armies_on(source) - 1
    numbers = menu(board, "Move in another number")
    assert hi - lo + 1 > 5 and numbers["options"]

    # A number the rules do not allow, sent as if the menu had offered it (the recorded
    # message is edited so the fake lets the client send it).
    too_many = f"{Verb.MOVE_IN}:{hi + 1}"
    numbers["options"].append({**numbers["options"][0], "value": too_many})
    rec = await fake.select(user, board, [too_many], placeholder=numbers["placeholder"])
    refusal = (await rec.response()).message
    assert refusal is not None and refusal.ephemeral
    assert refusal.content.endswith(f"Move in between {lo} and {hi} armies.")
    assert await state_of(bot, board) == captured
    assert (await bot.service.table(game_id(board))).row.step == step

    # One of the numbers in between, from the menu.
    option = next(o for o in numbers["options"] if o["value"] == f"{Verb.MOVE_IN}:{lo + 1}")
    rec = await fake.select(user, board, [option["value"]], placeholder=numbers["placeholder"])
    await rec.response()
    await until_moved(fake, bot, board, step)
    moved = await state_of(bot, board)
    assert moved.armies_on(target) == lo + 1
    assert moved.armies_on(source) == captured.armies_on(source) - 1


async def _picked(bot: ParlourBot, board: FakeMessage, target: str) -> bool:
    return (await state_of(bot, board)).target == target


async def first_board_noted(bot: ParlourBot, game_id: int) -> bool:
    row = await bot.storage.get_game(game_id)
    return row is not None and row.shown_step == row.step


async def test_a_number_beyond_the_menus_is_typed_in_a_box(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    """With more numbers than one menu holds (fortifying 59 of 60 armies), the board keeps
    the quick choices and a "Type a number…" button: it opens a box, and the number typed is
    played as a click on it would be. Words and numbers out of range are refused privately
    with the reason, and nothing moves."""
    bot = await start_parlour()
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    board = await start_game(fake, ana, GAME, joiners=[leo])
    gid = game_id(board)
    table = await bot.service.table(gid)
    first = table.state.players[0]
    user = ana if int(ana["id"]) == first else leo
    # A position of this game's players, saved as if the game had got there: Ukraine with 60
    # armies, fortifying to Ural.
    state = replace(
        position(
            {"ukraine": (first, 60), "ural": (first, 1)},
            players=table.state.players,
            rest=table.state.players[1],
            phase=Phase.FORTIFY,
            source="ukraine",
            target="ural",
        ),
        rules=table.state.rules,
    )
    # The database, as if saved so, once the bot has noted the first board as shown (its
    # note, written after, would say the rewritten state was shown too): through the bot's
    # own connection, between its writes.
    await eventually(lambda: first_board_noted(bot, gid))
    async with bot.storage._transaction() as db:
        saved = json.dumps(ENGINE.dump(state))
        await db.execute("UPDATE games SET state = ?, shown_step = -1 WHERE id = ?", saved, gid)
    await bot.publisher.publish(gid, repair=True)
    board = await fake.wait_for(lambda: (b := newest_board(fake, board)) and _typed(b) and b)
    assert {"Move 1", "Move 29 (half)", "Move 59 (all but one)"} <= {
        b["label"] for b in board.buttons
    }
    step = move_number(board)

    async def typed(text: str) -> str | None:
        opened = await fake.click(user, board, label="Type a number…")
        box = await opened.response()
        assert box.data["title"] == "How many armies move to Ural?"
        rec = await fake.submit_modal(user, opened, {"n": text})
        answer = (await rec.response()).message
        return answer.content if answer is not None and answer.ephemeral else None

    assert await typed("lots") == "“lots” is not a number: type digits only, e.g. 12."
    assert (await typed("60") or "").endswith("Move between 1 and 59 armies.")
    assert (await bot.service.table(gid)).row.step == step  # nothing moved
    assert await typed("42") is None  # no private refusal: the board moved on
    moved = await state_of(bot, board)
    assert (moved.armies_on("ukraine"), moved.armies_on("ural")) == (18, 43)


def _typed(board: FakeMessage) -> bool:
    return "Type a number…" in [b.get("label") for b in board.buttons]
