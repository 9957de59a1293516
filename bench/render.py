"""Board picture time and size per game, over states from seeded AI playouts.

For each game with a presenter (`cogs/games.py`), plays AI games at several table sizes,
samples states, and times the presenter's `render_png` (drawing and PNG encoding, as the bot
sends it). The first render of each game in the process, which builds cached art and loads
fonts, is reported apart as "cold". Horse Collar's replay GIF of a shot is timed too.

Run: .venv/bin/python -m bench.render [--game NAME ...] [--states N]
"""

from __future__ import annotations

import argparse
import statistics
import struct
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from random import Random
from typing import Any

from bench.common import (
    add_game_option,
    names,
    percentile,
    playout,
    print_load,
    seats,
    selected_games,
    spread,
    table_sizes,
)
from bench.results import Run
from bot.table.presenter import Presenter
from rules.registry import ENGINES

BUDGET_MS = 60.0  # docs/ARCHITECTURE.md, "Performance budget": render + encode of the largest board
BUDGET_KB = 300.0
POOL = 5  # states played per state sampled
HOT_PATHS = ("images", "cogs", "bot/table/presenter.py", "rules", "pyproject.toml")


@dataclass(frozen=True)
class Sample:
    """One timed picture: milliseconds, bytes, pixels."""

    ms: float
    size: int
    pixels: tuple[int, int]


def timed(draw: Callable[[], bytes]) -> Sample:
    start = time.perf_counter()
    data = draw()
    ms = (time.perf_counter() - start) * 1000
    return Sample(ms, len(data), dimensions(data))


def dimensions(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's or GIF's header."""
    if data.startswith(b"\x89PNG"):
        return struct.unpack(">II", data[16:24])
    return struct.unpack("<HH", data[6:10])


def pool(game: str, states: int) -> list[Any]:
    """Every ply of seeded AI games, one at each table size and more, cycling, until there
    are `POOL` times `states` of them."""
    engine = ENGINES[game]
    sizes = table_sizes(engine)
    plies: list[Any] = []
    n = 0
    while len(plies) < states * POOL or n < len(sizes):
        plies.extend(playout(engine, f"bench-render-{game}-{n}", sizes[n % len(sizes)]))
        n += 1
    return plies


def replays(plies: Sequence[Any], count: int) -> list[Sample]:
    """Horse Collar: the replay GIF of `count` + 1 sampled shots (their `WeightShot` events),
    the first one cold."""
    from images.horse_collar_replay import render_replay
    from rules.horse_collar.state import WeightShot

    shots = [(p.before.rules, e) for p in plies for e in p.events if isinstance(e, WeightShot)]
    picked = Random("bench-replay").sample(shots, min(count + 1, len(shots)))
    return [timed(partial(render_replay, rules, shot)) for rules, shot in picked]


EXTRAS: dict[str, Callable[[Sequence[Any], int], list[Sample]]] = {
    "horse_collar": replays,
}
EXTRA_LABEL = {"horse_collar": "replay GIF"}


def row(label: str, samples: Sequence[Sample], cold: Sample, budget: bool = True) -> list[object]:
    """p50 / p99 / max ms, KB min / median / max, the largest picture, and the board budget
    (a replay is drawn after a deferral: the budget does not apply)."""
    ms = [s.ms for s in samples]
    kb = sorted(s.size / 1024 for s in samples)
    width, height = max(s.pixels for s in samples)
    over = percentile(ms, 99) > BUDGET_MS or kb[-1] > BUDGET_KB
    return [
        label,
        f"{width}×{height}",
        len(samples),
        f"{cold.ms:.0f}",
        *spread(ms),
        f"{kb[0]:.0f}",
        f"{statistics.median(kb):.0f}",
        f"{kb[-1]:.0f}",
        ("OVER" if over else "ok") if budget else "n/a",
    ]


def measure(game: str, presenter: Presenter[Any], states: int, extra: int) -> list[list[object]]:
    plies = pool(game, states)
    sampled = Random(f"bench-render-{game}").sample(plies, states)
    who = names(seats(16))

    def draw(state: Any) -> Callable[[], bytes]:
        return lambda: presenter.render_png(state, who)

    cold = timed(draw(sampled[0].state))  # the first picture in the process: empty caches
    rows = [row(game, [timed(draw(p.state)) for p in sampled], cold)]
    if game in EXTRAS and extra:
        samples = EXTRAS[game](plies, extra)
        rows.append(row(f"{game} {EXTRA_LABEL[game]}", samples[1:], samples[0], budget=False))
    return rows


def main() -> None:
    """Time each game's pictures and print one table."""
    parser = argparse.ArgumentParser(description=__doc__)
    add_game_option(parser)
    parser.add_argument("--states", type=int, default=200, help="board states per game")
    parser.add_argument("--replays", type=int, default=30, help="replay GIFs (Horse Collar)")
    args = parser.parse_args()
    print_load("before")
    rows = []
    for game, presenter in selected_games(args.game, need_presenter=True):
        assert presenter is not None
        rows.extend(measure(game, presenter, args.states, args.replays))
    run = Run("render", HOT_PATHS, sys.argv[1:])
    run.table(
        "Board pictures (presenter.render_png: draw + PNG encode) over states from seeded AI "
        f"playouts; budget p99 ≤ {BUDGET_MS:.0f} ms, ≤ {BUDGET_KB:.0f} KB",
        (
            "picture",
            "pixels",
            "n",
            "cold ms",
            "p50 ms",
            "p99 ms",
            "max ms",
            "KB min",
            "KB med",
            "KB max",
            "budget",
        ),
        rows,
    )
    run.save()
    print_load("after")


if __name__ == "__main__":
    main()
