"""Every picture goes out in its game's fixed palette (`images.common.fixed_palette`), made in
advance from sample pictures: over boards from seeded AI playouts, which the palettes were not
learnt from, the PNG a player gets must show what was drawn."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest
from PIL import Image, ImageChops

from bench.common import names, playout, seats, table_sizes
from cogs.risk.view import map_view
from images import cock_and_bull, hold_your_horses, horse_collar, risk, winners_circle
from rules.core import PlayerId
from rules.hold_your_horses.state import Phase as HorsesPhase
from rules.registry import ENGINES
from rules.winners_circle.state import Phase as CirclePhase

Names = Mapping[PlayerId, str]
Pictures = Iterator[tuple[Image.Image, bytes]]  # what was drawn, and the PNG sent for it

BOARDS = 16  # a game's states, spread over playouts at each table size

# Measured on these boards, as each pixel's largest difference over its three channels:
# - Pillow's octree, learning 256 colours for each picture (how boards were encoded before
#   fixed palettes): a mean of 0.82 (Horse Collar) to 1.71 (Hold Your Horses); off by more
#   than a shade (24, as tests/images/golden.py counts), at most 0.017 % of the pixels
#   (Winner's Circle).
# - The fixed palettes: a mean of 0.08 to 0.47, the flat colours being exact; off by more
#   than a shade, at most 0.007 % (Winner's Circle).
# - Bad palettes: without the pinned colours, a mean of 0.88 to 1.45 (the octree's); learnt
#   from a first board (no red chip yet), 0.67 % of Cock & Bull's pixels off by more than a
#   shade, by up to 87 (red shown as gold).
# The mean bound holds the flat colours exact; the share, every colour there (no more off
# than under the octree, with room for other boards).
MEAN_ERROR = 0.75
OFF = 24
OFF_SHARE = 0.0003


def _cock_and_bull(state: Any, who: Names) -> Pictures:
    yield cock_and_bull.render(state, who), cock_and_bull.render_png(state, who)


def _hold_your_horses(state: Any, who: Names) -> Pictures:
    yield hold_your_horses.render(state, who), hold_your_horses.render_png(state, who)
    if state.last_finished is not None:
        finished = hold_your_horses.render_finished(state, who)
        yield finished, hold_your_horses.render_finished_png(state, who)
    if state.phase is not HorsesPhase.OVER:  # over, the board is the grid
        grid = hold_your_horses.render_grid(state, who)
        yield grid, hold_your_horses.render_grid_png(state, who)


def _horse_collar(state: Any, who: Names) -> Pictures:
    yield horse_collar.render(state, who), horse_collar.render_png(state, who)


def _winners_circle(state: Any, who: Names) -> Pictures:
    yield winners_circle.render(state, who), winners_circle.render_png(state, who)
    if state.phase in (CirclePhase.RACE_OVER, CirclePhase.OVER):
        payout = winners_circle.render_payout(state, who)
        yield payout, winners_circle.render_payout_png(state, who)


def _risk(state: Any, who: Names) -> Pictures:
    view = map_view(state, who)
    yield risk.render(view), risk.render_png(view)


PICTURES: dict[str, Callable[[Any, Names], Pictures]] = {
    "cock_and_bull": _cock_and_bull,
    "hold_your_horses": _hold_your_horses,
    "horse_collar": _horse_collar,
    "winners_circle": _winners_circle,
    "risk": _risk,
}


def _race_over(state: Any) -> bool:
    return state.phase in (CirclePhase.RACE_OVER, CirclePhase.OVER)


# States to take besides the spread: those with a picture of their own.
ALSO: dict[str, Callable[[Any], bool]] = {"winners_circle": _race_over}


def states(game: str) -> list[Any]:
    """`BOARDS` states of a seeded AI game at each table size, evenly spread, and those `ALSO`
    picks."""
    engine = ENGINES[game]
    also = ALSO.get(game, lambda _state: False)
    picked = []
    for size in table_sizes(engine):
        plies = list(playout(engine, f"palette-{game}-{size}", size))
        spread = {len(plies) * i // BOARDS for i in range(BOARDS)}
        picked += [p.state for n, p in enumerate(plies) if n in spread or also(p.state)]
    return picked


def error_histogram(drawn: Image.Image, png: bytes) -> list[int]:
    """How many pixels of the PNG are off from the drawing by 0, 1, … 255 (each pixel's
    largest difference over its three channels)."""
    sent = Image.open(io.BytesIO(png)).convert("RGB")
    r, g, b = ImageChops.difference(drawn.convert("RGB"), sent).split()
    return ImageChops.lighter(ImageChops.lighter(r, g), b).histogram()


@pytest.mark.parametrize("game", ENGINES)
def test_the_png_shows_what_was_drawn(game: str) -> None:
    who = names(seats(16))
    errors = [0] * 256
    for state in states(game):
        for drawn, png in PICTURES[game](state, who):
            errors = [a + b for a, b in zip(errors, error_histogram(drawn, png), strict=True)]
    pixels = sum(errors)
    mean = sum(off * count for off, count in enumerate(errors)) / pixels
    off_share = sum(errors[OFF + 1 :]) / pixels
    assert mean <= MEAN_ERROR, f"{game}: mean error {mean:.2f}"
    assert off_share <= OFF_SHARE, f"{game}: {off_share:.4%} of pixels off by more than {OFF}"
