"""The Horse Collar AI (rules/horse_collar/ai.py): its ideas, and that they pay off."""

from __future__ import annotations

import statistics
from dataclasses import replace
from random import Random

import pytest

from rules.core import Action, setup_rng, step_rng
from rules.horse_collar import ENGINE
from rules.horse_collar.actions import Verb
from rules.horse_collar.ai import best_shot, lone_odds
from rules.horse_collar.controls import shot_actions
from rules.horse_collar.geometry import Zone
from rules.horse_collar.scoring import zones
from rules.horse_collar.shots import DEFAULT_AIM, Noise, play_shot
from rules.horse_collar.state import HorseCollarState, Weight
from tests.rules.horse_collar.helpers import game

ANA, BOT = 101, -1
THREE_ZONE = {"in_4.5", "in_4", "in_3.5", "in_3", "in_2.5", "in_2", "in_1.5"}


def on_board(*weights: Weight) -> HorseCollarState:
    return replace(game((BOT, ANA)), weights=weights, shot=len(weights))


def shoot_plan(state: HorseCollarState) -> tuple[Weight, ...]:
    """Play the AI's settings to its shot, with no noise; the board at rest."""
    for _ in range(3):
        action = ENGINE.choose(state, BOT, Random(0))
        if action.verb == Verb.SHOOT:
            state = ENGINE.apply(state, BOT, action, step_rng("unused", 0)).state
            aim = state.aims[0]
            return play_shot(
                state.rules, state.weights[:-1], len(state.weights) - 1, aim, Noise()
            ).after
        state = ENGINE.apply(state, BOT, action, step_rng("unused", 0)).state
    raise AssertionError("the AI took more than three clicks")


def test_its_first_weight_lags_into_the_3_zone() -> None:
    plan = best_shot(game().rules, ())
    assert plan.target in THREE_ZONE


def test_it_protects_a_hanger_by_shooting_a_clear_lane() -> None:
    """A hanger in the middle lane: the next weight keeps off it."""
    hanger = Weight(0, 600, 0)
    state = on_board(hanger, Weight(1, 3_000, -6_000))
    assert best_shot(state.rules, state.weights).release.arg not in ("centre", "r1")
    assert shoot_plan(state)[0] == hanger


def test_it_knocks_its_own_short_weight_off() -> None:
    short = Weight(1, 185_000, 6_000)
    state = on_board(Weight(0, 3_000, -4_000), short)
    assert zones(state.rules, state.weights)[1] is Zone.SHORT
    after = shoot_plan(state)
    assert Zone.SHORT not in zones(state.rules, after)
    assert zones(state.rules, after)[0] is Zone.THREE  # and leaves its 3 alone


def test_it_sets_up_a_shot_in_at_most_three_clicks() -> None:
    state = on_board(Weight(0, 8_000, 2_000), Weight(1, 3_000, -3_000))
    state = replace(state, aims=(replace(DEFAULT_AIM, angle=-100, lane="left"),) * 2)
    assert shoot_plan(state)


def test_lone_shot_odds_add_up_and_centre_on_the_target() -> None:
    odds = lone_odds(game().rules, DEFAULT_AIM)
    assert sum(odds.values()) == 1.0 or abs(sum(odds.values()) - 1.0) < 1e-9
    assert max(odds, key=lambda z: odds[z]) in (Zone.THREE, Zone.TWO)
    assert odds[Zone.SHORT] < 1e-6 and odds[Zone.CORNER] < 1e-6


def turn_score(seed: str, aimer: str) -> int:
    """One turn of eight shots from a fresh board, shot by the AI or by a random aimer (a
    random release point and angle, then a random distance)."""
    state = ENGINE.initial_state((BOT, ANA), {}, setup_rng(seed))
    picker = Random(seed)
    n = 0
    while not state.history:
        if aimer == "ai":
            action = ENGINE.choose(state, BOT, Random(n))
        else:
            actions = shot_actions(state)
            verbs = ("release", "line_up") if n % 3 == 0 else ("angle",) if n % 3 == 1 else ()
            pool = [a for a in actions if a.verb in verbs] or [
                a for a in actions if a.verb == Verb.SHOOT and a.arg
            ]
            action = picker.choice(pool)
        state = ENGINE.apply(state, BOT, action, step_rng(seed, n)).state
        n += 1
    return state.history[0].points


@pytest.mark.starts_first
def test_over_100_seeded_turns_it_scores_clearly_more_than_a_random_aimer() -> None:
    """Measured: the AI about 19 a turn, a random aimer about 10 (it voids many turns with
    short weights and misses the 3 zone)."""
    ai = [turn_score(f"turn-{i}", "ai") for i in range(100)]
    rand = [turn_score(f"turn-{i}", "random") for i in range(100)]
    assert statistics.mean(ai) > 1.5 * statistics.mean(rand)
    assert sum(p == 0 for p in ai) < sum(p == 0 for p in rand)


def test_its_choice_is_always_legal() -> None:
    state = on_board(Weight(0, 185_000, 0), Weight(1, 600, 9_500), Weight(2, 3_000, 0, True))
    action = ENGINE.choose(state, BOT, Random(1))
    assert action in ENGINE.legal_actions(state, BOT)
    assert isinstance(action, Action)
