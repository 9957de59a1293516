"""Cock & Bull board render + PNG encode time and PNG size, over states from AI playouts.

Run: .venv/bin/python -m bench.render [--states N]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Mapping
from dataclasses import dataclass
from random import Random

from bench.common import SEATS, percentile, playout, print_table
from images.cock_and_bull import render
from images.common import to_png
from rules.cock_and_bull.state import CockAndBullState
from rules.core import Options, PlayerId

NAMES: Mapping[PlayerId, str] = {SEATS[0]: "Ana", SEATS[1]: "Maximilian Featherstonehaugh"}
MATCHES: tuple[Options, ...] = ({}, {"best_of": 3}, {"optional_points": True}, {"point_limit": 5})


@dataclass(frozen=True)
class Sample:
    """One timed render: milliseconds drawing, milliseconds encoding, PNG bytes."""

    render_ms: float
    encode_ms: float
    size: int

    @property
    def total_ms(self) -> float:
        return self.render_ms + self.encode_ms


def states(count: int) -> list[CockAndBullState]:
    """`count` states drawn evenly at random from seeded playouts of several house rules."""
    pool: list[CockAndBullState] = []
    game = 0
    while len(pool) < count * 5:
        pool.extend(playout(f"bench-render-{game}", MATCHES[game % len(MATCHES)]))
        game += 1
    return Random("bench-render").sample(pool, count)


def measure(state: CockAndBullState) -> Sample:
    """Render and encode one board, timing each part."""
    start = time.perf_counter()
    image = render(state, NAMES)
    drawn = time.perf_counter()
    png = to_png(image)
    done = time.perf_counter()
    return Sample((drawn - start) * 1000, (done - drawn) * 1000, len(png))


def time_row(label: str, values: list[float]) -> tuple[str, ...]:
    """A table row of p50 / p99 / max milliseconds."""
    return (
        label,
        *(f"{v:.1f}" for v in (percentile(values, 50), percentile(values, 99))),
        f"{max(values):.1f}",
    )


def main() -> None:
    """Time one cold render, then every sampled state, and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--states", type=int, default=300)
    args = parser.parse_args()
    sampled = states(args.states)
    cold = measure(sampled[0])  # the first render in this process: caches are empty
    warm = [measure(s) for s in sampled]
    print(f"Cock & Bull board, {len(warm)} states from seeded AI playouts (800×560)")
    print(f"cold first render: {cold.render_ms:.1f} ms draw + {cold.encode_ms:.1f} ms encode")
    print_table(
        ("ms", "p50", "p99", "max"),
        [
            time_row("render + encode", [s.total_ms for s in warm]),
            time_row("  render", [s.render_ms for s in warm]),
            time_row("  PNG encode", [s.encode_ms for s in warm]),
        ],
    )
    sizes = sorted(s.size / 1024 for s in warm)
    print(
        f"PNG size KB: min {sizes[0]:.1f}, median {statistics.median(sizes):.1f}, "
        f"max {sizes[-1]:.1f}"
    )


if __name__ == "__main__":
    main()
