"""Winner's Circle's actions: one vocabulary for the engine, the AI, the presenter and the
tests, shaped for Discord buttons and selects.

Action logs and the custom ids on old Discord messages carry `<verb>[:<arg>]`, so a verb and
the form of its argument never change.

- `bet:<horse>,<chip>`: open bets; at most 7 horses × 2 chip values, one select.
- `bet_hidden:<horse>,<chip>`: hidden bets; its arg reveals the chip's value, so it has its
  own verb and goes only in the player's own (ephemeral) panel; at most 7 × 3 options.
- `roll`, then `move:<horse>` for a horse whose card is face up (label it with
  `track.destination`).
- `next_race`: after a payout, the next race's first bettor starts it.
"""

from __future__ import annotations

import enum
from collections import Counter

from rules.core import Action, PlayerId
from rules.winners_circle.state import WinnersCircleState


class Verb(enum.StrEnum):
    """Every verb of the game."""

    BET = "bet"
    HIDDEN_BET = "bet_hidden"
    ROLL = "roll"
    MOVE = "move"
    NEXT_RACE = "next_race"


ROLL = Action(Verb.ROLL)
NEXT_RACE = Action(Verb.NEXT_RACE)


def bet_action(state: WinnersCircleState, horse: int, chip: int) -> Action:
    """The action putting `chip` on `horse` (its verb depends on whether bets are hidden)."""
    return Action(Verb.HIDDEN_BET if state.rules.hidden_bets else Verb.BET, f"{horse},{chip}")


def parse_bet(action: Action) -> tuple[int, int]:
    """Horse and chip of a bet action known to be legal."""
    horse, chip = action.arg.split(",")
    return int(horse), int(chip)


def move_action(horse: int) -> Action:
    """The action moving `horse` by the symbol just rolled."""
    return Action(Verb.MOVE, str(horse))


def parse_move(action: Action) -> int:
    """The horse a move action moves."""
    return int(action.arg)


def chips_left(state: WinnersCircleState, player: PlayerId) -> tuple[int, ...]:
    """The chips `player` still holds this race, lowest first (with hidden bets these are
    private: show them only in the player's own panel)."""
    left = Counter(state.rules.chips)
    left.subtract(b.chip for b in state.bets_of(player))
    return tuple(sorted(left.elements()))
