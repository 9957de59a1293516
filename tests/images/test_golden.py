"""Golden pictures: a board that changes by more than a few pixels must be looked at again.

Regenerate after a deliberate change with `PARLOUR_REGOLD=1 pytest tests/images`, view the
PNGs in tests/images/golden/, and commit them.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

from PIL import Image, ImageChops

from images.cock_and_bull import render_png
from rules.cock_and_bull.engine import CockAndBull
from rules.cock_and_bull.state import CockAndBullState, Colour, Face
from rules.core import Action, setup_rng, step_rng

GOLDEN = Path(__file__).parent / "golden"
NAMES = {11: "Ana", 22: "Leo"}
MAX_DIFFERENT_PIXELS = 50  # anti-aliasing may move by a pixel between Pillow builds


def mid_game() -> CockAndBullState:
    """Ana (red): two Bend chips and one Field chip. Leo (black): the Crown and 1 point, now
    choosing to place or flip on the Field."""
    engine = CockAndBull()
    s = engine.initial_state([11, 22], {}, setup_rng("golden"))
    s = engine.resolve_start_die(s, 0, Face.BULL).state
    s = engine.resolve_start_die(s, 1, Face.COCK).state
    s = engine.apply(s, 11, Action("colour", Colour.RED.value), step_rng("g", 0)).state
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
            s = engine.apply(s, 22, Action("point"), step_rng("g", 1)).state
    return s


def check(name: str, png: bytes) -> None:
    path = GOLDEN / f"{name}.png"
    if os.environ.get("PARLOUR_REGOLD"):
        path.write_bytes(png)
    rendered = Image.open(io.BytesIO(png)).convert("RGB")
    golden = Image.open(path).convert("RGB")
    assert rendered.size == golden.size
    diff = ImageChops.difference(rendered, golden).convert("L")
    changed = sum(diff.histogram()[25:])  # pixels off by more than a shade
    assert changed <= MAX_DIFFERENT_PIXELS, f"{name}: {changed} pixels differ from the golden"


def test_initial_board_matches_the_golden() -> None:
    state = CockAndBull().initial_state([11, 22], {}, setup_rng("golden"))
    check("cock_and_bull_initial", render_png(state, NAMES))


def test_mid_game_board_matches_the_golden() -> None:
    check("cock_and_bull_mid", render_png(mid_game(), NAMES))
