"""The engine checks an action with `is_legal`, without building the legal list: on states
from random games with every house rule, it agrees with `action in legal_actions(state)` for
every legal action and for near misses (other territories, numbers out of range or written
differently, sets in another order, stray arguments, unknown verbs)."""

from __future__ import annotations

from itertools import combinations, permutations
from random import Random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.core import Action, setup_rng, step_rng
from rules.risk import ENGINE
from rules.risk.actions import Verb, trade
from rules.risk.legal import is_legal, legal_actions
from rules.risk.state import SLUGS, RiskState

TERRITORY_VERBS = (
    Verb.CLAIM,
    Verb.PLACE_ON,
    Verb.NEUTRAL_ON,
    Verb.BONUS,
    Verb.ATTACK_FROM,
    Verb.ATTACK_TO,
    Verb.FORTIFY_FROM,
    Verb.FORTIFY_TO,
)
NUMBER_VERBS = (Verb.PLACE, Verb.ROLL, Verb.BLITZ, Verb.DEFEND, Verb.MOVE_IN, Verb.FORTIFY)
PLAIN_VERBS = (Verb.AUTO, Verb.END_ATTACKS, Verb.END_TURN, Verb.BACK)
NUMBERS = (*map(str, range(-1, 31)), "40", "07", "+1", " 1", "1 ", "1.0", "٣", "1_0", "", "x")
OTHERS = (
    *(Action(v, s) for v in TERRITORY_VERBS for s in (*SLUGS, "", "atlantis", "Ukraine")),
    *(Action(v, n) for v in NUMBER_VERBS for n in NUMBERS),
    *(Action(v, arg) for v in PLAIN_VERBS for arg in ("", "x", "1")),
    *(Action(v, "") for v in TERRITORY_VERBS + NUMBER_VERBS),
    Action("no-such-verb"),
    Action("trade", ""),
    Action("trade", "1,2"),
)


def near_misses(state: RiskState) -> list[Action]:
    """Every verb with every territory and many numbers, and the hand's cards three at a
    time in every order (sets and non-sets)."""
    hand = state.hands[state.current]
    trades = [trade(p) for combo in combinations(hand, 3) for p in permutations(combo)]
    return [*OTHERS, *trades]


@settings(
    max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 6),
    claim=st.booleans(),
    missions=st.sampled_from([0, 12, 14]),
    defender_chooses=st.booleans(),
    connected_fortify=st.booleans(),
    ai_share=st.sampled_from([0.0, 0.5, 0.9]),
)
def test_is_legal_agrees_with_the_legal_list(
    seed: int,
    players: int,
    claim: bool,
    missions: int,
    defender_chooses: bool,
    connected_fortify: bool,
    ai_share: float,
) -> None:
    options = {
        "setup": "claim" if claim and players > 2 else "deal",
        "missions": missions if players > 2 else 0,
        "defender_chooses": defender_chooses,
        "connected_fortify": connected_fortify,
    }
    seats = tuple(range(-1, -1 - players, -1))
    state = ENGINE.initial_state(seats, options, setup_rng(str(seed)))
    picker = Random(seed)
    for n in range(600):
        acting = ENGINE.to_act(state)
        if not acting:
            break
        legal = legal_actions(state)
        if n % 3 == 0:
            for action in (*legal, *near_misses(state)):
                assert is_legal(state, action) == (action in legal), (state.phase, action)
        player = min(acting)
        if picker.random() < ai_share:  # the AI goes deeper: trades, eliminations
            action = ENGINE.choose(state, player, Random(n))
        else:
            action = picker.choice(legal)
        state = ENGINE.apply(state, player, action, step_rng(str(seed), n)).state
