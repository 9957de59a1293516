"""The table and its zones (docs/rules/horse_collar.md, "The table" and "Scoring a turn").

Positions in state and events are whole **mils** (thousandths of an inch), so every zone
boundary is an exact integer comparison: `d` is a weight centre's distance from the target
end (the far end the weights are shot toward), `y` its offset from the centre line (positive
to the shooter's right). The simulation works in float inches and rounds on the way out.
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass

MIL_PER_INCH = 1000
RADIUS = 1156  # 2-5/16 in diameter
TREY_LINE = 6_000
DEUCE_LINE = 12_000
FULL_PLAYFIELD = 248_000  # a 22 ft cabinet: 20 ft 8 in of playfield
FOUL_FROM_END = 72_000  # each foul line, 72 in from its end on the full-size table
CABINET_TRIM = 16_000  # playfield = cabinet - 16 in
WIDE, NARROW = 20_000, 18_000  # width from 12 ft cabinets up, and below
SMALLEST_WIDE_TABLE_FT = 12
TABLE_FEET = range(9, 23)


class FoulLine(enum.Enum):
    """The designated foul line: `short` is nearest the shooter, `long` nearest the target."""

    SHORT = "short"
    LONG = "long"


@dataclass(frozen=True)
class Table:
    """One cabinet's playfield, in mils."""

    length: int
    width: int
    foul: int  # the designated foul line's distance from the target end
    short_foul: int
    long_foul: int

    @property
    def half_width(self) -> int:
        """Half the playfield's width: the centre line to a side edge."""
        return self.width // 2


@functools.cache
def table_for(feet: int, foul_line: FoulLine) -> Table:
    """The playfield of a `feet` cabinet: cabinet - 16 in long, foul lines scaled by
    playfield / 248 in, 20 in wide from 12 ft up and 18 in below (rules, "The table")."""
    length = feet * 12 * MIL_PER_INCH - CABINET_TRIM
    width = WIDE if feet >= SMALLEST_WIDE_TABLE_FT else NARROW
    scaled = round(FOUL_FROM_END * length / FULL_PLAYFIELD)
    long_foul, short_foul = scaled, length - scaled
    foul = short_foul if foul_line is FoulLine.SHORT else long_foul
    return Table(length, width, foul, short_foul, long_foul)


class Zone(enum.Enum):
    """Where a resting weight lies, from the rules' table, best first."""

    CORNER = "corner"  # overhangs the end and a side
    HANGER = "hanger"  # overhangs the end
    THREE = "three"  # wholly past the trey line
    TWO = "two"  # wholly past the deuce line, touching or short of the trey line
    ONE = "one"  # touching or short of the deuce line, wholly past the foul line
    SHORT = "short"  # touching or short of the designated foul line: 0, voids the turn
    ALLEY = "alley"  # fell off: dead


def zone_of(d: int, y: int, table: Table, *, fallen: bool = False) -> Zone:
    """The rules' table, read top to bottom; touching a line counts for the lower zone."""
    if fallen or d < 0 or d > table.length or abs(y) > table.half_width:
        return Zone.ALLEY
    if d - RADIUS < 0:
        return Zone.CORNER if abs(y) + RADIUS > table.half_width else Zone.HANGER
    if d + RADIUS < TREY_LINE:
        return Zone.THREE
    if d + RADIUS < DEUCE_LINE:
        return Zone.TWO
    if d + RADIUS < table.foul:
        return Zone.ONE
    return Zone.SHORT


def zone_value(zone: Zone, corner_hanger: int) -> int:
    """Points for a weight in `zone`; a corner hanger is worth 26 or, by house option, 13."""
    return {
        Zone.CORNER: corner_hanger,
        Zone.HANGER: 13,
        Zone.THREE: 3,
        Zone.TWO: 2,
        Zone.ONE: 1,
        Zone.SHORT: 0,
        Zone.ALLEY: 0,
    }[zone]
