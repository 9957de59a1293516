"""A season's card: its name and dates, then each game's final top ten, as one picture.

The words come worded already (the caller speaks the server's language); this only draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from images.card import (
    BACKGROUND,
    DIM,
    GOLD,
    LINE,
    LINE_SIZE,
    PLAIN,
    card_png,
    draw_line,
    draw_title,
)
from images.common import draw_text, drawable, fit_text

WIDTH = 900
MARGIN = 36
TITLE_SIZE = 40
HEADING_SIZE = 30


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
    draw_title(image, y, title, size=TITLE_SIZE, margin=MARGIN)
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
            draw_line(image, (MARGIN, y), drawable(game.empty), DIM)
        for line in game.lines:
            y += LINE
            draw_line(image, (MARGIN, y), line.place, GOLD)
            name = fit_text(drawable(line.name) or "?", LINE_SIZE, inner * 0.55)
            draw_line(image, (MARGIN + 60, y), name, PLAIN)
            draw_line(image, (WIDTH - MARGIN, y), drawable(line.figures), DIM, "rm")
        y += 20
    return card_png(image)
