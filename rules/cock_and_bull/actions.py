"""Cock & Bull's actions: one vocabulary for the engine, the AI, the presenter and the tests.

Action logs and the custom ids on old Discord messages carry `<verb>[:<arg>]`, so a verb and
the form of its argument never change.

- `roll`: one die for the first turn, both dice after;
- `colour:<red|black>`: the first-turn winner's colour;
- `place`, `flip`: a pair whose group has both an empty spot and an opponent's chip;
- `remove`, `point`: Cock + Bull while the opponent has a chip on the Arms;
- `take`, `decline`: mantle points on offer (`optional_points`).
"""

from __future__ import annotations

import enum

from rules.cock_and_bull.state import Colour
from rules.core import Action


class Verb(enum.StrEnum):
    """Every verb of the game."""

    ROLL = "roll"
    COLOUR = "colour"
    PLACE = "place"
    FLIP = "flip"
    REMOVE = "remove"
    POINT = "point"
    TAKE = "take"
    DECLINE = "decline"


ROLL = Action(Verb.ROLL)
PLACE = Action(Verb.PLACE)
FLIP = Action(Verb.FLIP)
REMOVE = Action(Verb.REMOVE)
POINT = Action(Verb.POINT)
TAKE = Action(Verb.TAKE)
DECLINE = Action(Verb.DECLINE)


def choose_colour(colour: Colour) -> Action:
    """The first-turn winner plays `colour` (the other player the other)."""
    return Action(Verb.COLOUR, colour.value)


def parse_colour(action: Action) -> Colour:
    """The colour a `colour` action chooses."""
    return Colour(action.arg)


COLOUR_ACTIONS = tuple(choose_colour(c) for c in Colour)
