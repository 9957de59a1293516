"""Scoring a turn (docs/rules/horse_collar.md, "Scoring a turn")."""

from __future__ import annotations

from collections.abc import Sequence

from rules.horse_collar.geometry import Zone, zone_of, zone_value
from rules.horse_collar.state import Rules, TurnResult, VoidReason, Weight

COUNTING = 3  # a turn counts only with a weight worth 3 or more (3, 13 or 26)


def zones(rules: Rules, weights: Sequence[Weight]) -> tuple[Zone, ...]:
    """Where each of `weights` lies on this table (`geometry.zone_of`)."""
    table = rules.table
    return tuple(zone_of(w.d, w.y, table, fallen=w.fallen) for w in weights)


def values(rules: Rules, weights: Sequence[Weight]) -> tuple[int, ...]:
    """Each weight's worth where it lies now (short and dead ones 0)."""
    return tuple(zone_value(z, rules.corner_hanger) for z in zones(rules, weights))


def score_turn(rules: Rules, side: int, frame: int, weights: Sequence[Weight]) -> TurnResult:
    """The sum of the weights, only if one is worth 3 or more and — with
    `short_weight_voids_turn` (docs/rules/horse_collar.md, "Scoring a turn") — no short weight
    remains on the board."""
    worth = values(rules, weights)
    void: VoidReason | None = None
    if rules.short_weight_voids_turn and Zone.SHORT in zones(rules, weights):
        void = VoidReason.SHORT_WEIGHT
    elif max(worth, default=0) < COUNTING:
        void = VoidReason.NO_THREE
    points = 0 if void else sum(worth)
    return TurnResult(side, frame, tuple(weights), worth, points, void)
