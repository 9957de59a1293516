"""The Hold Your Horses player for bot seats and absent players: the game has no decisions
(docs/rules/hold_your_horses.md, "Notes for chat play"), so it rolls."""

from __future__ import annotations

from random import Random

from rules.core import Action, PlayerId
from rules.hold_your_horses.actions import ROLL
from rules.hold_your_horses.state import HoldYourHorsesState


def choose(state: HoldYourHorsesState, player: PlayerId, rng: Random) -> Action:
    """Roll."""
    return ROLL
