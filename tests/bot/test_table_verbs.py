"""The table's own verbs (`bot.ui.custom_ids.TableVerb`) are answered before a game's
(`bot.table.clicks`): a game verb spelt like one would never reach its game. So no game's
vocabulary (`rules/<game>/actions.py`'s `Verb`) may use one, and their spelling, posted on
Discord messages, never changes."""

from __future__ import annotations

import enum
import importlib

import pytest

from bot.ui.custom_ids import TableVerb
from rules.registry import ENGINES
from rules.seats import Verb as SeatVerb

# Every table verb as buttons already posted on Discord spell it: never change one.
POSTED = {
    "JOIN": "join",
    "LEAVE": "leave",
    "ADD_BOT": "add_bot",
    "START": "start",
    "CANCEL": "cancel",
    "REMATCH": "rematch",
    "PEEK": "peek",
    "ASK": "ask",
    "TEXT": "text",
    "TEXT_DEFAULT": "text_default",
    "ZOOM": "zoom",
    "SEATS": "seats",
    "RESIGN_ASK": "resign_ask",
    "END_ASK": "end_ask",
    "END": "end",
    "VOTE_END": "vote_end",
    "KEEP": "keep",
    "RESIGN": "resign",
    "HAND_TO_AI": "hand_to_ai",
    "TAKE_SEAT": "take_seat",
    "MENU": "menu",
}


def game_verbs(game: str) -> type[enum.StrEnum]:
    """The vocabulary of `game`: its `rules/<game>/actions.py`'s `Verb`."""
    verbs: type[enum.StrEnum] = importlib.import_module(f"rules.{game}.actions").Verb
    return verbs


def clashes(verbs: type[enum.StrEnum]) -> set[str]:
    """The verbs of a vocabulary that are spelt like a table verb."""
    return {verb.value for verb in verbs} & {verb.value for verb in TableVerb}


@pytest.mark.parametrize("game", ENGINES)
def test_no_game_verb_is_a_table_verb(game: str) -> None:
    verbs = game_verbs(game)
    assert len(verbs) > 0
    assert not clashes(verbs), f"{game}'s verbs {clashes(verbs)} would go to the table"


def test_a_game_verb_spelt_like_a_table_verb_is_caught() -> None:
    class Clashing(enum.StrEnum):
        ROLL = "roll"
        KEEP = "keep"  # the table menu's "Keep playing"
        END = "end"

    assert clashes(Clashing) == {"keep", "end"}


def test_table_verbs_are_spelt_as_posted() -> None:
    assert {verb.name: verb.value for verb in TableVerb} == POSTED


def test_every_seat_verb_is_a_table_verb() -> None:
    """The table menu sends the seat actions every engine applies."""
    assert {verb.value for verb in SeatVerb} <= {verb.value for verb in TableVerb}
