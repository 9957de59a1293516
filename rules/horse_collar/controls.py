"""The shot controls as actions, and the aim each one leaves (used by the engine and the AI).

- `release:<lane>`: where across the board the weight leaves the hand (`shots.LANES`);
- `line_up:<weight>`: release in line with a weight on the board (`r1`..`b4`), angle straight;
- `angle:<degrees>`: a small angle, `-1` to `1` (`shots.ANGLES`);
- `shoot:<target>`: shoot at a named distance (`shots.TARGETS`); bare `shoot` is "Same again".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from rules.core import Action, PlayerId
from rules.horse_collar.geometry import RADIUS
from rules.horse_collar.shots import (
    ANGLE_BY_ARG,
    ANGLES,
    LANE_BY_NAME,
    LANES,
    RAIL_OVERHANG,
    TARGET_BY_NAME,
    TARGETS,
    angle_arg,
    lane_release,
)
from rules.horse_collar.state import Aim, HorseCollarState, Rules, Weight, weight_label

SAME_AGAIN = Action("shoot")  # the last settings, distance included
RELEASE_ACTIONS = tuple(Action("release", lane.name) for lane in LANES)
ANGLE_ACTIONS = tuple(Action("angle", angle_arg(a)) for a in ANGLES)
SHOOT_ACTIONS = tuple(Action("shoot", t.name) for t in TARGETS)


def line_up_action(index: int) -> Action:
    """Release straight in line with a weight on the board (to tap it or knock it off)."""
    return Action("line_up", weight_label(index).lower())


def shot_actions(state: HorseCollarState) -> tuple[Action, ...]:
    """Everything the shooter may do: at most 7 + 7 release points, 7 angles, 17 distances
    and "Same again" — three selects and a button."""
    line_ups = tuple(line_up_action(w.index) for w in state.weights if not w.fallen)
    return (*RELEASE_ACTIONS, *line_ups, *ANGLE_ACTIONS, *SHOOT_ACTIONS, SAME_AGAIN)


def aim_after(state: HorseCollarState, player: PlayerId, action: Action) -> Aim:
    """The player's settings after `action` (one of `shot_actions`)."""
    return set_aim(state.rules, state.weights, state.aims[state.seat_of(player)], action)


def set_aim(rules: Rules, board: Sequence[Weight], aim: Aim, action: Action) -> Aim:
    """`aim` changed by `action`. Lining up with a weight also straightens the angle: the
    weight then slides straight at it."""
    table = rules.table
    if action.verb == "release":
        return replace(aim, release=lane_release(LANE_BY_NAME[action.arg], table), lane=action.arg)
    if action.verb == "line_up":
        weight = next(w for w in board if line_up_action(w.index) == action)
        reach = table.half_width - RADIUS + RAIL_OVERHANG
        release = max(-reach, min(reach, weight.y))
        return replace(aim, release=release, angle=0, lane=action.arg)
    if action.verb == "angle":
        return replace(aim, angle=ANGLE_BY_ARG[action.arg])
    if action.arg:  # shoot:<target>
        return replace(aim, target=TARGET_BY_NAME[action.arg].name)
    return aim
