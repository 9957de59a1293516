"""Properties over whole games (hypothesis): armies are conserved except battle losses, every
territory always has an owner and an army, the cards are never lost or duplicated, and private
things stay private."""

from __future__ import annotations

import json
from random import Random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.core import Event, setup_rng, step_rng
from rules.risk import ENGINE
from rules.risk.actions import PRIVATE_VERBS, Verb
from rules.risk.cards import ALL_CARDS
from rules.risk.state import (
    NEUTRAL,
    ArmiesPlaced,
    BattleRolled,
    CardReceived,
    CardsHandedOver,
    CardsTraded,
    MissionChanged,
    Phase,
    RiskState,
    TerritoryClaimed,
)

PRIVATE_EVENTS = (CardReceived, CardsHandedOver, MissionChanged)


def added_armies(events: tuple[Event, ...]) -> int:
    """Armies that came into play: placed, claimed, or the +2 of a traded card."""
    placed = sum(e.count for e in events if isinstance(e, ArmiesPlaced))
    claimed = sum(1 for e in events if isinstance(e, TerritoryClaimed))
    bonus = sum(2 for e in events if isinstance(e, CardsTraded) and e.bonus_territory)
    return placed + claimed + bonus


def battle_losses(events: tuple[Event, ...]) -> int:
    return sum(e.attacker_losses + e.defender_losses for e in events if isinstance(e, BattleRolled))


def check_board(state: RiskState) -> None:
    owners = set(state.players) | ({NEUTRAL} if len(state.players) == 2 else set())
    for owner, armies in zip(state.owners, state.armies, strict=True):
        if state.phase is Phase.SETUP_CLAIM and armies == 0:
            continue  # still unclaimed
        assert owner in owners and armies >= 1
        assert not state.is_out(owner)
    assert sorted(state.deck + state.discard + sum(state.hands, ())) == list(ALL_CARDS)


def check_privacy(state: RiskState, events: tuple[Event, ...]) -> None:
    for e in events:
        if isinstance(e, PRIVATE_EVENTS):
            assert e.visible_to is not None and len(e.visible_to) <= 2
        else:
            assert e.visible_to is None
    for player in ENGINE.to_act(state):
        for action in ENGINE.legal_actions(state, player):
            if "," in action.arg or action.verb == Verb.TRADE:
                assert action.verb in PRIVATE_VERBS  # card ids only in private verbs


@settings(
    max_examples=30, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 6),
    claim=st.booleans(),
    missions=st.sampled_from([0, 12, 14]),
    defender_chooses=st.booleans(),
    connected_fortify=st.booleans(),
    ai_seats=st.sets(st.integers(0, 5)),
)
def test_invariants_hold_at_every_step(
    seed: int,
    players: int,
    claim: bool,
    missions: int,
    defender_chooses: bool,
    connected_fortify: bool,
    ai_seats: set[int],
) -> None:
    seats = tuple(range(-1, -1 - players, -1))
    options = {
        "setup": "claim" if claim and players > 2 else "deal",
        "missions": missions if players > 2 else 0,
        "defender_chooses": defender_chooses,
        "connected_fortify": connected_fortify,
        "turn_limit": 8,
    }
    state = ENGINE.initial_state(seats, options, setup_rng(str(seed)))
    picker = Random(seed)
    check_board(state)
    for n in range(20_000):
        acting = ENGINE.to_act(state)
        if not acting:
            break
        player = min(acting)
        if seats.index(player) in ai_seats:
            action = ENGINE.choose(state, player, Random(n))
        else:
            action = picker.choice(list(ENGINE.legal_actions(state, player)))
        step = ENGINE.apply(state, player, action, step_rng(str(seed), n))
        assert sum(step.state.armies) == sum(state.armies) + added_armies(step.events) - (
            battle_losses(step.events)
        )
        state = step.state
        check_board(state)
        check_privacy(state, step.events)
        if n % 10 == 0:  # conformance playouts stop after a round; these go deeper (trades...)
            assert ENGINE.load(json.loads(json.dumps(ENGINE.dump(state)))) == state
    assert ENGINE.outcome(state) is not None
