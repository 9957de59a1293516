"""Rules engine throughput per game: AI-vs-AI games and steps per second (engine only: no
storage, no rendering), plus the figures some games are held to: a Horse Collar shot's
simulation time, a Risk AI turn's time, six-AI games per second, and Risk side by side with
pyrisk (`versus_pyrisk.py`: a checkout in $PYRISK_DIR, else it says how to get one).

Run: .venv/bin/python -m bench.engine [--game NAME ...] [--seconds S]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bench.common import add_game_option, playout, print_load, selected_games, spread
from bench.results import Run as Recorded
from bench.versus_pyrisk import versus_figures
from rules.core import Engine
from rules.horse_collar.actions import Verb
from rules.registry import ENGINES

Watch = Callable[[Any], None]  # called with every Ply that has an action


@dataclass
class Run:
    games: int = 0
    steps: int = 0
    seconds: float = 0.0

    def rate(self, what: int) -> str:
        """`what` per second, to a sensible precision."""
        per_s = what / self.seconds
        return f"{per_s:,.1f}" if per_s < 100 else f"{per_s:,.0f}"


def run(
    engine: Engine[Any],
    label: str,
    seconds: float,
    *,
    players: int | None = None,
    per_step_rng: bool = True,
    watch: Watch | None = None,
    min_games: int = 3,
) -> Run:
    """Play seeded AI-vs-AI games until `seconds` have passed (at least `min_games`)."""
    result = Run()
    start = time.perf_counter()
    while result.games < min_games or time.perf_counter() - start < seconds:
        seed = f"bench-engine-{engine.name}-{label}-{result.games}"
        for ply in playout(engine, seed, players, per_step_rng=per_step_rng):
            if ply.action is not None:
                result.steps += 1
                if watch is not None:
                    watch(ply)
        result.games += 1
    result.seconds = time.perf_counter() - start
    return result


# --- the figures particular games are held to ------------------------------------------------


def shot_figures(engine: Engine[Any], seconds: float) -> list[tuple[str, str]]:
    """Horse Collar: one shot's simulation, timed as `ENGINE.apply` of a shoot action (the
    physics to rest, scoring the turn after the eighth weight)."""
    ms: list[float] = []

    def watch(ply: Any) -> None:
        if ply.action.verb == Verb.SHOOT:
            ms.append(ply.apply_s * 1000)

    run(engine, "shots", seconds, watch=watch)
    return [(f"shot: apply(shoot) ms p50 / p99 / max, {len(ms)} shots", " / ".join(spread(ms)))]


def turn_figures(engine: Engine[Any], seconds: float) -> list[tuple[str, str]]:
    """Risk: full six-AI games per second, and an AI turn's time from its start to its end
    (every `choose` and `apply` in it, a defender's dice choices included; set-up excluded)."""
    ms: list[float] = []
    spent = 0.0

    def watch(ply: Any) -> None:
        nonlocal spent
        if ply.before.round == 0:
            return  # set-up: not a turn
        spent += ply.choose_s + ply.apply_s
        if ply.state.turn != ply.before.turn or not engine.to_act(ply.state):
            ms.append(spent * 1000)
            spent = 0.0

    six = run(engine, "six", seconds, players=6, watch=watch)
    return [
        (
            f"6 AI players: games/s ({six.games} games, {six.steps / six.games:.0f} steps/game)",
            six.rate(six.games),
        ),
        (f"6 AI players: turn ms p50 / p99 / max, {len(ms)} turns", " / ".join(spread(ms))),
    ]


def risk_figures(engine: Engine[Any], seconds: float) -> list[tuple[str, str]]:
    """Risk: the six-AI figures, then three random players against pyrisk's."""
    return turn_figures(engine, seconds) + versus_figures(seconds)


EXTRAS: dict[str, Callable[[Engine[Any], float], list[tuple[str, str]]]] = {
    "horse_collar": shot_figures,
    "risk": risk_figures,
}


def main() -> None:
    """Time each game both ways of drawing randomness, then its extra figures; print them."""
    parser = argparse.ArgumentParser(description=__doc__)
    add_game_option(parser)
    parser.add_argument("--seconds", type=float, default=3.0, help="per game and figure")
    args = parser.parse_args()
    print_load("before")
    rows: list[tuple[object, ...]] = []
    extras: list[tuple[object, ...]] = []
    for game, _ in selected_games(args.game, need_presenter=False):
        engine = ENGINES[game]
        run(engine, "warm-up", 0.2, min_games=1)
        bot = run(engine, "bot", args.seconds)
        shared = run(engine, "shared", args.seconds, per_step_rng=False)
        rows.append(
            (
                game,
                engine.min_players,
                bot.games,
                f"{bot.steps / bot.games:.0f}",
                bot.rate(bot.games),
                bot.rate(bot.steps),
                shared.rate(shared.games),
            )
        )
        if game in EXTRAS:
            extras.extend((game, *figure) for figure in EXTRAS[game](engine, args.seconds))
    record = Recorded(
        "engine", ("rules", "bench/versus_pyrisk.py", "bench/engine.py"), sys.argv[1:]
    )
    record.table(
        "Engines, AI vs AI, default options, per-step rngs as the bot (last: one rng a game)",
        ("game", "players", "games", "steps/game", "games/s", "steps/s", "games/s 1 rng"),
        rows,
    )
    if extras:
        print()
        record.table("Figures of one game each", ("game", "figure", "value"), extras)
    record.save()
    print_load("after")


if __name__ == "__main__":
    main()
