"""Cock & Bull engine throughput: full AI-vs-AI games per second, and steps per second.

Run: .venv/bin/python -m bench.engine [--games N]
"""

from __future__ import annotations

import argparse
import time

from bench.common import playout, print_table


def run(games: int, *, per_step_rng: bool) -> tuple[float, int]:
    """Play `games` seeded games; return (seconds, steps)."""
    steps = 0
    start = time.perf_counter()
    for n in range(games):
        for _ in playout(f"bench-engine-{n}", per_step_rng=per_step_rng):
            steps += 1
        steps -= 1  # the initial state is not a step
    return time.perf_counter() - start, steps


def main() -> None:
    """Time both ways of drawing randomness and print games/s and steps/s."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args()
    rows = []
    for label, per_step in (("per-step rngs (as the bot)", True), ("one rng per game", False)):
        run(50, per_step_rng=per_step)  # warm-up
        seconds, steps = run(args.games, per_step_rng=per_step)
        rows.append(
            (
                label,
                args.games,
                steps,
                f"{steps / args.games:.1f}",
                f"{args.games / seconds:,.0f}",
                f"{steps / seconds:,.0f}",
            )
        )
    print("Cock & Bull engine, AI vs AI, best of 1")
    print_table(("randomness", "games", "steps", "steps/game", "games/s", "steps/s"), rows)


if __name__ == "__main__":
    main()
