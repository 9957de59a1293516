"""Cock & Bull golden pictures (see tests/images/golden.py)."""

from __future__ import annotations

from images.cock_and_bull import render_png
from rules.cock_and_bull.actions import POINT, choose_colour
from rules.cock_and_bull.engine import CockAndBull
from rules.cock_and_bull.state import CockAndBullState, Colour, Face
from rules.core import setup_rng, step_rng
from tests.images.golden import check

NAMES = {11: "Ana", 22: "Leo"}


def mid_game() -> CockAndBullState:
    """Ana (red): two Bend chips and one Field chip. Leo (black): the Crown and 1 point, now
    choosing to place or flip on the Field."""
    engine = CockAndBull()
    s = engine.initial_state([11, 22], {}, setup_rng("golden"))
    s = engine.resolve_start_die(s, 0, Face.BULL).state
    s = engine.resolve_start_die(s, 1, Face.COCK).state
    s = engine.apply(s, 11, choose_colour(Colour.RED), step_rng("g", 0)).state
    for dice in [
        (Face.COCK, Face.COCK),
        (Face.COCK, Face.COCK),
        (Face.BULL, Face.BULL),
        (Face.COCK, Face.MONKEY),
        (Face.MONKEY, Face.MONKEY),
        (Face.COCK, Face.BULL),
        (Face.BULL, Face.BULL),
        (Face.BULL, Face.BULL),
    ]:
        s = engine.resolve_roll(s, dice).state
        if s.phase.value == "remove_or_point":
            s = engine.apply(s, 22, POINT, step_rng("g", 1)).state
    return s


def test_initial_board_matches_the_golden() -> None:
    state = CockAndBull().initial_state([11, 22], {}, setup_rng("golden"))
    check("cock_and_bull_initial", render_png(state, NAMES))


def test_mid_game_board_matches_the_golden() -> None:
    check("cock_and_bull_mid", render_png(mid_game(), NAMES))
