"""The Risk board in Discord's limits: every legal action offered exactly once — on the board,
in the player's 🔒 private panel, or as a number typed in a box — in at most 5 rows (a select
menu takes a row and holds at most 25 options; a row holds 5 buttons), for the largest
choices a game can hold."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.table.board import board_buttons, components, offers_for, public_offers
from bot.ui.components import GameButton, GameSelect
from bot.ui.custom_ids import parse_choice
from cogs.risk import RiskPresenter
from rules.core import Action
from rules.risk import ENGINE
from rules.risk.actions import AUTO, Verb, bonus, fortify, move_in, trade
from rules.risk.cards import TERRITORY_CARDS, WILDS, symbol, territory
from rules.risk.map import Symbol
from rules.risk.state import Phase, RiskState
from tests.rules.risk.scenario import ANA, BOB, WILD, WILD2, acts, card, position

PRESENTER = RiskPresenter()
TABLE: Any = SimpleNamespace(
    row=SimpleNamespace(game="risk", id=3, step=7), away=frozenset({ANA, BOB})
)
# Buttons every live board has besides its moves: the panel, 📝 and 🔍, the table's menu.
NOT_MOVES = {"peek", "text", "zoom", "seats", "take_seat"}


def laid_out(items: list[discord.ui.Item[Any]]) -> list[Action]:
    """The actions `items` offer, checked to fit one message (discord.py lays them out in
    rows and raises if they do not fit)."""
    view = discord.ui.View()
    for item in items:
        view.add_item(item)
    actions = []
    for item in items:
        if isinstance(item, GameSelect):
            assert len(item.item.options) <= 25
            ids = [parse_choice(item.item.custom_id, o.value) for o in item.item.options]
        else:
            assert isinstance(item, GameButton)
            ids = [item.target]
        actions += [Action(i.verb, i.arg) for i in ids if i.verb not in NOT_MOVES]
    return actions


def board_and_panel(state: RiskState, caplog: pytest.LogCaptureFixture) -> tuple[list, list]:
    """What the public board and Ana's private panel offer, as `bot.table.board` builds them; a
    number box stands for every number of its range."""
    public, boxes = public_offers(ENGINE, PRESENTER, state, ENGINE.to_act(state))
    offers = offers_for(ENGINE, PRESENTER, state, ENGINE.to_act(state))
    private = [(a, look) for a, look in offers if PRESENTER.is_private(a, state)]
    # The largest board: "Take my seat back" too (the AI plays someone's turn).
    extra = board_buttons(TABLE, PRESENTER, boxes, ENGINE.to_act(state))
    with caplog.at_level(logging.ERROR, logger="bot.table.board"):
        board = laid_out(components(TABLE, public, extra))
        panel = laid_out(components(TABLE, private))
    assert "too many components" not in caplog.text
    typed = [Action(b.verb, str(n)) for b in boxes for n in range(b.low, b.high + 1)]
    return [a for a in board if a.verb != "ask"] + typed, panel


def in_order(action: Action) -> tuple[str, str]:
    """A sort key under which an action parsed from a custom id (its verb a str) and the
    engine's (its verb a `Verb`) sort alike."""
    return (str(action.verb), action.arg)


def check_every_action_offered_once(state: RiskState, caplog: pytest.LogCaptureFixture) -> None:
    board, panel = board_and_panel(state, caplog)
    legal = list(ENGINE.legal_actions(state, ANA))
    assert sorted(set(board + panel), key=in_order) == sorted(legal, key=in_order)


def fortify_from(armies: int) -> RiskState:
    return position(
        {"ukraine": (ANA, armies), "ural": (ANA, 1)},
        rest=BOB,
        phase=Phase.FORTIFY,
        source="ukraine",
        target="ural",
    )


@pytest.mark.parametrize("armies", [2, 6, 7, 8, 30, 31, 32, 104, 105, 106, 200, 229])
def test_every_fortify_number_fits(armies: int, caplog: pytest.LogCaptureFixture) -> None:
    check_every_action_offered_once(fortify_from(armies), caplog)


def test_a_territory_with_200_armies(caplog: pytest.LogCaptureFixture) -> None:
    """199 ways to fortify: 1, 99 (half) and 199 (all but one) as buttons, and any number
    from 1 to 199 typed in the box, which the prompt points to."""
    state = fortify_from(200)
    public, boxes = public_offers(ENGINE, PRESENTER, state, {ANA})
    assert [a for a, _ in public if a.verb == Verb.FORTIFY] == [fortify(n) for n in (1, 99, 199)]
    assert [(b.verb, b.low, b.high, b.title) for b in boxes] == [
        (Verb.FORTIFY, 1, 199, "How many armies move to Ural?")
    ]
    assert "Type a number…** from 1 to 199" in PRESENTER.prompt(state, {ANA: "Ana"})
    assert board_and_panel(state, caplog)[1] == []  # nothing in the panel
    attacking = position({"ukraine": (ANA, 200)}, rest=BOB, source="ukraine", target="ural")
    check_every_action_offered_once(attacking, caplog)
    moving = ENGINE.resolve_roll(attacking, (6, 6, 6), (1,)).state  # 197 behind: 3..199
    assert moving.phase is Phase.MOVE_IN
    check_every_action_offered_once(moving, caplog)
    looks = dict(offers_for(ENGINE, PRESENTER, moving, {ANA}))
    assert looks[move_in(3)].label == "Move in 3 (least)"
    assert looks[move_in(199)].label == "Move in 199 (all)"
    placing = position(
        {"ukraine": (ANA, 200)}, rest=BOB, phase=Phase.REINFORCE, to_place=200, source="ukraine"
    )
    check_every_action_offered_once(placing, caplog)


def test_up_to_28_numbers_are_all_on_the_board(caplog: pytest.LogCaptureFixture) -> None:
    """Three buttons and a menu of the other 25 at most; one more number needs the box."""
    state = fortify_from(29)  # 1..28
    board, panel = board_and_panel(state, caplog)
    assert panel == [] and len(board) == 28 + 1  # and Back
    assert public_offers(ENGINE, PRESENTER, state, {ANA})[1] == []
    assert public_offers(ENGINE, PRESENTER, fortify_from(30), {ANA})[1] != []
    state = fortify_from(27)
    looks = dict(offers_for(ENGINE, PRESENTER, state, {ANA}))
    assert {looks[fortify(n)].label for n in (1, 13, 26)} == {
        "Move 1",
        "Move 13 (half)",
        "Move 26 (all but one)",
    }
    four = looks[fortify(4)]
    assert (four.menu, four.description) == ("Move another number…", "Ukraine keeps 23")


def of_symbol(kind: Symbol, count: int) -> list[int]:
    return [c for c in TERRITORY_CARDS if symbol(c) is kind][:count]


HANDS_OF_NINE = {
    "nine infantry": (tuple(of_symbol(Symbol.INFANTRY, 9)), 84),  # the most sets nine make
    "seven and two wilds": (
        (
            *of_symbol(Symbol.INFANTRY, 3),
            *of_symbol(Symbol.CAVALRY, 2),
            *of_symbol(Symbol.ARTILLERY, 2),
            WILD,
            WILD2,
        ),
        62,
    ),
}


@pytest.mark.parametrize("kind", HANDS_OF_NINE)
def test_a_hand_of_nine_cards_trades_any_set_from_the_panel(
    kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Right after an elimination (trade down to 4 or fewer), with every territory the cards
    show Ana's: each set, and each of those territories for the +2, is offered."""
    hand, sets = HANDS_OF_NINE[kind]
    shown = [territory(c) for c in hand if c not in WILDS]
    state = position(
        {t: (ANA, 3) for t in shown},
        rest=BOB,
        phase=Phase.REINFORCE,
        to_place=0,
        resume_attack=True,
        hands={ANA: hand},
    )
    board, panel = board_and_panel(state, caplog)
    assert board == [AUTO]
    assert sum(a.verb == Verb.TRADE for a in panel) == sets
    assert sum(a.verb == Verb.BONUS for a in panel) == len(shown)  # 9, or 7 and two wilds
    check_every_action_offered_once(state, caplog)


def test_the_two_armies_choice_is_offered_with_the_sets(caplog: pytest.LogCaptureFixture) -> None:
    infantry = ("alaska", "alberta", "western_united_states")
    hand = (*(card(t) for t in infantry), card("greenland"))
    state = position(
        {t: (ANA, 1) for t in infantry},
        rest=BOB,
        phase=Phase.REINFORCE,
        to_place=3,
        hands={ANA: hand},
    )
    looks = dict(offers_for(ENGINE, PRESENTER, state, {ANA}))
    the_set = trade(card(t) for t in infantry)
    offered = looks[the_set]
    assert (offered.menu, offered.label) == (
        "Trade a set…",
        "🪖 Alaska + 🪖 Alberta + 🪖 Western United States",
    )
    assert offered.description == "+2 on Alaska"
    assert looks[bonus("alberta")].menu == "+2 armies on…"
    assert "choose which" in PRESENTER.private(state, ANA, {ANA: "Ana"})
    chosen, _ = acts(state, ANA, bonus("alberta"))
    again = dict(offers_for(ENGINE, PRESENTER, chosen, {ANA}))
    assert again[the_set].description == "+2 on Alberta"
    assert bonus("alberta") not in again
    check_every_action_offered_once(chosen, caplog)
