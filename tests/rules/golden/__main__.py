"""Record the golden playthroughs: `python -m tests.rules.golden record [game ...]`.

Re-record only for an intended rules change, in the same commit as the change (see
`tests/rules/golden/__init__.py`), and read the diff: it shows every step that changed.
"""

from __future__ import annotations

import argparse
from typing import Any

from rules.core import Engine
from rules.registry import ENGINES
from tests.games import TEST_SPECS
from tests.rules.golden import Playthrough, Sample, record, seating, write


def record_sample(engine: Engine[Any], sample: Sample) -> list[Playthrough]:
    """One game per table size and seed; each the shortest of `sample.shortest_of` seeds."""
    games = []
    for size in sample.tables:
        for i in range(sample.seeds):
            name = f"{sample.name}/{size}p/{i}"
            candidates = (
                record(engine, name, f"{engine.name}/{name}.{k}", seating(size), sample.options)
                for k in range(sample.shortest_of)
            )
            games.append(min(candidates, key=lambda game: len(game.steps)))
    return games


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.rules.golden")
    parser.add_argument("command", choices=["record"])
    parser.add_argument("games", nargs="*", help="default: every game with samples")
    args = parser.parse_args()
    for game in args.games or TEST_SPECS:
        if game not in TEST_SPECS:
            parser.error(f"no samples for {game!r}: {', '.join(TEST_SPECS)}")
        samples = TEST_SPECS[game].samples
        playthroughs = [p for s in samples for p in record_sample(ENGINES[game], s)]
        path = write(game, playthroughs)
        steps = sum(len(p.steps) for p in playthroughs)
        size_kb = path.stat().st_size / 1024
        print(f"{game}: {len(playthroughs)} games, {steps} steps, {size_kb:.0f} KB -> {path}")


if __name__ == "__main__":
    main()
