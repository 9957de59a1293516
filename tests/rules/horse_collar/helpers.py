"""Shared set-ups for the Horse Collar tests: tables, and boards written zone by zone."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.core import PlayerId, Step, setup_rng
from rules.horse_collar import ENGINE
from rules.horse_collar.geometry import Zone
from rules.horse_collar.state import HorseCollarState, Weight

# A resting place (d, y in mils) in each zone of the default 22 ft table.
SPOT = {
    Zone.CORNER: (600, 9_500),
    Zone.HANGER: (600, 0),
    Zone.THREE: (3_000, 0),
    Zone.TWO: (8_000, 0),
    Zone.ONE: (30_000, 0),
    Zone.SHORT: (200_000, 0),
    Zone.ALLEY: (-500, 0),
}


def game(seats: tuple[PlayerId, ...] = (101, 202), **options: Any) -> HorseCollarState:
    return ENGINE.initial_state(seats, options, setup_rng("test"))


def board(*zones: Zone) -> tuple[Weight, ...]:
    """Weights in shooting order, one per zone given, spread across the board."""
    weights = []
    for i, zone in enumerate(zones):
        d, y = SPOT[zone]
        if zone not in (Zone.CORNER,):
            y = (i - 3) * 2_400
        weights.append(Weight(i, d, y, fallen=zone is Zone.ALLEY))
    return tuple(weights)


def finish(state: HorseCollarState, *zones: Zone) -> Step[HorseCollarState]:
    """The side to shoot leaves its eight weights in `zones` and the turn is scored."""
    padded = zones + (Zone.ALLEY,) * (8 - len(zones))
    return ENGINE.finish_turn(replace(state, weights=board(*padded), shot=8))


def scoring(state: HorseCollarState, scores: tuple[int, ...]) -> HorseCollarState:
    return replace(state, scores=scores)
