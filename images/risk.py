"""The Risk map (docs/rules/risk.md): 42 territories in their owners' colours and patterns,
each named and with its army badge, continents outlined and named with their bonus, sea lanes
dashed, the last attack and a pending choice picked out, and a legend of players and continents
below.

The renderer draws a `MapView` the presenter builds, never the engine's state, so it cannot show
what a view does not hold (cards and missions are only counted). The territory raster, masks,
patterns and the overlay of borders, sea lanes and names are computed once per process
(`images.risk_regions`); an empty board is a palette fill, a few pattern pastes and the
overlay, drawn and mapped band by band (`images.pieces`): a conquest redraws only the bands
its territory reaches into. Rims, badges, the arrow, the caption and the legend's rows are
pieces on it, each drawn and mapped onto the palette once (what overlaps, a badge on a rim,
is one piece).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageChops, ImageDraw

from images.common import (
    BACKGROUND,
    HIGHLIGHT,
    MUTED,
    OUTLINE,
    PANEL,
    PANEL_EDGE,
    RGB,
    TEXT,
    Point,
    alpha_layer,
    draw_text,
    drawable,
    fit_text,
    fixed_palette,
    paste_centred,
    smooth,
    text_layer,
)
from images.layer_cache import static_layer
from images.pieces import (
    Box,
    Ground,
    Layer,
    Op,
    Piece,
    Shape,
    Sprite,
    Words,
    board,
    board_png,
    disjoint,
    overlap,
)
from images.risk_layout import (
    CONTINENT_LABELS,
    MAP_NAME,
    MAP_SIZE,
    NAME_BELOW,
    NAME_POINTS,
    NAME_SIZE,
    SHORT_NAMES,
)
from images.risk_regions import (
    INDEX,
    ORDER,
    SEA,
    edges,
    grow,
    index_raster,
    label_point,
    region,
    rim,
)
from images.words import N_, _, language, pgettext
from rules.risk.map import CONTINENTS, SEA_LANES, TERRITORIES

NEUTRAL = -1
"""The owner index of the neutral army (two-player game)."""


@dataclass(frozen=True)
class LegendRow:
    """One line of the legend: a player (or the neutral army) and what it holds.

    `cards` is how many cards the player holds, which is public; never which cards.
    """

    name: str
    colour: int  # 0..5, or NEUTRAL
    armies: int
    territories: int
    cards: int
    out: bool = False  # eliminated: struck through
    to_act: bool = False


@dataclass(frozen=True)
class MapView:
    """What the map shows. A territory missing from `owners` is still unclaimed (claim
    set-up) and drawn bare, without a badge. The legend has room for seven rows."""

    owners: Mapping[str, int]  # territory slug -> colour index 0..5, or NEUTRAL
    armies: Mapping[str, int]
    legend: Sequence[LegendRow]
    caption: str = ""  # e.g. "Turn 7 · Ana attacks"
    attack: tuple[str, str] | None = None  # the last battle: source, target
    selected: str | None = None  # a territory picked in a pending sub-step


# --- layout -------------------------------------------------------------------------------

TOP = 56  # the caption bar above the map
LEGEND_TOP = TOP + MAP_SIZE[1]
SIZE = (MAP_SIZE[0], LEGEND_TOP + 270)
HEADER_DY = 32  # the legend's header line, below its top
ROW_PITCH = 30  # seven rows: six players and the neutral army
BADGE_RADIUS = 22
RIM_WIDTH = 5  # the outline of an attacked or selected territory

# --- colours ------------------------------------------------------------------------------

# Hues after the Okabe–Ito palette, which most colour-blind players can tell apart; each owner's
# pattern and badge shape (below) tell them apart where hues fail. Tuned so that any two of
# them, the neutral army and bare land stay apart (CIE76 ΔE >= 20) under simulated
# deuteranopia, protanopia and tritanopia (tests/images/test_colour_blindness.py).
OWNER_COLOURS: tuple[RGB, ...] = (
    (224, 82, 44),  # red
    (73, 121, 248),  # blue
    (236, 206, 60),  # yellow
    (41, 170, 113),  # green
    (206, 122, 170),  # pink
    (109, 217, 255),  # sky
)
# Near white: far in lightness from every owner's hue, which colour blindness can turn grey.
NEUTRAL_FILL: RGB = (230, 230, 236)
UNCLAIMED_FILL: RGB = (70, 76, 92)
SEA_FILL: RGB = (22, 44, 78)
SHALLOWS: RGB = (30, 60, 102)  # a lighter band along every coast
CONTINENT_LINE: RGB = (238, 228, 198)
SEA_LANE: RGB = (200, 216, 238)
BADGE_FILL: RGB = (18, 20, 28)
SELECTED: RGB = (255, 255, 255)

# Palette slots of the fill image: territories 0..41 (`ORDER`), their pattern ink from _INK on,
# the coastal band and the sea.
_INK = 64
_SHALLOWS = 254
_INK_SHADE = 0.6  # pattern ink: the owner's colour darkened, so the fill still reads as it


def owner_fill(owner: int | None) -> RGB:
    """A territory's fill colour: its owner's, neutral grey, or bare land (None)."""
    if owner is None:
        return UNCLAIMED_FILL
    return NEUTRAL_FILL if owner == NEUTRAL else OWNER_COLOURS[owner]


def owner_ink(owner: int) -> RGB:
    """The darker shade an owner's pattern is drawn in."""
    r, g, b = OWNER_COLOURS[owner]
    return round(r * _INK_SHADE), round(g * _INK_SHADE), round(b * _INK_SHADE)


# --- patterns and badge shapes (one per owner) --------------------------------------------


PATTERNS = ("diagonal", "back-diagonal", "horizontal", "vertical", "dots", "cross-hatch")
BADGE_SHAPES = ("circle", "square", "diamond", "hexagon", "shield", "tag")
"""Each owner's pattern and badge shape, by colour index."""
NEUTRAL_SHAPE = "ring"
"""The neutral army's badge, unpatterned: a circle in a second ring, unlike seat 1's."""


def _paint_pattern(draw: ImageDraw.ImageDraw, owner: int, size: tuple[int, int]) -> None:
    width, height = size
    pitch = 11
    pattern = PATTERNS[owner]
    if pattern == "diagonal":
        for c in range(0, width + height, pitch):
            draw.line([(c, 0), (c - height, height)], fill=255, width=3)
    elif pattern == "back-diagonal":
        for c in range(-height, width, pitch):
            draw.line([(c, 0), (c + height, height)], fill=255, width=3)
    elif pattern == "horizontal":
        for y in range(0, height, pitch):
            draw.line([(0, y), (width, y)], fill=255, width=3)
    elif pattern == "vertical":
        for x in range(0, width, pitch):
            draw.line([(x, 0), (x, height)], fill=255, width=3)
    elif pattern == "dots":  # in the gaps of every line pattern
        for y in range(pitch // 2, height, pitch):
            for x in range(pitch // 2, width, pitch):
                draw.ellipse((x - 2.5, y - 2.5, x + 2.5, y + 2.5), fill=255)
    else:  # cross-hatch, between the lines of the two diagonals
        for c in range(pitch // 2, width + height, 2 * pitch):
            draw.line([(c, 0), (c - height, height)], fill=255, width=2)
            draw.line([(c - height, 0), (c, height)], fill=255, width=2)


@functools.cache
def _pattern(owner: int) -> Image.Image:
    """Owner `owner`'s pattern over the whole map frame, as a mask."""
    mask = Image.new("L", MAP_SIZE, 0)
    _paint_pattern(ImageDraw.Draw(mask), owner, MAP_SIZE)
    return mask


@functools.cache
def _pattern_in(slug: str, owner: int) -> Image.Image:
    """Owner `owner`'s pattern clipped to `slug`'s region, cropped like `region`."""
    box, mask = region(slug)
    return ImageChops.multiply(mask, _pattern(owner).crop(box))


def _shape(owner: int) -> str:
    return NEUTRAL_SHAPE if owner == NEUTRAL else BADGE_SHAPES[owner]


def _badge_outline(shape: str, r: float) -> list[Point]:
    """The corners of a badge of `shape` around (0, 0); a circle has none."""
    if shape == "square":
        return [(-r, -r), (r, -r), (r, r), (-r, r)]
    if shape == "diamond":
        d = r * 1.3
        return [(0, -d), (d, 0), (0, d), (-d, 0)]
    if shape == "hexagon":
        d = r * 1.14
        return [(d * math.cos(a), d * math.sin(a)) for a in (math.pi * k / 3 for k in range(6))]
    if shape == "shield":
        return [(-r, -r), (r, -r), (r, r * 0.35), (0, r * 1.3), (-r, r * 0.35)]
    if shape == "tag":
        w, h = r * 1.05, r * 0.9
        return [(-w, -h), (r * 0.5, -h), (r * 1.3, 0), (r * 0.5, h), (-w, h)]
    return []


def _paint_badge(layer: Image.Image, k: int, owner: int, r: float) -> None:
    draw = ImageDraw.Draw(layer)
    c = layer.width / 2
    rings: tuple[tuple[float, RGB], ...] = ((r, owner_fill(owner)), (r * 0.8, BADGE_FILL))
    if _shape(owner) == NEUTRAL_SHAPE:  # a second ring around it; the face keeps its room
        rings = ((r * 1.25, owner_fill(owner)), (r * 1.1, BADGE_FILL), *rings)
    for radius, colour in rings:
        outline = _badge_outline(_shape(owner), radius * k)
        if outline:
            draw.polygon([(c + x, c + y) for x, y in outline], fill=colour)
        else:
            s = radius * k
            draw.ellipse((c - s, c - s, c + s, c + s), fill=colour)


@functools.cache
def _badge(owner: int, r: float = BADGE_RADIUS) -> Image.Image:
    """A dark army badge in the owner's shape, ringed in the owner's colour."""
    side = math.ceil(r * 2.8)
    return smooth((side, side), lambda layer, k: _paint_badge(layer, k, owner, r))


# --- the static layers --------------------------------------------------------------------


@static_layer
def _fill_indices() -> Image.Image:
    """The territory raster as a palette image, with a band of shallows along the coasts:
    a render only sets the palette."""
    raster = index_raster()
    land = raster.point(lambda v: 0 if v == SEA else 255)
    shallows = ImageChops.subtract(grow(land, 9), land)
    fills = Image.frombytes("P", raster.size, raster.tobytes())
    fills.paste(_SHALLOWS, (0, 0), shallows)
    return fills


def _dashes(draw: ImageDraw.ImageDraw, a: Point, b: Point, dash: float, gap: float) -> None:
    length = math.dist(a, b)
    dx, dy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    t = 0.0
    while t < length:
        end = min(t + dash, length)
        draw.line(
            [(a[0] + dx * t, a[1] + dy * t), (a[0] + dx * end, a[1] + dy * end)], fill=255, width=3
        )
        t = end + gap


def _crossing(a: str, b: str) -> list[tuple[Point, Point]]:
    """The straight legs from `a`'s badge to `b`'s: one, or two for the lane that runs off
    the map's edge and comes back on the other side (Alaska–Kamchatka)."""
    pa, pb = label_point(a), label_point(b)
    if abs(pa[0] - pb[0]) <= MAP_SIZE[0] / 2:
        return [(pa, pb)]
    # Halfway across the edge: the two legs meet the edges at the same height.
    left, right = (pa, pb) if pa[0] < pb[0] else (pb, pa)
    span = left[0] + MAP_SIZE[0] - right[0]
    y = right[1] + (left[1] - right[1]) * (MAP_SIZE[0] - right[0]) / span
    out, back = ((0.0, y), (float(MAP_SIZE[0]), y))
    legs: list[tuple[Point, Point]] = [(left, out), (back, right)]
    return legs if left == pa else [(right, back), (out, left)]


def territory_name(slug: str) -> str:
    """How the map names `slug` in the language spoken: its name, or its short form where
    space is tight."""
    return pgettext(MAP_NAME, SHORT_NAMES.get(slug, TERRITORIES[slug].name))


def name_point(slug: str) -> Point:
    """The centre of `slug`'s name in the map frame: under its badge, or placed by hand."""
    x, y = label_point(slug)
    return NAME_POINTS.get(slug, (x, y + NAME_BELOW))


@static_layer
def _lines() -> Image.Image:
    """Everything on the map that never changes but its words: borders, continent outlines
    and sea lanes, over a transparent map frame."""
    raster = index_raster(2)  # drawn at twice the size and shrunk, for smooth lines
    borders = edges(raster, 3).resize(MAP_SIZE, Image.Resampling.BOX)
    continent_of = {
        INDEX[s]: 1 + list(CONTINENTS).index(t.continent) for s, t in TERRITORIES.items()
    }
    continents = raster.point(lambda v: continent_of.get(v, 0))
    outlines = edges(continents, 7).resize(MAP_SIZE, Image.Resampling.BOX)

    lanes = Image.new("L", MAP_SIZE, 0)
    draw = ImageDraw.Draw(lanes)
    for lane in SEA_LANES:
        a, b = sorted(lane)
        for start, end in _crossing(a, b):
            _dashes(draw, start, end, dash=9, gap=7)
    sea = index_raster().point(lambda v: 255 if v == SEA else 0)
    lanes = ImageChops.multiply(lanes, sea)

    overlay = Image.new("RGBA", MAP_SIZE, (0, 0, 0, 0))
    for mask, colour in ((lanes, SEA_LANE), (borders, OUTLINE), (outlines, CONTINENT_LINE)):
        overlay = Image.alpha_composite(overlay, alpha_layer(mask, colour))
    return overlay


@dataclass(frozen=True)
class Label:
    """A name drawn on the map: a continent's with its bonus, or a territory's."""

    at: Point  # its centre, in the map frame
    text: str
    size: int
    fill: RGB

    def draw(self, image: Image.Image) -> None:
        """Draw the name on `image`, a map frame."""
        draw_text(image, self.at, self.text, size=self.size, bold=True, fill=self.fill)

    def box(self) -> tuple[int, int, int, int]:
        """The pixels its letters and their outline may cover, in the map frame."""
        layer, (dx, dy) = text_layer(self.text, self.size, bold=True)
        x, y = round(self.at[0]) + dx, round(self.at[1]) + dy
        return x, y, x + layer.width, y + layer.height


def territory_label(slug: str) -> Label:
    """`slug`'s name on the map, in the language spoken."""
    return Label(name_point(slug), territory_name(slug), NAME_SIZE, TEXT)


def continent_labels() -> list[Label]:
    """Each continent's name and bonus on the map, in the language spoken."""
    return [
        Label(
            point,
            f"{_(CONTINENTS[slug].name).upper()} +{CONTINENTS[slug].bonus}",
            24,
            CONTINENT_LINE,
        )
        for slug, point in CONTINENT_LABELS.items()
    ]


def labels() -> list[Label]:
    """Every name on the map, in the language spoken: the continents', then the territories'."""
    return continent_labels() + [territory_label(slug) for slug in ORDER]


@static_layer
def _overlay(in_language: str) -> Image.Image:
    """Everything on the map that never changes: borders, continent outlines, sea lanes,
    continent and territory names, over a transparent map frame."""
    overlay = _lines().copy()
    for label in continent_labels():
        label.draw(overlay)
    return Image.alpha_composite(overlay, _names(in_language))


@functools.cache
def _names(_language: str) -> Image.Image:
    """Every territory's name in `_language` (the one spoken), over a transparent map frame."""
    names = Image.new("RGBA", MAP_SIZE, (0, 0, 0, 0))
    for slug in ORDER:
        territory_label(slug).draw(names)
    return names


# --- rendering ----------------------------------------------------------------------------


def badge_centre(slug: str) -> tuple[int, int]:
    """Where `slug`'s army badge is drawn, in picture pixels."""
    x, y = label_point(slug)
    return x, y + TOP


def render(view: MapView) -> Image.Image:
    """The map picture for `view`, `SIZE` pixels."""
    return board(*_board(view))


def render_png(view: MapView) -> bytes:
    """`render` as PNG bytes, ready to attach as board.png."""
    return board_png(*_board(view))


@dataclass(frozen=True)
class _Ground(Ground):
    """The map frame of some owners, under the caption bar and over the legend's panel."""

    owners: tuple[tuple[str, int], ...]
    in_language: str

    def image(self) -> Image.Image:
        return _frame(self.owners, self.in_language)

    def palette(self) -> Image.Image:
        return _palette(self.in_language)

    @property
    def size(self) -> tuple[int, int]:
        return SIZE

    def within(self, box: Box) -> Hashable:
        """The owners of the territories whose regions reach into `box`: a conquest changes
        the pixels of the captured territory's region alone."""
        owner = self._owner_of
        return self.in_language, tuple(owner.get(slug) for slug in _reaching_into(box))

    def image_within(self, box: Box) -> Image.Image:
        return _frame_within(self.owners, self.in_language, box)

    @functools.cached_property
    def _owner_of(self) -> dict[str, int]:
        return dict(self.owners)


@functools.lru_cache(maxsize=4096)
def _reaching_into(box: Box) -> tuple[str, ...]:
    """The territories whose regions reach into `box` of the board."""
    reaching = []
    for slug in ORDER:
        (x0, y0, x1, y1), _mask = region(slug)
        if overlap((x0, y0 + TOP, x1, y1 + TOP), box):  # a region's box is the map frame's
            reaching.append(slug)
    return tuple(reaching)


def _board(view: MapView) -> tuple[_Ground, list[Piece]]:
    """The ground for `view`'s owners, and what is drawn on it (`images.pieces`): rims,
    badges and the arrow on the map (cut at its foot, where the legend covers them), the
    caption, the legend's rows."""
    on_map: list[tuple[Box, tuple[Op, ...]]] = []
    for slug, colour in _rim_colours(view):
        (left, top, right, bottom), _skip = region(slug)
        on_map.append(((left, top + TOP, right, bottom + TOP), (_Rim(slug, colour),)))
    for slug, owner in view.owners.items():
        x, y = badge_centre(slug)
        armies = view.armies.get(slug, 0)
        sprite, (dx, dy) = _army_badge(owner, armies)
        box = (x + dx, y + dy, x + dx + sprite.width, y + dy + sprite.height)
        on_map.append((box, (Layer(box[:2], _army_badge_layer, (owner, armies)),)))
    for i, (layer, corner) in enumerate(_arrow(*view.attack) if view.attack else ()):
        box = (*corner, corner[0] + layer.width, corner[1] + layer.height)
        on_map.append((box, (Layer(corner, _arrow_leg, (*(view.attack or ()), i)),)))
    for slug in _names_under_arrow(*view.attack, language()) if view.attack else ():
        label = territory_label(slug)  # drawn again, over the arrow
        left, top, right, bottom = label.box()
        words = Words((label.at[0], label.at[1] + TOP), label.text, label.size, bold=True)
        on_map.append(((left, top + TOP, right, bottom + TOP), (words,)))
    map_size = (SIZE[0], LEGEND_TOP)
    pieces = disjoint([_caption(view.caption), *on_map], map_size)
    pieces += _legend(view)
    return _Ground(tuple(sorted(view.owners.items())), language()), pieces


def _rim_colours(view: MapView) -> list[tuple[str, RGB]]:
    """The territories outlined: the last battle's, and one being picked."""
    rims = [(slug, HIGHLIGHT) for slug in view.attack or ()]
    if view.selected is not None:
        rims.append((view.selected, SELECTED))
    return rims


def ground_within(view: MapView, box: Box, *, named: bool = True) -> Image.Image:
    """`view`'s board with nothing on it (no badge, rim, arrow or caption) inside `box`, its
    names left out unless `named`, in the language spoken."""
    return _frame_within(tuple(sorted(view.owners.items())), language(), box, named=named)


# Whole empty boards kept, by owners, for a board drawn whole (`render`: a zoom, a replay);
# each is 6 MB. A board sent after a move (`board_png`) draws only the parts of the frame
# whose owners it has not drawn before (`_Ground.within`).
FRAMES_KEPT = 4


@functools.lru_cache(maxsize=FRAMES_KEPT)
def _frame(owners: tuple[tuple[str, int], ...], in_language: str) -> Image.Image:
    """The board with nothing on it for `owners` (`_frame_within` the whole board)."""
    return _frame_within(owners, in_language, (0, 0, *SIZE))


def _frame_within(
    owners: tuple[tuple[str, int], ...], in_language: str, box: Box, *, named: bool = True
) -> Image.Image:
    """The board with nothing on it for `owners`, inside `box`: the map frame (fills and
    patterns by palette, the static overlay, its names unless not `named`) under the caption
    bar, over the legend's panel. Every step goes pixel by pixel, so a box of it is that box
    of the whole."""
    left, top, right, bottom = box
    ground = Image.new("RGB", (right - left, bottom - top), BACKGROUND)
    if max(top, TOP) < min(bottom, LEGEND_TOP):  # the map frame's part, in its coordinates
        part = (left, max(top, TOP) - TOP, right, min(bottom, LEGEND_TOP) - TOP)
        owned = dict(owners)
        fills = _fill_indices().crop(part)
        palette = [0] * 768
        for i, slug in enumerate(ORDER):
            palette[3 * i : 3 * i + 3] = owner_fill(owned.get(slug))
        palette[3 * _SHALLOWS : 3 * _SHALLOWS + 3] = SHALLOWS
        palette[3 * SEA : 3 * SEA + 3] = SEA_FILL
        for slug, owner in owners:
            if owner != NEUTRAL:
                i = INDEX[slug]
                palette[3 * (_INK + i) : 3 * (_INK + i) + 3] = owner_ink(owner)
                (x0, y0, x1, y1), _skip = region(slug)
                if overlap((x0, y0, x1, y1), part):
                    fills.paste(_INK + i, (x0 - part[0], y0 - part[1]), _pattern_in(slug, owner))
        fills.putpalette(palette)
        frame = fills.convert("RGB")
        overlay = (_overlay(in_language) if named else _lines()).crop(part)
        frame.paste(overlay, (0, 0), overlay)
        ground.paste(frame, (0, part[1] + TOP - top))
    if bottom > LEGEND_TOP:
        ground.paste(_legend_panel(in_language), (-left, LEGEND_TOP - top))
    return ground


@dataclass(frozen=True)
class _Rim(Op):
    """A territory's outline on the map; a dark inner edge keeps it visible on a fill of much
    the same colour."""

    slug: str
    colour: RGB

    def draw(self, image: Image.Image, origin: tuple[int, int]) -> None:
        masks = _rims(language())
        (left, top, _right, _bottom), _skip = region(self.slug)
        corner = (left - origin[0], top + TOP - origin[1])
        image.paste(OUTLINE, corner, masks[self.slug, RIM_WIDTH + 2])
        image.paste(self.colour, corner, masks[self.slug, RIM_WIDTH])


@static_layer
def _rims(in_language: str) -> dict[tuple[str, int], Image.Image]:
    """Every territory's highlight rims, built together (about 0.3 s) by the first picture,
    which the bot draws at start-up, rather than one by one on players' clicks. A rim stops
    short of the names it crosses, so a highlighted territory's name stays readable."""
    names = _names(in_language).getchannel("A")
    return {
        (slug, w): ImageChops.subtract(rim(slug, w), names.crop(region(slug)[0]))
        for slug in ORDER
        for w in (RIM_WIDTH, RIM_WIDTH + 2)
    }


ARMY_BADGES_KEPT = 512  # an owner's badge with a count: about 16 KB each


@functools.lru_cache(maxsize=ARMY_BADGES_KEPT)
def _army_badge(owner: int, armies: int) -> tuple[Image.Image, tuple[int, int]]:
    """`owner`'s badge with `armies` on it as one sprite, and its corner from the badge's
    centre: a board pastes one sprite a territory, not a badge and two layers of text."""
    badge = _badge(owner)
    count = str(armies)
    letters, (tx, ty) = text_layer(count, 27 if len(count) < 3 else 21, bold=True)
    ty -= 3 if _shape(owner) == "shield" else 0  # the shield narrows at the bottom
    bx, by = round(-badge.width / 2), round(-badge.height / 2)
    left, top = min(bx, tx), min(by, ty)
    right = max(bx + badge.width, tx + letters.width)
    bottom = max(by + badge.height, ty + letters.height)
    sprite = Image.new("RGBA", (right - left, bottom - top), (0, 0, 0, 0))
    sprite.alpha_composite(badge, (bx - left, by - top))
    sprite.alpha_composite(letters, (tx - left, ty - top))
    return sprite, (left, top)


def _army_badge_layer(owner: int, armies: int) -> Image.Image:
    return _army_badge(owner, armies)[0]


def _arrow_leg(source: str, target: str, leg: int) -> Image.Image:
    return _arrow(source, target)[leg][0]


ARROWS_KEPT = 64  # a few KB each; a game attacks along the same borders again and again


@functools.lru_cache(maxsize=ARROWS_KEPT)
def _arrow(source: str, target: str) -> tuple[tuple[Image.Image, tuple[int, int]], ...]:
    """An arrow from the attacker's badge to the defender's, in one or two legs: each leg's
    layer and its corner on the board."""
    legs = _crossing(source, target)
    drawn = []
    for i, (a, b) in enumerate(legs):
        last = i == len(legs) - 1
        length = math.dist(a, b)
        ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        start_trim = BADGE_RADIUS + 4 if i == 0 else 0
        start = (a[0] + ux * start_trim, a[1] + uy * start_trim + TOP)
        end_trim = BADGE_RADIUS + 6 if last else 0
        tip = (b[0] - ux * end_trim, b[1] - uy * end_trim + TOP)
        drawn.append(_leg(start, tip, head=last))
    return tuple(drawn)


@functools.lru_cache(maxsize=ARROWS_KEPT)
def _names_under_arrow(source: str, target: str, _language: str) -> tuple[str, ...]:
    """The territories whose names the arrow from `source` to `target` crosses: they are
    drawn again over it, so that the arrow never hides a name."""
    under = []
    for slug in ORDER:
        left, top, right, bottom = territory_label(slug).box()
        for layer, (x, y) in _arrow(source, target):
            alpha = layer.getchannel("A").crop(
                (left - x, top + TOP - y, right - x, bottom + TOP - y)
            )
            if alpha.getbbox() is not None:
                under.append(slug)
                break
    return tuple(under)


def _leg(start: Point, tip: Point, *, head: bool) -> tuple[Image.Image, tuple[int, int]]:
    margin = 20
    left, top = min(start[0], tip[0]) - margin, min(start[1], tip[1]) - margin
    size = (round(abs(tip[0] - start[0]) + 2 * margin), round(abs(tip[1] - start[1]) + 2 * margin))
    length = math.dist(start, tip)
    ux, uy = (tip[0] - start[0]) / length, (tip[1] - start[1]) / length
    neck = (tip[0] - ux * 22, tip[1] - uy * 22) if head else tip

    def at(p: Point, k: int) -> Point:
        return (p[0] - left) * k, (p[1] - top) * k

    def paint(layer: Image.Image, k: int) -> None:
        draw = ImageDraw.Draw(layer)
        for colour, width in ((OUTLINE, 12), (HIGHLIGHT, 6)):
            draw.line([at(start, k), at(neck, k)], fill=colour, width=width * k)
        if head:
            barbs = [(neck[0] - s * uy * 14, neck[1] + s * ux * 14) for s in (1, -1)]
            triangle = [at(p, k) for p in (tip, *barbs)]
            draw.polygon(triangle, fill=HIGHLIGHT, outline=OUTLINE, width=3 * k)

    return smooth(size, paint, scale=2), (round(left), round(top))


def _caption(caption: str) -> tuple[Box, tuple[Op, ...]]:
    text = fit_text(drawable(caption), 30, SIZE[0] - 40, bold=True)
    return (0, 0, SIZE[0], TOP), (Words((20, TOP / 2), text, 30, bold=True, anchor="lm"),)


@functools.cache
def swatch(owner: int) -> Image.Image:
    """A chip of the owner's fill and pattern with their badge shape on it, for the legend."""
    chip = Image.new("RGB", (60, 30), owner_fill(owner))
    if owner != NEUTRAL:
        pattern = Image.new("L", chip.size, 0)
        _paint_pattern(ImageDraw.Draw(pattern), owner, chip.size)
        chip.paste(owner_ink(owner), (0, 0), pattern)
    ImageDraw.Draw(chip).rectangle((0, 0, chip.width - 1, chip.height - 1), outline=OUTLINE)
    paste_centred(chip, _badge(owner, 11), (chip.width / 2, chip.height / 2))
    return chip.convert("RGBA")


# Legend columns: x of the player swatch, name, right edges of the counts; the continents.
SWATCH_X, NAME_X = 62, 104
COUNT_X = {N_("Armies"): 700, N_("Territories"): 860, N_("Cards"): 970}
CONTINENT_X, BONUS_X, HOLDER_X = 1040, 1310, 1340


def legend_row_y(i: int) -> int:
    """The middle of the legend's `i`-th row (players and continents alike)."""
    return LEGEND_TOP + HEADER_DY + ROW_PITCH * (i + 1)


def _legend(view: MapView) -> list[Piece]:
    """The legend's rows: a piece for the players' and one for the continents' holders (a row's
    letters and their outline reach past its pitch, into the next row's)."""
    rows = max(len(view.legend), len(CONTINENTS))
    top = legend_row_y(0) - ROW_PITCH
    top -= top % 2
    bottom = legend_row_y(rows - 1) + ROW_PITCH
    players = [op for i, row in enumerate(view.legend) for op in _player(row, legend_row_y(i))]
    names = {row.colour: row.name for row in view.legend}
    holders: list[Op] = []
    for i, continent in enumerate(CONTINENTS.values()):
        y = legend_row_y(i)
        owners = {view.owners.get(slug) for slug in continent.territories}
        holder = owners.pop() if len(owners) == 1 else None
        if holder is not None and holder != NEUTRAL:  # the neutral army never collects
            name = fit_text(drawable(names.get(holder, "")), 24, SIZE[0] - HOLDER_X - 100)
            holders.append(Sprite((HOLDER_X + 30, y), swatch, (holder,)))
            holders.append(Words((HOLDER_X + 70, y), name, 24, anchor="lm"))
    return [
        Piece((0, top, CONTINENT_X, bottom), tuple(players)),
        Piece((HOLDER_X, top, SIZE[0], bottom), tuple(holders)),
    ]


@functools.cache
def _legend_panel(_language: str) -> Image.Image:
    """The legend's part that every board shares (its panel, headings, the continents and
    their bonuses), from the map's foot to the picture's: drawn once, pasted on each board."""
    image = Image.new("RGB", SIZE, BACKGROUND)
    draw = ImageDraw.Draw(image)
    panel = (10, LEGEND_TOP + 8, SIZE[0] - 10, SIZE[1] - 8)
    draw.rounded_rectangle(panel, radius=12, fill=PANEL, outline=PANEL_EDGE, width=2)
    header = LEGEND_TOP + HEADER_DY
    draw_text(image, (NAME_X, header), _("Player"), size=22, fill=MUTED, anchor="lm")
    for label, x in COUNT_X.items():
        draw_text(image, (x, header), _(label), size=22, fill=MUTED, anchor="rm")
    draw_text(image, (CONTINENT_X, header), _("Continent"), size=22, fill=MUTED, anchor="lm")
    draw_text(image, (BONUS_X, header), _("Bonus"), size=22, fill=MUTED, anchor="rm")
    draw_text(image, (HOLDER_X, header), _("Held by"), size=22, fill=MUTED, anchor="lm")
    for i, continent in enumerate(CONTINENTS.values()):
        y = legend_row_y(i)
        draw_text(image, (CONTINENT_X, y), _(continent.name), size=26, anchor="lm")
        draw_text(image, (BONUS_X, y), f"+{continent.bonus}", size=26, bold=True, anchor="rm")
    return image.crop((0, LEGEND_TOP, SIZE[0], SIZE[1]))


def _player(row: LegendRow, y: int) -> tuple[Op, ...]:
    colour = MUTED if row.out else HIGHLIGHT if row.to_act else TEXT
    ops: list[Op] = [Sprite((SWATCH_X, y), swatch, (row.colour,))]
    if row.to_act:
        ops.append(Shape(((18, y - 10), (30, y), (18, y + 10)), HIGHLIGHT))
    name = fit_text(drawable(row.name) or "?", 26, COUNT_X["Armies"] - NAME_X - 110, bold=True)
    ops.append(Words((NAME_X, y), name, 26, bold=True, fill=colour, anchor="lm"))
    cards = "-" if row.colour == NEUTRAL else str(row.cards)  # the neutral army draws none
    for value, x in zip(
        (str(row.armies), str(row.territories), cards), COUNT_X.values(), strict=True
    ):
        ops.append(Words((x, y), value, 26, bold=True, fill=colour, anchor="rm"))
    if row.out:  # eliminated: struck through
        strike = ((NAME_X - 6, y), (COUNT_X["Cards"] + 6, y))
        ops.append(Shape(strike, MUTED, width=3, closed=False))
    return tuple(ops)


# --- encoding -----------------------------------------------------------------------------

_PINNED: tuple[RGB, ...] = (
    *OWNER_COLOURS,
    *(owner_ink(owner) for owner in range(len(OWNER_COLOURS))),
    NEUTRAL_FILL,
    UNCLAIMED_FILL,
    SEA_FILL,
    SHALLOWS,
    CONTINENT_LINE,
    SEA_LANE,
    BADGE_FILL,
    SELECTED,
)


def map_palette() -> Image.Image:
    """The map's palette in the language spoken, for a picture cut from it (the zoom)."""
    return _palette(language())


@static_layer
def _palette(_language: str) -> Image.Image:
    """The map's 256 colours (`fixed_palette`), learnt from a busy sample map in the language
    spoken: learning them for each picture would take a third of its time budget."""
    name = _("Player {n}").format(n=1)  # words of the language spoken
    # Every eighth territory unclaimed, the others neutral or owned, every owner in turn.
    sample = MapView(
        owners={slug: i % 8 - 2 for i, slug in enumerate(ORDER) if i % 8 != 0},
        armies={slug: 1 + i for i, slug in enumerate(ORDER)},
        legend=[
            LegendRow(name, owner, 10, 5, 2, out=owner == 1, to_act=owner == 2)
            for owner in (NEUTRAL, *range(len(OWNER_COLOURS)))
        ],
        caption=name,
        attack=("alaska", "kamchatka"),
        selected="brazil",
    )
    return fixed_palette(_PINNED, [render(sample)])
