"""Risk end to end: the real client against the fake Discord, a human among AI generals."""

from __future__ import annotations

from bot.client import ParlourBot
from rules.risk.missions import mission_text
from rules.risk.queries import attack_sources, attack_targets
from rules.risk.state import Phase, RiskState
from tests.e2e.conftest import ParlourFactory
from tests.e2e.driver import (
    boards_in,
    click_ok,
    eventually,
    is_result,
    move_number,
    newest_board,
    picture,
    start_game,
)
from tests.e2e.fake_discord import JSON, FakeDiscord, FakeMessage

GAME = "risk"
PANEL = "My cards & mission"


def game_id(board: FakeMessage) -> int:
    return int(board.embeds[0]["title"].split("#")[-1])


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


async def play_human_turn(
    fake: FakeDiscord, bot: ParlourBot, board: FakeMessage, user: JSON, attack: bool
) -> bool:
    """Play `user`'s turn by clicks: Auto for placing (trading from the private panel when
    forced), one blitz through the menus when `attack`, then end the turn. True if an attack
    was made."""
    uid = int(user["id"])
    attacked = False
    while True:
        table = await bot.service.table(game_id(board))
        state: RiskState = table.state
        if state.phase is Phase.OVER or state.player != uid or state.phase is Phase.DEFEND:
            return attacked
        step = table.row.step
        board = await board_at(fake, board, step)
        if state.phase is Phase.REINFORCE and len(state.hand(uid)) >= 5:
            await (await fake.click(user, board, label=PANEL)).response()
            panel = fake.ephemeral_for(user)[-1]
            trade = next(b["label"] for b in panel.buttons if b["label"].startswith("Trade"))
            await click_ok(fake, user, panel, trade)
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
            attacks += await play_human_turn(fake, bot, board, ana, attack=attacks < 2)

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
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    board = await start_game(fake, ana, GAME, joiners=[leo])
    players = {int(ana["id"]): ana, int(leo["id"]): leo}
    while (state := await state_of(bot, board)).phase is not Phase.ATTACK:
        step = (await bot.service.table(game_id(board))).row.step
        board = await board_at(fake, board, step)
        await click_ok(fake, players[state.player], board, "Auto")
        await until_moved(fake, bot, board, step)
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
    assert {"auto", "attack_from", "end_attacks", "fortify"} <= {a.action.verb for a in anas}
    # One timeout plays the rest of the turn: far fewer reminders than Ana's actions.
    reminders = [m for m in fake.messages(board.channel_id) if "still your turn" in m.content]
    assert len(reminders) < len(anas) / 2
