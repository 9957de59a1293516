"""A season's card: its name and dates, then each game's final top ten, as one picture.

The words come worded already (the caller speaks the server's language); this only draws.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from images.common import RGB, draw_text, drawable, fit_text

WIDTH = 900
MARGIN = 36
TITLE_SIZE = 40
HEADING_SIZE = 30
LINE_SIZE = 24
LINE = 36
BACKGROUND: RGB = (32, 34, 40)
GOLD: RGB = (244, 196, 48)
PLAIN: RGB = (236, 236, 236)
DIM: RGB = (170, 174, 184)


@dataclass(frozen=True)
class CardLine:
    """One line of a game's table: the place, the player's name and their figures."""

    place: str
    name: str
    figures: str


@dataclass(frozen=True)
class CardGame:
    """One game's final table on the card: its title, colour and top lines."""

    title: str
    colour: int
    lines: Sequence[CardLine]
    empty: str  # what the card says when nobody is ranked


def render_card(title: str, subtitle: str, games: Sequence[CardGame]) -> bytes:
    """The card as a PNG."""
    height = (
        MARGIN * 2
        + TITLE_SIZE
        + LINE
        + sum(HEADING_SIZE + 24 + LINE * max(1, len(g.lines)) + 20 for g in games)
    )
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    inner = WIDTH - 2 * MARGIN
    y = MARGIN + TITLE_SIZE // 2
    draw_text(
        image,
        (WIDTH // 2, y),
        fit_text(drawable(title), TITLE_SIZE, inner, bold=True),
        size=TITLE_SIZE,
        fill=GOLD,
        bold=True,
    )
    y += LINE
    draw_text(
        image,
        (WIDTH // 2, y),
        fit_text(drawable(subtitle), LINE_SIZE, inner),
        size=LINE_SIZE,
        fill=DIM,
        outline=None,
    )
    for game in games:
        y += LINE + 8
        colour = ((game.colour >> 16) & 255, (game.colour >> 8) & 255, game.colour & 255)
        draw_text(
            image,
            (MARGIN, y),
            drawable(game.title),
            size=HEADING_SIZE,
            fill=colour,
            bold=True,
            anchor="lm",
        )
        y += 12
        if not game.lines:
            y += LINE
            draw_text(
                image,
                (MARGIN, y),
                drawable(game.empty),
                size=LINE_SIZE,
                fill=DIM,
                anchor="lm",
                outline=None,
            )
        for line in game.lines:
            y += LINE
            draw_text(
                image, (MARGIN, y), line.place, size=LINE_SIZE, fill=GOLD, anchor="lm", outline=None
            )
            name = fit_text(drawable(line.name) or "?", LINE_SIZE, inner * 0.55)
            draw_text(
                image, (MARGIN + 60, y), name, size=LINE_SIZE, fill=PLAIN, anchor="lm", outline=None
            )
            draw_text(
                image,
                (WIDTH - MARGIN, y),
                drawable(line.figures),
                size=LINE_SIZE,
                fill=DIM,
                anchor="rm",
                outline=None,
            )
        y += 20
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()
