"""A Cock & Bull player for bot seats and absent players.

Most of the game is dice; the decisions are where a sensible player differs from a random
one: flip rather than place (it costs the opponent a chip too), remove an opponent's chip
unless the point wins the game, and — with `optional_points` — keep the peg off the board
while a Flying Monkey (54) is still close.
"""

from __future__ import annotations

from random import Random

from rules.cock_and_bull.actions import DECLINE, FLIP, POINT, REMOVE, ROLL, TAKE, choose_colour
from rules.cock_and_bull.state import MANTLE_TOP, CockAndBullState, Colour, Phase
from rules.core import Action, PlayerId


def choose(state: CockAndBullState, player: PlayerId, rng: Random) -> Action:
    """`player`'s action: a random colour, then the choices above; otherwise roll."""
    seat = state.seat_of(player)
    phase = state.phase
    if phase is Phase.CHOOSE_COLOUR:
        return choose_colour(rng.choice(list(Colour)))
    if phase is Phase.PLACE_OR_FLIP:
        return FLIP
    if phase is Phase.REMOVE_OR_POINT:
        return POINT if state.mantle[seat] + 1 >= MANTLE_TOP else REMOVE
    if phase is Phase.TAKE_OR_DECLINE:
        return TAKE if _takes_points(state, seat) else DECLINE
    return ROLL


def _takes_points(state: CockAndBullState, seat: int) -> bool:
    """Decline only to keep a Flying Monkey alive: peg still off, four or more chips in."""
    if state.mantle[seat] + state.pending_points >= MANTLE_TOP:
        return True  # pegging out wins now
    flying_monkey_near = state.mantle[seat] == 0 and len(state.chips_of(seat)) >= 4
    return not flying_monkey_near
