"""Horse Collar's actions: one vocabulary for the engine, the AI, the presenter and the tests.

A shot is set up, then shot, in at most three clicks (docs/rules/horse_collar.md,
"Physics": the player's choice is quantised here). Action logs and the custom ids on old
Discord messages carry `<verb>[:<arg>]`, so a verb and the form of its argument never change.

- `release:<lane>`: where across the board the weight leaves the hand (`shots.LANES`);
- `line_up:<weight>`: release in line with a weight on the board (`r1`..`b4`), angle straight;
- `angle:<degrees>`: a small angle, `-1` to `1` (`shots.ANGLES`);
- `shoot:<target>`: shoot at a named distance (`shots.TARGETS`); bare `shoot` is "Same
  again", the settings kept from the last shot.
"""

from __future__ import annotations

import enum

from rules.core import Action
from rules.horse_collar.shots import ANGLE_BY_ARG, ANGLES, LANES, TARGETS, angle_arg
from rules.horse_collar.state import WEIGHTS_PER_COLOUR, weight_label


class Verb(enum.StrEnum):
    """Every verb of the game."""

    RELEASE = "release"
    LINE_UP = "line_up"
    ANGLE = "angle"
    SHOOT = "shoot"


SAME_AGAIN = Action(Verb.SHOOT)  # the last settings, distance included


def release_action(lane: str) -> Action:
    """Release from `lane` (a `shots.LANES` name)."""
    return Action(Verb.RELEASE, lane)


def line_up_action(index: int) -> Action:
    """Release straight in line with weight `index` on the board (to tap it or knock it off)."""
    return Action(Verb.LINE_UP, weight_label(index).lower())


def parse_line_up(action: Action) -> int:
    """The weight a `line_up` action lines up with (`r1` is weight 0, `b4` weight 7)."""
    return lined_up_weight(action.arg)


def lined_up_weight(lane: str) -> int:
    """The weight a lane that is not a `shots.LANES` name lines up with (`r1`: weight 0)."""
    colour, number = lane[0], int(lane[1:])
    return (0 if colour == "r" else WEIGHTS_PER_COLOUR) + number - 1


def angle_action(angle: int) -> Action:
    """Set the angle to `angle` hundredths of a degree (one of `shots.ANGLES`)."""
    return Action(Verb.ANGLE, angle_arg(angle))


def parse_angle(action: Action) -> int:
    """The angle an `angle` action sets, in hundredths of a degree."""
    return ANGLE_BY_ARG[action.arg]


def shoot_action(target: str) -> Action:
    """Shoot at `target` (a `shots.TARGETS` name)."""
    return Action(Verb.SHOOT, target)


RELEASE_ACTIONS = tuple(release_action(lane.name) for lane in LANES)
ANGLE_ACTIONS = tuple(angle_action(a) for a in ANGLES)
SHOOT_ACTIONS = tuple(shoot_action(t.name) for t in TARGETS)
