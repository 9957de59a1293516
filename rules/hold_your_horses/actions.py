"""Hold Your Horses' actions: one vocabulary for the engine, the AI, the presenter and the
tests. The game has a single decision, to roll (docs/rules/hold_your_horses.md, "Notes for
chat play"): the scratches, moves and payouts all follow from the dice.

Action logs and the custom ids on old Discord messages carry the verb: it never changes.
"""

from __future__ import annotations

import enum

from rules.core import Action


class Verb(enum.StrEnum):
    """Every verb of the game."""

    ROLL = "roll"


ROLL = Action(Verb.ROLL)
