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
from dataclasses import dataclass, field
from random import Random

from bench.common import print_load, spread
from bench.results import Run
from bot.tournament.pairing import Entrant, Round, deal_round, meetings, repeats
from bot.tournament.scoring import Standing, TableResult, standings

HOT_PATHS = ("bot/tournament/pairing.py", "bot/tournament/scoring.py", "bot/seasons.py")
SEED = 2026


@dataclass
class SwissEvent:
    """An event of `entrants` dealt round by round from its standings, as the bot deals it,
    each table ending in places drawn from `seed`; `seen` counts the repeat meetings seated."""

    entrants: int
    seed: int
    history: list[tuple[int, ...]] = field(default_factory=list)
    results: list[TableResult] = field(default_factory=list)
    byes: dict[int, tuple[int, ...]] = field(default_factory=dict)
    had_bye: set[int] = field(default_factory=set)
    seen: int = 0

    def __post_init__(self) -> None:
        """The places are drawn from the event's own seed."""
        self._rng = Random(self.seed)

    def standings(self) -> list[Standing]:
        """The standings from the rounds played so far, leader first."""
        return standings(
            seed=self.seed,
            entrants=range(self.entrants),
            results=self.results,
            byes=self.byes,
            ratings={},
        )

    def deal(self, number: int, entrants: list[Entrant], table_size: int, min_size: int) -> Round:
        """Round `number` dealt from `entrants` and every earlier table."""
        return deal_round(
            seed=self.seed,
            round_number=number,
            entrants=entrants,
            history=self.history,
            table_size=table_size,
            min_size=min_size,
            past_byes=self.had_bye,
        )

    def play(self, number: int, dealt: Round) -> None:
        """Round `number` played as `dealt`: each table's places drawn, its byes given."""
        self.seen += repeats(dealt.tables, meetings(self.history))
        for members in dealt.tables:
            places = list(members)
            self._rng.shuffle(places)
            self.results.append(TableResult(number, {m: p for p, m in enumerate(places, start=1)}))
            self.history.append(members)
        self.byes[number] = dealt.byes
        self.had_bye |= set(dealt.byes)


def event(
    entrants: int, table_size: int, rounds: int, repeats_each: int
) -> tuple[list[float], list[float], int]:
    """Milliseconds of each `deal_round` and of each round's standings, and the repeat
    meetings seated over the event."""
    played = SwissEvent(entrants, SEED)
    dealing: list[float] = []
    ranking: list[float] = []
    for number in range(1, rounds + 1):
        start = time.perf_counter()
        table = played.standings()
        ranking.append((time.perf_counter() - start) * 1000)
        entered = [Entrant(s.member_id, s.points, s.buchholz, number > 1) for s in table]
        for _ in range(repeats_each):
            start = time.perf_counter()
            dealt = played.deal(number, entered, table_size, min_size=2)
            dealing.append((time.perf_counter() - start) * 1000)
        played.play(number, dealt)
    return dealing, ranking, played.seen


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
