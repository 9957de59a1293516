"""Horse Collar turn, frame and game rules (docs/rules/horse_collar.md), and the controls."""

from __future__ import annotations

import re
from dataclasses import replace
from random import Random
from typing import Any

import pytest

from rules.core import IllegalAction, step_rng
from rules.horse_collar import ENGINE
from rules.horse_collar.actions import (
    ANGLE_ACTIONS,
    RELEASE_ACTIONS,
    SAME_AGAIN,
    SHOOT_ACTIONS,
    Verb,
    angle_action,
    line_up_action,
    release_action,
    shoot_action,
)
from rules.horse_collar.controls import set_aim
from rules.horse_collar.geometry import Zone
from rules.horse_collar.shots import DEFAULT_AIM, Noise
from rules.horse_collar.state import (
    AimSet,
    GameWon,
    HickeyPaid,
    HorseCollarState,
    TargetReached,
    TieFrame,
    TurnScored,
    TurnStarted,
    WeightShot,
)
from tests.rules.horse_collar.helpers import board, finish, game, scoring

T, D2, ONE, S, H, C, A = (
    Zone.THREE,
    Zone.TWO,
    Zone.ONE,
    Zone.SHORT,
    Zone.HANGER,
    Zone.CORNER,
    Zone.ALLEY,
)
ANA, BOB, CY, DI = 101, 202, 303, 404
SEED_001 = (T, D2, D2, ONE, ONE, ONE, A, A)  # 10 points
BIG = (H, T, T, T, D2, D2, ONE, ONE)  # 13 + 9 + 4 + 2 = 28


def shooters_of_a_turn(state: HorseCollarState) -> list[int]:
    who = []
    for _ in range(8):
        who.append(state.shooter)
        state = ENGINE.resolve_shot(state, Noise()).state
    return who


# --- sides and shooting order ------------------------------------------------------------------


def test_singles_one_player_shoots_all_eight_then_the_other() -> None:
    state = game((ANA, BOB))
    assert shooters_of_a_turn(state) == [ANA] * 8
    after = finish(state, *SEED_001).state
    assert (after.side, after.shooter, after.shot, after.weights) == (1, BOB, 0, ())


def test_pairs_shoot_four_each_and_fours_two_each() -> None:
    pairs = game((ANA, BOB, CY, DI))
    assert pairs.sides == ((ANA, BOB), (CY, DI))
    assert shooters_of_a_turn(pairs) == [ANA] * 4 + [BOB] * 4
    fours = game(tuple(range(1, 9)))
    assert shooters_of_a_turn(fours) == [1, 1, 2, 2, 3, 3, 4, 4]


def test_up_to_four_sides_shoot_in_order_and_the_last_has_the_hammer() -> None:
    state = game((ANA, BOB, CY), sides=3)
    seen = []
    for _ in range(3):
        seen.append((state.side, state.shooter, state.side == state.hammer))
        state = finish(state, ONE).state
    assert seen == [(0, ANA, False), (1, BOB, False), (2, CY, True)]
    assert (state.frame, state.side) == (2, 0)


@pytest.mark.parametrize(
    ("count", "sides"), [(3, 2), (6, 2), (2, 3), (12, 4), (5, 2), (16, 2), (17, 4)]
)
def test_seats_that_cannot_make_equal_sides_of_1_2_or_4_are_refused(count: int, sides: int) -> None:
    with pytest.raises(IllegalAction):
        game(tuple(range(1, count + 1)), sides=sides)


@pytest.mark.parametrize(("count", "sides"), [(2, 2), (4, 2), (8, 2), (3, 3), (8, 4), (16, 4)])
def test_seats_are_grouped_by_side_in_order(count: int, sides: int) -> None:
    state = game(tuple(range(1, count + 1)), sides=sides)
    size = count // sides
    assert state.sides == tuple(
        tuple(range(1 + s * size, 1 + (s + 1) * size)) for s in range(sides)
    )


# --- house options -----------------------------------------------------------------------------


def test_default_options() -> None:
    rules = game().rules
    assert (rules.sides, rules.target, rules.table_feet, rules.foul_line.value) == (
        2,
        51,
        22,
        "short",
    )
    assert (rules.corner_hanger, rules.short_weight_voids_turn, rules.board_speed.value) == (
        26,
        True,
        "medium",
    )
    assert (rules.hickey, rules.frames) == (0, 0)


@pytest.mark.parametrize(
    "options",
    [
        {"sides": 5},
        {"sides": "2"},
        {"target": 0},
        {"target": True},
        {"table": 8},
        {"table": 23},
        {"table": 12.5},
        {"foul_line": "middle"},
        {"corner_hanger": 20},
        {"short_weight_voids_turn": "yes"},
        {"board_speed": "greased"},
        {"hickey": -1},
        {"frames": -2},
    ],
)
def test_bad_house_options_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(IllegalAction):
        game(**options)


def test_unknown_options_are_ignored() -> None:
    assert game(turn_timer=60).rules == game().rules


# --- controls ----------------------------------------------------------------------------------

ARG = re.compile(r"[A-Za-z0-9_.,-]*")


def test_the_controls_fit_three_selects_and_a_button() -> None:
    state = replace(game(), weights=board(T, D2, D2, ONE, ONE, ONE, H), shot=7)
    actions = ENGINE.legal_actions(state, ANA)
    where = [a for a in actions if a.verb in ("release", "line_up")]
    angles = [a for a in actions if a.verb == "angle"]
    shots = [a for a in actions if a.verb == Verb.SHOOT and a.arg]
    assert len(where) == 14 and len(angles) == 7 and len(shots) == 17
    assert len(where) <= 25 and len(angles) <= 25 and len(shots) <= 25
    assert [a for a in actions if a not in (*where, *angles, *shots)] == [SAME_AGAIN]
    for action in actions:
        assert re.fullmatch("[a-z_]+", action.verb)
        assert ARG.fullmatch(action.arg) and len(action.arg) <= 40


def test_fallen_weights_cannot_be_lined_up_with() -> None:
    state = replace(game(), weights=board(T, A), shot=2)
    assert line_up_action(0) in ENGINE.legal_actions(state, ANA)
    assert line_up_action(1) not in ENGINE.legal_actions(state, ANA)


def test_any_shot_is_three_clicks_away_whatever_was_set_before() -> None:
    """Release, angle, distance: the last click shoots."""
    state = replace(game(), weights=board(T, D2), shot=2)
    rules = state.rules
    earlier = [DEFAULT_AIM, set_aim(rules, state.weights, DEFAULT_AIM, line_up_action(1))]
    earlier.append(set_aim(rules, state.weights, earlier[1], ANGLE_ACTIONS[0]))
    for before in earlier:
        for release in (*RELEASE_ACTIONS, line_up_action(0), line_up_action(1)):
            for angle in ANGLE_ACTIONS:
                for shot in SHOOT_ACTIONS:
                    aim = before
                    for action in (release, angle, shot):
                        aim = set_aim(rules, state.weights, aim, action)
                    fresh = DEFAULT_AIM
                    for action in (release, angle, shot):
                        fresh = set_aim(rules, state.weights, fresh, action)
                    assert aim == fresh


def test_settings_persist_between_shots_so_same_again_is_one_click() -> None:
    state = game()
    for n, action in enumerate((release_action("left"), angle_action(25), shoot_action("in_4"))):
        step = ENGINE.apply(state, ANA, action, step_rng("aim", n))
        state = step.state
    first = step.events[0]
    assert isinstance(first, WeightShot)
    again = ENGINE.apply(state, ANA, SAME_AGAIN, step_rng("aim", 3)).events[0]
    assert isinstance(again, WeightShot)
    assert again.aim == first.aim
    assert (again.aim.lane, again.aim.angle, again.aim.target) == ("left", 25, "in_4")
    assert again.index == first.index + 1


def test_setting_the_aim_announces_it() -> None:
    step = ENGINE.apply(game(), ANA, angle_action(-100), step_rng("aim", 0))
    assert step.events == (AimSet(ANA, replace(DEFAULT_AIM, angle=-100)),)


def test_lining_up_releases_straight_in_line_with_the_weight() -> None:
    state = replace(game(), weights=board(T, D2), shot=2)
    state = ENGINE.apply(state, ANA, angle_action(100), step_rng("l", 0)).state
    state = ENGINE.apply(state, ANA, line_up_action(1), step_rng("l", 1)).state
    aim = state.aims[0]
    assert (aim.release, aim.angle, aim.lane) == (state.weights[1].y, 0, "r2")


def test_only_the_shooter_may_act() -> None:
    state = game((ANA, BOB, CY, DI))
    assert ENGINE.to_act(state) == frozenset({ANA})
    for player in (BOB, CY, DI, 999):
        assert not ENGINE.legal_actions(state, player)
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, player, SAME_AGAIN, step_rng("x", 0))
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, ANA, shoot_action("moon"), step_rng("x", 0))


# --- the shot event ----------------------------------------------------------------------------


def test_a_shot_carries_its_whole_path_and_where_everything_rests() -> None:
    state = replace(game(), weights=board(T, D2), shot=2)
    state = replace(state, aims=(replace(DEFAULT_AIM, release=state.weights[1].y),) * 2)
    step = ENGINE.resolve_shot(state, Noise())
    shot = step.events[0]
    assert isinstance(shot, WeightShot)
    assert shot.index == 2 and shot.before == state.weights
    assert shot.after == step.state.weights and len(shot.after) == 3
    assert shot.paths[0].index == 2  # the shot weight first
    assert shot.paths[0].points[0] == (state.rules.table.length - 1156, state.weights[1].y)
    assert {p.index for p in shot.paths} >= {1, 2}  # it hit the 2
    for path in shot.paths:
        assert len(path.points) == len(shot.paths[0].points)
        rest = shot.after[path.index]
        assert path.points[-1] == (rest.d, rest.y)
    assert shot.zones == tuple(
        Zone.ALLEY if w.fallen else shot.zones[i] for i, w in enumerate(shot.after)
    )
    assert shot.fell == tuple(w.index for w in shot.after if w.fallen)


def test_the_same_seed_gives_the_same_shot_and_noise_changes_it() -> None:
    state = game()
    one = ENGINE.apply(state, ANA, SAME_AGAIN, step_rng("s", 0))
    assert ENGINE.apply(state, ANA, SAME_AGAIN, step_rng("s", 0)) == one
    other = ENGINE.apply(state, ANA, SAME_AGAIN, step_rng("s", 1))
    assert other.state.weights != one.state.weights


def test_a_noiseless_shot_stops_on_its_target() -> None:
    state = ENGINE.resolve_shot(game(), Noise()).state
    assert state.weights[0].d == pytest.approx(3_000, abs=5)
    assert state.weights[0].y == 0


# --- a turn and a frame ------------------------------------------------------------------------


def test_the_eighth_weight_ends_the_turn_and_scores_it() -> None:
    state = replace(game(), weights=board(T, D2, D2, ONE, ONE, ONE, A), shot=7)
    state = replace(state, aims=(replace(DEFAULT_AIM, release=9_000, target="off"),) * 2)
    step = ENGINE.resolve_shot(state, Noise())
    kinds = [type(e) for e in step.events]
    assert kinds == [WeightShot, TurnScored, TurnStarted]
    scored = step.events[1]
    assert isinstance(scored, TurnScored)
    assert (scored.result.points, scored.total, scored.players) == (10, 10, (ANA,))
    assert step.state.scores == (10, 0)
    assert step.state.history == (scored.result,)


def test_a_turn_that_scores_nothing_adds_nothing() -> None:
    step = finish(game(), D2, D2, ONE)
    assert step.state.scores == (0, 0)


# --- winning -----------------------------------------------------------------------------------


def test_51_reached_by_the_first_side_then_beaten_in_the_same_frame() -> None:
    state = scoring(game(), (45, 40))
    step = finish(state, *SEED_001)  # Ana: 55, the frame goes on
    assert TargetReached(0, 55, 51) in step.events
    assert ENGINE.outcome(step.state) is None and step.state.shooter == BOB
    step = finish(step.state, *BIG)  # Bob: 68 with the hammer
    assert step.state.winners == (1,)
    assert step.events[-1] == GameWon((1,), (BOB,), (55, 68), 0)
    outcome = ENGINE.outcome(step.state)
    assert outcome is not None
    assert outcome.places == {ANA: 2, BOB: 1} and outcome.scores == {ANA: 55, BOB: 68}


def test_the_first_to_51_wins_if_the_hammer_falls_short() -> None:
    step = finish(finish(scoring(game(), (45, 40)), *SEED_001).state, *SEED_001)
    assert step.state.scores == (55, 50) and step.state.winners == (0,)


def test_the_hammer_reaching_51_wins_at_once() -> None:
    state = finish(scoring(game(), (40, 45)), D2).state  # Ana scores nothing
    step = finish(state, *SEED_001)
    assert step.state.winners == (1,) and ENGINE.to_act(step.state) == frozenset()
    assert isinstance(step.events[-1], GameWon)


def test_a_tie_for_the_lead_plays_a_tie_frame_among_the_tied() -> None:
    """Decision: sides tied for the lead play further frames among themselves."""
    state = scoring(game((ANA, BOB, CY), sides=3), (45, 45, 20))
    state = finish(state, *SEED_001).state
    state = finish(state, *SEED_001).state
    step = finish(state, *BIG)  # Cy: 48, nowhere near
    assert TieFrame((0, 1), 2, 55) in step.events
    state = step.state
    assert state.contenders == (0, 1) and (state.frame, state.shooter) == (2, ANA)
    assert state.hammer == 1
    state = finish(state, *SEED_001).state  # 65
    assert state.shooter == BOB
    step = finish(state, D2)  # Bob scores nothing: Ana leads at the end of the frame
    assert step.state.winners == (0,)
    outcome = ENGINE.outcome(step.state)
    assert outcome is not None and outcome.places == {ANA: 1, BOB: 2, CY: 3}


def test_a_tie_frame_that_ties_again_plays_another() -> None:
    state = finish(finish(scoring(game(), (45, 45)), *SEED_001).state, *SEED_001).state
    step = finish(finish(state, *SEED_001).state, *SEED_001)
    assert TieFrame((0, 1), 3, 65) in step.events and not step.state.over


def test_a_frame_limit_ends_the_game_and_a_tie_shares_the_win() -> None:
    state = finish(game(frames=1), *SEED_001).state
    step = finish(state, *SEED_001)
    assert step.state.winners == (0, 1)
    outcome = ENGINE.outcome(step.state)
    assert outcome is not None and outcome.places == {ANA: 1, BOB: 1}


def test_a_frame_limit_counts_whole_frames() -> None:
    state = game(frames=2)
    for _ in range(3):
        state = finish(state, *SEED_001).state
    assert not state.over and state.frame == 2
    assert finish(state, T).state.winners == (0,)


# --- the Hickey jar ----------------------------------------------------------------------------


def test_each_player_of_a_side_that_scores_nothing_pays_the_hickey_stake() -> None:
    state = scoring(game((ANA, BOB, CY, DI), hickey=5), (40, 30))
    step = finish(state, T, S)  # a short weight voids it
    assert HickeyPaid((ANA, BOB), 10, 10) in step.events
    step = finish(step.state, D2)  # no 3: nothing
    assert HickeyPaid((CY, DI), 10, 20) in step.events
    step = finish(step.state, *BIG)
    assert not any(isinstance(e, HickeyPaid) for e in step.events)
    step = finish(step.state, *SEED_001)
    assert step.state.winners == (0,)
    assert step.events[-1] == GameWon((0,), (ANA, BOB), (68, 40), 20)  # they take the jar
    outcome = ENGINE.outcome(step.state)
    assert outcome is not None
    assert {p: s["hickeys"] for p, s in outcome.stats.items()} == {ANA: 1, BOB: 1, CY: 1, DI: 1}


def test_without_a_stake_there_is_no_jar() -> None:
    step = finish(game(), D2)
    assert not any(isinstance(e, HickeyPaid) for e in step.events)
    assert step.state.jar == 0


def test_hangers_are_counted_for_whoever_shot_them() -> None:
    state = scoring(game((ANA, BOB, CY, DI)), (45, 0))
    step = finish(state, H, T, T, T, C, A, A, A)  # weights 1-4 Ana's, 5-8 Bob's
    step = finish(step.state, D2)
    outcome = ENGINE.outcome(step.state)
    assert outcome is not None
    assert outcome.stats[ANA]["hangers"] == 1 and outcome.stats[BOB]["corner_hangers"] == 1


def test_the_state_round_trips_through_dump_and_load() -> None:
    state = ENGINE.resolve_shot(replace(game(hickey=2), weights=board(T, A), shot=2), Noise()).state
    assert ENGINE.load(ENGINE.dump(state)) == state
    with pytest.raises(ValueError):
        ENGINE.load({**ENGINE.dump(state), "v": 99})


def test_a_full_ai_game_ends_with_a_winner_past_the_target() -> None:
    state = game((ANA, -1))
    for n in range(3000):
        if state.over:
            break
        player = next(iter(ENGINE.to_act(state)))
        action = ENGINE.choose(state, player, Random(n))
        state = ENGINE.apply(state, player, action, step_rng("full", n)).state
    assert state.over and max(state.scores) >= 51
