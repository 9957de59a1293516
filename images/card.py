"""The look the ranked cards share (a season's card, a tournament's standings): their
colours, a centred title, a line of words and the PNG they are sent as."""

from __future__ import annotations

import io

from PIL import Image

from images.common import RGB, Point, draw_text, drawable, fit_text

LINE_SIZE = 24  # a line's words
LINE = 36  # a line's height
BACKGROUND: RGB = (32, 34, 40)
GOLD: RGB = (244, 196, 48)
PLAIN: RGB = (236, 236, 236)
DIM: RGB = (170, 174, 184)


def draw_title(image: Image.Image, y: int, title: str, *, size: int, margin: int) -> None:
    """`title` in gold, bold and centred at height `y`, cut to fit inside the margins."""
    width = image.width
    draw_text(
        image,
        (width // 2, y),
        fit_text(drawable(title), size, width - 2 * margin, bold=True),
        size=size,
        fill=GOLD,
        bold=True,
    )


def draw_line(image: Image.Image, xy: Point, words: str, fill: RGB, anchor: str = "lm") -> None:
    """`words` of a line at `xy`, without the outline boards use (a card's ground is plain)."""
    draw_text(image, xy, words, size=LINE_SIZE, fill=fill, anchor=anchor, outline=None)


def card_png(image: Image.Image) -> bytes:
    """The card as an optimised PNG."""
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()
