"""What the player to act may do in each phase of Risk, in the order a board offers it, and
why anything else is refused (docs/rules/risk.md; the actions are described in
`actions.py`). Only the choices the rules allow are offered: legal sources and targets, every
legal number, every set held."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rules.core import Action, IllegalAction, illegal_count
from rules.risk._fast import ASSAULT, ATTACK_FROM, PLACE_AT
from rules.risk.actions import (
    AUTO,
    BACK,
    END_ATTACKS,
    END_TURN,
    Verb,
    attack_from,
    attack_to,
    bonus,
    claim,
    fortify_from,
    fortify_to,
    neutral_on,
    number_action,
    place_on,
    plain_number,
    trade,
    written_assault,
    written_place_at,
)
from rules.risk.battle import max_attack_dice, max_defend_dice
from rules.risk.cards import is_set
from rules.risk.queries import (
    BLITZ_STOPS,
    attack_sources,
    attack_targets,
    blitz_stops,
    bonus_choices,
    can_attack_from,
    can_fortify_from,
    fortify_reach,
    fortify_sources,
    how_many,
    must_trade,
    placeable,
    trade_options,
    trade_order,
    unclaimed,
)
from rules.risk.state import ADJACENT, INDEX, NEUTRAL, SLUGS, Phase, RiskState


def legal_actions(state: RiskState) -> tuple[Action, ...]:
    """What the player to act (the defender, when one chooses dice) may do now."""
    return _BY_PHASE[state.phase](state)


def is_legal(state: RiskState, action: Action) -> bool:
    """Whether `action` is in `legal_actions(state)`, or is a coarse action (`COARSE_VERBS`)
    whose sub-steps would each be, checked without building that list (the engine checks
    every action it applies; tests hold these to agreeing)."""
    return _IS_LEGAL[state.phase](state, action)


def refusal(state: RiskState, action: Action) -> IllegalAction:
    """Why `action` is refused, for the player: the legal numbers when a number was asked for
    (a typed or stale one out of range), what is wrong with a coarse action where one may be
    made, else that the move is not available."""
    if action.verb == Verb.ASSAULT and state.phase is Phase.ATTACK and not state.source:
        return _assault_refusal(state, action.arg)
    if action.verb == Verb.PLACE_AT and _places_now(state):
        return _place_at_refusal(state)
    asked = how_many(state)
    if asked is None or action.verb != asked.verb:
        return IllegalAction("That move is not available right now.")
    lo, hi = asked.numbers[0], asked.numbers[-1]
    # One message per verb: a translation words the verb and its object together.
    only, between = {
        Verb.PLACE: (
            illegal_count(
                "Place {n} army: no other number is possible.",
                "Place {n} armies: no other number is possible.",
                n=lo,
            ),
            IllegalAction("Place between {low} and {high} armies.", low=lo, high=hi),
        ),
        Verb.MOVE_IN: (
            illegal_count(
                "Move in {n} army: no other number is possible.",
                "Move in {n} armies: no other number is possible.",
                n=lo,
            ),
            IllegalAction("Move in between {low} and {high} armies.", low=lo, high=hi),
        ),
        Verb.FORTIFY: (
            illegal_count(
                "Move {n} army: no other number is possible.",
                "Move {n} armies: no other number is possible.",
                n=lo,
            ),
            IllegalAction("Move between {low} and {high} armies.", low=lo, high=hi),
        ),
    }[asked.verb]
    return only if lo == hi else between


def _place_at_refusal(state: RiskState) -> IllegalAction:
    most = placeable(state)
    if most == 1:
        return IllegalAction("Place 1 army on a territory of yours: no other number is possible.")
    return IllegalAction("Place between 1 and {high} armies on a territory of yours.", high=most)


def _assault_refusal(state: RiskState, arg: str) -> IllegalAction:
    """Why an assault (`actions.Assault`) offered where one may be made is refused."""
    planned = written_assault(arg)
    if planned is None:
        return IllegalAction(
            "An assault names its territories, stop level and armies kept: from,to,stop,keep."
        )
    source, target, stop, keep = planned
    i = _territory(source)
    if i < 0 or not can_attack_from(state, state.player, i):
        return IllegalAction("You can attack only from your territory with 2 or more armies.")
    if target not in attack_targets(state, source):
        return IllegalAction("You can attack only an enemy territory next to it.")
    stops = tuple(s for s in BLITZ_STOPS if s < state.armies[i])
    if stop not in stops:
        # The noun agrees with the largest stop: "1 army", "1 or 3 armies".
        return illegal_count(
            "A blitz from there may stop at {stops} army.",
            "A blitz from there may stop at {stops} armies.",
            n=max(stops),
            stops=stops,
        )
    if keep < 1:
        return IllegalAction("Keep at least 1 army behind after a capture.")
    return IllegalAction("The defender chooses their dice: attack roll by roll.")


# --- legal actions by phase -------------------------------------------------------------------


def _numbers(verb: Verb, numbers: Sequence[int]) -> tuple[Action, ...]:
    return tuple(number_action(verb, n) for n in numbers)


def _how_many_actions(state: RiskState) -> tuple[Action, ...]:
    """Every legal answer to the "how many" asked now (`queries.how_many`), smallest first."""
    asked = how_many(state)
    return () if asked is None else _numbers(asked.verb, asked.numbers)


def _own(state: RiskState) -> tuple[str, ...]:
    me = state.player
    return tuple(SLUGS[i] for i, o in enumerate(state.owners) if o == me)


def _legal_claim(state: RiskState) -> tuple[Action, ...]:
    return (*map(claim, unclaimed(state)), AUTO)


def _legal_setup_place(state: RiskState) -> tuple[Action, ...]:
    if state.source:
        return (*_how_many_actions(state), BACK)
    return (*map(place_on, _own(state)), AUTO)


def _legal_setup_neutral(state: RiskState) -> tuple[Action, ...]:
    neutral = tuple(SLUGS[i] for i, o in enumerate(state.owners) if o == NEUTRAL)
    return (*map(neutral_on, neutral), AUTO)


def _legal_reinforce(state: RiskState) -> tuple[Action, ...]:
    # Every set may be traded; when one shows several territories the player holds, they
    # choose first which gets the +2 (`bonus`, the current choice left out).
    picks = tuple(bonus(t) for t in bonus_choices(state) if t != state.bonus_pick)
    trades = (*picks, *map(trade, trade_options(state, state.player)))
    if must_trade(state):
        return (*trades, AUTO)
    if state.source:
        return (*_how_many_actions(state), BACK)
    optional = () if state.resume_attack else trades
    return (*optional, *map(place_on, _own(state)), AUTO)


def _legal_attack(state: RiskState) -> tuple[Action, ...]:
    if state.target:
        rolls = _numbers(Verb.ROLL, _attack_dice(state))
        return (*rolls, *_numbers(Verb.BLITZ, blitz_stops(state)), BACK)
    if state.source:
        return (*map(attack_to, attack_targets(state, state.source)), BACK)
    sources = attack_sources(state, state.player)
    return (*map(attack_from, sources), END_ATTACKS, END_TURN)


def _legal_defend(state: RiskState) -> tuple[Action, ...]:
    return _numbers(Verb.DEFEND, _defend_dice(state))


def _attack_dice(state: RiskState) -> range:
    return range(1, max_attack_dice(state.armies_on(state.source)) + 1)


def _defend_dice(state: RiskState) -> range:
    return range(1, max_defend_dice(state.armies_on(state.target)) + 1)


def _legal_move_in(state: RiskState) -> tuple[Action, ...]:
    return _how_many_actions(state)


def _legal_fortify(state: RiskState) -> tuple[Action, ...]:
    if state.target:
        return (*_how_many_actions(state), BACK)
    if state.source:
        return (*map(fortify_to, fortify_reach(state, state.source)), BACK)
    return (*map(fortify_from, fortify_sources(state, state.player)), END_TURN)


_BY_PHASE = {
    Phase.SETUP_CLAIM: _legal_claim,
    Phase.SETUP_PLACE: _legal_setup_place,
    Phase.SETUP_NEUTRAL: _legal_setup_neutral,
    Phase.REINFORCE: _legal_reinforce,
    Phase.ATTACK: _legal_attack,
    Phase.DEFEND: _legal_defend,
    Phase.MOVE_IN: _legal_move_in,
    Phase.FORTIFY: _legal_fortify,
}


# --- one action checked by phase: the same choices as above, without the lists ---------------


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


def _places_now(state: RiskState) -> bool:
    """Whether a place is chosen next (where `place_on`, and so `place_at`, may be legal)."""
    placing = state.phase is Phase.SETUP_PLACE or (
        state.phase is Phase.REINFORCE and not must_trade(state)
    )
    return placing and not state.source


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
        return action in _legal_reinforce(state)
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
            return _number_in(arg, _attack_dice(state))
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
    return action.verb == Verb.DEFEND and _number_in(action.arg, _defend_dice(state))


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
