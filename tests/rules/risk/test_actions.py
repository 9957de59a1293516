"""Risk's vocabulary (rules/risk/actions.py) is stored: action logs and the custom ids of
boards already posted carry `<verb>[:<arg>]`, so the verbs and the forms of their arguments
are pinned here as text, not through the constructors that build them."""

from __future__ import annotations

from rules.core import Action
from rules.risk.actions import (
    AUTO,
    BACK,
    END_ATTACKS,
    END_TURN,
    Assault,
    Verb,
    assault,
    attack_from,
    attack_to,
    blitz,
    bonus,
    claim,
    defend,
    fortify,
    fortify_from,
    fortify_to,
    move_in,
    neutral_on,
    parse_assault,
    parse_number,
    parse_place_at,
    parse_territory,
    parse_trade,
    place,
    place_at,
    place_on,
    roll,
    trade,
)


def test_the_verbs_are_the_stored_ones() -> None:
    assert {str(v) for v in Verb} == {
        "claim",
        "place_on",
        "place",
        "place_at",
        "neutral_on",
        "auto",
        "trade",
        "bonus",
        "attack_from",
        "attack_to",
        "roll",
        "blitz",
        "assault",
        "defend",
        "move_in",
        "end_attacks",
        "fortify_from",
        "fortify_to",
        "fortify",
        "end_turn",
        "back",
    }


def test_actions_without_an_argument() -> None:
    built = [AUTO, BACK, END_ATTACKS, END_TURN]
    assert built == [Action("auto"), Action("back"), Action("end_attacks"), Action("end_turn")]


def test_a_territory_is_its_slug() -> None:
    built = [
        claim("ukraine"),
        place_on("eastern_australia"),
        neutral_on("siam"),
        bonus("alberta"),
        attack_from("north_africa"),
        attack_to("brazil"),
        fortify_from("ural"),
        fortify_to("western_united_states"),
    ]
    assert built == [
        Action("claim", "ukraine"),
        Action("place_on", "eastern_australia"),
        Action("neutral_on", "siam"),
        Action("bonus", "alberta"),
        Action("attack_from", "north_africa"),
        Action("attack_to", "brazil"),
        Action("fortify_from", "ural"),
        Action("fortify_to", "western_united_states"),
    ]
    assert parse_territory(Action("attack_to", "brazil")) == "brazil"


def test_a_number_is_written_in_decimal() -> None:
    built = [place(21), roll(3), blitz(10), defend(2), move_in(139), fortify(1)]
    assert built == [
        Action("place", "21"),
        Action("roll", "3"),
        Action("blitz", "10"),
        Action("defend", "2"),
        Action("move_in", "139"),
        Action("fortify", "1"),
    ]
    assert parse_number(Action("move_in", "139")) == 139


def test_traded_cards_are_their_numbers_in_order() -> None:
    """The order matters: without a `bonus` choice the +2 goes on the first card's territory
    the player holds (saved games' `trade` actions were replayed that way)."""
    assert trade((17, 3, 42)) == Action("trade", "17,3,42")
    assert parse_trade(Action("trade", "17,3,42")) == (17, 3, 42)


def test_the_coarse_verbs_write_their_parts_with_commas() -> None:
    """`place_at:<territory>,<armies>`; `assault:<from>,<to>,<stop level>,<keep>`."""
    assert place_at("siam", 12) == Action("place_at", "siam,12")
    assert parse_place_at(Action("place_at", "siam,12")) == ("siam", 12)
    assert assault("ural", "siberia", 3, 2) == Action("assault", "ural,siberia,3,2")
    assert assault("ural", "siberia") == Action("assault", "ural,siberia,1,1")
    assert parse_assault(Action("assault", "ural,siberia,3,2")) == Assault("ural", "siberia", 3, 2)
