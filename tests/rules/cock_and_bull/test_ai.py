"""The Cock & Bull AI (rules/cock_and_bull/ai.py): its choices, and that they pay off."""

from __future__ import annotations

from dataclasses import replace
from random import Random
from typing import Any

import pytest

from rules.cock_and_bull import CockAndBull
from rules.cock_and_bull.actions import DECLINE, FLIP, POINT, REMOVE, ROLL, TAKE
from rules.cock_and_bull.state import EMPTY, CockAndBullState, Face, Phase
from rules.core import Action, setup_rng, step_rng

ENGINE = CockAndBull()
ANA, BOB = 1001, -1  # Ana against a bot seat
C, B, M = Face.COCK, Face.BULL, Face.MONKEY


def board(text: str) -> tuple[int, ...]:
    """`"AB. A. B"`: Bend, Field, Crown; A = seat 0, B = seat 1, . = empty."""
    return tuple({"A": 0, "B": 1, ".": EMPTY}[c] for c in text.replace(" ", ""))


def playing(spots: str, mantle: tuple[int, int] = (0, 0), **options: Any) -> CockAndBullState:
    state = ENGINE.initial_state((ANA, BOB), options, setup_rng("ai"))
    return replace(state, phase=Phase.ROLL, current=0, red=0, spots=board(spots), mantle=mantle)


def ai(state: CockAndBullState, player: int = ANA, seed: int = 0) -> Action:
    action = ENGINE.choose(state, player, Random(seed))
    assert action in ENGINE.legal_actions(state, player)
    return action


def after(state: CockAndBullState, dice: tuple[Face, Face]) -> CockAndBullState:
    return ENGINE.resolve_roll(state, dice).state


# --- its choices -----------------------------------------------------------------------------


@pytest.mark.parametrize(("spots", "dice"), [("B.. .. .", (C, C)), ("... B. .", (B, B))])
def test_the_ai_flips_rather_than_places(spots: str, dice: tuple[Face, Face]) -> None:
    state = after(playing(spots), dice)
    assert state.phase is Phase.PLACE_OR_FLIP
    assert ai(state) == FLIP


@pytest.mark.parametrize("mantle", [0, 20, 34])
def test_the_ai_removes_a_chip_rather_than_take_a_point(mantle: int) -> None:
    state = after(playing("B.. .. .", mantle=(mantle, 0)), (C, B))
    assert state.phase is Phase.REMOVE_OR_POINT
    assert ai(state) == REMOVE


def test_the_ai_takes_the_point_when_it_pegs_out() -> None:
    state = after(playing("B.. .. .", mantle=(35, 0)), (C, B))
    assert ai(state) == POINT
    step = ENGINE.apply(state, ANA, POINT, step_rng("ai", 0))
    assert ENGINE.outcome(step.state) is not None  # and that wins


@pytest.mark.parametrize(
    ("spots", "dice", "points"),
    [("AAA A. .", (C, C), 2), ("AAA AA .", (B, B), 3), ("A.. AA A", (M, M), 6)],
)
def test_with_optional_points_the_ai_declines_to_keep_a_flying_monkey_alive(
    spots: str, dice: tuple[Face, Face], points: int
) -> None:
    """Peg still off and four or more chips in: 54 is near, so points are refused."""
    state = after(playing(spots, optional_points=True), dice)
    assert state.phase is Phase.TAKE_OR_DECLINE and state.pending_points == points
    assert ai(state) == DECLINE


@pytest.mark.parametrize(
    ("spots", "mantle"),
    [
        ("AAA .. .", 0),  # only three chips in: the Flying Monkey is far off
        ("AAA A. .", 1),  # the peg is already on the board: no Flying Monkey to keep
        ("AAA AB B", 30),
    ],
)
def test_with_optional_points_the_ai_otherwise_takes_points(spots: str, mantle: int) -> None:
    state = after(playing(spots, mantle=(mantle, 0), optional_points=True), (C, C))
    assert state.phase is Phase.TAKE_OR_DECLINE
    assert ai(state) == TAKE


@pytest.mark.parametrize("mantle", [33, 34, 35])
def test_with_optional_points_the_ai_takes_points_that_peg_out(mantle: int) -> None:
    state = after(playing("AAA AA .", mantle=(mantle, 0), optional_points=True), (B, B))
    assert ai(state) == TAKE
    step = ENGINE.apply(state, ANA, TAKE, step_rng("ai", 0))
    assert ENGINE.outcome(step.state) is not None


def test_with_optional_points_the_ai_asks_for_the_winning_point_and_takes_it() -> None:
    state = after(playing("AAA AB .", mantle=(35, 0), optional_points=True), (C, B))
    assert ai(state) == POINT
    state = ENGINE.apply(state, ANA, POINT, step_rng("ai", 0)).state
    assert ai(state) == TAKE


def test_the_ai_rolls_when_rolling_is_all_there_is() -> None:
    state = ENGINE.initial_state((ANA, BOB), {}, setup_rng("ai"))
    assert ai(state, ANA) == ROLL and ai(state, BOB) == ROLL
    assert ai(playing("... .. .")) == ROLL


def test_the_ai_chooses_a_colour_when_it_wins_the_start_roll() -> None:
    state = ENGINE.initial_state((ANA, BOB), {}, setup_rng("ai"))
    state = ENGINE.resolve_start_die(state, 0, C).state
    state = ENGINE.resolve_start_die(state, 1, M).state
    assert state.phase is Phase.CHOOSE_COLOUR
    colours = {ai(state, BOB, seed).arg for seed in range(20)}
    assert colours <= {"red", "black"} and colours


@pytest.mark.parametrize(
    "options",
    [{}, {"optional_points": True}, {"optional_points": True, "dice": "weighted", "best_of": 3}],
)
def test_the_ai_is_legal_in_every_phase_it_meets(options: dict[str, Any]) -> None:
    """Both seats played by the AI; every phase turns up, and every choice is legal."""
    phases: set[Phase] = set()
    for i in range(20):
        seed = f"ai-legal-{i}"
        state = ENGINE.initial_state((ANA, BOB), options, setup_rng(seed))
        for n in range(5000):
            acting = ENGINE.to_act(state)
            if not acting:
                break
            phases.add(state.phase)
            for player in acting:
                ai(state, player, n)
            player = min(acting)
            action = ENGINE.choose(state, player, Random(n))
            state = ENGINE.apply(state, player, action, step_rng(seed, n)).state
        assert ENGINE.outcome(state) is not None
    expected = set(Phase) - {Phase.OVER}
    if not options.get("optional_points"):
        expected.discard(Phase.TAKE_OR_DECLINE)
    assert phases == expected


# --- a measured claim ------------------------------------------------------------------------

GAMES = 200
# Measured: the AI won 143 of these 200 seeded games (71.5%) against a player choosing uniformly
# at random (other seed sets of 200: 141-153); over 4000 games it won 71.6%, so 200 games have
# a standard error of ~3.2 points. Without optional_points, where the only choices are
# flip/place and remove/point, it wins only ~58%. The threshold sits more than three standard
# errors below the long-run rate.
WIN_RATE_THRESHOLD = 0.60


def ai_beats_random(seed: str, ai_seat: int) -> bool:
    state = ENGINE.initial_state((ANA, BOB), {"optional_points": True}, setup_rng(seed))
    picker = Random(f"{seed}:random")
    n = 0
    while acting := ENGINE.to_act(state):
        player = min(acting)
        if state.seat_of(player) == ai_seat:
            action = ENGINE.choose(state, player, Random(f"{seed}:ai:{n}"))
        else:
            action = picker.choice(list(ENGINE.legal_actions(state, player)))
        state = ENGINE.apply(state, player, action, step_rng(seed, n)).state
        n += 1
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    return outcome.places[state.players[ai_seat]] == 1


def test_the_ai_beats_a_random_player_with_optional_points() -> None:
    wins = sum(ai_beats_random(f"ai-vs-random-{i}", i % 2) for i in range(GAMES))
    assert wins / GAMES > WIN_RATE_THRESHOLD, f"the AI won {wins} of {GAMES}"
