"""What the player to act may do in each phase of Risk, in the order a board offers it, and
why anything else is refused (docs/rules/risk.md; the actions are described in
`actions.py`). Only the choices the rules allow are offered: legal sources and targets, every
legal number, every set held. The engine checks one action without building these lists
(`_fast_legal.is_legal`, held to the same answers)."""

from __future__ import annotations

from collections.abc import Sequence

from rules.core import Action, IllegalAction, illegal_count
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
    written_assault,
)
from rules.risk.battle import max_attack_dice, max_defend_dice
from rules.risk.queries import (
    BLITZ_STOPS,
    attack_sources,
    attack_targets,
    blitz_stops,
    bonus_choices,
    can_attack_from,
    fortify_reach,
    fortify_sources,
    how_many,
    must_trade,
    placeable,
    trade_options,
    unclaimed,
)
from rules.risk.state import INDEX, NEUTRAL, SLUGS, Phase, RiskState


def legal_actions(state: RiskState) -> tuple[Action, ...]:
    """What the player to act (the defender, when one chooses dice) may do now."""
    return _BY_PHASE[state.phase](state)


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


def _places_now(state: RiskState) -> bool:
    """Whether a place is chosen next (where `place_on`, and so `place_at`, may be legal)."""
    placing = state.phase is Phase.SETUP_PLACE or (
        state.phase is Phase.REINFORCE and not must_trade(state)
    )
    return placing and not state.source


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
    i = INDEX.get(source, -1)
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
        rolls = _numbers(Verb.ROLL, attack_dice(state))
        return (*rolls, *_numbers(Verb.BLITZ, blitz_stops(state)), BACK)
    if state.source:
        return (*map(attack_to, attack_targets(state, state.source)), BACK)
    sources = attack_sources(state, state.player)
    return (*map(attack_from, sources), END_ATTACKS, END_TURN)


def _legal_defend(state: RiskState) -> tuple[Action, ...]:
    return _numbers(Verb.DEFEND, defend_dice(state))


def attack_dice(state: RiskState) -> range:
    """How many dice the attack chosen may roll: 1 up to what its source allows."""
    return range(1, max_attack_dice(state.armies_on(state.source)) + 1)


def defend_dice(state: RiskState) -> range:
    """How many dice the defender may roll: 1 up to what their territory allows."""
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
