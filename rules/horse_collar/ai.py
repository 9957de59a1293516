"""A Horse Collar shooter for bot seats and absent players.

It plays with purpose, the way the rules' sources describe a turn: lag a weight into the 3
zone first (nothing counts without one), then go for hangers and corner hangers — or, with the
points on the board, play safe lanes that leave them alone — tap its own 1s and 2s forward, and
knock its own short weights off while there are shots left. Each idea is a candidate shot; every
candidate is simulated with a few fixed noise draws (the same physics the shot will meet) and
the one with the best expected board wins.

The choice depends only on the board, so it is cached, and the bot's next action is whatever
setting still differs from the plan: release, then angle, then the shot itself.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from random import Random

from rules.core import Action, PlayerId
from rules.horse_collar.actions import angle_action, line_up_action, release_action, shoot_action
from rules.horse_collar.controls import set_aim
from rules.horse_collar.geometry import DEUCE_LINE, RADIUS, TREY_LINE, Zone, zone_value
from rules.horse_collar.scoring import COUNTING, zones
from rules.horse_collar.shots import (
    ANGLE_NOISE,
    DEFAULT_AIM,
    SPEED_NOISE,
    TARGET_BY_NAME,
    Noise,
    play_shot,
    release_point,
)
from rules.horse_collar.state import WEIGHTS_PER_TURN, Aim, HorseCollarState, Rules, Weight

# Execution noise the plan is tested against: dead on, and a little long/short and wide.
TRIALS = (
    Noise(),
    *(Noise(1 + s * SPEED_NOISE, a * ANGLE_NOISE) for s in (-1, 1) for a in (-1, 1)),
)
POTENTIAL = 0.3  # what points are worth before a 3 makes them count
SHORT_PENALTY = 15.0  # a short weight still to be knocked off costs at least a shot
LAG_LANES = ("centre", "left_centre", "right_centre", "left", "right")
HANG_LANES = ("centre", "left_centre", "right_centre")
RAILS = ("left_rail", "right_rail")
LAG_TARGETS = ("in_3",)
TAP_TARGET = "in_2.5"
CUT_ANGLES = (-100, -50, 50, 100)  # about a half-ball hit on a weight near the foul line


@dataclass(frozen=True)
class Plan:
    """A shot: where to release (a `release` or `line_up` action), the angle, the target."""

    release: Action
    angle: int
    target: str


def choose(state: HorseCollarState, player: PlayerId, rng: Random) -> Action:
    """The next setting that differs from the plan, or the shot once all match."""
    plan = best_shot(state.rules, state.weights)
    aim = state.aims[state.seat_of(player)]
    wanted = _aim(state.rules, state.weights, plan)
    if wanted.release != aim.release:
        return plan.release
    if wanted.angle != aim.angle:
        return angle_action(plan.angle)
    return shoot_action(plan.target)


@functools.lru_cache(maxsize=512)
def best_shot(rules: Rules, board: tuple[Weight, ...]) -> Plan:
    """The candidate with the best expected board after it (ties: the earlier idea)."""
    best: tuple[float, Plan] | None = None
    for plan in candidates(rules, board):
        outcome = expected_value(rules, board, _aim(rules, board, plan))
        if best is None or outcome > best[0]:
            best = (outcome, plan)
    assert best is not None  # there is always a lag
    return best[1]


def expected_value(rules: Rules, board: tuple[Weight, ...], aim: Aim) -> float:
    """The board's expected worth after shooting `aim`. A shot that slides alone (judged by
    its noiseless run) lands where the noise spreads it, so its zone odds are exact normal
    probabilities; a shot into other weights is averaged over a few simulated draws."""
    shots_left = WEIGHTS_PER_TURN - len(board) - 1
    where = zones(rules, board)
    if len(play_shot(rules, board, len(board), aim, Noise()).paths) == 1:
        return sum(
            odds * board_value(rules, (*where, zone), shots_left)
            for zone, odds in lone_odds(rules, aim).items()
        )
    return sum(
        board_value(
            rules, zones(rules, play_shot(rules, board, len(board), aim, noise).after), shots_left
        )
        for noise in TRIALS
    ) / len(TRIALS)


def lone_odds(rules: Rules, aim: Aim) -> dict[Zone, float]:
    """Where a weight sliding alone stops, as zone odds: its stop is spread along the board
    by twice the speed noise (distance goes with speed squared) and across it by the angle
    noise over the run."""
    table = rules.table
    start, release = release_point(table, aim)
    stop = TARGET_BY_NAME[aim.target].stop(table)
    run = start - stop
    heading = math.radians(aim.angle / 100)
    along = _Normal(stop, 2 * SPEED_NOISE * run)
    across = _Normal(release + run * math.tan(heading), run * math.radians(ANGLE_NOISE))
    hw = table.half_width
    on = across.within(-hw, hw)
    inner = across.within(-hw + RADIUS, hw - RADIUS)
    overhang = along.within(0, RADIUS)
    odds = {
        Zone.CORNER: overhang * (on - inner),
        Zone.HANGER: overhang * inner,
        Zone.THREE: along.within(RADIUS, TREY_LINE - RADIUS) * on,
        Zone.TWO: along.within(TREY_LINE - RADIUS, DEUCE_LINE - RADIUS) * on,
        Zone.ONE: along.within(DEUCE_LINE - RADIUS, table.foul - RADIUS) * on,
        Zone.SHORT: along.within(table.foul - RADIUS, table.length) * on,
    }
    odds[Zone.ALLEY] = max(0.0, 1.0 - sum(odds.values()))
    return odds


@dataclass(frozen=True)
class _Normal:
    mean: float
    sd: float

    def within(self, lo: float, hi: float) -> float:
        """P(lo <= X < hi)."""
        return self._below(hi) - self._below(lo)

    def _below(self, x: float) -> float:
        return 0.5 * (1 + math.erf((x - self.mean) / (self.sd * math.sqrt(2))))


def candidates(rules: Rules, board: tuple[Weight, ...]) -> list[Plan]:
    """The ideas worth simulating for this board."""
    where = zones(rules, board)
    plans = [Plan(release_action(lane), 0, t) for lane in LAG_LANES for t in LAG_TARGETS]
    if any(z in (Zone.THREE, Zone.HANGER, Zone.CORNER) for z in where):
        # With a 3 in, the hangers pay: off the end, and off a corner from a rail.
        plans += [Plan(release_action(lane), 0, "hang") for lane in HANG_LANES]
        plans += [Plan(release_action(rail), 0, "hang") for rail in RAILS]
    for weight, zone in zip(board, where, strict=True):
        if zone is Zone.SHORT:
            # Cut it off the side: a straight hit would leave this weight short instead.
            plans += [Plan(line_up_action(weight.index), a, "off") for a in CUT_ANGLES]
        elif zone in (Zone.ONE, Zone.TWO):
            plans.append(Plan(line_up_action(weight.index), 0, TAP_TARGET))
    return plans


def board_value(rules: Rules, where: Sequence[Zone], shots_left: int) -> float:
    """What a board (its weights' zones) is worth to the side shooting: its points if a 3
    is in, a fraction of them otherwise; a short weight costs (and with no shot left, voids
    the turn)."""
    values = [zone_value(z, rules.corner_hanger) for z in where]
    total = float(sum(values))
    if max(values, default=0) < COUNTING:
        total *= POTENTIAL if shots_left else 0.0
    shorts = sum(z is Zone.SHORT for z in where) if rules.short_weight_voids_turn else 0
    if shorts:
        total = total - SHORT_PENALTY * shorts if shots_left else -SHORT_PENALTY
    return total


def _aim(rules: Rules, board: tuple[Weight, ...], plan: Plan) -> Aim:
    released = set_aim(rules, board, DEFAULT_AIM, plan.release)
    return Aim(released.release, plan.angle, plan.target, released.lane)
