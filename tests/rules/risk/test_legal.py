"""The engine checks an action with `is_legal`, without building the legal list: on states
from random games with every house rule, it agrees with `action in legal_actions(state)` for
every legal action and for near misses (other territories, numbers out of range or written
differently, sets in another order, stray arguments, unknown verbs); and a coarse action
(`actions.COARSE_VERBS`, never offered) is legal exactly when its sub-steps are, in turn."""

from __future__ import annotations

from itertools import combinations, permutations
from random import Random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.core import Action, setup_rng, step_rng
from rules.risk import ENGINE
from rules.risk._fast_legal import is_legal
from rules.risk.actions import COARSE_VERBS, Verb, place_at, trade
from rules.risk.engine import needs_defender_choice
from rules.risk.legal import legal_actions
from rules.risk.state import ADJACENT, SLUGS, RiskState

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


ODD_NUMBERS = ("0", "-1", "07", "+1", " 1", "1.0", "٣", "", "x")


def expansion(action: Action) -> tuple[Action, ...] | None:
    """The sub-steps a coarse action stands for, up to the roll (None if it names none)."""
    parts = action.arg.split(",")
    if action.verb == Verb.PLACE_AT and len(parts) == 2:
        return (Action(Verb.PLACE_ON, parts[0]), Action(Verb.PLACE, parts[1]))
    if action.verb == Verb.ASSAULT and len(parts) == 4:
        return (
            Action(Verb.ATTACK_FROM, parts[0]),
            Action(Verb.ATTACK_TO, parts[1]),
            Action(Verb.BLITZ, parts[2]),
        )
    return None


class Choices:
    """The states reached from one state by choosing sub-steps, with their legal sets, each
    built once: the candidates share prefixes (one source, many targets)."""

    def __init__(self, state: RiskState, legal: frozenset[Action]) -> None:
        self.reached: dict[tuple[Action, ...], tuple[RiskState, frozenset[Action]]] = {
            (): (state, legal)
        }

    def after(self, steps: tuple[Action, ...]) -> tuple[RiskState, frozenset[Action]]:
        """The state after choosing `steps` in turn, and what it offers."""
        if steps not in self.reached:
            before, _ = self.after(steps[:-1])
            state = ENGINE.apply(before, before.player, steps[-1], Random(0)).state
            self.reached[steps] = (state, frozenset(legal_actions(state)))
        return self.reached[steps]


def sub_steps_legal(choices: Choices, action: Action) -> bool:
    """Each sub-step is in `legal_actions` in turn; an assault also keeps 1 army or more
    (written as a number is) and asks no defender for dice."""
    steps = expansion(action)
    if steps is None:
        return False
    for n, step in enumerate(steps):
        if step not in choices.after(steps[:n])[1]:  # choosing only before the last: no dice
            return False
    if action.verb == Verb.ASSAULT:
        state = choices.after(steps[:-1])[0]
        keep = action.arg.split(",")[3]
        return (
            keep.isascii()
            and keep.isdigit()
            and str(int(keep)) == keep
            and int(keep) >= 1
            and (not needs_defender_choice(state))
        )
    return True


def coarse_candidates(state: RiskState, picker: Random) -> list[Action]:
    """Placements on some territories with good and bad numbers; assaults along borders
    (from own and other territories) with good and bad stops and keeps; stray forms."""
    some = picker.sample(range(len(SLUGS)), 8)
    mine = [i for i, o in enumerate(state.owners) if o == state.player][:6]
    numbers = ("1", "2", "3", str(max(state.to_place, 1)), "40", *ODD_NUMBERS)
    places = [place_at(SLUGS[i], 1) for i in some + mine]
    places += [Action(Verb.PLACE_AT, f"{SLUGS[i]},{n}") for i in mine[:2] for n in numbers]
    pairs = [(i, j) for i in some + mine for j in ADJACENT[i]]
    assaults = [Action(Verb.ASSAULT, f"{SLUGS[i]},{SLUGS[j]},1,1") for i, j in pairs]
    for i, j in picker.sample(pairs, min(4, len(pairs))):
        for stop in ("1", "3", "5", "10", "2", "0", "03"):
            assaults.append(Action(Verb.ASSAULT, f"{SLUGS[i]},{SLUGS[j]},{stop},1"))
        for keep in ("2", "99", *ODD_NUMBERS):
            assaults.append(Action(Verb.ASSAULT, f"{SLUGS[i]},{SLUGS[j]},1,{keep}"))
    strays = [
        Action(Verb.PLACE_AT, ""),
        Action(Verb.PLACE_AT, f"{SLUGS[some[0]]}"),
        Action(Verb.PLACE_AT, f"{SLUGS[some[0]]},1,1"),
        Action(Verb.ASSAULT, ""),
        Action(Verb.ASSAULT, f"{SLUGS[some[0]]},{SLUGS[ADJACENT[some[0]][0]]},1"),
        Action(Verb.ASSAULT, f"atlantis,{SLUGS[some[0]]},1,1"),
    ]
    return places + assaults + strays


@pytest.mark.starts_first
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
        assert not any(a.verb in COARSE_VERBS for a in legal)  # never offered
        if n % 3 == 0:
            offered = frozenset(legal)
            for action in (*legal, *near_misses(state)):
                assert is_legal(state, action) == (action in offered), (state.phase, action)
            choices = Choices(state, offered)
            for action in coarse_candidates(state, picker):
                expected = sub_steps_legal(choices, action)
                assert is_legal(state, action) == expected, (state.phase, action)
        player = min(acting)
        if picker.random() < ai_share:  # the AI goes deeper: trades, eliminations
            action = ENGINE.choose(state, player, Random(n))
        else:
            action = picker.choice(legal)
        state = ENGINE.apply(state, player, action, step_rng(str(seed), n)).state
