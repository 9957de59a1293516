"""Hold Your Horses pictures (docs/rules/hold_your_horses.md).

- `render`: the race in play — eleven lanes (horses 2-12, top to bottom), each ending in its
  own "$" finish box, the horse discs, the four scratch boxes with their order and price,
  the pot, the dice just rolled and who rolled them, the race number, and a standings strip
  (tokens in hand, total won). At the end of the game it is the final scoring grid instead.
- `render_finished`: the race that ended last, as it ended: the winner on its "$" box and
  what each player won. The presenter puts it on that race's message before the next race
  gets a message of its own.
- `render_grid`: the scoring grid (players x races + total), to post between races.

The grid gets its own picture rather than a corner of the board: twelve players by up to ten
races only stays readable at Discord's preview size when it has the whole width.
Hands are private and are never drawn; hand sizes are not needed and left out too.
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
from images.words import N_, _, language, listing, ngettext
from rules.core import PlayerId, setup_rng
from rules.hold_your_horses import ENGINE
from rules.hold_your_horses.state import (
    HORSES,
    SCRATCHES,
    HoldYourHorsesState,
    Phase,
    Race,
    Roll,
    RollResult,
    Track,
    leaders,
    totals,
)

WIDTH = 1000
SMALL = smallest_text(WIDTH)  # the smallest words: readable on a phone

# --- board layout ---------------------------------------------------------------------------

HEADER_Y = 32
LANE_TOP, LANE_H = 64, 40
LANES_BOTTOM = LANE_TOP + LANE_H * len(HORSES)
LABEL_X0 = 10  # the lane's name, horse number and steps taken, in a column from here
LANE_NUMBER_X, LANE_NUMBER_SIZE = LABEL_X0 + 26, 26  # the horse number's centre and size
LABEL_GAP = 4  # pixels kept between a lane's number and its status
TRACK_X1 = 696  # the lanes' right end; they start after the label column
HEADER_MID = 444  # the middle of the header's prompt
DISC_RADIUS = 15
SIDE_X0, SIDE_X1 = 708, 990
SIDE_MID = (SIDE_X0 + SIDE_X1) // 2
POT_BOX = (SIDE_X0, LANE_TOP, SIDE_X1, 156)
DICE_Y = 202
DIE_SIDE = 64
ROLL_LINE_Y = (256, 282)
SCRATCH_TITLE_Y = 314
SCRATCH_BOXES: tuple[tuple[int, int, int, int], ...] = tuple(
    (x, y, x + 137, y + 88) for y in (330, LANES_BOTTOM - 88) for x in (SIDE_X0, SIDE_X1 - 137)
)
"""The four scratch places, in order: 1st and 2nd on top, 3rd and 4th below."""
STRIP_TOP = LANES_BOTTOM + 12
STRIP_ROW_H = 60  # a row of player strips: the name and one line
STRIP_TALL_ROW_H = 82  # the narrow strips of two rows: the name and two lines

# --- grid layout ----------------------------------------------------------------------------

GRID_TITLE_Y, GRID_SUBTITLE_Y = 34, 68
GRID_HEAD_Y = 108
GRID_TOP, GRID_ROW_H = 130, 40
GRID_RANK_X, GRID_NAME_X = 40, 76
GRID_NAME_W = 240
GRID_TOTAL_W = 110

# --- colours --------------------------------------------------------------------------------

TURF: RGB = (38, 92, 62)
TURF_ALT: RGB = (32, 80, 54)
TURF_LINE: RGB = (84, 140, 104)
GATE: RGB = (24, 54, 38)
FINISH: RGB = (214, 168, 52)
FINISH_EDGE: RGB = (120, 88, 20)
DISC: RGB = (246, 240, 222)
SCRATCHED_VEIL = (12, 14, 20, 170)  # over a scratched lane
DIE_FACE: RGB = (250, 248, 240)
WINNER_ROW: RGB = (92, 76, 24)

PIPS = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}


def status_x() -> int:
    """The right end of a lane's status ("3/17", "out"): after its number and the widest
    status the language has, at full size (Spanish "fuera" widens the column, it is never
    shrunk to fit)."""
    return _status_x(language())


@functools.cache
def _status_x(_language: str) -> int:
    longest = max(max(track.lengths) for track in Track)
    statuses = (_("out"), f"{longest}/{longest}")
    number_right = LANE_NUMBER_X + text_width(str(HORSES[-1]), LANE_NUMBER_SIZE, bold=True) / 2
    return math.ceil(number_right + LABEL_GAP + max(text_width(s, SMALL) for s in statuses))


def label_x1() -> int:
    """The label column's right edge."""
    return status_x() + 8


def track_x0() -> int:
    """Where the lanes' start gates begin, just after the label column."""
    return label_x1() + 8


def lane_y(horse: int) -> int:
    """The pixel row through the middle of `horse`'s lane."""
    return LANE_TOP + (horse - HORSES[0]) * LANE_H + LANE_H // 2


def slot_width(track: Track) -> float:
    """Each lane is cut into the start gate plus one slot per step; the longest lane fills
    the track, so every finish line stands at its own length."""
    return (TRACK_X1 - track_x0()) / (max(track.lengths) + 1)


def disc_centre(track: Track, horse: int, position: int) -> tuple[int, int]:
    """Where `horse` is drawn after `position` steps (0: in the start gate)."""
    return round(track_x0() + (position + 0.5) * slot_width(track)), lane_y(horse)


def strip_columns(players: int) -> int:
    """How many player strips a row of the board holds."""
    return players if players <= 6 else math.ceil(players / 2)


def strip_row_height(players: int) -> int:
    """The height of a row of player strips: taller where the strips are too narrow for
    their line at the board's smallest size, which then takes two."""
    return STRIP_ROW_H if players <= 6 else STRIP_TALL_ROW_H


def board_size(players: int) -> tuple[int, int]:
    """The board's size in pixels for a table of `players`."""
    rows = math.ceil(players / strip_columns(players))
    return WIDTH, STRIP_TOP + rows * strip_row_height(players) + 8


def strip_cell(players: int, seat: int) -> tuple[int, int, int, int]:
    """The standings box of `seat` in the strip under the lanes."""
    columns = strip_columns(players)
    width = (SIDE_X1 - LABEL_X0) / columns
    row, column = divmod(seat, columns)
    x0 = LABEL_X0 + column * width
    height = strip_row_height(players)
    y0 = STRIP_TOP + row * height
    return round(x0), y0, round(x0 + width) - 8, y0 + height - 8


def grid_size(players: int) -> tuple[int, int]:
    """The winnings grid's size in pixels for a table of `players`."""
    return WIDTH, GRID_TOP + players * GRID_ROW_H + 16


# --- the static layers ----------------------------------------------------------------------


def _paint_board(layer: Image.Image, k: int, track: Track, players: int) -> None:
    draw = ImageDraw.Draw(layer)
    draw.rectangle((0, 0, layer.width, layer.height), fill=BACKGROUND)
    slot = slot_width(track)
    x0 = track_x0()
    for horse in HORSES:
        top = (lane_y(horse) - LANE_H // 2 + 2) * k
        bottom = (lane_y(horse) + LANE_H // 2 - 2) * k
        draw.rounded_rectangle(
            (LABEL_X0 * k, top, label_x1() * k, bottom),
            radius=8 * k,
            fill=PANEL,
            outline=PANEL_EDGE,
        )
        finish = track.finish(horse)
        turf = TURF if horse % 2 else TURF_ALT
        draw.rectangle((x0 * k, top, (x0 + slot) * k, bottom), fill=GATE)
        draw.rectangle(((x0 + slot) * k, top, (x0 + finish * slot) * k, bottom), turf)
        for step in range(1, finish):
            x = (x0 + step * slot) * k
            draw.line((x, top, x, bottom), fill=TURF_LINE, width=k)
        draw.rounded_rectangle(
            ((x0 + finish * slot) * k, top, (x0 + (finish + 1) * slot) * k, bottom),
            radius=6 * k,
            fill=FINISH,
            outline=FINISH_EDGE,
            width=2 * k,
        )
    boxes = [POT_BOX, *SCRATCH_BOXES]
    boxes += [strip_cell(players, seat) for seat in range(players)]
    for x0, y0, x1, y1 in boxes:
        draw.rounded_rectangle(
            (x0 * k, y0 * k, x1 * k, y1 * k), radius=10 * k, fill=PANEL, outline=PANEL_EDGE
        )


def board_base(track: Track, players: int) -> Image.Image:
    """Lanes, finish boxes, panels and fixed words, in the language spoken."""
    return _board_base(track, players, language())


@static_layer
def _board_base(track: Track, players: int, _language: str) -> Image.Image:
    """Lanes, finish boxes, panels and fixed words: drawn once per track, table size and
    language."""
    base = smooth(
        board_size(players), lambda layer, k: _paint_board(layer, k, track, players), scale=2
    ).convert("RGB")
    slot = slot_width(track)
    for horse in HORSES:
        finish_x = track_x0() + (track.finish(horse) + 0.5) * slot
        draw_text(
            base, (finish_x, lane_y(horse)), "$", size=22, bold=True, fill=OUTLINE, outline=None
        )
    draw_text(base, (SIDE_MID, POT_BOX[1] + 16), _("POT"), size=SMALL, bold=True, fill=MUTED)
    draw_text(base, (SIDE_MID, SCRATCH_TITLE_Y), _("SCRATCHED"), size=SMALL, bold=True, fill=MUTED)
    return base


@functools.cache
def _veil(width: int, height: int) -> Image.Image:
    return Image.new("RGBA", (width, height), SCRATCHED_VEIL)


# --- sprites --------------------------------------------------------------------------------


@functools.cache
def _disc(horse: int, fill: RGB, ring: RGB) -> Image.Image:
    """A horse disc with its number: cream, or bright yellow for a winner (brighter than the
    gold finish box it stands on); the ring marks the horse that just moved."""
    side = DISC_RADIUS * 2 + 6

    def paint(layer: Image.Image, k: int) -> None:
        draw = ImageDraw.Draw(layer)
        c, r = side * k / 2, DISC_RADIUS * k
        draw.ellipse((c - r - 2 * k, c - r - 2 * k, c + r + 2 * k, c + r + 2 * k), fill=ring)
        draw.ellipse((c - r + k, c - r + k, c + r - k, c + r - k), fill=fill)

    disc = smooth((side, side), paint)
    draw_text(
        disc, (side / 2, side / 2), str(horse), size=20, bold=True, fill=OUTLINE, outline=None
    )
    return disc


@functools.cache
def _die(value: int) -> Image.Image:
    side = DIE_SIDE + 6

    def paint(layer: Image.Image, k: int) -> None:
        draw = ImageDraw.Draw(layer)
        draw.rounded_rectangle(
            (5 * k, 5 * k, side * k, side * k), radius=12 * k, fill=(0, 0, 0, 110)
        )  # shadow
        draw.rounded_rectangle(
            (k, k, (DIE_SIDE + 1) * k, (DIE_SIDE + 1) * k),
            radius=12 * k,
            fill=DIE_FACE,
            outline=OUTLINE,
            width=2 * k,
        )
        middle, spread, r = (DIE_SIDE / 2 + 1) * k, 17 * k, 6 * k
        for dx, dy in PIPS[value]:
            x, y = middle + dx * spread, middle + dy * spread
            draw.ellipse((x - r, y - r, x + r, y + r), fill=OUTLINE)

    return smooth((side, side), paint)


# --- words ----------------------------------------------------------------------------------


def _names(state: HoldYourHorsesState, names: Mapping[PlayerId, str]) -> list[str]:
    return [
        drawable(names.get(p, "")) or _("Player {n}").format(n=seat + 1)
        for seat, p in enumerate(state.players)
    ]


ORDINALS = {1: N_("1st"), 2: N_("2nd"), 3: N_("3rd")}  # of a scratch
TRACK_WORDS = {
    Track.CLASSIC: N_("classic track"),
    Track.EVEN: N_("even track"),
    Track.SHORT: N_("short track"),
}


def _ordinal(n: int) -> str:
    return _(ORDINALS[n]) if n in ORDINALS else _("{n}th").format(n=n)


def _price(state: HoldYourHorsesState, order: int) -> int:
    return order if state.rules.escalating_scratches else 1


def _roll_lines(state: HoldYourHorsesState, race: Race, shown: Sequence[str]) -> tuple[str, str]:
    """Who rolled what, and what came of it; before the first roll, who rolls first."""
    roll = race.last_roll
    if roll is None:
        first = _("{player} to roll").format(player=shown[state.roller])
        return first, _("for the first scratch")
    roller = shown[state.seat_of(roll.player)]
    horse = roll.total
    if roll.result is RollResult.SCRATCHED:
        order = _ordinal(race.scratched.index(horse) + 1)
        outcome = _("{order} scratch · pot +{paid}").format(order=order, paid=roll.paid)
    elif roll.result is RollResult.REROLLED:
        outcome = _("{horse} is out: roll again").format(horse=horse)
    elif roll.result is RollResult.FINED:
        price = _price(state, race.scratched.index(horse) + 1)
        outcome = (
            _("{horse} is out: paid {paid} of {price}")
            if roll.paid < price
            else _("{horse} is out: paid {paid}")
        ).format(horse=horse, paid=roll.paid, price=price)
    elif roll.result is RollResult.WON:
        outcome = _("horse {horse} wins!").format(horse=horse)
    else:
        finish = state.rules.track.finish(horse)
        outcome = _("horse {horse}: {position}/{finish}").format(
            horse=horse, position=race.position(horse), finish=finish
        )
    return _("{player} rolled {total}").format(player=roller, total=horse), outcome


# --- the race board -------------------------------------------------------------------------


def render(state: HoldYourHorsesState, names: Mapping[PlayerId, str]) -> Image.Image:
    """The race in play, or at the end of the game the final scoring grid. `names` maps
    player ids to display names (a missing one shows as "Player 2")."""
    if state.phase is Phase.OVER:
        return render_grid(state, names)
    return _board(state, state.race, names, finished=False)


def render_finished(state: HoldYourHorsesState, names: Mapping[PlayerId, str]) -> Image.Image:
    """The race that ended last, at its finish: for that race's message."""
    if state.last_finished is None:
        raise ValueError("no race has finished yet")
    return _board(state, state.last_finished, names, finished=True)


def _board(
    state: HoldYourHorsesState, race: Race, names: Mapping[PlayerId, str], *, finished: bool
) -> Image.Image:
    track = state.rules.track
    image = board_base(track, len(state.players)).copy()
    shown = _names(state, names)
    last = race.last_roll.total if race.last_roll else None
    _draw_header(image, state, race, shown, finished=finished)
    for horse in HORSES:
        _draw_lane(image, state, race, horse, lit=horse == last)
    _draw_pot(image, state, race, finished=finished)
    _draw_roll(image, state, race, shown)
    _draw_scratches(image, state, race)
    _draw_strip(image, state, race, shown, finished=finished)
    return image


def _draw_header(
    image: Image.Image,
    state: HoldYourHorsesState,
    race: Race,
    shown: Sequence[str],
    *,
    finished: bool,
) -> None:
    title = _("RACE {race} of {races}").format(race=race.number, races=state.rules.races)
    draw_text(image, (LABEL_X0, HEADER_Y), title, size=28, bold=True, anchor="lm")
    if finished:
        assert race.winner is not None  # a finished race has its winner
        runs = [(_("Horse {horse} wins!").format(horse=race.winner), HIGHLIGHT)]
    else:
        roller = fit_text(shown[state.roller], 28, 300, bold=True)
        step = (
            _(" · scratch {scratch} of {scratches}").format(
                scratch=len(race.scratched) + 1, scratches=SCRATCHES
            )
            if state.phase is Phase.SCRATCH
            else ""
        )
        runs = named_runs(_("{player} to roll") + step, {"player": roller})
    draw_runs(image, (HEADER_MID, HEADER_Y), runs, size=28, bold=True)
    rules = track_words(state)
    draw_text(image, (SIDE_X1, HEADER_Y), rules, size=SMALL, fill=MUTED, anchor="rm")


def track_words(state: HoldYourHorsesState) -> str:
    """The track and house rules in words, for the board's header."""
    words = _(TRACK_WORDS[state.rules.track])
    return words + _(" · escalating") if state.rules.escalating_scratches else words


def _draw_lane(
    image: Image.Image, state: HoldYourHorsesState, race: Race, horse: int, *, lit: bool
) -> None:
    track = state.rules.track
    y = lane_y(horse)
    finish = track.finish(horse)
    position = race.position(horse)
    won = race.winner == horse
    label = HIGHLIGHT if lit or won else TEXT
    number = str(horse)
    draw_text(image, (LANE_NUMBER_X, y), number, size=LANE_NUMBER_SIZE, bold=True, fill=label)
    order = race.scratch_order(horse)
    if order is not None:
        out = _("out")
        draw_text(image, (status_x(), y), out, size=SMALL, fill=MUTED, anchor="rm")
        top = y - LANE_H // 2 + 2
        slot = slot_width(track)
        x0 = track_x0()
        right = round(x0 + (finish + 1) * slot)
        veil = _veil(right - x0, LANE_H - 4)
        image.paste(veil, (x0, top), veil)
        text = _("SCRATCHED {order}").format(order=_ordinal(order))
        steps = (x0 + slot, right - slot)  # between the gate and the finish box
        if text_width(text, SMALL, bold=True) < steps[1] - steps[0] - 8:
            draw_text(image, (sum(steps) / 2, y), text, size=SMALL, bold=True, fill=MUTED)
        else:  # a short lane: the words go after its finish box
            draw_text(image, (right + 8, y), text, size=SMALL, bold=True, fill=MUTED, anchor="lm")
        return
    taken = f"{position}/{finish}"
    draw_text(image, (status_x(), y), taken, size=SMALL, anchor="rm")
    fill = HIGHLIGHT if won else DISC
    ring = HIGHLIGHT if lit else OUTLINE
    paste_centred(image, _disc(horse, fill, ring), disc_centre(track, horse, position))


def _draw_pot(
    image: Image.Image, state: HoldYourHorsesState, race: Race, *, finished: bool
) -> None:
    _skip, y0, _skip2, y1 = POT_BOX
    if finished:
        pot = race.carried + sum(race.payouts)
        draw_text(image, (SIDE_MID, y0 + 48), str(pot), size=40, bold=True, fill=HIGHLIGHT)
        note = _("paid {paid} · {carried} carried").format(
            paid=sum(race.payouts), carried=race.carried
        )
        draw_text(image, (SIDE_MID, y1 - 16), note, size=SMALL, fill=MUTED)
        return
    draw_text(
        image, (SIDE_MID, (y0 + y1) / 2 + 12), str(state.pot), size=44, bold=True, fill=HIGHLIGHT
    )


def _draw_roll(
    image: Image.Image, state: HoldYourHorsesState, race: Race, shown: Sequence[str]
) -> None:
    if race.last_roll is not None:
        for value, dx in zip(race.last_roll.dice, (-42, 42), strict=True):
            paste_centred(image, _die(value), (SIDE_MID + dx, DICE_Y))
    else:
        draw_text(image, (SIDE_MID, DICE_Y), "?  ?", size=44, bold=True, fill=MUTED)
    who, what = _roll_lines(state, race, [fit_text(s, 20, 170, bold=True) for s in shown])
    draw_text(image, (SIDE_MID, ROLL_LINE_Y[0]), who, size=20, bold=True)
    draw_text(image, (SIDE_MID, ROLL_LINE_Y[1]), what, size=20, fill=HIGHLIGHT)


def _draw_scratches(image: Image.Image, state: HoldYourHorsesState, race: Race) -> None:
    for order, (x0, y0, x1, _y1) in enumerate(SCRATCH_BOXES, start=1):
        mid = (x0 + x1) / 2
        price = _price(state, order)
        words = _("{order} · pays {price}").format(order=_ordinal(order), price=price)
        draw_text(image, (mid, y0 + 16), words, size=SMALL, fill=MUTED)
        if order <= len(race.scratched):
            horse = race.scratched[order - 1]
            paste_centred(image, _disc(horse, DISC, OUTLINE), (mid, y0 + 54))
        else:
            draw_text(image, (mid, y0 + 54), "-", size=26, bold=True, fill=MUTED)


def _draw_strip(
    image: Image.Image,
    state: HoldYourHorsesState,
    race: Race,
    shown: Sequence[str],
    *,
    finished: bool,
) -> None:
    """Each player's name, tokens in hand and total won; at a finish, what they won in it."""
    players = len(state.players)
    scores = totals(state)
    draw = ImageDraw.Draw(image)
    for seat in range(players):
        x0, y0, x1, y1 = strip_cell(players, seat)
        if finished:
            lit = race.payouts[seat] > 0
            lines = [_("+{won} · total {total}").format(won=race.payouts[seat], total=scores[seat])]
        else:
            lit = seat == state.roller
            tokens = state.tokens[seat]
            if players <= 6:
                line = ngettext("{tokens} token · won {won}", "{tokens} tokens · won {won}", tokens)
                lines = [line.format(tokens=tokens, won=scores[seat])]
            else:  # too narrow for both on one line
                lines = [
                    ngettext("{tokens} token", "{tokens} tokens", tokens).format(tokens=tokens),
                    _("won {won}").format(won=scores[seat]),
                ]
        if lit:
            draw.rounded_rectangle((x0, y0, x1, y1), radius=10, outline=HIGHLIGHT, width=3)
        mid = (x0 + x1) / 2
        name = fit_text(shown[seat], 20, x1 - x0 - 12, bold=True)
        draw_text(image, (mid, y0 + 16), name, size=20, bold=True, fill=HIGHLIGHT if lit else TEXT)
        for n, line in enumerate(lines):
            text = fit_text(line, SMALL, x1 - x0 - 8)
            draw_text(image, (mid, y0 + 38 + 22 * n), text, size=SMALL)


# --- the scoring grid -----------------------------------------------------------------------


def render_grid(state: HoldYourHorsesState, names: Mapping[PlayerId, str]) -> Image.Image:
    """The scoring grid: what each player won in each race, and their totals, best first;
    at the end of the game the winners' rows are gold and marked WIN."""
    players = len(state.players)
    image = Image.new("RGB", grid_size(players), BACKGROUND)
    draw = ImageDraw.Draw(image)
    shown = _names(state, names)
    scores = totals(state)
    over = state.phase is Phase.OVER
    _draw_grid_title(image, state, shown, scores, over=over)
    races = state.rules.races
    race_x0 = GRID_NAME_X + GRID_NAME_W
    race_w = min(110.0, (WIDTH - 20 - GRID_TOTAL_W - race_x0) / races)
    total_x = race_x0 + races * race_w + GRID_TOTAL_W / 2
    draw_text(image, (GRID_NAME_X, GRID_HEAD_Y), _("Player"), size=SMALL, fill=MUTED, anchor="lm")
    for r in range(races):
        head = _("R{race}").format(race=r + 1)  # a race's column
        draw_text(image, (race_x0 + (r + 0.5) * race_w, GRID_HEAD_Y), head, size=SMALL, fill=MUTED)
    draw_text(image, (total_x, GRID_HEAD_Y), _("TOTAL"), size=SMALL, bold=True, fill=MUTED)
    order = sorted(range(players), key=lambda s: -scores[s])  # stable: seat order on ties
    for row, seat in enumerate(order):
        y0 = GRID_TOP + row * GRID_ROW_H
        y = y0 + GRID_ROW_H / 2
        place = 1 + sum(t > scores[seat] for t in scores)
        winner = over and place == 1
        fill = WINNER_ROW if winner else (PANEL if row % 2 == 0 else BACKGROUND)
        draw.rounded_rectangle((10, y0 + 2, WIDTH - 10, y0 + GRID_ROW_H - 2), radius=8, fill=fill)
        if winner:
            draw.rounded_rectangle(
                (10, y0 + 2, WIDTH - 10, y0 + GRID_ROW_H - 2), radius=8, outline=HIGHLIGHT, width=3
            )
        draw_text(image, (GRID_RANK_X, y), str(place), size=22, bold=True, fill=MUTED)
        name = fit_text(shown[seat], 22, GRID_NAME_W - (70 if winner else 12), bold=True)
        draw_text(
            image,
            (GRID_NAME_X, y),
            name,
            size=22,
            bold=True,
            anchor="lm",
            fill=HIGHLIGHT if winner else TEXT,
        )
        if winner:
            draw_text(
                image, (race_x0 - 10, y), _("WIN"), size=20, bold=True, fill=HIGHLIGHT, anchor="rm"
            )
        for r in range(races):
            x = race_x0 + (r + 0.5) * race_w
            if r < len(state.grid):
                won = state.grid[r][seat]
                draw_text(
                    image, (x, y), str(won), size=22, bold=won > 0, fill=TEXT if won else MUTED
                )
            else:
                draw_text(image, (x, y), "·", size=22, fill=MUTED)
        draw_text(
            image,
            (total_x, y),
            str(scores[seat]),
            size=24,
            bold=True,
            fill=HIGHLIGHT if winner else TEXT,
        )
    return image


def _draw_grid_title(
    image: Image.Image,
    state: HoldYourHorsesState,
    shown: Sequence[str],
    scores: Sequence[int],
    *,
    over: bool,
) -> None:
    done = len(state.grid)
    if over:
        winners = [fit_text(shown[state.seat_of(p)], 28, 260, bold=True) for p in leaders(state)]
        if len(winners) == 1:
            runs = named_runs(_("{player} wins!"), {"player": winners[0]})
        else:
            runs = named_runs(_("{players} share the win!"), {"players": listing(winners)})
        draw_runs(image, (WIDTH / 2, GRID_TITLE_Y), runs, size=28, bold=True)
        subtitle = ngettext(
            "Final scoring grid · {races} race · best total {best}",
            "Final scoring grid · {races} races · best total {best}",
            done,
        ).format(races=done, best=max(scores))
    else:
        draw_text(image, (WIDTH / 2, GRID_TITLE_Y), _("Scoring grid"), size=28, bold=True)
        subtitle = (
            _("after race {race} of {races}").format(race=done, races=state.rules.races)
            if done
            else _("no race run yet")
        )
    last = state.last_finished
    if last is not None and last.winner is not None:
        pot = last.carried + sum(last.payouts)
        subtitle += _(" · race {race}: horse {horse} won a pot of {pot}").format(
            race=last.number, horse=last.winner, pot=pot
        )

    draw_text(image, (WIDTH / 2, GRID_SUBTITLE_Y), subtitle, size=SMALL, fill=MUTED)


# --- PNG ------------------------------------------------------------------------------------


def render_png(state: HoldYourHorsesState, names: Mapping[PlayerId, str]) -> bytes:
    """`render` as PNG bytes, ready to attach as board.png."""
    return to_png(render(state, names), _palette(language()))


def render_finished_png(state: HoldYourHorsesState, names: Mapping[PlayerId, str]) -> bytes:
    """The race that ended last, at its finish (`render_finished`), as PNG bytes."""
    return to_png(render_finished(state, names), _palette(language()))


def render_grid_png(state: HoldYourHorsesState, names: Mapping[PlayerId, str]) -> bytes:
    """The winnings grid as PNG bytes."""
    return to_png(render_grid(state, names), _palette(language()))


@static_layer
def _palette(_language: str) -> Image.Image:
    """The 256 colours of every picture of the game (`fixed_palette`), learnt in the language
    spoken from a race with scratched lanes and a horse just moved, a race won and a final
    grid with its winner."""
    seats = tuple(range(1, 8))  # two rows of standings
    start = ENGINE.initial_state(seats, {}, setup_rng("palette"))
    racing = replace(
        start.race,
        scratched=(2, 12, 7, 9),  # a short lane's words go beyond its finish box
        positions=(0, 4, 5, 7, 10, 0, 9, 0, 6, 2, 0),
        last_roll=Roll(1, (3, 5), RollResult.MOVED),
    )
    won = replace(
        racing,
        positions=(0, 4, 5, 7, 14, 0, 9, 0, 6, 2, 0),
        last_roll=Roll(1, (2, 4), RollResult.WON),
        winner=6,
        payouts=(0, 12, 0, 6, 0, 0, 0),
        carried=1,
    )
    race = replace(start, phase=Phase.RACE, race=racing, pot=25, tokens=(3, 0, 5, 2, 9, 1, 4))
    over = replace(
        race,
        phase=Phase.OVER,
        race=won,
        last_finished=won,
        grid=((0, 12, 0, 6, 0, 0, 0), (8, 0, 0, 0, 0, 9, 0), (0, 0, 14, 0, 0, 0, 2)),
    )
    samples = [render(race, {}), render_finished(over, {}), render_grid(over, {})]
    pinned = (TURF, TURF_ALT, TURF_LINE, GATE, FINISH, FINISH_EDGE, DISC, DIE_FACE, WINNER_ROW)
    return fixed_palette(pinned, samples)
