"""The simulation (docs/rules/horse_collar.md, "Physics"): friction, collisions, falls."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.horse_collar.physics import (
    CONTACT,
    GRAVITY,
    RESTITUTION,
    SAMPLE_DT,
    simulate,
    stopping_distance,
)

LENGTH, HALF_WIDTH = 248.0, 10.0
START = LENGTH - 1.156
MEDIUM = 0.05 * GRAVITY


def launch(distance: float, decel: float = MEDIUM) -> float:
    return math.sqrt(2 * decel * distance)


def heading(path: tuple[tuple[float, float], ...], frm: int, to: int) -> float:
    """Direction of travel between two samples, degrees from straight down the board."""
    (d0, y0), (d1, y1) = path[frm], path[to]
    return math.degrees(math.atan2(y1 - y0, d0 - d1))


@pytest.mark.parametrize("mu", [0.03, 0.05, 0.08])
@pytest.mark.parametrize("distance", [10.0, 75.0, 200.0, 246.0])
def test_a_lone_weight_stops_where_v_squared_over_2_mu_g_says(mu: float, distance: float) -> None:
    decel = mu * GRAVITY
    speed = launch(distance, decel)
    assert stopping_distance(speed, decel) == pytest.approx(distance)
    sim = simulate([(START, 0.0)], 0, (-speed, 0.0), length=LENGTH, half_width=10, decel=decel)
    assert sim.rests[0][0] == pytest.approx(START - distance, abs=0.01)
    assert sim.rests[0][1] == 0.0
    assert sim.fallen == (False,)


def test_launch_speed_for_20_ft_at_medium_is_about_2_45_m_per_s() -> None:
    assert launch(240.0) * 0.0254 == pytest.approx(2.45, abs=0.03)


def test_a_head_on_hit_passes_the_motion_on() -> None:
    """Equal masses, e = 0.92: at contact the striker keeps 4% of its speed, the struck
    weight takes 96%, and each then slides v^2 / (2 mu g)."""
    struck_at, alone_stop = 50.0, 40.0
    sim = simulate(
        [(START, 0.0), (struck_at, 0.0)],
        0,
        (-launch(START - alone_stop), 0.0),
        length=LENGTH,
        half_width=HALF_WIDTH,
        decel=MEDIUM,
    )
    contact = struck_at + CONTACT  # the striker's centre when they touch
    at_contact = launch(contact - alone_stop)
    striker, struck = sim.rests
    kept = stopping_distance((1 - RESTITUTION) / 2 * at_contact, MEDIUM)
    passed = stopping_distance((1 + RESTITUTION) / 2 * at_contact, MEDIUM)
    assert striker == pytest.approx((contact - kept, 0.0), abs=0.01)
    assert struck == pytest.approx((struck_at - passed, 0.0), abs=0.01)
    assert passed > 10 * kept


def test_a_glancing_hit_splits_the_motion_at_the_right_angles() -> None:
    """A half-ball hit (centres offset by one radius): the struck weight leaves along the line
    of centres, 30 degrees off the line of the shot, and the striker goes off the other way,
    close to a right angle from it (exactly 90 only for a perfectly elastic hit)."""
    sim = simulate(
        [(START, 0.0), (150.0, CONTACT / 2)],
        0,
        (-launch(200.0), 0.0),
        length=LENGTH,
        half_width=HALF_WIDTH,
        decel=MEDIUM,
    )
    striker_path, struck_path = sim.paths
    assert striker_path is not None and struck_path is not None
    hit = next(k for k, p in enumerate(struck_path) if p != struck_path[0])
    struck_dir = heading(struck_path, hit, hit + 3)
    striker_dir = heading(striker_path, hit + 1, hit + 3)
    assert struck_dir == pytest.approx(30.0, abs=0.5)
    # The striker keeps its motion across the line of centres (sin 30 of it) and 4% along it.
    along, across = 0.04 * math.cos(math.radians(30)), math.sin(math.radians(30))
    expected = -(90 - 30 - math.degrees(math.atan2(along, across)))
    assert striker_dir == pytest.approx(expected, abs=0.5)
    assert 80 < struck_dir - striker_dir < 90


def test_a_weight_whose_centre_crosses_a_side_edge_falls() -> None:
    across = 0.3  # degrees toward the right: it drifts over the edge on the way down
    speed = launch(120.0)
    sim = simulate(
        [(START, 9.4)],
        0,
        (-speed * math.cos(math.radians(across)), speed * math.sin(math.radians(across))),
        length=LENGTH,
        half_width=HALF_WIDTH,
        decel=MEDIUM,
    )
    assert sim.fallen == (True,)
    assert sim.rests[0][1] == pytest.approx(HALF_WIDTH, abs=0.05)  # it fell right there
    assert sim.fell_at[0] is not None


def test_a_weight_overhanging_a_side_with_its_centre_on_the_board_stays() -> None:
    sim = simulate(
        [(START, 9.9)], 0, (-launch(120.0), 0.0), length=LENGTH, half_width=10, decel=MEDIUM
    )
    assert sim.fallen == (False,)
    assert sim.rests[0] == pytest.approx((START - 120.0, 9.9), abs=0.01)


def test_a_weight_sliding_past_the_end_falls_and_one_stopping_short_of_it_hangs() -> None:
    past = simulate(
        [(START, 0.0)], 0, (-launch(START + 1), 0.0), length=LENGTH, half_width=10, decel=MEDIUM
    )
    assert past.fallen == (True,)
    hang = simulate(
        [(START, 0.0)], 0, (-launch(START - 0.5), 0.0), length=LENGTH, half_width=10, decel=MEDIUM
    )
    assert hang.fallen == (False,)
    assert hang.rests[0][0] == pytest.approx(0.5, abs=0.01)


def test_fallen_weights_take_no_part() -> None:
    sim = simulate(
        [(50.0, 0.0), (START, 0.0)],
        1,
        (-launch(START - 20.0), 0.0),
        length=LENGTH,
        half_width=HALF_WIDTH,
        decel=MEDIUM,
        fallen=[True, False],
    )
    assert sim.rests[1][0] == pytest.approx(20.0, abs=0.01)
    assert sim.paths[0] is None


def test_paths_are_sampled_evenly_and_end_where_the_weights_rest() -> None:
    sim = simulate(
        [(40.0, 0.5), (START, 0.0)],
        1,
        (-launch(START - 20.0), 0.0),
        length=LENGTH,
        half_width=HALF_WIDTH,
        decel=MEDIUM,
    )
    still, shot = sim.paths[0], sim.paths[1]
    assert still is not None and shot is not None
    assert len(still) == len(shot)
    assert (len(shot) - 1) * SAMPLE_DT >= sim.steps * 0.002 - 1e-9
    assert shot[0] == (START, 0.0) and still[0] == (40.0, 0.5)
    assert shot[-1] == sim.rests[1] and still[-1] == sim.rests[0]
    # Down the board, never backwards, until the contact.
    ds = [p[0] for p in shot]
    first_move = next(k for k, p in enumerate(still) if p != still[0])
    assert ds[:first_move] == sorted(ds[:first_move], reverse=True)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    speed=st.floats(min_value=20.0, max_value=90.0),
    across=st.floats(min_value=-0.02, max_value=0.02),
    others=st.lists(
        st.tuples(
            st.floats(min_value=3.0, max_value=150.0), st.floats(min_value=-8.0, max_value=8.0)
        ),
        max_size=6,
    ),
)
def test_same_inputs_give_identical_results_and_weights_never_overlap(
    speed: float, across: float, others: list[tuple[float, float]]
) -> None:
    board: list[tuple[float, float]] = []
    for p in others:  # a legal board: no two weights overlapping
        if all(math.dist(p, q) >= CONTACT for q in board):
            board.append(p)
    positions = [*board, (START, 0.0)]
    args = dict(length=LENGTH, half_width=HALF_WIDTH, decel=MEDIUM)
    velocity = (-speed, speed * across)
    first = simulate(positions, len(board), velocity, **args)  # type: ignore[arg-type]
    again = simulate(positions, len(board), velocity, **args)  # type: ignore[arg-type]
    assert first == again
    resting = [p for p, fell in zip(first.rests, first.fallen, strict=True) if not fell]
    for i, p in enumerate(resting):
        for q in resting[i + 1 :]:
            assert math.dist(p, q) >= CONTACT - 0.01
