"""Helpers shared by every game's renderer: fonts, palette, legible text, sprites, PNG."""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFont

from images import png

RGB = tuple[int, int, int]
Point = tuple[float, float]

# A dark card with light text: it keeps its contrast in Discord's dark and light themes alike.
BACKGROUND: RGB = (28, 32, 44)
PANEL: RGB = (40, 46, 62)
PANEL_EDGE: RGB = (70, 78, 100)
TEXT: RGB = (242, 242, 246)
MUTED: RGB = (170, 178, 196)
HIGHLIGHT: RGB = (255, 212, 59)  # whose turn it is, and the winner
OUTLINE: RGB = (10, 12, 18)
CHIP_RED: RGB = (222, 45, 52)
CHIP_RED_RIM: RGB = (255, 150, 150)
CHIP_BLACK: RGB = (18, 18, 20)
CHIP_BLACK_RIM: RGB = (236, 236, 240)  # a light rim, or black would vanish on dark ground
NEUTRAL: RGB = (150, 150, 158)  # a seat before it has a colour

FONTS = Path(__file__).parent / "fonts"  # bundled font files, with their licence

TEXT_MIN = 18  # smaller text is unreadable in Discord's scaled-down preview
PHONE_WIDTH = 360  # pixels: the width Discord gives a picture on a phone
PHONE_TEXT = 7  # pixels at that width: the smallest text a board may show there
_RING = 2  # text outline thickness, pixels


@functools.cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled scalable font (Aileron), so no machine needs system fonts.

    It has no bold face: `draw_text(..., bold=True)` thickens the regular one. It has only
    the ASCII letters: see `fallback_font` for the others.
    """
    loaded = ImageFont.load_default(size=size)
    if not isinstance(loaded, ImageFont.FreeTypeFont):  # Pillow built without FreeType
        raise RuntimeError("Pillow needs FreeType to draw board text")
    return loaded


@functools.cache
def fallback_font(size: int) -> ImageFont.FreeTypeFont:
    """Lato (bundled in `images/fonts/`, under the SIL Open Font License), for the letters
    Aileron lacks: the accents, ñ, ¿ and ¡ of a Spanish board, a name's é. A sans of much the
    same weight and height."""
    return ImageFont.truetype(str(FONTS / "Lato-Regular.ttf"), size)


def _bold_shift(size: int) -> int:
    return max(1, round(size / 20))


def _runs(text: str, size: int) -> list[tuple[str, ImageFont.FreeTypeFont]]:
    """`text` cut into runs drawn with one font each: Aileron, or the fallback for the
    letters Aileron lacks (spaces go with the run they are in)."""
    runs: list[tuple[str, ImageFont.FreeTypeFont]] = []
    for char in text:
        face = font(size) if char.isspace() or _has_glyph(char) else fallback_font(size)
        if runs and (runs[-1][1] is face or char.isspace()):
            runs[-1] = (runs[-1][0] + char, runs[-1][1])
        else:
            runs.append((char, face))
    return runs


def smallest_text(width: int) -> int:
    """The smallest text size of a picture `width` pixels wide: `PHONE_TEXT` pixels once a
    phone scales it to `PHONE_WIDTH` (20 on a 1,000 px board)."""
    return max(TEXT_MIN, math.ceil(PHONE_TEXT * width / PHONE_WIDTH))


@functools.lru_cache(maxsize=4096)
def text_width(text: str, size: int, *, bold: bool = False) -> float:
    """The drawn width of `text` (bold is a pixel or two wider). Kept: FreeType measures a
    line in about 0.1 ms, and a board measures the same names and labels at every move."""
    width = sum(face.getlength(run) for run, face in _runs(text, size))
    return width + (_bold_shift(size) if bold else 0)


def ink_width(text: str, size: int, *, bold: bool = False) -> int:
    """The width of `text`'s letters as drawn, without the room `text_width` leaves either
    side of them or the outline: what must fit where a word has no room to spare."""
    mask, _ring, _corner = _text_masks(text, size, "mm", bold, True)  # as `draw_text` draws it
    box = mask.getbbox()
    return 0 if box is None else box[2] - box[0]


@functools.lru_cache(maxsize=2048)
def _text_masks(
    text: str, size: int, anchor: str, bold: bool, outlined: bool
) -> tuple[Image.Image, Image.Image | None, tuple[int, int]]:
    """Coverage masks for the letters and for their outline, and where they go relative to
    the anchor point. FreeType is the slow part of a render (and its stroker slower still),
    so each text is rasterised once, thickened and outlined with cheap filters, and kept:
    names, prompts and numbers come back on every board of a game."""
    pad = _RING + _bold_shift(size)
    runs = _runs(text, size)
    if all(face is font(size) for _run, face in runs):  # ASCII: as before, in Aileron alone
        face = font(size)
        left, top, right, bottom = (math.floor(v) for v in face.getbbox(text, anchor=anchor))
        mask = Image.new("L", (right - left + 1 + 2 * pad, bottom - top + 1 + 2 * pad), 0)
        ImageDraw.Draw(mask).text((pad - left, pad - top), text, font=face, fill=255, anchor=anchor)
    else:
        mask, (left, top) = _mixed_mask(runs, size, anchor, pad)
    letters = mask
    for shift in range(1, _bold_shift(size) + 1 if bold else 1):
        # There is no bold face: strike the letters again, shifted a pixel at a time.
        mask = ImageChops.lighter(mask, ImageChops.offset(letters, shift, 0))
    ring = dilated(mask, _RING) if outlined else None
    return mask, ring, (left - pad, top - pad)


def dilated(mask: Image.Image, reach: int) -> Image.Image:
    """`mask` grown by `reach` pixels every way, as `ImageFilter.MaxFilter(2 * reach + 1)`
    grows it, a row and then a column at a time: the same pixels in an eighth of the time.
    The mask must be blank within `reach` of its edges (the shifts wrap round)."""
    across = mask
    for shift in (*range(-reach, 0), *range(1, reach + 1)):
        across = ImageChops.lighter(across, ImageChops.offset(mask, shift, 0))
    grown = across
    for shift in (*range(-reach, 0), *range(1, reach + 1)):
        grown = ImageChops.lighter(grown, ImageChops.offset(across, 0, shift))
    return grown


def _mixed_mask(
    runs: Sequence[tuple[str, ImageFont.FreeTypeFont]], size: int, anchor: str, pad: int
) -> tuple[Image.Image, tuple[int, int]]:
    """The letters of a line drawn in more than one font, on their common baseline, placed
    per `anchor` as Aileron would place the line; and the mask's corner from the anchor."""
    primary = font(size)
    horizontal, vertical = anchor[0], anchor[1]
    width = sum(face.getlength(run) for run, face in runs)
    x = {"l": 0.0, "m": -width / 2, "r": -width}.get(horizontal, 0.0)
    # Where the baseline lies from the anchor point, by Aileron's own metrics.
    baseline = primary.getbbox("x", anchor="l" + vertical)[1] - primary.getbbox("x", anchor="ls")[1]
    placed = []
    for run, face in runs:
        placed.append((x, run, face))
        x += face.getlength(run)
    boxes = [face.getbbox(run, anchor="ls") for _x, run, face in placed]
    left = math.floor(min(x0 + b[0] for (x0, _r, _f), b in zip(placed, boxes, strict=True)))
    right = math.ceil(max(x0 + b[2] for (x0, _r, _f), b in zip(placed, boxes, strict=True)))
    top = math.floor(baseline + min(b[1] for b in boxes))
    bottom = math.ceil(baseline + max(b[3] for b in boxes))
    mask = Image.new("L", (right - left + 1 + 2 * pad, bottom - top + 1 + 2 * pad), 0)
    draw = ImageDraw.Draw(mask)
    for x0, run, face in placed:
        at = (pad - left + x0, pad - top + baseline)
        draw.text(at, run, font=face, fill=255, anchor="ls")
    return mask, (left, top)


def draw_text(
    image: Image.Image,
    xy: Point,
    text: str,
    *,
    size: int,
    fill: RGB = TEXT,
    bold: bool = False,
    anchor: str = "mm",
    outline: RGB | None = OUTLINE,
) -> None:
    """Draw `text` centred on `xy` (or placed per a Pillow `anchor`) with a dark outline that
    keeps it legible on any colour; `outline=None` for plain text."""
    mask, ring, (dx, dy) = _text_masks(text, size, anchor, bold, outline is not None)
    box = (round(xy[0]) + dx, round(xy[1]) + dy)
    if ring is not None and outline is not None:
        image.paste(_solid(image, outline), box, ring)
    image.paste(_solid(image, fill), box, mask)


def text_layer(text: str, size: int, *, bold: bool = False) -> tuple[Image.Image, tuple[int, int]]:
    """`draw_text`'s centred letters, outline included, as one RGBA layer, and its corner from
    the centre: for a sprite that carries its own words, composed once and pasted many times."""
    mask, ring, corner = _text_masks(text, size, "mm", bold, True)
    layer = Image.new("RGBA", mask.size, (0, 0, 0, 0))
    if ring is not None:
        layer.alpha_composite(alpha_layer(ring, OUTLINE))
    layer.alpha_composite(alpha_layer(mask, TEXT))
    return layer, corner


def alpha_layer(mask: Image.Image, colour: RGB) -> Image.Image:
    """`colour` wherever `mask` covers, as an RGBA layer."""
    layer = Image.new("RGBA", mask.size, colour)
    layer.putalpha(mask)
    return layer


def _solid(image: Image.Image, colour: RGB) -> tuple[int, ...]:
    return (*colour, 255) if image.mode == "RGBA" else colour


def draw_runs(
    image: Image.Image,
    centre: Point,
    runs: Sequence[tuple[str, RGB]],
    *,
    size: int,
    bold: bool = False,
) -> None:
    """One line of text in several colours (a player's name picked out), centred on `centre`."""
    x = centre[0] - sum(text_width(text, size, bold=bold) for text, _ in runs) / 2
    for text, colour in runs:
        draw_text(image, (x, centre[1]), text, size=size, fill=colour, bold=bold, anchor="lm")
        x += text_width(text, size, bold=bold)


_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def named_runs(line: str, names: dict[str, str], /, **values: object) -> list[tuple[str, RGB]]:
    """A worded line (a translated message) for `draw_runs`: its placeholders that are
    `names` picked out in the highlight colour, wherever the language puts them ("{player}
    wins!", "¡{player} gana!"), the others filled in with `values`."""
    runs: list[tuple[str, RGB]] = []
    plain = ""  # words (and values) since the last name
    for i, part in enumerate(_PLACEHOLDER.split(line)):
        if i % 2 and part in names:
            runs += [(plain, TEXT)] if plain else []
            runs.append((names[part], HIGHLIGHT))
            plain = ""
        else:
            plain += str(values[part]) if i % 2 else part
    return runs + ([(plain, TEXT)] if plain else [])


def _glyph(char: str, face: ImageFont.FreeTypeFont) -> bytes:
    cell = Image.new("L", (2 * TEXT_MIN, 2 * TEXT_MIN), 0)
    ImageDraw.Draw(cell).text((0, 0), char, font=face, fill=255)
    return cell.tobytes()


@functools.cache
def _has_glyph(char: str) -> bool:
    # A character the font lacks is drawn as the same box as an unassigned private-use one.
    return _glyph(char, font(TEXT_MIN)) != _glyph("\ue000", font(TEXT_MIN))


@functools.cache
def _drawable_char(char: str) -> bool:
    """Whether Aileron or the fallback font has `char`."""
    if _has_glyph(char):
        return True
    face = fallback_font(TEXT_MIN)
    return _glyph(char, face) != _glyph("\ue000", face)


def drawable(text: str) -> str:
    """`text` without control characters and glyphs the fonts lack (emoji in display names),
    which would otherwise print as boxes."""
    kept = "".join(
        c for c in text if unicodedata.category(c)[0] != "C" and (c.isspace() or _drawable_char(c))
    )
    return " ".join(kept.split())


@functools.lru_cache(maxsize=2048)
def fit_text(text: str, size: int, max_width: float, *, bold: bool = False) -> str:
    """`text`, shortened with an ellipsis so that it fits in `max_width` pixels."""
    if text_width(text, size, bold=bold) <= max_width:
        return text
    while text and text_width(text + "…", size, bold=bold) > max_width:
        text = text[:-1]
    return text.rstrip() + "…"


def smooth(
    size: tuple[int, int], paint: Callable[[Image.Image, int], None], scale: int = 4
) -> Image.Image:
    """An RGBA layer painted at `scale` times its size and shrunk: Pillow's own shapes are
    not anti-aliased. `paint` gets the big layer and the scale to multiply coordinates by."""
    big = Image.new("RGBA", (size[0] * scale, size[1] * scale), (0, 0, 0, 0))
    paint(big, scale)
    return big.resize(size, Image.Resampling.LANCZOS)


def paste_centred(base: Image.Image, sprite: Image.Image, centre: Point) -> None:
    """Paste an RGBA sprite onto `base` with its middle on `centre`."""
    x = round(centre[0] - sprite.width / 2)
    y = round(centre[1] - sprite.height / 2)
    base.paste(sprite, (x, y), sprite)


# The colours every renderer paints with: pinned in every palette (`fixed_palette`).
SHARED_COLOURS: tuple[RGB, ...] = (BACKGROUND, PANEL, PANEL_EDGE, TEXT, MUTED, HIGHLIGHT, OUTLINE)


def fixed_palette(pinned: Iterable[RGB], samples: Sequence[Image.Image]) -> Image.Image:
    """A palette image of up to 256 colours for `to_png`, made once per game so no picture
    pays for learning its own: every flat colour the renderer paints (`pinned`, and the
    shared ones), kept exact so that none drifts or merges with another, and the blends
    between them (edges, text) learnt from `samples`, pictures busy with every kind of
    element the game can show. A colour no sample holds comes out as its nearest in the
    palette, however far: the samples must leave nothing out."""
    pins = list(dict.fromkeys((*SHARED_COLOURS, *pinned)))
    # The samples' pixels but the pinned ones, in a row: the flat colours, most of every
    # picture, would otherwise take the octree's places from the blends.
    counts = [
        (n, colour)
        for sample in samples
        for n, colour in sample.getcolors(sample.width * sample.height) or []
        if colour not in pins
    ]
    pixels = Image.new("RGB", (sum(n for n, _colour in counts), 1))
    pixels.putdata([colour for n, colour in counts for _i in range(n)])
    learnt = pixels.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    flat = learnt.getpalette() or []
    uses = learnt.histogram()
    blends = [  # the most used first: they fill the places the pinned colours leave
        colour
        for _uses, colour in sorted(
            ((uses[i // 3], (flat[i], flat[i + 1], flat[i + 2])) for i in range(0, len(flat), 3)),
            reverse=True,
        )
        if colour not in pins
    ]
    # Pillow's palette lookup is only nearly the nearest: a blend next to a pinned colour can
    # take its pixels. Such blends are left out, until every pinned colour maps to itself.
    pinned_row = Image.new("RGB", (len(pins), 1))
    pinned_row.putdata(pins)
    thieves: set[RGB] = set()
    while True:
        kept = [colour for colour in blends if colour not in thieves][: 256 - len(pins)]
        palette = Image.new("P", (1, 1))
        palette.putpalette([v for colour in (*pins, *kept) for v in colour])
        mapped = pinned_row.quantize(palette=palette, dither=Image.Dither.NONE).tobytes()
        stolen = {kept[i - len(pins)] for i in mapped if i >= len(pins)}
        if not stolen:
            return palette
        thieves |= stolen


def to_png(image: Image.Image, palette: Image.Image) -> bytes:
    """PNG bytes for Discord. Boards are flat art, so they go out as palette images in their
    game's `fixed_palette`: about a third of the bytes of full colour and faster to compress,
    with no visible loss; mapping onto a palette made in advance takes well under half the
    time of learning one per picture. `images.png` writes the file."""
    return png.encode(image.quantize(palette=palette, dither=Image.Dither.NONE))
