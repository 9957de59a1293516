"""Tournament pairing at scale: an event of `--entrants` (1,000) at tables of `--table-size`
(6, and 2 for Cock & Bull's duels) over `--rounds` (5), each table's places drawn from a
seed. Times `deal_round` for every round, `--repeats` times each (the round dealt from the
standings and every earlier table, as the bot deals it), and the standings computed from
the results before it. Budget: a round dealt in ≤ 100 ms.

Run: .venv/bin/python -m bench.pairing [--entrants N] [--rounds N] [--repeats N]
"""

from __future__ import annotations

import argparse
import sys
import time
from random import Random

from bench.common import print_load, spread
from bench.results import Run
from bot.tournament.pairing import Entrant, deal_round, meetings, repeats
from bot.tournament.scoring import TableResult, standings

HOT_PATHS = ("bot/tournament/pairing.py", "bot/tournament/scoring.py", "bot/seasons.py")
SEED = 2026


def event(
    entrants: int, table_size: int, rounds: int, repeats_each: int
) -> tuple[list[float], list[float], int]:
    """Milliseconds of each `deal_round` and of each round's standings, and the repeat
    meetings seated over the event."""
    rng = Random(SEED)
    history: list[tuple[int, ...]] = []
    results: list[TableResult] = []
    byes: dict[int, tuple[int, ...]] = {}
    had_bye: set[int] = set()
    dealing: list[float] = []
    ranking: list[float] = []
    seen = 0
    for number in range(1, rounds + 1):
        start = time.perf_counter()
        table = standings(
            seed=SEED, entrants=range(entrants), results=results, byes=byes, ratings={}
        )
        ranking.append((time.perf_counter() - start) * 1000)
        field = [Entrant(s.member_id, s.points, s.buchholz, number > 1) for s in table]
        for _ in range(repeats_each):
            start = time.perf_counter()
            dealt = deal_round(
                seed=SEED,
                round_number=number,
                entrants=field,
                history=history,
                table_size=table_size,
                min_size=2,
                past_byes=had_bye,
            )
            dealing.append((time.perf_counter() - start) * 1000)
        seen += repeats(dealt.tables, meetings(history))
        for members in dealt.tables:
            places = list(members)
            rng.shuffle(places)
            results.append(TableResult(number, {m: p for p, m in enumerate(places, start=1)}))
            history.append(members)
        byes[number] = dealt.byes
        had_bye |= set(dealt.byes)
    return dealing, ranking, seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    run = Run("pairing", HOT_PATHS, sys.argv[1:])
    print_load("before")
    rows = []
    for table_size in (6, 2):
        dealing, ranking, seen = event(args.entrants, table_size, args.rounds, args.repeats)
        rows.append([f"deal_round, tables of {table_size}", len(dealing), *spread(dealing), seen])
        rows.append([f"standings, tables of {table_size}", len(ranking), *spread(ranking), "-"])
    run.table(
        f"Tournament pairing, {args.entrants:,} entrants over {args.rounds} rounds; "
        "budget: a round dealt in ≤ 100 ms",
        ["measure", "n", "p50 ms", "p99 ms", "max ms", "repeat meetings"],
        rows,
    )
    print_load("after")
    run.save()


if __name__ == "__main__":
    main()
