"""What the player to act may do in each phase of Risk, in the order a board offers it, and
why anything else is refused (shared/rules/risk.md; the actions are described in
`actions.py`). Only the choices the rules allow are offered: legal sources and targets, every
legal number, every set held."""

from __future__ import annotations

from collections.abc import Sequence

from rules.core import Action
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
    trade,
)
from rules.risk.battle import max_attack_dice, max_defend_dice
from rules.risk.queries import (
    attack_sources,
    attack_targets,
    blitz_stops,
    bonus_choices,
    fortify_reach,
    fortify_sources,
    how_many,
    must_trade,
    trade_options,
    unclaimed,
)
from rules.risk.state import NEUTRAL, SLUGS, Phase, RiskState


def legal_actions(state: RiskState) -> tuple[Action, ...]:
    """What the player to act (the defender, when one chooses dice) may do now."""
    return _BY_PHASE[state.phase](state)


def refusal(state: RiskState, action: Action) -> str:
    """Why `action` is refused, for the player: the legal numbers when a number was asked for
    (a typed or stale one out of range), else that the move is not available."""
    asked = how_many(state)
    if asked is None or action.verb != asked.verb:
        return "That move is not available right now."
    lo, hi = asked.numbers[0], asked.numbers[-1]
    doing = {Verb.PLACE: "Place", Verb.MOVE_IN: "Move in", Verb.FORTIFY: "Move"}[asked.verb]
    if lo == hi:
        return f"{doing} {lo} {'army' if lo == 1 else 'armies'}: no other number is possible."
    return f"{doing} between {lo} and {hi} armies."


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
        dice = range(1, max_attack_dice(state.armies_on(state.source)) + 1)
        return (*_numbers(Verb.ROLL, dice), *_numbers(Verb.BLITZ, blitz_stops(state)), BACK)
    if state.source:
        return (*map(attack_to, attack_targets(state, state.source)), BACK)
    sources = attack_sources(state, state.player)
    return (*map(attack_from, sources), END_ATTACKS, END_TURN)


def _legal_defend(state: RiskState) -> tuple[Action, ...]:
    return _numbers(Verb.DEFEND, range(1, max_defend_dice(state.armies_on(state.target)) + 1))


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
