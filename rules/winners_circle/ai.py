"""A Winner's Circle player for bot seats and absent players.

Its plan: bet its biggest chips on the horses with the best prospects (a start near the front
and a card with a big value to push them with), then spend each roll where it pays — a big
move for a horse it backed, a small one for a horse others backed (every card is used once a
cycle anyway, so a horse given a small move now cannot have a big one later), and park horses
right in front of the others' horses to block them.
"""

from __future__ import annotations

from random import Random

from rules.core import Action, PlayerId
from rules.winners_circle.actions import (
    NEXT_RACE,
    ROLL,
    bet_action,
    chips_left,
    move_action,
)
from rules.winners_circle.cards import HORSES, card
from rules.winners_circle.state import FINISH, TRACK, Phase, WinnersCircleState
from rules.winners_circle.track import Landing, becomes_pace, landing

AVERAGE_MOVE = 5  # every card's values average 5 over the die (3 × head + … = 30)
OTHERS_WEIGHT = 0.5  # holding a rival's horse back is worth half pushing one's own
UNKNOWN_CHIP = 1.0  # a hidden chip of someone else: 0, 1, 1 or 2, so about 1
FINISH_BONUS = 4.0  # spaces' worth of taking a finishing place now
PACE_BONUS = 3.0
BLOCK_BONUS = 1.0  # per rival-backed horse left just behind the mover


def choose(state: WinnersCircleState, player: PlayerId, rng: Random) -> Action:
    """`player`'s action: the plan above, ties to the lower horse number."""
    del rng  # the plan is deterministic; ties go to the lower horse number
    if state.phase is Phase.BETTING:
        return _bet(state, player)
    if state.phase is Phase.ROLL:
        return ROLL
    if state.phase is Phase.MOVE:
        return _move(state, player)
    return NEXT_RACE


# --- betting -----------------------------------------------------------------------------


def prospects(state: WinnersCircleState, horse: int) -> float:
    """How promising `horse` looks before the race: spaces ahead of the back of the field,
    plus a share of its card's biggest value (a backer moves it when that symbol comes up)."""
    start = state.progress[horse - 1]
    back = min(state.progress)
    best = max(card(state.gates[horse - 1]).values)
    return (start - back) + 0.4 * (best - AVERAGE_MOVE)


def _bet(state: WinnersCircleState, player: PlayerId) -> Action:
    backed = {b.horse for b in state.bets_of(player)}
    # Others' chips on a horse mean they will push it too: a little extra worth.
    ranked = sorted(
        (h for h in HORSES if h not in backed),
        key=lambda h: (-(prospects(state, h) + 0.5 * len(state.bets_on(h))), h),
    )
    return bet_action(state, ranked[0], max(chips_left(state, player)))


# --- moving ------------------------------------------------------------------------------


def interest(state: WinnersCircleState, player: PlayerId, horse: int) -> float:
    """How much `player` wants `horse` to run: their own chip, less half the others'."""
    mine = 0.0
    others = 0.0
    for bet in state.bets_on(horse):
        if bet.player == player:
            mine += bet.chip
        else:
            others += UNKNOWN_CHIP if state.rules.hidden_bets else bet.chip
    return mine - OTHERS_WEIGHT * others


def _move(state: WinnersCircleState, player: PlayerId) -> Action:
    assert state.rolled is not None  # Phase.MOVE always has a symbol
    options = [landing(state, h, state.rolled) for h in state.running() if state.is_face_up(h)]
    best = max(options, key=lambda move: (_worth(state, player, move), -move.horse))
    return move_action(best.horse)


def _worth(state: WinnersCircleState, player: PlayerId, move: Landing) -> float:
    want = interest(state, player, move.horse)
    worth = want * (min(move.end, FINISH + 1) - move.start - AVERAGE_MOVE)
    if move.finishes:
        worth += want * FINISH_BONUS
    if becomes_pace(state, move):
        worth += want * PACE_BONUS
    if not move.finishes and not state.rules.crowded_field:
        worth += BLOCK_BONUS * _blocked_rivals(state, player, move)
    return worth


def _blocked_rivals(state: WinnersCircleState, player: PlayerId, move: Landing) -> float:
    """Rival-backed horses standing a few spaces behind where the mover ends: a move of
    theirs that would end on its space now falls short."""
    ahead = move.space
    count = 0.0
    for h in state.running():
        if h == move.horse:
            continue
        gap = (ahead - state.space(h)) % TRACK
        if 1 <= gap <= 3:
            count -= min(0.0, interest(state, player, h))
    return count
