"""The Cock & Bull board (docs/rules/cock_and_bull.md): the Arms with their six chip spots
in the middle, each player's 36-hole Mantle at the sides, the last roll below, the prompt on top.

Everything that never changes (shield, tracks, labels) is drawn once into a cached base, and
chips, pegs and dice are pre-drawn sprites. A board is the base with pieces on it
(`images.pieces`), each drawn and mapped onto the palette once: a move draws only what it
changed.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from PIL import Image, ImageChops, ImageDraw

from images.common import (
    BACKGROUND,
    CHIP_BLACK,
    CHIP_BLACK_RIM,
    CHIP_RED,
    CHIP_RED_RIM,
    HIGHLIGHT,
    MUTED,
    NEUTRAL,
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
    named_runs,
    paste_centred,
    smooth,
)
from images.layer_cache import static_layer
from images.pieces import (
    Ground,
    Layer,
    Op,
    Piece,
    Runs,
    Sprite,
    Words,
    board,
    board_png,
    even_box,
)
from images.words import N_, _, language, ngettext, pgettext
from rules.cock_and_bull import ENGINE
from rules.cock_and_bull.engine import match_winner
from rules.cock_and_bull.state import (
    EMPTY,
    MANTLE_TOP,
    CockAndBullState,
    Colour,
    Face,
    GameResult,
    Group,
    Phase,
    RollKind,
    WinKind,
    roll_kind,
)
from rules.core import PlayerId, setup_rng

SIZE = (800, 560)

# --- layout -------------------------------------------------------------------------------

# One panel per seat: seat 0's mantle on the left, seat 1's on the right.
PANELS: tuple[tuple[int, int, int, int], ...] = ((10, 80, 180, 550), (620, 80, 790, 550))
NAME_Y, COLOUR_Y, MATCH_Y = 102, 130, 156
HOLE_TOP_Y = 190  # hole 36: FINISH is at the top of the mantle
HOLE_PITCH = 8.8
OFF_SLOT_GAP = 26  # the peg waits below hole 1 until its first points
TRACK_DX = 80  # track centre, from the panel's left edge

# The Arms: a shield with a diagonal Bend (the three Cock spots) between the two Field spots
# (Bulls), under a crest with the Crown spot. Spots by index: 0-2 Bend, 3-4 Field, 5 Crown.
SHIELD_TOP, SHIELD_SIDE_END, SHIELD_POINT = 156, 292, 432
SHIELD_LEFT, SHIELD_RIGHT = 250, 550
CENTRE_X = SIZE[0] // 2
BEND_CENTRE = (400.0, 288.0)
BEND_ANGLE = math.radians(42)
BEND_DIR = (math.cos(BEND_ANGLE), math.sin(BEND_ANGLE))
BEND_HALF_WIDTH = 40
BEND_SPOTS_AT = (-50, 30, 110)  # along the Bend: its upper end is kept for the label
BEND_LABEL_AT = -140
SPOT_RADIUS = 24
SPOT_CENTRES: tuple[tuple[int, int], ...] = (
    *(
        (
            round(BEND_CENTRE[0] + t * BEND_DIR[0]),
            round(BEND_CENTRE[1] + t * BEND_DIR[1]),
        )
        for t in BEND_SPOTS_AT
    ),
    (484, 206),  # Field, sinister chief
    (316, 370),  # Field, dexter base
    (CENTRE_X, 108),  # Crown, on the crest
)
"""Pixel centre of each chip spot, by spot index (0-2 Bend, 3-4 Field, 5 Crown)."""

DICE_Y = 510
DICE_GAP = 50  # half the distance between the two dice centres
DIE_SIZE = 84
CAPTION_Y = 454

# --- colours ------------------------------------------------------------------------------

FIELD_AZURE: RGB = (36, 74, 140)
BEND_OR: RGB = (214, 168, 52)
GOLD_EDGE: RGB = (120, 88, 20)
SPOT_EMPTY: RGB = (232, 224, 204)  # pale socket: an empty spot can't be taken for a chip
SPOT_EMPTY_RING: RGB = (70, 56, 30)
HOLE: RGB = (12, 14, 20)
TRACK_BOARD: RGB = (22, 26, 36)
CHIP_BLACK_INNER: RGB = (90, 90, 96)  # the ring pressed into a black chip
# A red chip's dark outline: its light rim alone is lost on the gold Bend (WCAG graphics 3:1).
CHIP_RED_OUTLINE: RGB = (40, 8, 12)
CHIP_OUTLINE_WIDTH = 2
DIE_FACE: RGB = (250, 248, 240)
DIE_UNROLLED: RGB = (92, 100, 120)
FACE_COLOURS: dict[Face, RGB] = {
    Face.COCK: (204, 62, 20),
    Face.BULL: (120, 72, 28),
    Face.MONKEY: (112, 56, 168),
}


def peg_centre(seat: int, mantle: int) -> tuple[int, int]:
    """Pixel centre of `seat`'s peg with `mantle` points: hole 1..36 bottom to top, or the
    off-board slot below hole 1 at 0 ("off the board until that player first scores")."""
    x = PANELS[seat][0] + TRACK_DX
    hole_1 = HOLE_TOP_Y + (MANTLE_TOP - 1) * HOLE_PITCH
    if mantle <= 0:
        return x, round(hole_1 + OFF_SLOT_GAP)
    return x, round(hole_1 - (min(mantle, MANTLE_TOP) - 1) * HOLE_PITCH)


# --- the static base ----------------------------------------------------------------------


def _quad(p0: Point, p1: Point, p2: Point, steps: int = 24) -> list[Point]:
    out = []
    for i in range(steps + 1):
        t = i / steps
        out.append(
            (
                (1 - t) ** 2 * p0[0] + 2 * (1 - t) * t * p1[0] + t**2 * p2[0],
                (1 - t) ** 2 * p0[1] + 2 * (1 - t) * t * p1[1] + t**2 * p2[1],
            )
        )
    return out


def _shield_outline() -> list[Point]:
    bottom = SHIELD_SIDE_END + (SHIELD_POINT - SHIELD_SIDE_END) * 0.8
    right = _quad((SHIELD_RIGHT, SHIELD_SIDE_END), (SHIELD_RIGHT, bottom), (CENTRE_X, SHIELD_POINT))
    left = _quad((CENTRE_X, SHIELD_POINT), (SHIELD_LEFT, bottom), (SHIELD_LEFT, SHIELD_SIDE_END))
    return [(SHIELD_LEFT, SHIELD_TOP), (SHIELD_RIGHT, SHIELD_TOP), *right, *left[1:]]


def _crown_outline() -> list[Point]:
    # A five-pointed crest crown; the Crown spot sits on it like a jewel.
    base_y, rim_y, tip_y, valley_y = 150, 132, 76, 104
    left, right = CENTRE_X - 62, CENTRE_X + 62
    tips = [left + i * (right - left) / 4 for i in range(5)]
    points: list[Point] = [(left, base_y), (left, rim_y)]
    for i, x in enumerate(tips):
        points.append((x, tip_y if i % 2 == 0 else tip_y + 10))
        if i < 4:
            points.append(((x + tips[i + 1]) / 2, valley_y))
    points += [(right, rim_y), (right, base_y)]
    return points


def _scaled(points: Sequence[Point], k: int) -> list[Point]:
    return [(x * k, y * k) for x, y in points]


def _paint_base(layer: Image.Image, k: int) -> None:
    draw = ImageDraw.Draw(layer)
    draw.rectangle((0, 0, layer.width, layer.height), fill=BACKGROUND)
    for seat, (x0, y0, x1, y1) in enumerate(PANELS):
        draw.rounded_rectangle(
            (x0 * k, y0 * k, x1 * k, y1 * k),
            radius=14 * k,
            fill=PANEL,
            outline=PANEL_EDGE,
            width=2 * k,
        )
        x, top = peg_centre(seat, MANTLE_TOP)
        _skip, off = peg_centre(seat, 0)
        draw.rounded_rectangle(
            ((x - 11) * k, (top - 12) * k, (x + 11) * k, (off + 13) * k),
            radius=11 * k,
            fill=TRACK_BOARD,
        )
        for hole in range(1, MANTLE_TOP + 1):
            hx, hy = peg_centre(seat, hole)
            r = 3.2 if hole % 6 else 4.2  # every sixth hole is larger, like a ruler's marks
            draw.ellipse(((hx - r) * k, (hy - r) * k, (hx + r) * k, (hy + r) * k), fill=HOLE)
        draw.ellipse(
            ((x - 8) * k, (off - 8) * k, (x + 8) * k, (off + 8) * k),
            outline=MUTED,
            width=k,
        )

    draw.polygon(_scaled(_crown_outline(), k), fill=BEND_OR, outline=GOLD_EDGE, width=3 * k)

    shield = _scaled(_shield_outline(), k)
    draw.polygon(shield, fill=FIELD_AZURE)
    # The Bend is painted across the whole layer and clipped to the shield.
    mask = Image.new("L", layer.size, 0)
    ImageDraw.Draw(mask).polygon(shield, fill=255)
    band = Image.new("L", layer.size, 0)
    (cx, cy), (dx, dy) = BEND_CENTRE, BEND_DIR
    nx, ny, h, reach = -dy, dx, BEND_HALF_WIDTH, 400
    corners = [(cx - reach * dx + s * h * nx, cy - reach * dy + s * h * ny) for s in (1, -1)] + [
        (cx + reach * dx + s * h * nx, cy + reach * dy + s * h * ny) for s in (-1, 1)
    ]
    ImageDraw.Draw(band).polygon(_scaled(corners, k), fill=255)
    layer.paste(BEND_OR, (0, 0), ImageChops.multiply(mask, band))
    draw.line([*shield, shield[0]], fill=BEND_OR, width=6 * k, joint="curve")
    draw.line([*shield, shield[0]], fill=GOLD_EDGE, width=2 * k, joint="curve")


def _label_along_bend(base: Image.Image, lines: tuple[str, str], along: float) -> None:
    """A two-line label turned to run along the Bend, `along` pixels from its centre."""
    layer = Image.new("RGBA", (120, 50), (0, 0, 0, 0))
    draw_text(layer, (60, 14), lines[0], size=20, bold=True)
    draw_text(layer, (60, 36), lines[1], size=18, bold=True)
    turned = layer.rotate(-math.degrees(BEND_ANGLE), resample=Image.Resampling.BICUBIC, expand=True)
    paste_centred(
        base,
        turned,
        (BEND_CENTRE[0] + along * BEND_DIR[0], BEND_CENTRE[1] + along * BEND_DIR[1]),
    )


# The dice's faces, as the cog names them.
FACE_WORDS = {Face.COCK: N_("Cock"), Face.BULL: N_("Bull"), Face.MONKEY: N_("Monkey")}
PAIR_WORDS = {
    Face.COCK: N_("pair of Cocks"),
    Face.BULL: N_("pair of Bulls"),
    Face.MONKEY: N_("pair of Monkeys"),
}
COLOUR_WORDS = {Colour.RED: N_("red"), Colour.BLACK: N_("black")}
GROUP_QUESTIONS = {
    Group.BEND: N_("{player}: place or flip on the Bend?"),
    Group.FIELD: N_("{player}: place or flip on the Field?"),
    Group.CROWN: N_("{player}: place or flip on the Crown?"),
}


def base() -> Image.Image:
    """The board without chips, pegs, dice or words that change, in the language spoken."""
    return _base(language())


@static_layer
def _base(_language: str) -> Image.Image:
    """The board without chips, pegs, dice or words that change: drawn once per language."""
    base = smooth(SIZE, _paint_base, scale=3).convert("RGB")
    for seat in (0, 1):
        x = PANELS[seat][0] + TRACK_DX
        for hole in range(6, MANTLE_TOP + 1, 6):
            _skip, y = peg_centre(seat, hole)
            draw_text(base, (x - 20, y), str(hole), size=18, fill=MUTED, anchor="rm")
        _skip, off = peg_centre(seat, 0)
        draw_text(base, (x - 20, off), pgettext("mantle", "off"), size=18, fill=MUTED, anchor="rm")
    _label_along_bend(base, (_("BEND"), _(FACE_WORDS[Face.COCK])), BEND_LABEL_AT)
    field = _("FIELD") + " · " + _(FACE_WORDS[Face.BULL])
    for spot, dy in ((3, 40), (4, -40)):  # below the upper Bull spot, above the lower one
        x, y = SPOT_CENTRES[spot]
        draw_text(base, (x, y + dy), field, size=18, bold=True)
    x, y = SPOT_CENTRES[5]
    draw_text(base, (x - 76, y + 10), _("CROWN"), size=20, bold=True, anchor="rm")
    draw_text(base, (x + 76, y + 10), _(FACE_WORDS[Face.MONKEY]), size=20, bold=True, anchor="lm")
    return base


# --- sprites ------------------------------------------------------------------------------


def _disc(
    fill: RGB,
    rim: RGB,
    rim_width: float,
    radius: float,
    inner: RGB | None = None,
    outline: RGB | None = None,
) -> Image.Image:
    side = math.ceil(radius * 2 + 4)
    rings = [(radius, rim), (radius - rim_width, fill)]
    if outline is not None:  # a line around the rim, inside the same radius
        rings = [(radius, outline), (radius - CHIP_OUTLINE_WIDTH, rim), rings[1]]

    def paint(layer: Image.Image, k: int) -> None:
        draw = ImageDraw.Draw(layer)
        c = side * k / 2
        for r, colour in rings:
            draw.ellipse((c - r * k, c - r * k, c + r * k, c + r * k), fill=colour)
        if inner is not None:  # the ring pressed into a gaming chip
            r = (radius - rim_width - 5) * k
            draw.ellipse((c - r, c - r, c + r, c + r), outline=inner, width=2 * k)

    return smooth((side, side), paint)


# A seat's look: chip, peg, lit holes. None is a seat before colours are chosen: neutral grey,
# never red or black, so nobody reads a colour into it.
@functools.cache
def _chip(colour: Colour | None) -> Image.Image:
    if colour is Colour.RED:
        return _disc(CHIP_RED, CHIP_RED_RIM, 5, SPOT_RADIUS, CHIP_RED_RIM, CHIP_RED_OUTLINE)
    if colour is Colour.BLACK:
        return _disc(CHIP_BLACK, CHIP_BLACK_RIM, 3.5, SPOT_RADIUS, CHIP_BLACK_INNER)
    return _disc(NEUTRAL, TEXT, 3, SPOT_RADIUS)


@functools.cache
def _empty_spot() -> Image.Image:
    return _disc(SPOT_EMPTY, SPOT_EMPTY_RING, 3, SPOT_RADIUS - 4)


@functools.cache
def _peg(colour: Colour | None) -> Image.Image:
    if colour is Colour.RED:
        return _disc(CHIP_RED, TEXT, 3, 10)
    if colour is Colour.BLACK:
        return _disc(CHIP_BLACK, TEXT, 3, 10)
    return _disc(NEUTRAL, TEXT, 3, 10)


@functools.cache
def _lit_hole(colour: Colour | None) -> Image.Image:
    """A hole the peg has passed: the lit holes read as a progress bar."""
    tint = {Colour.RED: CHIP_RED_RIM, Colour.BLACK: CHIP_BLACK_RIM, None: NEUTRAL}[colour]
    return _disc(tint, tint, 0, 3.6)


@functools.cache
def _lit_holes(colour: Colour | None, mantle: int) -> tuple[Image.Image, tuple[int, int]]:
    """Holes 1 to `mantle` - 1 lit, as one layer, and its corner from a panel's left edge
    and the top: a board pastes one layer a seat, not up to 35 holes."""
    hole = _lit_hole(colour)
    corners = [
        (round(TRACK_DX - hole.width / 2), round(peg_centre(0, n)[1] - hole.height / 2))
        for n in range(1, mantle)
    ]
    left, top = min(x for x, _ in corners), min(y for _, y in corners)
    bottom = max(y for _, y in corners) + hole.height
    layer = Image.new("RGBA", (hole.width, bottom - top), (0, 0, 0, 0))
    for x, y in corners:
        layer.alpha_composite(hole, (x - left, y - top))
    return layer, (left, top)


def die(face: Face | None) -> Image.Image:
    """A die showing `face`, its name in the language spoken."""
    return _die(face, language())


@functools.cache
def _die(face: Face | None, _language: str) -> Image.Image:
    """A die showing `face` as a big letter over its name; None: not rolled yet."""
    side = DIE_SIZE + 8

    def paint(layer: Image.Image, k: int) -> None:
        draw = ImageDraw.Draw(layer)
        draw.rounded_rectangle(
            (6 * k, 6 * k, (side - 1) * k, (side - 1) * k), radius=14 * k, fill=(0, 0, 0, 110)
        )  # shadow
        draw.rounded_rectangle(
            (2 * k, 2 * k, (side - 5) * k, (side - 5) * k),
            radius=14 * k,
            fill=DIE_FACE if face else DIE_UNROLLED,
            outline=OUTLINE,
            width=2 * k,
        )

    die = smooth((side, side), paint)
    middle = (side - 3) / 2
    if face is None:
        draw_text(die, (middle, middle), "?", size=44, bold=True)
        return die
    colour = FACE_COLOURS[face]
    name = _(FACE_WORDS[face]).upper()
    draw_text(die, (middle, middle - 10), name[0], size=46, bold=True, fill=colour, outline=None)
    draw_text(die, (middle, middle + 26), name, size=18, bold=True, fill=colour, outline=None)
    return die


# --- words --------------------------------------------------------------------------------


def _names(state: CockAndBullState, names: Mapping[PlayerId, str]) -> tuple[str, str]:
    def name(seat: int) -> str:
        return drawable(names.get(state.players[seat], "")) or _("Player {n}").format(n=seat + 1)

    return name(0), name(1)


def _is_match(state: CockAndBullState) -> bool:
    return state.rules.best_of > 1 or state.rules.point_limit > 0


def _roll_outcome(dice: tuple[Face, Face]) -> str:
    kind = roll_kind(dice)
    if kind is RollKind.PAIR:
        return _(PAIR_WORDS[dice[0]])
    return pgettext("roll", "Cock & Bull") if kind is RollKind.COCK_AND_BULL else _("turn lost")


def _acting(state: CockAndBullState) -> set[int]:
    """The seats to highlight: whoever acts now (both, for the first-turn roll), or the
    winner once it is over."""
    if state.phase is Phase.START_ROLL:
        return {s for s, face in enumerate(state.start_rolls) if face is None}
    if state.phase is Phase.OVER:
        return {match_winner(state)}
    return {state.current}


def _prompt(state: CockAndBullState, shown: tuple[str, str]) -> list[tuple[str, RGB]]:
    """The line that says who acts and what they decide, names picked out."""
    phase = state.phase
    if phase is Phase.START_ROLL:
        waiting = [fit_text(shown[s], 28, 220, bold=True) for s in sorted(_acting(state))]
        if len(waiting) == 2:
            line = _("{first} and {second}: roll for first turn")
            return named_runs(line, {"first": waiting[0], "second": waiting[1]})
        return named_runs(_("{player} to roll for first turn"), {"player": waiting[0]})
    if phase is Phase.OVER:
        winner = fit_text(shown[match_winner(state)], 28, 320, bold=True)
        line = _("{player} wins the match!") if _is_match(state) else _("{player} wins!")
        return named_runs(line, {"player": winner})
    if phase is Phase.PLACE_OR_FLIP:
        assert state.pending_group is not None  # the engine sets it with this phase
        question = _(GROUP_QUESTIONS[state.pending_group])
    else:
        question = {
            Phase.CHOOSE_COLOUR: _("{player}: choose red or black"),
            Phase.ROLL: _("{player} to roll"),
            Phase.REMOVE_OR_POINT: _("{player}: remove a chip or take 1 point?"),
            Phase.TAKE_OR_DECLINE: _("{player}: take {points} points or decline?"),
        }[phase]
    player = fit_text(shown[state.current], 28, 260, bold=True)
    return named_runs(question, {"player": player}, points=state.pending_points)


def _match_line(state: CockAndBullState, shown: tuple[str, str]) -> str | None:
    rules = state.rules
    if not _is_match(state):
        return None
    parts = [
        _("Match to {points} points").format(points=rules.point_limit)
        if rules.point_limit
        else _("Best of {games}").format(games=rules.best_of)
    ]
    if state.phase is Phase.OVER:
        # Left number for the left player, as in the panels.
        parts.append(_("games {left}-{right}").format(left=state.wins[0], right=state.wins[1]))
        points = state.match_points
        parts.append(_("points {left}-{right}").format(left=points[0], right=points[1]))
    else:
        parts.append(_("Game {game}").format(game=state.game_no))
        if state.results:
            last = state.results[-1]
            winner = fit_text(shown[last.winner], 18, 150)
            line = _("game {game} to {player} ({how})")
            parts.append(line.format(game=last.game_no, player=winner, how=_win_kind(last.kind)))
    return "  ·  ".join(parts)


def _win_kind(kind: WinKind) -> str:
    return _("Chip-In") if kind is WinKind.CHIP_IN else _("Peg-Out")


# --- the picture --------------------------------------------------------------------------


# A board is the base with pieces on it (`images.pieces`): the prompt on top, a chip spot each,
# a panel's words and its track each, and the foot (the roll, or how the game ended). Each
# is drawn and mapped onto the palette once, whichever board shows it again (the other
# player's panel on most moves, the chips at every roll, a track at the same count), and a
# lit panel's outline is in the base. The boxes neither overlap nor cut what is drawn in them.
TOP_BOX = (0, 0, SIZE[0], PANELS[0][1])
FOOT_BOX = (PANELS[0][2] + 2, 436, PANELS[1][0], SIZE[1])
SPOT_REACH = 26  # half a chip's side
HEADER_BOTTOM = 174  # a panel's words end above it, its track starts below
TRACK_LEFT, TRACK_RIGHT, TRACK_BOTTOM = 60, 140, 544  # from a panel's left edge; above its rim


@dataclass(frozen=True)
class _Base(Ground):
    """The base with the lit panels' outlines, in a language."""

    lit: tuple[bool, bool]
    in_language: str

    def image(self) -> Image.Image:
        return _lit_base(self.lit, self.in_language)

    def palette(self) -> Image.Image:
        return _palette(self.in_language)


@functools.cache
def _lit_base(lit: tuple[bool, bool], in_language: str) -> Image.Image:
    image = _base(in_language).copy()
    for seat in (0, 1):
        if lit[seat]:
            ImageDraw.Draw(image).rounded_rectangle(
                PANELS[seat], radius=14, outline=HIGHLIGHT, width=4
            )
    return image


def render(state: CockAndBullState, names: Mapping[PlayerId, str]) -> Image.Image:
    """The board for `state` as an RGB image of `SIZE`; `names` maps player ids to display
    names (a missing name shows as "Player 1"/"Player 2")."""
    return board(*_board(state, names))


def render_png(state: CockAndBullState, names: Mapping[PlayerId, str]) -> bytes:
    """`render` as PNG bytes, ready to attach as board.png."""
    return board_png(*_board(state, names))


def _board(state: CockAndBullState, names: Mapping[PlayerId, str]) -> tuple[_Base, list[Piece]]:
    shown = _names(state, names)
    acting = _acting(state)
    lit = (0 in acting, 1 in acting)
    pieces = [_top(state, shown)]
    for spot, owner in enumerate(state.spots):
        x, y = SPOT_CENTRES[spot]
        box = even_box((x, y), SPOT_REACH)
        sprite = (
            Sprite((x, y), _empty_spot)
            if owner == EMPTY
            else Sprite((x, y), _chip, (state.colour_of(owner),))
        )
        pieces.append(Piece(box, (sprite,)))
    for seat in (0, 1):
        pieces += _panel(state, seat, shown[seat], lit=lit[seat])
    foot = _result(state, shown) if state.phase is Phase.OVER else _dice(state, shown)
    pieces.append(Piece(FOOT_BOX, tuple(foot)))
    return _Base(lit, language()), pieces


def _top(state: CockAndBullState, shown: tuple[str, str]) -> Piece:
    match = _match_line(state, shown)
    prompt = Runs((CENTRE_X, 28 if match else 40), tuple(_prompt(state, shown)), 28, bold=True)
    if not match:
        return Piece(TOP_BOX, (prompt,))
    return Piece(TOP_BOX, (prompt, Words((CENTRE_X, 60), match, 18, fill=MUTED)))


def _panel(state: CockAndBullState, seat: int, name: str, *, lit: bool) -> list[Piece]:
    """A seat's words, and its track: lit holes, the peg and its count."""
    x0, y0, x1, _y1 = PANELS[seat]
    middle = (x0 + x1) / 2
    colour = state.colour_of(seat)
    colour_word = _(COLOUR_WORDS[colour]) if colour else _("no colour")
    mantle = state.mantle[seat]
    words = [
        Words(
            (middle, NAME_Y),
            fit_text(name, 22, x1 - x0 - 16, bold=True),
            22,
            bold=True,
            fill=HIGHLIGHT if lit else TEXT,
        ),
        Words((middle, COLOUR_Y), f"{colour_word} · {mantle}/{MANTLE_TOP}", 20),
    ]
    if _is_match(state):
        won = state.wins[seat]
        line = ngettext("{games} game · {points} pts", "{games} games · {points} pts", won)
        words.append(
            Words(
                (middle, MATCH_Y),
                line.format(games=won, points=state.match_points[seat]),
                18,
                fill=MUTED,
            )
        )
    track: list[Op] = []
    if mantle > 1:
        _holes, (x, y) = _lit_holes(colour, mantle)
        track.append(Layer((x0 + x, y), _lit_holes_layer, (colour, mantle)))
    peg = peg_centre(seat, mantle)
    track.append(Sprite(peg, _peg, (colour,)))
    if mantle > 0:
        track.append(Words((peg[0] + 16, peg[1]), str(mantle), 20, bold=True, anchor="lm"))
    return [
        Piece((x0, y0, x1 + 1, HEADER_BOTTOM), tuple(words)),
        Piece((x0 + TRACK_LEFT, HEADER_BOTTOM, x0 + TRACK_RIGHT, TRACK_BOTTOM), tuple(track)),
    ]


def _lit_holes_layer(colour: Colour | None, mantle: int) -> Image.Image:
    return _lit_holes(colour, mantle)[0]


def _dice(state: CockAndBullState, shown: tuple[str, str]) -> list[Op]:
    left, right = (CENTRE_X - DICE_GAP, DICE_Y), (CENTRE_X + DICE_GAP, DICE_Y)
    thrower = state.last_roller
    if state.last_roll is not None and thrower is not None:  # both set, or neither
        roller = fit_text(shown[thrower], 20, 200)
        # In runs, the name apart: a worker keeps each text it draws, and a line per name
        # and outcome would crowd the others out of that cache when many games are on.
        line = _("{player} rolled: {outcome}")
        outcome = _roll_outcome(state.last_roll)
        caption = named_runs(line, {"player": roller}, outcome=outcome)
        return [
            Runs((CENTRE_X, CAPTION_Y), tuple(caption), 20),
            Sprite(left, die, (state.last_roll[0],)),
            Sprite(right, die, (state.last_roll[1],)),
        ]
    if state.phase is not Phase.START_ROLL and state.start_rolls == (None, None):
        return []
    # The first-turn roll: one die each, beside its roller's name.
    if state.phase is Phase.START_ROLL:
        first = _("First turn: Monkey beats Bull beats Cock")
    else:
        winner = fit_text(shown[state.current], 20, 200)
        first = _("{player} won the first turn").format(player=winner)
    room = PANELS[1][0] - PANELS[0][2] - 16  # between the side panels, a margin each side
    gap = DICE_GAP + DIE_SIZE / 2 + 10
    return [
        Words((CENTRE_X, CAPTION_Y), fit_text(first, 20, room), 20),
        Sprite(left, die, (state.start_rolls[0],)),
        Sprite(right, die, (state.start_rolls[1],)),
        Words((CENTRE_X - gap, DICE_Y), fit_text(shown[0], 20, 110), 20, anchor="rm"),
        Words((CENTRE_X + gap, DICE_Y), fit_text(shown[1], 20, 110), 20, anchor="lm"),
    ]


def _result(state: CockAndBullState, shown: tuple[str, str]) -> list[Op]:
    """The end: how the last game was won and its scores (match totals: top line, panels);
    or who resigned."""
    if state.seating.resigned:
        resigner = shown[state.seat_of(state.seating.resigned[0])]
        caption = _("{player} resigned").format(player=fit_text(resigner, 22, 300))
        return [Words((CENTRE_X, CAPTION_Y + 6), caption, 26, bold=True, fill=HIGHLIGHT)]
    result = state.results[-1]
    how = _win_kind(result.kind) + (_(" · Flying Monkey!") if result.flying_monkey else "")
    if _is_match(state):  # these are the last game's scores, not the match totals
        how = _("Game {game}: {how}").format(game=result.game_no, how=how)
    scores = (
        (fit_text(shown[0], 22, 130, bold=True), TEXT),
        (f" {result.scores[0]}", HIGHLIGHT),
        ("  ·  ", MUTED),
        (fit_text(shown[1], 22, 130, bold=True), TEXT),
        (f" {result.scores[1]}", HIGHLIGHT),
    )
    ops: list[Op] = [
        Words((CENTRE_X, CAPTION_Y + 6), how, 26, bold=True, fill=HIGHLIGHT),
        Runs((CENTRE_X, CAPTION_Y + 42), scores, 22, bold=True),
    ]
    if result.le_pew:
        loser = fit_text(shown[1 - result.winner], 20, 200)
        line = _("Le Pew for {player}: 0 points").format(player=loser)
        ops.append(Words((CENTRE_X, CAPTION_Y + 76), line, 20, fill=MUTED))
    return ops


# --- the palette --------------------------------------------------------------------------


@static_layer
def _palette(_language: str) -> Image.Image:
    """The board's 256 colours (`fixed_palette`), learnt from boards in the language spoken
    that show every kind of chip, peg, lit hole and die face, highlights and a result."""
    start = ENGINE.initial_state((1, 2), {}, setup_rng("palette"))
    match = replace(start, rules=replace(start.rules, best_of=3))
    last = GameResult(1, 0, WinKind.CHIP_IN, (30, 0), flying_monkey=False, le_pew=True)
    samples = (
        # A chip before the colours are chosen, which play never shows but the board can.
        replace(start, spots=(0, EMPTY, EMPTY, 1, EMPTY, EMPTY), start_rolls=(Face.MONKEY, None)),
        replace(
            match,
            phase=Phase.ROLL,
            current=1,
            red=0,
            spots=(0, 1, EMPTY, 1, 0, 0),
            mantle=(17, 35),
            last_roll=(Face.COCK, Face.BULL),
            game_no=2,
            wins=(1, 0),
            match_points=(30, 0),
            results=(last,),
        ),
        replace(
            match,
            phase=Phase.OVER,
            red=1,
            spots=(1, 1, 1, 0, 0, 1),
            mantle=(9, 0),
            wins=(0, 2),
            match_points=(9, 84),
            results=(last, replace(last, game_no=2, winner=1, scores=(9, 54))),
        ),
    )
    return fixed_palette(
        (
            FIELD_AZURE,
            BEND_OR,
            GOLD_EDGE,
            SPOT_EMPTY,
            SPOT_EMPTY_RING,
            HOLE,
            TRACK_BOARD,
            CHIP_BLACK_INNER,
            DIE_FACE,
            DIE_UNROLLED,
            *FACE_COLOURS.values(),
            CHIP_RED,
            CHIP_RED_RIM,
            CHIP_RED_OUTLINE,
            CHIP_BLACK,
            CHIP_BLACK_RIM,
            NEUTRAL,
        ),
        [render(state, {}) for state in samples],  # "Player 1", in the language spoken
    )
