"""The Horse Collar board (docs/rules/horse_collar.md): the whole table as a strip on top,
shooter's end on the left, and below it the scoring end enlarged so the weights can be read
in Discord's preview — every weight in its colour with its name (R1..B4) and its value —
with the scores, frame, target and Hickey jar at the side.

The table art (zones, lines, alleys) is drawn once per table into a cached layer, and each
weight is a cached sprite, so a render is a copy, a few pastes and the text.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from PIL import Image, ImageDraw

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
    draw_text,
    drawable,
    fit_text,
    fixed_palette,
    ink_width,
    paste_centred,
    smallest_text,
    smooth,
    text_width,
    to_png,
)
from images.layer_cache import static_layer
from images.words import NP_, _, decimal, language, listing, pgettext
from rules.core import PlayerId, setup_rng
from rules.horse_collar import ENGINE
from rules.horse_collar.actions import lined_up_weight
from rules.horse_collar.geometry import DEUCE_LINE, MIL_PER_INCH, TREY_LINE, Table, Zone
from rules.horse_collar.scoring import score_turn, zones
from rules.horse_collar.shots import LANE_BY_NAME, TARGET_BY_NAME
from rules.horse_collar.state import (
    WEIGHTS_PER_COLOUR,
    Aim,
    Colour,
    HorseCollarState,
    Rules,
    TurnResult,
    VoidReason,
    Weight,
    colour_of,
)

SIZE = (1000, 640)
SMALL = smallest_text(SIZE[0])  # the smallest words: readable on a phone

# A weight's name in chat and in the picture: its colour's initial, in the language spoken
# (Spanish blue is "azul": A1-A4), and its number.
WEIGHT_NAMES = {Colour.RED: NP_("weight", "R{number}"), Colour.BLUE: NP_("weight", "B{number}")}


def weight_name(index: int) -> str:
    """Weight `index` as players read it: "R1" to "R4", "B1" to "B4"."""
    name = pgettext("weight", WEIGHT_NAMES[colour_of(index)])
    return name.format(number=index % WEIGHTS_PER_COLOUR + 1)


# --- layout -------------------------------------------------------------------------------

# The whole table, shooter's end on the left, target end on the right.
STRIP = (20, 66, 980, 143)  # left, top, right, bottom of the playfield (to scale)
# The scoring end, enlarged: the last ZOOM_INCHES of the table, target end on the right.
ZOOM_INCHES = 36
ZOOM_SCALE = 18  # px per inch
ZOOM_LEFT, ZOOM_MID_Y = 20, 395
ZOOM_END_X = ZOOM_LEFT + ZOOM_INCHES * ZOOM_SCALE  # x of the target end: 668
ALLEY_PX = 34  # the alley drawn beyond the end and the sides
END_WORD_SIZE = SMALL  # the word naming the end, on its alley
PANEL_BOX = (730, 190, 990, 600)
FOOTER_Y = 620

FELT: RGB = (196, 160, 110)  # maple playfield
FELT_3: RGB = (214, 184, 132)
FELT_2: RGB = (205, 172, 121)
ALLEY: RGB = (52, 40, 32)
LINE: RGB = (40, 30, 24)
FOUL: RGB = (200, 40, 40)
OTHER_FOUL: RGB = (150, 110, 80)  # the foul line not in play
FOUL_WORDS: RGB = (255, 140, 140)
WEIGHT_RED: RGB = (214, 40, 48)
WEIGHT_RED_RIM: RGB = (255, 170, 170)
WEIGHT_BLUE: RGB = (36, 92, 210)
WEIGHT_BLUE_RIM: RGB = (170, 200, 255)
VALUE_GOOD: RGB = (60, 170, 90)
VALUE_BAD: RGB = (120, 120, 128)
ZOOM_RADIUS = round(1.156 * ZOOM_SCALE)
STRIP_RADIUS = 5


@dataclass(frozen=True)
class TableKey:
    """What the static art depends on."""

    length: int
    width: int
    foul: int
    short_foul: int
    long_foul: int

    @staticmethod
    def of(rules: Rules) -> TableKey:
        """The key of the table `rules` play on."""
        t = rules.table
        return TableKey(t.length, t.width, t.foul, t.short_foul, t.long_foul)

    @property
    def table(self) -> Table:
        """The table this key names."""
        return Table(self.length, self.width, self.foul, self.short_foul, self.long_foul)


# --- coordinates ----------------------------------------------------------------------------


def strip_xy(table: Table, d: float, y: float) -> Point:
    """A point of the table (mils) in the overview strip."""
    left, top, right, bottom = STRIP
    x = left + (table.length - d) / table.length * (right - left)
    return x, (top + bottom) / 2 + y / table.width * (bottom - top)


def zoom_xy(d: float, y: float) -> Point:
    """A point of the scoring end (mils) in the enlarged view."""
    return (
        ZOOM_END_X - d / MIL_PER_INCH * ZOOM_SCALE,
        ZOOM_MID_Y + y / MIL_PER_INCH * ZOOM_SCALE,
    )


def in_zoom(d: float) -> bool:
    """Whether a weight at distance `d` (mils) lies within the zoomed view."""
    return d <= ZOOM_INCHES * MIL_PER_INCH + 1_156


# --- static art -----------------------------------------------------------------------------


def table_layer(key: TableKey) -> Image.Image:
    """The board without weights or text that changes, in the language spoken."""
    return _table_layer(key, language())


@static_layer
def _table_layer(key: TableKey, _language: str) -> Image.Image:
    """The board without weights or text: strip, enlarged end, lines and zone labels."""
    table = key.table
    image = Image.new("RGB", SIZE, BACKGROUND)
    draw = ImageDraw.Draw(image)
    # Overview strip.
    left, top, right, bottom = STRIP
    draw.rectangle((left - 4, top - 8, right + 8, bottom + 8), fill=ALLEY)
    draw.rectangle(STRIP, fill=FELT)
    for d, colour, width in _lines(table):
        x, _skip = strip_xy(table, d, 0)
        draw.line((x, top, x, bottom), fill=colour, width=width)
    # Enlarged scoring end.
    half = table.half_width / MIL_PER_INCH * ZOOM_SCALE
    z_top, z_bottom = ZOOM_MID_Y - half, ZOOM_MID_Y + half
    draw.rectangle(
        (ZOOM_LEFT, z_top - ALLEY_PX, ZOOM_END_X + ALLEY_PX, z_bottom + ALLEY_PX), fill=ALLEY
    )
    draw.rectangle((ZOOM_LEFT, z_top, ZOOM_END_X, z_bottom), fill=FELT)
    x3, _skip = zoom_xy(TREY_LINE, 0)
    x2, _skip = zoom_xy(DEUCE_LINE, 0)
    draw.rectangle((x3, z_top, ZOOM_END_X, z_bottom), fill=FELT_3)
    draw.rectangle((x2, z_top, x3, z_bottom), fill=FELT_2)
    for x in (x3, x2):
        draw.line((x, z_top, x, z_bottom), fill=LINE, width=3)
    for text, x in (
        ("3", (x3 + ZOOM_END_X) / 2),
        ("2", (x2 + x3) / 2),
        ("1", (ZOOM_LEFT + x2) / 2),
    ):
        draw_text(image, (x, z_top - ALLEY_PX / 2), text, size=26, bold=True, fill=HIGHLIGHT)
    _draw_end_word(image, z_bottom - z_top)
    draw_text(
        image,
        (ZOOM_LEFT + 6, z_bottom + ALLEY_PX / 2),
        _("enlarged: the last {inches} in").format(inches=ZOOM_INCHES),
        size=SMALL,
        fill=MUTED,
        anchor="lm",
    )
    draw_text(image, (left, top - 20), _("shooter"), size=SMALL, fill=MUTED, anchor="lm")
    draw_text(image, (right, top - 20), _("target end"), size=SMALL, fill=MUTED, anchor="rm")
    fx, _y = strip_xy(table, table.foul, 0)
    draw_text(image, (fx, top - 20), _("foul line"), size=SMALL, fill=FOUL_WORDS)
    # The enlarged part, marked on the strip.
    zx, _skip = strip_xy(table, ZOOM_INCHES * MIL_PER_INCH, 0)
    draw.rectangle((zx, top - 6, right + 6, bottom + 6), outline=HIGHLIGHT, width=2)
    draw.line((zx, bottom + 6, ZOOM_LEFT, z_top - ALLEY_PX), fill=HIGHLIGHT, width=2)
    draw.line(
        (right + 6, bottom + 6, ZOOM_END_X + ALLEY_PX, z_top - ALLEY_PX), fill=HIGHLIGHT, width=2
    )
    draw.rectangle(PANEL_BOX, fill=PANEL, outline=PANEL_EDGE, width=2)
    return image


def _draw_end_word(image: Image.Image, length: float) -> None:
    """The word naming the end, on the alley beyond it: across the alley where it fits,
    else turned to run along it ("END" and "FONDO" at the board's smallest size, which a
    word is never drawn under) and no longer than the end is wide."""
    word, centre = _("END"), (ZOOM_END_X + ALLEY_PX / 2, ZOOM_MID_Y)
    if ink_width(word, END_WORD_SIZE) <= ALLEY_PX:
        draw_text(image, centre, word, size=END_WORD_SIZE, fill=MUTED)
        return
    word = fit_text(word, END_WORD_SIZE, length)
    layer = Image.new("RGBA", (math.ceil(text_width(word, END_WORD_SIZE)) + 8, 2 * END_WORD_SIZE))
    draw_text(layer, (layer.width / 2, layer.height / 2), word, size=END_WORD_SIZE, fill=MUTED)
    paste_centred(image, layer.transpose(Image.Transpose.ROTATE_90), centre)  # reads upwards


def _lines(table: Table) -> list[tuple[int, RGB, int]]:
    """Trey, deuce and both foul lines; the designated foul line red and thick."""
    lines = [(TREY_LINE, LINE, 1), (DEUCE_LINE, LINE, 1)]
    for foul in (table.short_foul, table.long_foul):
        lines.append((foul, FOUL, 3) if foul == table.foul else (foul, OTHER_FOUL, 1))
    return lines


@functools.cache
def weight_sprite(colour: Colour, radius: int, label: str) -> Image.Image:
    """A weight: a disc in its colour with a light rim and its name in the middle."""
    fill, rim = (
        (WEIGHT_RED, WEIGHT_RED_RIM) if colour is Colour.RED else (WEIGHT_BLUE, WEIGHT_BLUE_RIM)
    )
    size = 2 * radius + 4

    def paint(layer: Image.Image, k: int) -> None:
        d = ImageDraw.Draw(layer)
        c = size * k / 2
        d.ellipse((c - radius * k, c - radius * k, c + radius * k, c + radius * k), fill=OUTLINE)
        r = (radius - 1) * k
        d.ellipse((c - r, c - r, c + r, c + r), fill=rim)
        r = (radius - max(2, radius // 6)) * k
        d.ellipse((c - r, c - r, c + r, c + r), fill=fill)

    sprite = smooth((size, size), paint)
    if label:
        draw_text(sprite, (size / 2, size / 2), label, size=max(SMALL, radius - 2), bold=True)
    return sprite


# --- the picture ----------------------------------------------------------------------------


def render(state: HorseCollarState, names: Mapping[PlayerId, str]) -> Image.Image:
    """The board: the table, the weights as they lie, and the scores."""
    rules = state.rules
    image = table_layer(TableKey.of(rules)).copy()
    shown, result = shown_board(state)
    draw_weights(image, rules, shown)
    draw_values(image, rules, shown)
    _draw_header(image, state, names)
    _draw_panel(image, state, names)
    _draw_footer(image, state, names, shown, result is not None)
    return image


def render_png(state: HorseCollarState, names: Mapping[PlayerId, str]) -> bytes:
    """The board as PNG bytes."""
    return to_png(render(state, names), _palette(language()))


@static_layer
def _palette(_language: str) -> Image.Image:
    """The board's 256 colours (`fixed_palette`), learnt in the language spoken from a turn
    with weights of both colours in every zone, one up the table and one fallen, and from
    the game won."""
    start = ENGINE.initial_state((1, 2), {"hickey": 5}, setup_rng("palette"))
    edge = start.rules.table.half_width - 300
    spots = ((500, 0), (800, edge), (4_000, 3_000), (9_000, -2_000), (20_000, 0), (120_000, 0))
    weights = (*(Weight(i, d, y) for i, (d, y) in enumerate(spots)), Weight(6, 0, 0, fallen=True))
    turn = replace(start, weights=weights, shot=len(weights))
    samples = [render(turn, {}), render(replace(turn, winners=(1,)), {})]
    pinned = (
        FELT,
        FELT_3,
        FELT_2,
        ALLEY,
        LINE,
        FOUL,
        OTHER_FOUL,
        FOUL_WORDS,
        WEIGHT_RED,
        WEIGHT_RED_RIM,
        WEIGHT_BLUE,
        WEIGHT_BLUE_RIM,
        VALUE_GOOD,
        VALUE_BAD,
    )
    return fixed_palette(pinned, samples)


def shown_board(state: HorseCollarState) -> tuple[tuple[Weight, ...], TurnResult | None]:
    """This turn's weights; between turns, the board of the turn just scored."""
    if state.shot == 0 and state.history:
        last = state.history[-1]
        return last.weights, last
    return state.weights, None


def draw_weights(image: Image.Image, rules: Rules, weights: Sequence[Weight]) -> None:
    """Every weight on the board, in the strip and (near the end) enlarged."""
    table = rules.table
    for w in weights:
        if w.fallen:
            continue
        paste_centred(
            image, weight_sprite(colour_of(w.index), STRIP_RADIUS, ""), strip_xy(table, w.d, w.y)
        )
        if in_zoom(w.d):
            sprite = weight_sprite(colour_of(w.index), ZOOM_RADIUS, weight_name(w.index))
            paste_centred(image, sprite, zoom_xy(w.d, w.y))


def draw_values(image: Image.Image, rules: Rules, weights: Sequence[Weight]) -> None:
    """Each enlarged weight's value in a badge beside it."""
    draw = ImageDraw.Draw(image)
    for w, zone in zip(weights, zones(rules, weights), strict=True):
        if w.fallen or not in_zoom(w.d):
            continue
        x, y = zoom_xy(w.d, w.y)
        value = _value_text(zone, rules)
        bx, by = x - ZOOM_RADIUS * 0.8, y - ZOOM_RADIUS * 0.9
        colour = VALUE_GOOD if zone in (Zone.THREE, Zone.HANGER, Zone.CORNER) else VALUE_BAD
        draw.ellipse((bx - 15, by - 15, bx + 15, by + 15), fill=colour, outline=OUTLINE, width=2)
        draw_text(image, (bx, by), value, size=SMALL, bold=True)


def _value_text(zone: Zone, rules: Rules) -> str:
    return {
        Zone.CORNER: str(rules.corner_hanger),
        Zone.HANGER: "13",
        Zone.THREE: "3",
        Zone.TWO: "2",
        Zone.ONE: "1",
        Zone.SHORT: "0",
        Zone.ALLEY: "0",
    }[zone]


def _name(names: Mapping[PlayerId, str], player: PlayerId, width: float, size: int) -> str:
    return fit_text(drawable(names.get(player, str(player))) or "?", size, width, bold=True)


def side_name(state: HorseCollarState, side: int, names: Mapping[PlayerId, str]) -> str:
    """A side's name as drawn: its first player's, with how many play beside them."""
    players = state.sides[side]
    first = drawable(names.get(players[0], str(players[0]))) or "?"
    return first if len(players) == 1 else f"{first} +{len(players) - 1}"


def _draw_header(
    image: Image.Image, state: HorseCollarState, names: Mapping[PlayerId, str]
) -> None:
    rules = state.rules
    if state.over:
        winners = listing([side_name(state, s, names) for s in state.winners])
        text = fit_text(_("{winners} won").format(winners=winners), 24, 700, bold=True)
        draw_text(image, (20, 24), text, size=24, bold=True, fill=HIGHLIGHT, anchor="lm")
    else:
        shooter = _name(names, state.shooter, 420, 24)
        draw_text(image, (20, 24), shooter, size=24, bold=True, fill=HIGHLIGHT, anchor="lm")
        draw_text(
            image,
            (20 + min(430, text_width(shooter, 24, bold=True) + 12), 24),
            _("to shoot {weight} ({shot} of 8)").format(
                weight=weight_name(state.shot), shot=state.shot + 1
            ),
            size=22,
            anchor="lm",
        )
    draw_text(
        image,
        (980, 24),
        _("Frame {frame} · to {target}").format(frame=state.frame, target=rules.target),
        size=22,
        bold=True,
        anchor="rm",
    )


def _draw_panel(image: Image.Image, state: HorseCollarState, names: Mapping[PlayerId, str]) -> None:
    left, top, right, _skip = PANEL_BOX
    draw_text(image, ((left + right) / 2, top + 22), _("SCORES"), size=20, bold=True, fill=MUTED)
    y = top + 60
    for side in range(len(state.sides)):
        playing = not state.over and side == state.side
        won = side in state.winners
        colour = HIGHLIGHT if playing or won else TEXT if side in state.contenders else MUTED
        name = fit_text(side_name(state, side, names), 22, 160, bold=True)
        draw_text(image, (left + 14, y), name, size=22, bold=True, fill=colour, anchor="lm")
        draw_text(
            image,
            (right - 14, y),
            str(state.scores[side]),
            size=28,
            bold=True,
            fill=colour,
            anchor="rm",
        )
        tags = []
        if side == state.hammer and not state.over:
            tags.append(_("hammer"))
        if playing:
            tags.append(_("shooting"))
        if tags:
            draw_text(
                image, (left + 14, y + 24), " · ".join(tags), size=SMALL, fill=MUTED, anchor="lm"
            )
        y += 62
    if state.rules.hickey:
        jar = _("Hickey jar: {tokens}").format(tokens=state.jar)
        draw_text(image, (left + 14, y), jar, size=20, anchor="lm")
        y += 34
    if not state.over:
        aim = state.aims[state.seat_of(state.shooter)]
        lines = [_("Same again:"), *aim_lines(aim)]
        for n, line in enumerate(lines):
            text = fit_text(line, SMALL, right - left - 28)
            draw_text(image, (left + 14, y + 8 + 24 * n), text, size=SMALL, fill=MUTED, anchor="lm")


def aim_lines(aim: Aim) -> tuple[str, str, str]:
    """A shot's settings, one a line: its lane, its angle and its target."""
    lane = (
        _(LANE_BY_NAME[aim.lane].label)
        if aim.lane in LANE_BY_NAME
        else _("at {weight}").format(weight=weight_name(lined_up_weight(aim.lane)))
    )
    angle = _("angle {degrees}°").format(degrees=decimal(aim.angle / 100, "+0.##;-0.##"))
    return lane, angle, _(TARGET_BY_NAME[aim.target].label)


def _draw_footer(
    image: Image.Image,
    state: HorseCollarState,
    names: Mapping[PlayerId, str],
    shown: Sequence[Weight],
    scored: bool,
) -> None:
    """What the board is worth now, and the weights in the alley."""
    rules = state.rules
    if scored:
        last = state.history[-1]
        who = fit_text(side_name(state, last.side, names), 24, 260, bold=True)
        text = {
            None: _("{side} scored {points}"),
            VoidReason.NO_THREE: _("{side}: no 3, nothing counts"),
            VoidReason.SHORT_WEIGHT: _("{side}: a short weight, the turn is void"),
        }[last.void].format(side=who, points=last.points)
    elif shown:
        now = score_turn(rules, state.side, state.frame, shown)
        text = {
            None: _("Worth {points} now").format(points=now.points),
            VoidReason.NO_THREE: _("No 3 yet: nothing counts"),
            VoidReason.SHORT_WEIGHT: _("A short weight: knock it off!"),
        }[now.void]
    else:
        text = _("A cleared board")
    draw_text(image, (20, FOOTER_Y), text, size=24, bold=True, anchor="lm")
    fallen = [weight_name(w.index) for w in shown if w.fallen]
    far = [weight_name(w.index) for w in shown if not w.fallen and not in_zoom(w.d)]
    notes = []
    if far:
        notes.append(_("up the table: {weights}").format(weights=" ".join(far)))
    if fallen:
        notes.append(_("in the alley: {weights}").format(weights=" ".join(fallen)))
    if notes:
        draw_text(image, (980, FOOTER_Y), " · ".join(notes), size=SMALL, fill=MUTED, anchor="rm")
