"""Risk's 🔍 zoom: a continent cut from the map at full size, its names as large as the map's
on a picture a phone shows about as wide. A caption bar names the continent and keys the
owners shown (each one's swatch, the legend's, and name); the names of neighbouring
territories and continents that the cut would halve are left out rather than half drawn."""

from __future__ import annotations

import functools
import math

from PIL import Image, ImageChops

from images.common import BACKGROUND, draw_text, drawable, fit_text, text_layer, text_width, to_png
from images.pieces import Box, overlap
from images.risk import (
    TOP,
    Label,
    LegendRow,
    MapView,
    ground_within,
    labels,
    map_palette,
    render,
    swatch,
    territory_label,
)
from images.risk_layout import MAP_SIZE
from images.risk_regions import region
from images.words import language
from rules.risk.map import CONTINENTS

ZOOM_MARGIN = 16  # around a continent's territories, badges and names
ZOOM_CAPTION = 48  # the caption bar above the zoomed map
ZOOM_CAPTION_SIZE = 30
KEY_ROW = 40  # a row of the owner key, under the caption
KEY_SIZE = 26  # an owner's name in the key
KEY_SWATCH = 60  # the legend's swatch, as wide
KEY_GAP = 24  # between two owners of the key


@functools.cache
def zoom_box(continent: str, _language: str) -> Box:
    """The part of the picture (`images.risk.SIZE` pixels) that shows `continent` whole: its
    territories, their badges and their names in the language spoken."""
    boxes: list[tuple[float, float, float, float]] = []
    for slug in CONTINENTS[continent].territories:
        boxes += [region(slug)[0], territory_label(slug).box()]
    left = max(0, math.floor(min(b[0] for b in boxes)) - ZOOM_MARGIN)
    top = max(0, math.floor(min(b[1] for b in boxes)) - ZOOM_MARGIN)
    right = min(MAP_SIZE[0], math.ceil(max(b[2] for b in boxes)) + ZOOM_MARGIN)
    bottom = min(MAP_SIZE[1], math.ceil(max(b[3] for b in boxes)) + ZOOM_MARGIN)
    return left, top + TOP, right, bottom + TOP


def on_board(label: Label) -> Box:
    """Where `label` is drawn on the board (the map frame is under the caption bar)."""
    left, top, right, bottom = label.box()
    return left, top + TOP, right, bottom + TOP


@functools.cache
def cut_labels(box: Box, _language: str) -> tuple[Label, ...]:
    """The names that `box` cuts: partly inside it, partly out."""
    cut = []
    for label in labels():
        left, top, right, bottom = on_board(label)
        inside = box[0] <= left and box[1] <= top and right <= box[2] and bottom <= box[3]
        if overlap((left, top, right, bottom), box) and not inside:
            cut.append(label)
    return tuple(cut)


def shown_owners(view: MapView, box: Box) -> list[LegendRow]:
    """The legend's rows of the owners whose territories the zoom shows, in the legend's
    order."""
    shown = {owner for slug, owner in view.owners.items() if _shows(box, slug)}
    return [row for row in view.legend if row.colour in shown]


def _shows(box: Box, slug: str) -> bool:
    """Whether any pixel of `slug`'s territory lies in `box` of the board."""
    (left, top, right, bottom), mask = region(slug)
    if not overlap((left, top + TOP, right, bottom + TOP), box):
        return False
    inside = (box[0] - left, box[1] - TOP - top, box[2] - left, box[3] - TOP - top)
    return mask.crop(inside).getbbox() is not None


def key_rows(owners: list[LegendRow], width: float) -> list[list[tuple[LegendRow, str]]]:
    """The owner key in rows no wider than `width`: each owner with its name as drawn."""
    rows: list[list[tuple[LegendRow, str]]] = []
    x = width  # a new row first
    for row in owners:
        name = fit_text(drawable(row.name) or "?", KEY_SIZE, width - KEY_SWATCH - 8, bold=True)
        entry = KEY_SWATCH + 8 + text_width(name, KEY_SIZE, bold=True)
        if x + entry > width:
            rows.append([])
            x = 0.0
        rows[-1].append((row, name))
        x += entry + KEY_GAP
    return rows


def render_zoom(view: MapView, continent: str, caption: str) -> Image.Image:
    """`continent` cut from the map at full size under a caption bar with the owner key."""
    box = zoom_box(continent, language())
    part = render(view).crop(box)
    _leave_out(part, view, box, cut_labels(box, language()))
    rows = key_rows(shown_owners(view, box), part.width - 24)
    top = ZOOM_CAPTION + KEY_ROW * len(rows)
    image = Image.new("RGB", (part.width, part.height + top), BACKGROUND)
    image.paste(part, (0, top))
    text = fit_text(drawable(caption), ZOOM_CAPTION_SIZE, part.width - 24, bold=True)
    draw_text(image, (12, ZOOM_CAPTION / 2), text, size=ZOOM_CAPTION_SIZE, bold=True, anchor="lm")
    for i, row in enumerate(rows):
        x, y = 12.0, ZOOM_CAPTION + KEY_ROW * i + KEY_ROW / 2 - 4
        for owner, name in row:
            chip = swatch(owner.colour)
            image.paste(chip, (round(x), round(y - chip.height / 2)), chip)
            draw_text(image, (x + KEY_SWATCH + 8, y), name, size=KEY_SIZE, bold=True, anchor="lm")
            x += KEY_SWATCH + 8 + text_width(name, KEY_SIZE, bold=True) + KEY_GAP
    return image


def _leave_out(part: Image.Image, view: MapView, box: Box, cut: tuple[Label, ...]) -> None:
    """Take the `cut` names off `part` (`box` of the board): their letters and outline give
    way to the board without names, where nothing (a badge) is drawn over them."""
    if not cut:
        return
    letters = Image.new("L", part.size, 0)
    for label in cut:
        layer, (dx, dy) = text_layer(label.text, label.size, bold=True)
        at = (round(label.at[0]) + dx - box[0], round(label.at[1]) + dy + TOP - box[1])
        drawn = Image.new("L", part.size, 0)
        drawn.paste(layer.getchannel("A"), at)
        letters = ImageChops.lighter(letters, drawn)
    named = ground_within(view, box)
    bare = ground_within(view, box, named=False)
    unchanged = ImageChops.difference(part, named).convert("L").point(lambda v: 255 * (v == 0))
    mask = ImageChops.multiply(letters.point(lambda v: 255 * (v > 0)), unchanged)
    part.paste(bare, (0, 0), mask)


def render_zoom_png(view: MapView, continent: str, caption: str) -> bytes:
    """A continent's close-up as PNG bytes."""
    return to_png(render_zoom(view, continent, caption), map_palette())
