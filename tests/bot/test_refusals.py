"""The rules' refusals (`IllegalAction`) keep their English and are worded in the player's
language by the bot: their message, its values and its plural form come from the catalog."""

from __future__ import annotations

import pytest

from bot.errors import refused
from bot.language.i18n import speaking
from rules.core import IllegalAction, illegal_count
from rules.registry import ENGINES


def test_the_english_is_the_message_filled_in() -> None:
    assert str(IllegalAction("It is not your turn.")) == "It is not your turn."
    moved = IllegalAction("Move between {low} and {high} armies.", low=1, high=5)
    assert str(moved) == "Move between 1 and 5 armies."
    one = "Place {n} army: no other number is possible."
    other = "Place {n} armies: no other number is possible."
    assert str(illegal_count(one, other, n=1)) == "Place 1 army: no other number is possible."
    assert str(illegal_count(one, other, n=4)) == "Place 4 armies: no other number is possible."


def test_a_refusal_speaks_the_current_language() -> None:
    turn = IllegalAction("It is not your turn.")
    assert str(refused(turn)) == "It is not your turn."
    with speaking("es"):
        assert str(refused(turn)) == "No es tu turno."
        between = IllegalAction("Move between {low} and {high} armies.", low=2, high=7)
        assert str(refused(between)) == "Mueve entre 2 y 7 ejércitos."
        one = "Place {n} army: no other number is possible."
        other = "Place {n} armies: no other number is possible."
        assert str(refused(illegal_count(one, other, n=1))) == (
            "Coloca 1 ejército: no cabe otro número."
        )
        assert str(refused(illegal_count(one, other, n=3))) == (
            "Coloca 3 ejércitos: no cabe otro número."
        )


def test_an_options_refusal_words_its_title_and_alternatives() -> None:
    missions = next(o for o in ENGINES["risk"].options if o.name == "missions")
    with pytest.raises(IllegalAction) as wrong:
        missions.check(5)
    assert str(wrong.value) == "Secret missions: 0, 12 or 14."
    with speaking("es"):
        assert str(refused(wrong.value)) == "Misiones secretas: 0, 12 o 14."


def test_a_table_that_does_not_fit_the_options_is_refused_in_spanish() -> None:
    engine = ENGINES["risk"]
    with pytest.raises(IllegalAction) as wrong:
        engine.validate_options({"missions": 12}, players=2)
    assert str(wrong.value) == "Secret Mission Risk is for 3 to 6 players."
    with speaking("es"):
        spanish = "El Risk de misiones secretas se juega de 3 a 6 jugadores."
        assert str(refused(wrong.value)) == spanish
