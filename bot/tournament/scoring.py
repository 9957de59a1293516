"""A tournament's scoring and standings, pure (docs/PLAYING.md, "How tournament tables are
dealt and scored").

- A table scores by place, as season points do (`bot.seasons.season_points`): place p of k
  earns `(k − p) / (k − 1) × 10`, tied places sharing the average, so a win at a table of
  two and at a table of six are worth the same 10.
- A bye scores the average of that round's tables' points (always 5: every table's points
  average half the winner's), and counts as a round played with no opponents.
- The standings order by points, then Buchholz (the sum of the points of everyone who
  shared a table with the entrant, once per table shared), then their places against each
  other (among entrants still tied: how often each placed above another of them at a table),
  then rating, then an order drawn from the event's seed; so no two share a rank.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby

from bot.seasons import season_points
from bot.tournament.pairing import DIGITS, seeded_order


@dataclass(frozen=True)
class TableResult:
    """A finished table of a round.

    Attributes:
        round_number: The round it was played in.
        places: Member id → place at the table (1 best); a member replaced by the AI has
            been given the last place already.
    """

    round_number: int
    places: Mapping[int, int]


@dataclass(frozen=True)
class Standing:
    """An entrant's line in the standings.

    Attributes:
        member_id: Who.
        rank: 1-based; no two entrants share one.
        points: Tournament points.
        buchholz: The sum of their opponents' points.
        played: Rounds played, byes included.
    """

    member_id: int
    rank: int
    points: float
    buchholz: float
    played: int


def table_points(places: Mapping[int, int]) -> dict[int, float]:
    """A finished table's points by place: the season points formula."""
    return season_points(places)


def bye_points(round_results: Sequence[TableResult]) -> float:
    """A bye's points: the average of the points scored at the round's tables (0 if none)."""
    return average([p for result in round_results for p in table_points(result.places).values()])


def average(seats: Sequence[float]) -> float:
    """The average of every seat's points (0 if there were none)."""
    return sum(seats) / len(seats) if seats else 0.0


def standings(
    *,
    seed: int,
    entrants: Sequence[int],
    results: Sequence[TableResult],
    byes: Mapping[int, Sequence[int]],
    ratings: Mapping[int, float],
) -> list[Standing]:
    """The standings of `entrants`, leader first.

    Args:
        seed: The event's seed, for the last tie-break.
        entrants: The members ranked (others in the results count as opponents only).
        results: Every finished table.
        byes: Round number → the members with a bye in it.
        ratings: Member → rating (an entrant without one ranks below the rated among ties).
    """
    points: dict[int, float] = defaultdict(float)
    played: dict[int, int] = defaultdict(int)
    opponents: dict[int, list[int]] = defaultdict(list)
    tables_of: dict[int, list[TableResult]] = defaultdict(list)
    scored_in: dict[int, list[float]] = defaultdict(list)  # round → every seat's points
    for result in results:
        scored = table_points(result.places)
        scored_in[result.round_number] += scored.values()
        for member, gained in scored.items():
            points[member] += gained
            played[member] += 1
            opponents[member] += [m for m in result.places if m != member]
            tables_of[member].append(result)
    for number, members in byes.items():
        bye = average(scored_in[number])  # `bye_points`, from the points added up above
        for member in members:
            points[member] += bye
            played[member] += 1
    buchholz = {m: sum(points[o] for o in opponents[m]) for m in entrants}
    drawn = {m: n for n, m in enumerate(seeded_order(seed, "standings", entrants))}

    def level(member: int) -> tuple[float, float]:
        return (-round(points[member], DIGITS), -round(buchholz[member], DIGITS))

    ordered: list[int] = []
    for _level, tied in groupby(sorted(entrants, key=level), key=level):
        group = list(tied)
        wins = head_to_head(group, tables_of)
        missing = float("-inf")
        group.sort(key=lambda m: (-wins[m], -ratings.get(m, missing), drawn[m]))
        ordered += group
    return [
        Standing(m, rank, round(points[m], DIGITS), round(buchholz[m], DIGITS), played[m])
        for rank, m in enumerate(ordered, start=1)
    ]


def head_to_head(
    group: Sequence[int], tables_of: Mapping[int, Sequence[TableResult]]
) -> dict[int, int]:
    """For each of `group`, how often they placed above another of the group at a table
    (`tables_of`: the tables each played)."""
    if len(group) < 2:
        return dict.fromkeys(group, 0)
    tied = set(group)
    wins = dict.fromkeys(group, 0)
    for member in group:
        for result in tables_of.get(member, ()):
            mine = result.places[member]
            wins[member] += sum(1 for m, p in result.places.items() if m in tied and p > mine)
    return wins
