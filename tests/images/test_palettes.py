"""Every picture goes out in its game's fixed palette (`images.common.fixed_palette`), made in
advance from sample pictures: over boards from seeded AI playouts, which the palettes were not
learnt from, the PNG a player gets must show what was drawn."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image, ImageChops

from bench.common import names, playout, seats, table_sizes
from rules.registry import ENGINES
from tests.games import TEST_SPECS

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


def states(game: str) -> list[Any]:
    """`BOARDS` states of a seeded AI game at each table size, evenly spread, and those its
    test spec's `palette_also` picks."""
    engine = ENGINES[game]
    also = TEST_SPECS[game].palette_also
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
        for drawn, png in TEST_SPECS[game].palette(state, who):
            errors = [a + b for a, b in zip(errors, error_histogram(drawn, png), strict=True)]
    pixels = sum(errors)
    mean = sum(off * count for off, count in enumerate(errors)) / pixels
    off_share = sum(errors[OFF + 1 :]) / pixels
    assert mean <= MEAN_ERROR, f"{game}: mean error {mean:.2f}"
    assert off_share <= OFF_SHARE, f"{game}: {off_share:.4%} of pixels off by more than {OFF}"
