"""A tournament's standings as one picture: its title, then the leading entrants with their
rank, name, points, Buchholz and rounds played, the podium in its colours, and how many more
there are below.

The names come worded already (a forgotten member's "Former player" by the caller); the
columns' headings are worded here, in the event's language.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from PIL import Image, ImageDraw

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
from images.common import RGB, draw_text, drawable, fit_text
from images.words import _, decimal, in_language, ngettext

TOP = 16  # entrants drawn; the picture says how many more there are
WIDTH = 720  # a phone shows it at 360: half size, the headings' 20 px at 10
MARGIN = 28
TITLE_SIZE = 34
HEADING_SIZE = 20
STRIPE: RGB = (40, 43, 51)
PODIUM: dict[int, RGB] = {1: GOLD, 2: (160, 190, 230), 3: (205, 127, 50)}
# Right edges of the figures' columns, and where the name starts and must end.
RANK_RIGHT = MARGIN + 44
NAME_LEFT = MARGIN + 60
NAME_RIGHT = 416
POINTS_RIGHT = 490
BUCHHOLZ_RIGHT = 600
PLAYED_RIGHT = WIDTH - MARGIN


class Ranked(Protocol):
    """What the picture reads of an entrant's standing (`bot.tournament.scoring.Standing`)."""

    @property
    def rank(self) -> int:
        """1-based."""

    @property
    def points(self) -> float:
        """Tournament points."""

    @property
    def buchholz(self) -> float:
        """The sum of their opponents' points."""

    @property
    def played(self) -> int:
        """Rounds played, byes included."""


def render_standings(
    rows: Sequence[tuple[Ranked, str]], *, title: str, language: str, top: int = TOP
) -> bytes:
    """The standings as a PNG: `rows` are each entrant's standing and display name, leader
    first; the first `top` are drawn. Worded in `language`."""
    with in_language(language):
        return _render(rows, title, top)


def _render(rows: Sequence[tuple[Ranked, str]], title: str, top: int) -> bytes:
    shown = rows[:top]
    more = len(rows) - len(shown)
    height = MARGIN * 2 + TITLE_SIZE + LINE * (1 + max(1, len(shown)) + (1 if more else 0)) + 12
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    y = MARGIN + TITLE_SIZE // 2
    draw_title(image, y, title, size=TITLE_SIZE, margin=MARGIN)
    y += TITLE_SIZE // 2 + LINE // 2 + 12
    headings = [
        (NAME_LEFT, _("Player"), "lm"),
        (POINTS_RIGHT, _("Points"), "rm"),
        (BUCHHOLZ_RIGHT, "Buchholz", "rm"),
        (PLAYED_RIGHT, _("Rounds"), "rm"),
    ]
    for x, words, anchor in headings:
        draw_text(image, (x, y), words, size=HEADING_SIZE, fill=DIM, anchor=anchor, outline=None)
    if not shown:
        y += LINE
        draw_line(image, (NAME_LEFT, y), _("No entrants yet."), DIM)
    for n, (standing, name) in enumerate(shown):
        y += LINE
        if n % 2 == 0:
            ImageDraw.Draw(image).rectangle(
                (MARGIN // 2, y - LINE // 2, WIDTH - MARGIN // 2, y + LINE // 2 - 1), fill=STRIPE
            )
        colour = PODIUM.get(standing.rank, PLAIN)
        cells = [
            (RANK_RIGHT, f"{standing.rank}.", "rm", colour),
            (
                NAME_LEFT,
                fit_text(drawable(name) or "?", LINE_SIZE, NAME_RIGHT - NAME_LEFT),
                "lm",
                colour,
            ),
            (POINTS_RIGHT, decimal(standing.points, "0.#"), "rm", PLAIN),
            (BUCHHOLZ_RIGHT, decimal(standing.buchholz, "0.#"), "rm", DIM),
            (PLAYED_RIGHT, str(standing.played), "rm", DIM),
        ]
        for x, words, anchor, fill in cells:
            draw_line(image, (x, y), words, fill, anchor)
    if more:
        y += LINE
        words = ngettext("and {count} more entrant", "and {count} more entrants", more)
        draw_line(image, (NAME_LEFT, y), words.format(count=more), DIM)
    return card_png(image)
