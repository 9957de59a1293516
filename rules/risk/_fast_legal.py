"""Whether one action is legal in Risk, answered without building the legal list: the
engine's check of every action it applies (`Risk.is_legal`), fenced here beside `_fast.py`
so that `legal.py` reads as what each phase offers.

`bench/versus_pyrisk.py` holds the engine to pyrisk's speed; listing every legal action to
look one up cost several times this check on the Risk board's biggest menus. Its rules:

Rule 1: `is_legal(state, action)` is `action in legal.legal_actions(state)` for every action
of the player to act, except a coarse action (`actions.COARSE_VERBS`, never offered), which
is legal exactly when its sub-steps would be, in turn. Each phase's check below answers for
the list of `legal.py`'s builder for that phase: a change to one is a change to both.
Tested (hypothesis, random games with every house rule, every legal action and near misses
of it) by tests/rules/risk/test_legal.py.

Rule 2: the caller has already checked that the player is to act (`EngineBase.apply`).

Rule 3: the enum members compared here may be `_fast.py`'s globals (its Rule 2).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rules.core import Action
from rules.risk._fast import ASSAULT, ATTACK_FROM, PLACE_AT
from rules.risk.actions import (
    AUTO,
    BACK,
    END_ATTACKS,
    END_TURN,
    Verb,
    plain_number,
    written_assault,
    written_place_at,
)
from rules.risk.cards import is_set
from rules.risk.legal import attack_dice, defend_dice, legal_actions
from rules.risk.queries import (
    BLITZ_STOPS,
    attack_targets,
    blitz_stops,
    can_attack_from,
    can_fortify_from,
    fortify_reach,
    how_many,
    must_trade,
    placeable,
    trade_order,
)
from rules.risk.state import ADJACENT, INDEX, NEUTRAL, Phase, RiskState


def is_legal(state: RiskState, action: Action) -> bool:
    """Whether the player to act may take `action` now (Rule 1)."""
    return _IS_LEGAL[state.phase](state, action)


def _number_in(arg: str, numbers: Sequence[int]) -> bool:
    """Whether `arg` is one of `numbers` written as `number_action` writes it."""
    n = plain_number(arg)
    return n is not None and n in numbers


def _answers_how_many(state: RiskState, action: Action) -> bool:
    asked = how_many(state)
    return asked is not None and action.verb == asked.verb and _number_in(action.arg, asked.numbers)


def _territory(arg: str) -> int:
    """The territory's index, or -1 for an argument that names none."""
    return INDEX.get(arg, -1)


def _places_on_own(state: RiskState, action: Action) -> bool:
    i = _territory(action.arg)
    return action.verb == Verb.PLACE_ON and i >= 0 and state.owners[i] == state.player


def _claim_ok(state: RiskState, action: Action) -> bool:
    i = _territory(action.arg)
    # The verb first: it is cheaper to compare than the whole action with AUTO.
    return (action.verb == Verb.CLAIM and i >= 0 and state.armies[i] == 0) or action == AUTO


def _setup_place_ok(state: RiskState, action: Action) -> bool:
    if state.source:
        return action == BACK or _answers_how_many(state, action)
    return _place_at_ok(state, action) or action == AUTO or _places_on_own(state, action)


def _trade_ok(state: RiskState, arg: str) -> bool:
    """`trade:<cards>` is one of `trade_options`: a set in the hand, written as `trade`
    writes it, in `trade_order`."""
    try:
        traded = tuple(int(part) for part in arg.split(","))
    except ValueError:
        return False
    hand = state.hands[state.current]
    if ",".join(map(str, traded)) != arg or len(set(traded)) != 3:
        return False
    if not all(c in hand for c in traded):
        return False
    combo = tuple(sorted(traded))
    return is_set(combo) and traded == trade_order(state, state.player, combo)


def _place_at_ok(state: RiskState, action: Action) -> bool:
    """`place_at:<territory>,<armies>` where `place_on` may be chosen: `place_on:<territory>`
    legal, and then `place:<armies>` (`queries.how_many` once the place is chosen)."""
    if action.verb != PLACE_AT or (placed := written_place_at(action.arg)) is None:
        return False
    territory, armies = placed
    i = INDEX.get(territory, -1)
    me = state.players[state.current]
    return i >= 0 and state.owners[i] == me and 1 <= armies <= placeable(state)


def _assault_ok(state: RiskState, arg: str) -> bool:
    """`assault:<from>,<to>,<stop>,<keep>` before an attack is chosen: `attack_from`,
    `attack_to` and `blitz:<stop>` legal in turn, and no defender to choose dice (they would
    be asked before the first roll, so the blitz could not go on in this action)."""
    planned = written_assault(arg)
    if planned is None:
        return False
    source, target, stop, keep = planned
    i, j = INDEX.get(source, -1), INDEX.get(target, -1)
    owners, armies, me = state.owners, state.armies, state.players[state.current]
    # `can_attack_from(i)` and `j` among its enemy neighbours:
    if i < 0 or owners[i] != me or armies[i] < 2 or j not in ADJACENT[i] or owners[j] == me:
        return False
    # Any `keep` of 1 or more is kept as near as the rules allow.
    if stop not in BLITZ_STOPS or stop >= armies[i] or keep < 1:
        return False
    rules = state.rules
    return not (rules.defender_chooses and owners[j] != NEUTRAL and armies[j] >= 2)


def _setup_neutral_ok(state: RiskState, action: Action) -> bool:
    i = _territory(action.arg)
    return action == AUTO or (
        action.verb == Verb.NEUTRAL_ON and i >= 0 and state.owners[i] == NEUTRAL
    )


def _reinforce_ok(state: RiskState, action: Action) -> bool:
    if action.verb == PLACE_AT:  # the commonest here: first
        return not (must_trade(state) or state.source) and _place_at_ok(state, action)
    if action.verb == Verb.BONUS:  # rare: the choices are listed
        return action in legal_actions(state)
    if action.verb == Verb.TRADE:
        trades_now = must_trade(state) or not (state.source or state.resume_attack)
        return trades_now and _trade_ok(state, action.arg)
    if must_trade(state):
        return action == AUTO
    if state.source:
        return action == BACK or _answers_how_many(state, action)
    return action == AUTO or _places_on_own(state, action)


def _attack_ok(state: RiskState, action: Action) -> bool:
    verb, arg = action.verb, action.arg
    if state.target:
        if verb == Verb.ROLL:
            return _number_in(arg, attack_dice(state))
        return (verb == Verb.BLITZ and _number_in(arg, blitz_stops(state))) or action == BACK
    if state.source:
        return (verb == Verb.ATTACK_TO and arg in attack_targets(state, state.source)) or (
            action == BACK
        )
    if verb == ATTACK_FROM:
        i = _territory(arg)
        return i >= 0 and can_attack_from(state, state.player, i)
    if verb == ASSAULT:
        return _assault_ok(state, arg)
    return action in (END_ATTACKS, END_TURN)


def _defend_ok(state: RiskState, action: Action) -> bool:
    return action.verb == Verb.DEFEND and _number_in(action.arg, defend_dice(state))


def _fortify_ok(state: RiskState, action: Action) -> bool:
    if state.target:
        return action == BACK or _answers_how_many(state, action)
    if state.source:
        reach = fortify_reach(state, state.source)
        return (action.verb == Verb.FORTIFY_TO and action.arg in reach) or action == BACK
    if action.verb == Verb.FORTIFY_FROM:
        i = _territory(action.arg)
        return i >= 0 and can_fortify_from(state, state.player, i)
    return action == END_TURN


_IS_LEGAL: dict[Phase, Callable[[RiskState, Action], bool]] = {
    Phase.SETUP_CLAIM: _claim_ok,
    Phase.SETUP_PLACE: _setup_place_ok,
    Phase.SETUP_NEUTRAL: _setup_neutral_ok,
    Phase.REINFORCE: _reinforce_ok,
    Phase.ATTACK: _attack_ok,
    Phase.DEFEND: _defend_ok,
    Phase.MOVE_IN: _answers_how_many,
    Phase.FORTIFY: _fortify_ok,
}
