"""The shot controls a shooter is offered, and the aim each one leaves (used by the engine and
the AI); the actions themselves are in `actions.py`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from rules.core import Action, PlayerId
from rules.horse_collar.actions import (
    ANGLE_ACTIONS,
    RELEASE_ACTIONS,
    SAME_AGAIN,
    SHOOT_ACTIONS,
    Verb,
    line_up_action,
    parse_angle,
    parse_line_up,
)
from rules.horse_collar.geometry import RADIUS
from rules.horse_collar.shots import LANE_BY_NAME, RAIL_OVERHANG, TARGET_BY_NAME, lane_release
from rules.horse_collar.state import Aim, HorseCollarState, Rules, Weight


def shot_actions(state: HorseCollarState) -> tuple[Action, ...]:
    """Everything the shooter may do: at most 7 + 7 release points, 7 angles, 17 distances
    and "Same again" — three selects and a button."""
    line_ups = tuple(line_up_action(w.index) for w in state.weights if not w.fallen)
    return (*RELEASE_ACTIONS, *line_ups, *ANGLE_ACTIONS, *SHOOT_ACTIONS, SAME_AGAIN)


def aim_after(state: HorseCollarState, player: PlayerId, action: Action) -> Aim:
    """The player's settings after `action` (one of `shot_actions`)."""
    return set_aim(state.rules, state.weights, state.aims[state.seat_of(player)], action)


def set_aim(rules: Rules, board: Sequence[Weight], aim: Aim, action: Action) -> Aim:
    """`aim` changed by `action` (one of `shot_actions` for `board`)."""
    return _BY_VERB[Verb(action.verb)](rules, board, aim, action)


def _release(rules: Rules, board: Sequence[Weight], aim: Aim, action: Action) -> Aim:
    release = lane_release(LANE_BY_NAME[action.arg], rules.table)
    return replace(aim, release=release, lane=action.arg)


def _line_up(rules: Rules, board: Sequence[Weight], aim: Aim, action: Action) -> Aim:
    """Lining up with a weight also straightens the angle: the weight then slides straight
    at it."""
    index = parse_line_up(action)
    weight = next(w for w in board if w.index == index)
    reach = rules.table.half_width - RADIUS + RAIL_OVERHANG
    release = max(-reach, min(reach, weight.y))
    return replace(aim, release=release, angle=0, lane=action.arg)


def _angle(rules: Rules, board: Sequence[Weight], aim: Aim, action: Action) -> Aim:
    return replace(aim, angle=parse_angle(action))


def _shoot(rules: Rules, board: Sequence[Weight], aim: Aim, action: Action) -> Aim:
    if not action.arg:  # "Same again": every setting as it was
        return aim
    return replace(aim, target=TARGET_BY_NAME[action.arg].name)


_BY_VERB: dict[Verb, Callable[[Rules, Sequence[Weight], Aim, Action], Aim]] = {
    Verb.RELEASE: _release,
    Verb.LINE_UP: _line_up,
    Verb.ANGLE: _angle,
    Verb.SHOOT: _shoot,
}
