"""Shared helpers for the benchmarks: seeded AI playouts, percentiles, tables."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from random import Random

from rules.cock_and_bull import ENGINE
from rules.cock_and_bull.state import CockAndBullState
from rules.core import Options, PlayerId, setup_rng, step_rng

SEATS: tuple[PlayerId, PlayerId] = (101, 202)


def playout(
    seed: str, options: Options | None = None, *, per_step_rng: bool = True
) -> Iterator[CockAndBullState]:
    """Yield every state of one AI-vs-AI game, the initial one first.

    With `per_step_rng` the random sources are derived per step exactly as the bot's
    GameService does; otherwise one Random serves the whole game (the engine alone).
    """
    state = ENGINE.initial_state(SEATS, options or {}, setup_rng(seed))
    shared = Random(seed)
    step = 0
    yield state
    while to_act := ENGINE.to_act(state):
        player = min(to_act)
        choose_rng = step_rng(f"{seed}:ai", step) if per_step_rng else shared
        apply_rng = step_rng(seed, step) if per_step_rng else shared
        action = ENGINE.choose(state, player, choose_rng)
        state = ENGINE.apply(state, player, action, apply_rng).state
        step += 1
        yield state


def percentile(values: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile of `values` (which need not be sorted)."""
    ordered = sorted(values)
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[rank - 1]


def print_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    """Print a plain, right-aligned table."""
    cells = [list(map(str, headers)), *([str(c) for c in row] for row in rows)]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    for n, row in enumerate(cells):
        print("  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)))
        if n == 0:
            print("  ".join("-" * w for w in widths))
