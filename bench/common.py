"""Shared helpers for the benchmarks: which games to run, seeded AI playouts, percentiles,
tables and the machine's load."""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import time
from collections.abc import Coroutine, Iterator, Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any, TypeVar

import uvloop

from bot.table.presenter import Presenter
from cogs.games import GAMES
from rules.core import (
    Action,
    Engine,
    Event,
    IllegalAction,
    Options,
    PlayerId,
    setup_rng,
    step_rng,
)
from rules.registry import ENGINES

ALL = "all"  # --game all: every registered engine, with a presenter or not
T = TypeVar("T")


def run_beside_the_bot(main: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(main)` on uvloop's event loop, as the bot runs. The fake Discord in this
    process stands in for Discord, whose work never shares the bot's cores; on the machine
    the bot runs on, the less of them it takes the better."""
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(main)


def seats(count: int) -> tuple[PlayerId, ...]:
    """Discord-like ids for a table of `count` AI players."""
    return tuple(101 * (n + 1) for n in range(count))


def names(players: Sequence[PlayerId]) -> dict[PlayerId, str]:
    """Names for the seats, one of them long (a board must fit it)."""
    pool = ("Ana", "Maximilian Featherstonehaugh", "Leo", "Zoë", "Bartholomew", "Io")
    return {p: f"{pool[n % len(pool)]}{n // len(pool) or ''}" for n, p in enumerate(players)}


def table_sizes(engine: Engine[Any]) -> list[int]:
    """The smallest, a middle and the largest table the default options allow (Horse
    Collar's sides are 1, 2 or 4 players, so not every count is a table)."""
    valid = []
    for count in range(engine.min_players, engine.max_players + 1):
        try:
            engine.validate_options({}, count)
        except IllegalAction:
            continue
        valid.append(count)
    return sorted({valid[0], valid[len(valid) // 2], valid[-1]})


@dataclass(frozen=True)
class Ply:
    """One step of a playout: the state after it and what led there. The initial state comes
    as a Ply with no player or action; `choose_s`/`apply_s` are the AI's and the engine's
    seconds for this step."""

    state: Any
    before: Any = None
    player: PlayerId | None = None
    action: Action | None = None
    events: tuple[Event, ...] = ()
    choose_s: float = 0.0
    apply_s: float = 0.0


def playout(
    engine: Engine[Any],
    seed: str,
    players: int | None = None,
    options: Options | None = None,
    *,
    per_step_rng: bool = True,
) -> Iterator[Ply]:
    """Every step of one seeded AI-vs-AI game (`players` seats, default the engine's
    minimum), the initial state first.

    With `per_step_rng` the random sources are derived per step exactly as the bot's
    GameService does; otherwise one Random serves the whole game (the engine alone).
    """
    table = seats(players or engine.min_players)
    state = engine.initial_state(table, options or {}, setup_rng(seed))
    shared = Random(seed)
    step = 0
    clock = time.perf_counter
    yield Ply(state)
    while to_act := engine.to_act(state):
        player = min(to_act)
        choose_rng = step_rng(f"{seed}:ai", step) if per_step_rng else shared
        apply_rng = step_rng(seed, step) if per_step_rng else shared
        start = clock()
        action = engine.choose(state, player, choose_rng)
        chosen = clock()
        result = engine.apply(state, player, action, apply_rng)
        done = clock()
        yield Ply(result.state, state, player, action, result.events, chosen - start, done - chosen)
        state = result.state
        step += 1


# --- which games -------------------------------------------------------------------------------


def presenter_for(game: str) -> Presenter[Any] | None:
    """The game's presenter (`cogs.games`), or None while the game has no cog yet."""
    return next((spec.presenter() for spec in GAMES if spec.name == game), None)


def add_game_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--game",
        action="append",
        choices=[*ENGINES, ALL],
        help="a game to measure (repeatable); default: every registered game whose cog has "
        f"a presenter; '{ALL}': every registered engine",
    )


def selected_games(
    asked: Sequence[str] | None, *, need_presenter: bool
) -> list[tuple[str, Presenter[Any] | None]]:
    """The games to measure, each with its presenter (None if its cog is missing). Games left
    out for want of a cog are noted on stdout."""
    chosen = list(ENGINES) if not asked or ALL in asked else list(dict.fromkeys(asked))
    games, missing = [], []
    for game in chosen:
        presenter = presenter_for(game)
        if presenter is None and (need_presenter or not asked):
            missing.append(game)
        else:
            games.append((game, presenter))
    if missing:
        hint = "" if need_presenter else f" (engine only: --game NAME or --game {ALL})"
        print(f"skipped, no presenter in cogs/games.py yet: {', '.join(missing)}{hint}")
    return games


# --- figures -----------------------------------------------------------------------------------


def percentile(values: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile of `values` (which need not be sorted)."""
    ordered = sorted(values)
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[rank - 1]


def spread(values: Sequence[float], pcts: Sequence[float] = (50, 99), digits: int = 1) -> list[str]:
    """The given percentiles and the max of `values`, formatted."""
    if not values:
        return ["-"] * (len(pcts) + 1)
    return [f"{v:.{digits}f}" for v in (*(percentile(values, p) for p in pcts), max(values))]


def print_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    """Print a plain, right-aligned table."""
    cells = [list(map(str, headers)), *([str(c) for c in row] for row in rows)]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    for n, row in enumerate(cells):
        print("  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)))
        if n == 0:
            print("  ".join("-" * w for w in widths))


def load() -> str:
    """The machine's load averages, to print next to the figures (2 shared cores: a busy
    machine makes every figure worse)."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} on {os.cpu_count()} cores"


def print_load(when: str) -> None:
    print(f"[{when}: {load()}]")


def option_items(options: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in options.items()) or "defaults"
