"""Resigning from Risk (`rules.seats`): with two players the opponent wins; with more, the
resigner's armies turn neutral and the game goes on, or the AI plays them on."""

from __future__ import annotations

from rules.core import PlayerId, Step
from rules.risk.queries import alive, two_player
from rules.risk.setup import next_setup_turn
from rules.risk.state import NEUTRAL, Elimination, Phase, RiskState, WinKind, changed_at, evolve
from rules.risk.turn import check_mission, finish, next_seat, next_turn
from rules.seats import Resigned, ai_plays_on


def resign(state: RiskState, player: PlayerId) -> Step[RiskState]:
    """Two players: the opponent wins. More: the resigner's territories turn neutral and the
    game goes on, or under `resign_to_ai` the AI plays their armies on."""
    if two_player(state):
        opponent = next(p for p in state.players if p != player)
        won = finish(state, WinKind.RESIGNATION, (opponent,))
        return Step(won.state, (Resigned(player, (opponent,)), *won.events))
    if state.rules.resign_to_ai:
        return ai_plays_on(state, player)
    return check_mission(_to_neutral(state, player))


def _to_neutral(state: RiskState, player: PlayerId) -> Step[RiskState]:
    """The resigner is out: their territories keep their armies under the neutral flag, their
    cards go to the discard pile, and a turn of theirs passes to the next player."""
    seat = state.seat_of(player)
    state = evolve(
        state,
        owners=tuple(NEUTRAL if o == player else o for o in state.owners),
        discard=state.discard + state.hands[seat],
        hands=changed_at(state.hands, seat, ()),
        setup_left=changed_at(state.setup_left, seat, 0),
        eliminated=(*state.eliminated, Elimination(player, NEUTRAL, state.turn)),
    )
    left = alive(state)
    if len(left) == 1:
        won = finish(state, WinKind.RESIGNATION, left)
        return Step(won.state, (Resigned(player, left), *won.events))
    resigned = Resigned(player)
    if state.phase is Phase.DEFEND and state.owner(state.target) == NEUTRAL:
        # They were choosing dice: the attacker rolls again, against the neutral army.
        return Step(evolve(state, phase=Phase.ATTACK, attack_dice=0), (resigned,))
    if state.player != player:
        return Step(state, (resigned,))
    state = evolve(state, source="", target="", attack_dice=0, move_min=0, blitz_stop=0)
    if state.phase is Phase.SETUP_CLAIM:
        passed = Step(evolve(state, current=next_seat(state, seat)), ())
    elif state.phase is Phase.SETUP_PLACE:
        passed = next_setup_turn(state, seat)
    else:
        passed = next_turn(state, seat)
    return Step(passed.state, (resigned, *passed.events))
