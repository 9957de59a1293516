"""Winner's Circle pictures (docs/rules/winners_circle.md).

- `render`: the oval track of 36 numbered spaces (the start/finish line between 36 and 1, the
  pace chip on space 18 until a horse takes it) with the seven horses on it; in the infield
  the race, the money standings and the Win/Place/Show (and Last) horses; below, one column
  per gate: the horse, its card with the four values (face down once it has moved this
  cycle, the rolled symbol picked out while a horse is being chosen) and the chips on it.
- `render_payout`: the itemised payout of the race just run, line by line, and the money.

Horses are told apart by number, colour and shape (1 circle, 2 square, 3 triangle, 4 diamond,
5 pentagon, 6 hexagon, 7 star), so colour-blind players can read them. With hidden bets a
chip shows "?" until its race has ended; the values are never drawn before.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import replace

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
    draw_runs,
    draw_text,
    drawable,
    fit_text,
    fixed_palette,
    named_runs,
    paste_centred,
    smallest_text,
    smooth,
    text_width,
    to_png,
)
from images.layer_cache import static_layer
from images.words import N_, NP_, _, language, listing, ngettext, pgettext
from rules.core import PlayerId, setup_rng
from rules.winners_circle import ENGINE
from rules.winners_circle.cards import HORSES, Symbol, card
from rules.winners_circle.payout import race_payout
from rules.winners_circle.state import (
    PACE_SPACE,
    RACES,
    TRACK,
    Bet,
    LastMove,
    LineKind,
    Phase,
    RaceResult,
    WinnersCircleState,
)

SIZE = (960, 820)
SMALL = smallest_text(SIZE[0])  # the smallest words: readable on a phone

# --- the track: a stadium oval, run counter-clockwise on screen ----------------------------
# Position k = 0..36 along the track starts at the bottom-left end of the bottom straight:
# bottom straight 32..36 | 1..5 (the finish line in its middle), right bend 6..13, top
# straight 14..23 (space 18, the pace mark, near its middle), left bend 24..31.
CX1, CX2, CY = 207, 753, 244
RADIUS = 140
STRAIGHT = CX2 - CX1
BAND = 58  # the track's width
LABEL_OUT = BAND / 2 + 15  # space numbers sit just outside the track
FIRST_ON_BOTTOM = 32
TOKEN_RADIUS = 21
CROWD_RADIUS = 13  # tokens sharing a space in a crowded field: smaller, stacked inward
CROWD_STEP = 27

# --- the gates panel ----------------------------------------------------------------------
GATES_TOP = 446
COLUMN_W = (SIZE[0] - 24) / len(HORSES)
HEADER_Y = GATES_TOP + 24
CARD_TOP, CARD_ROW = GATES_TOP + 48, 26
CARD_PAD = 6  # a card's edge to its rows' names and moves
CARD_BOTTOM = CARD_TOP + 4 * CARD_ROW + 10
# Between the card and the chips: "moved" in the middle, the pace chip at the right (the
# header has no room for it beside a long colour, "amarillo").
MOVED_Y = CARD_BOTTOM + 16
COLUMN_PACE_CHIP = 26  # the pace chip's side there, in pixels
BETS_TOP = CARD_BOTTOM + 48  # six chips still fit above the column's bottom
BET_ROW = 27

# --- colours ------------------------------------------------------------------------------
TURF: RGB = (34, 92, 52)
TRACK_LIGHT: RGB = (176, 132, 88)
TRACK_DARK: RGB = (156, 114, 74)
CARD_FACE: RGB = (246, 240, 224)
CARD_BACK: RGB = (66, 72, 92)
CARD_INK: RGB = (30, 30, 36)
CHEQUER_LIGHT: RGB = (250, 250, 250)  # the start/finish line
CHEQUER_DARK: RGB = (20, 20, 20)
LOSS: RGB = (255, 130, 120)  # money paid to the bank
HORSE_COLOURS: dict[int, RGB] = {
    1: (222, 52, 48),  # red
    2: (40, 112, 230),  # blue
    3: (244, 204, 40),  # yellow
    4: (40, 168, 82),  # green
    5: (150, 84, 204),  # purple
    6: (246, 132, 30),  # orange
    7: (236, 236, 240),  # white
}
# The horses' colours (in their own catalog context: a horse is "rojo", a chip "roja")
# and the cards' symbols, in English: translated where shown.
HORSE_COLOUR = "horse colour"
HORSE_NAMES = {
    1: NP_("horse colour", "red"),
    2: NP_("horse colour", "blue"),
    3: NP_("horse colour", "yellow"),
    4: NP_("horse colour", "green"),
    5: NP_("horse colour", "purple"),
    6: NP_("horse colour", "orange"),
    7: NP_("horse colour", "white"),
}
# Tuned so that any two stay apart (CIE76 ΔE >= 20) under simulated deuteranopia, protanopia
# and tritanopia (tests/images/test_colour_blindness.py).
PLAYER_COLOURS: tuple[RGB, ...] = (
    (0, 179, 200),  # teal
    (227, 72, 151),  # pink
    (170, 120, 66),  # brown
    (145, 206, 62),  # lime
    (111, 131, 214),  # periwinkle
    (212, 210, 206),  # silver
)
SYMBOL_NAMES = {
    Symbol.HEAD: N_("Head"),
    Symbol.CAP: N_("Cap"),
    Symbol.SADDLE: N_("Saddle"),
    Symbol.SHOE: N_("Shoe"),
}
PLACE_NAMES = (N_("Win"), N_("Place"), N_("Show"))
LINE_WORDS = {
    LineKind.WIN: N_("Win"),
    LineKind.PLACE: N_("Place"),
    LineKind.SHOW: N_("Show"),
    LineKind.PACE: N_("Pace"),
    LineKind.LAST: N_("Last"),
}


# --- geometry -----------------------------------------------------------------------------


def _along(k: float, out: float = 0.0) -> Point:
    """The point at position `k` (0–36) along the track, `out` pixels outward of its middle."""
    k %= TRACK
    r = RADIUS + out
    if k < 10:
        return CX1 + k * STRAIGHT / 10, CY + r
    if k < 18:
        a = math.radians(90 - (k - 10) * 22.5)
        return CX2 + r * math.cos(a), CY + r * math.sin(a)
    if k < 28:
        return CX2 - (k - 18) * STRAIGHT / 10, CY - r
    a = math.radians(-90 - (k - 28) * 22.5)
    return CX1 + r * math.cos(a), CY + r * math.sin(a)


def _position(space: int) -> int:
    return (space - FIRST_ON_BOTTOM) % TRACK


def space_centre(space: int) -> Point:
    """Pixel centre of track space 1–36, where a horse standing on it is drawn."""
    return _along(_position(space) + 0.5)


FINISH_K = _position(1)  # the line lies between 36 and 1


PACE_CHIP_AT = _along(_position(PACE_SPACE) + 0.5, -BAND / 2 - 22)
"""Where the pace chip waits, by space 18, until a horse takes it."""


def gate_column(horse: int) -> tuple[float, float]:
    """Left and right edges of a horse's column in the gates panel."""
    x0 = 12 + (horse - 1) * COLUMN_W
    return x0 + 3, x0 + COLUMN_W - 3


def column_pace_chip(horse: int) -> Point:
    """Where the pace chip sits once `horse` has taken it: under its card, at the right."""
    return card_box(horse)[2] - COLUMN_PACE_CHIP / 2, MOVED_Y


def card_box(horse: int) -> tuple[float, float, float, float]:
    """Where a horse's card is drawn: left, top, right, bottom."""
    x0, x1 = gate_column(horse)
    return x0 + 4, CARD_TOP, x1 - 4, CARD_BOTTOM


def bet_slot(horse: int, index: int) -> Point:
    """Centre of the `index`th chip on `horse` (one a row under its card, name beside it)."""
    x0, _skip = gate_column(horse)
    return x0 + 22, BETS_TOP + index * BET_ROW


# --- the static base ----------------------------------------------------------------------


def _paint_base(layer: Image.Image, k: int) -> None:
    draw = ImageDraw.Draw(layer)
    draw.rectangle((0, 0, layer.width, layer.height), fill=BACKGROUND)

    def scaled(points: Sequence[Point]) -> list[Point]:
        return [(x * k, y * k) for x, y in points]

    # The turf: the oval's outline plus a margin.
    outer = [_along(i / 4, BAND / 2 + 6) for i in range(TRACK * 4)]
    draw.polygon(scaled(outer), fill=TURF)
    for position in range(TRACK):
        edge = [_along(position + i / 4, BAND / 2) for i in range(5)]
        edge += [_along(position + 1 - i / 4, -BAND / 2) for i in range(5)]
        draw.polygon(
            scaled(edge),
            fill=TRACK_LIGHT if position % 2 else TRACK_DARK,
            outline=OUTLINE,
            width=k,
        )
    inner = [_along(i / 4, -BAND / 2 - 4) for i in range(TRACK * 4)]
    draw.polygon(scaled(inner), fill=PANEL, outline=PANEL_EDGE, width=2 * k)
    # The start/finish line: a chequered strip across the track.
    x = _along(FINISH_K)[0]
    top = CY + RADIUS - BAND / 2
    for i in range(8):
        for j in range(2):
            colour = CHEQUER_LIGHT if (i + j) % 2 else CHEQUER_DARK
            y = top + i * BAND / 8
            draw.rectangle(
                ((x - 6 + 6 * j) * k, y * k, (x + 6 * j) * k, (y + BAND / 8) * k), fill=colour
            )
    for horse in HORSES:
        x0, x1 = gate_column(horse)
        draw.rounded_rectangle(
            (x0 * k, GATES_TOP * k, x1 * k, (SIZE[1] - 8) * k),
            radius=10 * k,
            fill=PANEL,
            outline=PANEL_EDGE,
            width=2 * k,
        )


def base() -> Image.Image:
    """Track, numbers, finish line and gate columns, in the language spoken."""
    return _base(language())


@static_layer
def _base(_language: str) -> Image.Image:
    """Track, numbers, finish line and gate columns: drawn once per language."""
    base = smooth(SIZE, _paint_base, scale=2).convert("RGB")
    for space in range(1, TRACK + 1):
        bold = space in (1, PACE_SPACE, TRACK)
        draw_text(
            base,
            _along(_position(space) + 0.5, LABEL_OUT),
            str(space),
            size=SMALL,
            bold=bold,
            fill=TEXT if bold else MUTED,
        )
    x, y = _along(FINISH_K, -BAND / 2 - 14)
    draw_text(base, (x + 6, y), _("FINISH"), size=SMALL, bold=True, anchor="lm")
    for horse in HORSES:
        x0, _skip = gate_column(horse)
        paste_centred(base, _token(horse, 16), (x0 + 24, HEADER_Y))
        draw_text(
            base,
            (x0 + 46, HEADER_Y),
            pgettext(HORSE_COLOUR, HORSE_NAMES[horse]),
            size=SMALL,
            anchor="lm",
        )
    return base


# --- sprites ------------------------------------------------------------------------------


def _shape(horse: int, centre: Point, r: float) -> list[Point]:
    """The outline of horse `horse`'s token (1 is a circle and drawn as an ellipse)."""
    cx, cy = centre
    if horse == 7:  # a star
        return [
            (
                cx + (r * 1.2 if i % 2 == 0 else r * 0.7) * math.cos(math.radians(-90 + 36 * i)),
                cy + (r * 1.2 if i % 2 == 0 else r * 0.7) * math.sin(math.radians(-90 + 36 * i)),
            )
            for i in range(10)
        ]
    sides, turn, scale = {
        2: (4, 45, 1.15),
        3: (3, -90, 1.2),
        4: (4, 0, 1.12),
        5: (5, -90, 1.04),
        6: (6, 0, 1.02),
    }[horse]
    return [
        (
            cx + r * scale * math.cos(math.radians(turn + 360 * i / sides)),
            cy + r * scale * math.sin(math.radians(turn + 360 * i / sides)),
        )
        for i in range(sides)
    ]


@functools.cache
def _token(horse: int, radius: int) -> Image.Image:
    side = radius * 3

    def paint(layer: Image.Image, k: int) -> None:
        draw = ImageDraw.Draw(layer)
        c = side * k / 2
        r = radius * k
        if horse == 1:
            draw.ellipse(
                (c - r, c - r, c + r, c + r), fill=HORSE_COLOURS[1], outline=OUTLINE, width=2 * k
            )
        else:
            draw.polygon(
                _shape(horse, (c, c), r), fill=HORSE_COLOURS[horse], outline=OUTLINE, width=2 * k
            )

    token = smooth((side, side), paint)
    y = side / 2 + (radius * 0.18 if horse == 3 else 0)  # a triangle's middle sits low
    draw_text(token, (side / 2, y), str(horse), size=max(SMALL, round(radius * 1.1)), bold=True)
    return token


CHIP_SIDE = 30  # a betting chip's width in pixels


@functools.cache
def _chip(seat: int, label: str) -> Image.Image:
    """A betting chip in the seat's colour showing its value (or "?")."""
    side = CHIP_SIDE

    def paint(layer: Image.Image, k: int) -> None:
        draw = ImageDraw.Draw(layer)
        draw.ellipse((1 * k, 1 * k, (side - 1) * k, (side - 1) * k), fill=TEXT)
        draw.ellipse((3 * k, 3 * k, (side - 3) * k, (side - 3) * k), fill=PLAYER_COLOURS[seat % 6])

    chip = smooth((side, side), paint)
    draw_text(chip, (side / 2, side / 2), label, size=SMALL, bold=True)
    return chip


@functools.cache
def _pace_chip(side: int, spoken: str) -> Image.Image:
    """The pace chip, its letter in the `spoken` language (part of the cache's key)."""

    def paint(layer: Image.Image, k: int) -> None:
        draw = ImageDraw.Draw(layer)
        draw.ellipse(
            (1 * k, 1 * k, (side - 1) * k, (side - 1) * k),
            fill=HIGHLIGHT,
            outline=OUTLINE,
            width=2 * k,
        )

    chip = smooth((side, side), paint)
    letter = pgettext("pace chip", "P")  # the initial of "Pace"
    draw_text(chip, (side / 2, side / 2), letter, size=SMALL, bold=True, fill=OUTLINE, outline=None)
    return chip


# --- words --------------------------------------------------------------------------------


def _names(state: WinnersCircleState, names: Mapping[PlayerId, str]) -> tuple[str, ...]:
    return tuple(
        drawable(names.get(p, "")) or _("Player {n}").format(n=seat + 1)
        for seat, p in enumerate(state.players)
    )


def _chip_label(state: WinnersCircleState, bet: Bet) -> str:
    """A chip's face: its value, or "?" while hidden bets are running."""
    revealed = state.phase in (Phase.RACE_OVER, Phase.OVER)
    return "?" if state.rules.hidden_bets and not revealed else str(bet.chip)


def _prompt(state: WinnersCircleState, shown: tuple[str, ...]) -> list[tuple[str, RGB]]:
    name = {"player": fit_text(shown[state.current], 26, 260, bold=True)}
    race = {"race": state.race, "races": RACES}
    if state.phase is Phase.BETTING:
        n = len(state.players)
        line = _("Race {race} of {races}: {player} to bet (round {round} of {rounds})")
        return named_runs(
            line, name, **race, round=len(state.bets) // n + 1, rounds=len(state.rules.chips)
        )
    if state.phase is Phase.ROLL:
        return named_runs(_("Race {race} of {races}: {player} to roll"), name, **race)
    if state.phase is Phase.MOVE:
        assert state.rolled is not None  # set with Phase.MOVE
        line = _("Race {race} of {races}: {player} rolled {symbol}: pick a horse")
        return named_runs(line, name, **race, symbol=_(SYMBOL_NAMES[state.rolled]))
    if state.phase is Phase.RACE_OVER:
        line = _("Race {race} is over. {player} starts race {next}")
        return named_runs(line, name, race=state.race, next=state.race + 1)
    richest = max(state.money)
    winners = [shown[s] for s, m in enumerate(state.money) if m == richest]
    who = fit_text(listing(winners), 26, 480, bold=True)
    won = ngettext("{players} wins with {money}!", "{players} win with {money}!", len(winners))
    return named_runs(won, {"players": who}, money=richest)


# --- the board ----------------------------------------------------------------------------


def render(state: WinnersCircleState, names: Mapping[PlayerId, str]) -> Image.Image:
    """The board for `state` as an RGB image of `SIZE`; `names` maps player ids to display
    names (a missing one shows as "Player n")."""
    image = base().copy()
    shown = _names(state, names)
    draw_runs(image, (SIZE[0] / 2, 26), _prompt(state, shown), size=26, bold=True)
    _draw_infield(image, state, shown)
    _draw_horses(image, state)  # over the infield's words: a crowded space stacks into it
    if not state.pace:
        paste_centred(image, _pace_chip(34, language()), PACE_CHIP_AT)
    for horse in HORSES:
        _draw_card(image, state, horse)
        _draw_bets(image, state, horse, shown)
    return image


def render_png(state: WinnersCircleState, names: Mapping[PlayerId, str]) -> bytes:
    """`render` as PNG bytes, ready to attach as board.png."""
    return to_png(render(state, names), _palette(language()))


def _draw_horses(image: Image.Image, state: WinnersCircleState) -> None:
    by_space: dict[int, list[int]] = {}
    for horse in state.running():
        by_space.setdefault(state.space(horse), []).append(horse)
    for space, horses in by_space.items():
        centre = space_centre(space)
        if len(horses) == 1:
            paste_centred(image, _token(horses[0], TOKEN_RADIUS), centre)
            continue
        # A crowded space: a line of small tokens from the track into the infield.
        for i, horse in enumerate(sorted(horses)):
            spot = _along(_position(space) + 0.5, -i * CROWD_STEP + BAND / 2 - CROWD_RADIUS - 4)
            paste_centred(image, _token(horse, CROWD_RADIUS), spot)


def _draw_infield(image: Image.Image, state: WinnersCircleState, shown: tuple[str, ...]) -> None:
    left = CX1 - 40
    draw_text(image, (left, CY - 96), _("Money"), size=20, bold=True, anchor="lm")
    for seat, name in enumerate(shown):
        y = CY - 72 + seat * 24
        lit = seat == state.current and state.phase is not Phase.OVER
        paste_centred(image, _chip(seat, ""), (left + 8, y))
        draw_text(
            image,
            (left + 28, y),
            fit_text(name, SMALL, 150),
            size=SMALL,
            anchor="lm",
            fill=HIGHLIGHT if lit else TEXT,
        )
        draw_text(
            image, (left + 250, y), str(state.money[seat]), size=SMALL, bold=True, anchor="rm"
        )
    right = CX2 - 170
    draw_text(image, (right, CY - 96), _("Winner's circle"), size=20, bold=True, anchor="lm")
    rows: list[tuple[str, tuple[int, ...]]] = [
        (_(PLACE_NAMES[i]), (state.finished[i],) if i < len(state.finished) else ())
        for i in range(3)
    ]
    if state.phase in (Phase.RACE_OVER, Phase.OVER):
        rows.append((_("Last"), state.results[-1].last))
    rows.append((_("Pace"), (state.pace,) if state.pace else ()))
    # The horses after the widest label ("Place": 80 px, "Segundo" more).
    indent = max(80, *(round(text_width(label, SMALL)) + 12 for label, _horses in rows))
    for i, (label, horses) in enumerate(rows):
        y = CY - 66 + i * 28
        draw_text(image, (right, y), label, size=SMALL, anchor="lm", fill=MUTED)
        if not horses:
            draw_text(image, (right + indent, y), "-", size=SMALL, anchor="lm", fill=MUTED)
        for j, horse in enumerate(horses):
            paste_centred(image, _token(horse, 15), (right + indent + 8 + j * 34, y))
    line = _last_move_line(state, shown)
    if line:
        draw_text(image, ((CX1 + CX2) / 2, CY + 72), fit_text(line, SMALL, 500), size=SMALL)
    if state.race == RACES and state.phase is not Phase.OVER:
        _draw_double_pay(image, _("Race 3 pays double"))


# Between the money's column and the winner's circle, under the pace chip.
DOUBLE_PAY_GAP = (CX1 + 225, CX2 - 185)


def _draw_double_pay(image: Image.Image, text: str) -> None:
    """The last race's note, on one line where it fits between the infield's columns, else on
    two of about equal length (a longer translation), each drawn smaller if it must be."""
    left, right = DOUBLE_PAY_GAP
    width = right - left
    lines = [text] if text_width(text, SMALL) <= width else _halves(text)
    for i, line in enumerate(lines):
        y = CY - 52 + i * 22
        draw_text(image, ((left + right) / 2, y), line, size=SMALL, fill=HIGHLIGHT)


def _halves(text: str) -> list[str]:
    """`text` broken at the space nearest its middle (whole, if it has none)."""
    spaces = [i for i, c in enumerate(text) if c == " "]
    if not spaces:
        return [text]
    cut = min(spaces, key=lambda i: abs(2 * i - len(text)))
    return [text[:cut], text[cut + 1 :]]


def _last_move_line(state: WinnersCircleState, shown: tuple[str, ...]) -> str:
    move = state.last_move
    if move is None:
        return ""
    who = fit_text(shown[state.seat_of(move.player)], SMALL, 160)
    moved = move.end - move.start
    where = (
        _("crossed the line")
        if move.end > 2 * TRACK
        else _("to space {space}").format(space=(move.end - 1) % TRACK + 1)
    )
    symbol = _(SYMBOL_NAMES[move.symbol])
    if moved == 0:
        line = _("{player} rolled {symbol}: horse {horse} was blocked")
    else:
        line = _("{player} rolled {symbol}: horse {horse} ran {moved}, {where}")
    return line.format(player=who, symbol=symbol, horse=move.horse, moved=moved, where=where)


def _draw_card(image: Image.Image, state: WinnersCircleState, horse: int) -> None:
    x0, y0, x1, y1 = card_box(horse)
    draw = ImageDraw.Draw(image)
    if horse in state.finished:  # its card has left play
        place = _(PLACE_NAMES[state.finished.index(horse)]).upper()
        # As large as the card's width allows: "WIN" at 26, "GANADOR" smaller.
        size = next((s for s in (26, 22) if text_width(place, s, bold=True) <= x1 - x0 - 8), SMALL)
        draw.rounded_rectangle((x0, y0, x1, y1), radius=8, fill=HIGHLIGHT, outline=OUTLINE, width=2)
        draw_text(
            image,
            ((x0 + x1) / 2, (y0 + y1) / 2),
            place,
            size=size,
            bold=True,
            fill=OUTLINE,
            outline=None,
        )
        return
    up = state.is_face_up(horse)
    draw.rounded_rectangle(
        (x0, y0, x1, y1), radius=8, fill=CARD_FACE if up else CARD_BACK, outline=OUTLINE, width=2
    )
    c = card(state.gates[horse - 1])
    moves = {symbol: str(c.move(symbol)) for symbol in Symbol}
    # The names in a column as wide as the language's longest ("Herradura"), never shrunk;
    # the moves take the room left, at 22 px, or down to the names' 18 beside a long name.
    names = max(text_width(_(name), SMALL) for name in SYMBOL_NAMES.values())
    room = x1 - x0 - 2 * CARD_PAD - names - 4
    widest = max(moves.values(), key=lambda move: text_width(move, 22, bold=True))
    move_size = next((s for s in (22, 20) if text_width(widest, s, bold=True) <= room), SMALL)
    for row, symbol in enumerate(Symbol):
        y = y0 + 18 + row * CARD_ROW
        picked = up and state.phase is Phase.MOVE and state.rolled is symbol
        if picked:
            draw.rectangle((x0 + 3, y - 12, x1 - 3, y + 12), fill=HIGHLIGHT)
        ink = CARD_INK if up else MUTED
        name = _(SYMBOL_NAMES[symbol])
        draw_text(image, (x0 + CARD_PAD, y), name, size=SMALL, fill=ink, anchor="lm", outline=None)
        draw_text(
            image,
            (x1 - CARD_PAD, y),
            moves[symbol],
            size=move_size,
            bold=True,
            fill=ink,
            anchor="rm",
            outline=None,
        )
    if not up:
        # Centred in the room the pace chip leaves, so that the two do not read as one.
        right = column_pace_chip(horse)[0] - COLUMN_PACE_CHIP / 2 if state.pace == horse else x1
        draw_text(image, ((x0 + right) / 2, MOVED_Y), _("moved"), size=SMALL, fill=MUTED)


def _draw_bets(
    image: Image.Image, state: WinnersCircleState, horse: int, shown: tuple[str, ...]
) -> None:
    for i, bet in enumerate(state.bets_on(horse)):
        seat = state.seat_of(bet.player)
        x, y = bet_slot(horse, i)
        paste_centred(image, _chip(seat, _chip_label(state, bet)), (x, y))
        draw_text(image, (x + 20, y), fit_text(shown[seat], SMALL, 88), size=SMALL, anchor="lm")
    if state.pace == horse:
        paste_centred(image, _pace_chip(COLUMN_PACE_CHIP, language()), column_pace_chip(horse))


# --- the payout summary -------------------------------------------------------------------

PAYOUT_WIDTH = 800
PAYOUT_ROW = 30
PAYOUT_HOW_X = 400  # how a line's amount was reached
PAYOUT_WORD_X = 52  # a payout line's kind ("Place"), then its chip and the player's name
PAYOUT_SMALL = smallest_text(PAYOUT_WIDTH)


def payout_chip_x() -> int:
    """Where a payout line's chip stands: after a column as wide as the language's longest
    kind ("Segundo"), so that no kind is drawn smaller than the others."""
    return _payout_chip_x(language())


@functools.cache
def _payout_chip_x(_language: str) -> int:
    widest = max(text_width(_(word), PAYOUT_SMALL, bold=True) for word in LINE_WORDS.values())
    return math.ceil(PAYOUT_WORD_X + widest + 6 + CHIP_SIDE / 2)


def render_payout(state: WinnersCircleState, names: Mapping[PlayerId, str]) -> Image.Image:
    """The itemised payout of the race just run (after a race: `Phase.RACE_OVER`/`OVER`),
    one line per chip paid or paying, then everyone's money."""
    lines = race_payout(state)
    result = state.results[-1]
    shown = _names(state, names)
    height = 120 + PAYOUT_ROW * (len(lines) + len(state.players) + 2)
    image = Image.new("RGB", (PAYOUT_WIDTH, height), BACKGROUND)
    title = _("Race {race} payout").format(race=result.race) + (
        _(" (doubled)") if result.race == RACES else ""
    )
    draw_text(image, (PAYOUT_WIDTH / 2, 28), title, size=26, bold=True)
    finish = "   ".join(
        _("{place}: horse {horse}").format(place=_(PLACE_NAMES[i]), horse=h)
        for i, h in enumerate(result.finish)
    )
    last = ", ".join(str(h) for h in result.last)
    draw_text(
        image,
        (PAYOUT_WIDTH / 2, 62),
        _("{finish}   Last: {last}   Pace: horse {pace}").format(
            finish=finish, last=last, pace=result.pace
        ),
        size=PAYOUT_SMALL,
        fill=MUTED,
    )
    y = 100
    if not lines:
        draw_text(
            image, (PAYOUT_WIDTH / 2, y), _("No chip was paid or had to pay."), size=PAYOUT_SMALL
        )
        y += PAYOUT_ROW
    for line in lines:
        seat = state.seat_of(line.player)
        paste_centred(image, _token(line.horse, 13), (30, y))
        word = _(LINE_WORDS[line.kind])
        draw_text(image, (PAYOUT_WORD_X, y), word, size=PAYOUT_SMALL, bold=True, anchor="lm")
        chip_x = payout_chip_x()
        paste_centred(image, _chip(seat, str(line.chip)), (chip_x, y))
        name_x = chip_x + CHIP_SIDE / 2 + 5
        name = fit_text(shown[seat], PAYOUT_SMALL, PAYOUT_HOW_X - 18 - name_x)
        draw_text(image, (name_x, y), name, size=PAYOUT_SMALL, anchor="lm")
        draw_text(
            image,
            (PAYOUT_HOW_X, y),
            _how(line.kind, line.chip, line.bets, line.per_bet, result.race),
            size=PAYOUT_SMALL,
            anchor="lm",
            fill=MUTED,
        )
        sign = "+" if line.amount > 0 else ""
        short = _(" (short {unpaid})").format(unpaid=line.unpaid) if line.unpaid else ""
        amount = f"{sign}{line.amount}{short}"
        draw_text(
            image,
            (PAYOUT_WIDTH - 20, y),
            amount,
            size=20,
            bold=True,
            anchor="rm",
            fill=TEXT if line.amount >= 0 else LOSS,
        )
        y += PAYOUT_ROW
    y += 10
    draw_text(image, (20, y), _("Money"), size=20, bold=True, anchor="lm")
    y += PAYOUT_ROW
    for seat, name in enumerate(shown):
        paste_centred(image, _chip(seat, ""), (30, y))
        draw_text(image, (52, y), fit_text(name, PAYOUT_SMALL, 400), size=PAYOUT_SMALL, anchor="lm")
        draw_text(
            image, (PAYOUT_WIDTH - 20, y), str(state.money[seat]), size=20, bold=True, anchor="rm"
        )
        y += PAYOUT_ROW
    return image


def render_payout_png(state: WinnersCircleState, names: Mapping[PlayerId, str]) -> bytes:
    """The payout of the race just run (`render_payout`), as PNG bytes."""
    return to_png(render_payout(state, names), _palette(language()))


def _how(kind: LineKind, chip: int, bets: int, per_bet: int, race: int) -> str:
    """How a line's amount was reached, e.g. "4 bets: 150 x 2"."""
    double = " x 2" if race == RACES else ""
    if kind is LineKind.LAST:
        line = _("pays {per_bet} x {chip}{double}")
    elif kind is LineKind.PACE:
        line = _("pace bonus {per_bet} x {chip}{double}")
    else:
        line = ngettext(
            "{bets} bet: {per_bet} x {chip}{double}",
            "{bets} bets: {per_bet} x {chip}{double}",
            bets,
        )
    return line.format(bets=bets, per_bet=per_bet, chip=chip, double=double)


# --- the palette --------------------------------------------------------------------------


@static_layer
def _palette(_language: str) -> Image.Image:
    """The 256 colours of both pictures (`fixed_palette`), learnt in the language spoken from
    six players' chips on every horse: a race under way (a crowded space, cards face down,
    the rolled symbol picked out, the pace chip waiting), and the last race over (placed
    cards, the pace chip taken) with its payout, the last horse's chips paying the bank."""
    seats = tuple(range(1, 7))
    start = ENGINE.initial_state(seats, {}, setup_rng("palette"))
    bets = tuple(
        Bet(player, horse, chip=1 + (player + horse) % 2)
        for player in seats
        for horse in (player, 1 + player % 7, 1 + (player + 3) % 7)
    )
    money = tuple(range(100, 700, 100))
    running = replace(
        start,
        money=money,
        phase=Phase.MOVE,
        current=2,
        progress=(40, 45, 45, 38, 52, 60, 33),
        face_up=(True, False, True, True, False, True, True),
        bets=bets,
        rolled=Symbol.SADDLE,
        last_move=LastMove(3, 5, Symbol.CAP, 48, 52),
    )
    over = replace(
        running,
        race=RACES,
        phase=Phase.OVER,
        progress=(80, 45, 77, 38, 78, 60, 33),
        finished=(3, 5, 1),
        pace=5,
        results=tuple(RaceResult(race, (3, 5, 1), (7,), 5, money) for race in range(1, RACES + 1)),
    )
    samples = [render(running, {}), render(over, {}), render_payout(over, {})]
    pinned = (
        TURF,
        TRACK_LIGHT,
        TRACK_DARK,
        CARD_FACE,
        CARD_BACK,
        CARD_INK,
        CHEQUER_LIGHT,
        CHEQUER_DARK,
        LOSS,
        *HORSE_COLOURS.values(),
        *PLAYER_COLOURS,
    )
    return fixed_palette(pinned, samples)
