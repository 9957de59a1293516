"""Shots: the player's quantised choice, its launch with execution noise, and its result.

A shot is chosen as a release point across the width, a small angle and a named target (where
a lone weight would come to rest); it is turned into a launch velocity, jittered by a seeded
draw of a little speed and angle noise (rules, "Physics"), and simulated to rest.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from random import Random

from rules.horse_collar.geometry import DEUCE_LINE, MIL_PER_INCH, RADIUS, Table
from rules.horse_collar.physics import GRAVITY, SAMPLE_DT, simulate
from rules.horse_collar.state import Aim, Rules, Weight, WeightPath

SPEED_NOISE = 0.01  # sd of the launch speed: a few percent either way, 2% of the slide
ANGLE_NOISE = 0.15  # sd of the launch angle, degrees
RAIL_OVERHANG = RADIUS // 2  # the rail lanes let the weight overhang the side a little


def N_(message: str) -> str:
    """Marks a label for Parlour's catalogs (`python -m bot.catalog`); the presenter shows
    it translated."""
    return message


@dataclass(frozen=True)
class Lane:
    """A release point across the board, as offered to the shooter."""

    name: str  # the `release:` argument
    label: str
    at: float  # fraction of the reach from the centre line to the rail position


LANES: tuple[Lane, ...] = (
    Lane("left_rail", N_("Left rail"), -1.0),
    Lane("left", N_("Left"), -2 / 3),
    Lane("left_centre", N_("Left of centre"), -1 / 3),
    Lane("centre", N_("Centre"), 0.0),
    Lane("right_centre", N_("Right of centre"), 1 / 3),
    Lane("right", N_("Right"), 2 / 3),
    Lane("right_rail", N_("Right rail"), 1.0),
)
LANE_BY_NAME = {lane.name: lane for lane in LANES}


def lane_release(lane: Lane, table: Table) -> int:
    """Where a lane releases, in mils: the rails hang a weight half a radius over the side,
    so a straight shot from a rail can stop as a corner hanger."""
    return round(lane.at * (table.half_width - RADIUS + RAIL_OVERHANG))


ANGLES: tuple[int, ...] = (-100, -50, -25, 0, 25, 50, 100)  # hundredths of a degree


def angle_arg(angle: int) -> str:
    """`angle:` arguments are degrees: `-1`, `-0.5`, `-0.25`, `0`, `0.25`, `0.5`, `1`."""
    return f"{angle / 100:g}"


ANGLE_BY_ARG = {angle_arg(a): a for a in ANGLES}


@dataclass(frozen=True)
class Target:
    """A named distance to shoot at: where a lone weight would stop."""

    name: str  # the `target:` argument
    label: str
    stop: Callable[[Table], int]  # where a lone weight would come to rest, d in mils


def _inches(value: float) -> Callable[[Table], int]:
    return lambda _table: round(value * MIL_PER_INCH)


TARGETS: tuple[Target, ...] = (
    Target("foul", N_("Just past the foul line"), lambda t: t.foul - RADIUS - 3 * MIL_PER_INCH),
    Target("halfway", N_("Halfway to the deuce line"), lambda t: (t.foul + DEUCE_LINE) // 2),
    Target("guard", N_("Guard, 2 ft out"), _inches(24)),
    Target("zone1", N_("1 zone"), _inches(14.5)),
    Target("zone2_back", N_("2 zone, back (10 in)"), _inches(10)),
    Target("zone2", N_("2 zone (8 in)"), _inches(8)),
    Target("zone2_front", N_("2 zone, front (6 in)"), _inches(6)),
    Target("in_4.5", N_("3 zone, 4½ in from the end"), _inches(4.5)),
    Target("in_4", N_("3 zone, 4 in"), _inches(4)),
    Target("in_3.5", N_("3 zone, 3½ in"), _inches(3.5)),
    Target("in_3", N_("3 zone, 3 in"), _inches(3)),
    Target("in_2.5", N_("3 zone, 2½ in"), _inches(2.5)),
    Target("in_2", N_("3 zone, 2 in"), _inches(2)),
    Target("in_1.5", N_("3 zone, 1½ in"), _inches(1.5)),
    Target("hang", N_("Hang the end"), _inches(0.7)),
    Target("hang_fine", N_("Hang it fine"), _inches(0.3)),
    Target("off", N_("Knock it off"), _inches(-24)),
)
TARGET_BY_NAME = {target.name: target for target in TARGETS}
DEFAULT_AIM = Aim(release=0, angle=0, target="in_3", lane="centre")


def release_point(table: Table, aim: Aim) -> tuple[int, int]:
    """Weights leave the hand at the shooter's end, wholly on the board."""
    return table.length - RADIUS, aim.release


def planned_speed(rules: Rules, aim: Aim) -> float:
    """The launch speed (in/s) that would stop a lone weight on the target: v^2 = 2 mu g s,
    with s the slide along the aimed line."""
    table = rules.table
    start, _ = release_point(table, aim)
    run = (start - TARGET_BY_NAME[aim.target].stop(table)) / MIL_PER_INCH
    slide = run / math.cos(math.radians(aim.angle / 100))
    return math.sqrt(2 * rules.board_speed.mu * GRAVITY * slide)


@dataclass(frozen=True)
class Noise:
    """The execution noise of one shot: a speed factor and an angle offset in degrees."""

    speed: float = 1.0
    angle: float = 0.0


def draw_noise(rng: Random) -> Noise:
    """One shot's execution noise, drawn from the step's `rng`."""
    return Noise(1.0 + rng.gauss(0.0, SPEED_NOISE), rng.gauss(0.0, ANGLE_NOISE))


@dataclass(frozen=True)
class ShotResult:
    """A simulated shot: the launch after noise, the board at rest, every path."""

    speed: int  # mils per second
    angle: int  # hundredths of a degree
    after: tuple[Weight, ...]  # the board at rest, the shot weight last
    paths: tuple[WeightPath, ...]  # the shot weight first
    fell: tuple[int, ...]


def play_shot(
    rules: Rules, board: tuple[Weight, ...], index: int, aim: Aim, noise: Noise
) -> ShotResult:
    """Shoot weight `index` with `aim` and `noise` onto `board` and simulate to rest."""
    table = rules.table
    speed = planned_speed(rules, aim) * noise.speed
    degrees = aim.angle / 100 + noise.angle
    heading = math.radians(degrees)
    start = release_point(table, aim)
    weights = (*board, Weight(index, start[0], start[1]))
    shooter = len(board)
    sim = simulate(
        [(w.d / MIL_PER_INCH, w.y / MIL_PER_INCH) for w in weights],
        shooter,
        (-speed * math.cos(heading), speed * math.sin(heading)),
        length=table.length / MIL_PER_INCH,
        half_width=table.half_width / MIL_PER_INCH,
        decel=rules.board_speed.mu * GRAVITY,
        fallen=[w.fallen for w in weights],
    )
    after = tuple(
        Weight(w.index, _mils(rest[0]), _mils(rest[1]), fallen)
        for w, rest, fallen in zip(weights, sim.rests, sim.fallen, strict=True)
    )
    order = [shooter, *(i for i in range(len(weights)) if i != shooter)]
    paths = tuple(
        WeightPath(
            weights[i].index,
            tuple((_mils(d), _mils(y)) for d, y in path),
            sim.fell_at[i],
        )
        for i in order
        if (path := sim.paths[i]) is not None
    )
    fell = tuple(a.index for a, b in zip(after, weights, strict=True) if a.fallen and not b.fallen)
    return ShotResult(
        speed=round(speed * MIL_PER_INCH),
        angle=round(degrees * 100),
        after=after,
        paths=paths,
        fell=fell,
    )


SAMPLE_MS = round(SAMPLE_DT * 1000)


def _mils(inches: float) -> int:
    return round(inches * MIL_PER_INCH)
