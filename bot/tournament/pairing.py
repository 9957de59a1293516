"""Swiss at tables: who sits with whom in a round of a tournament, as a pure function of the
event's seed, the standings and who met whom before (no storage, no Discord, no clock), so
a round dealt again after a restart gets the same tables.

A round is dealt in four steps (docs/PLAYING.md, "How tournament tables are dealt and
scored"):

1. **Order** (`standing_order`): by points, then the tie-break (Buchholz; in round 1 the
   rating), rated entrants before unrated ones among equal points, then an order drawn
   from the event's seed and the round's number.
2. **Tables** (`table_sizes`): as few byes as the game's minimum table allows, then as few
   tables as the table size allows, their sizes differing by at most one (larger first).
3. **Byes**: to the lowest-placed entrants who have not had one yet, where there are such.
4. **Deal**: the order cut into tables, the leaders at table 1; then seats are swapped
   between neighbouring tables wherever that seats fewer pairs who met before. At tables of
   two, pairs are first sought top down with backtracking (each player with the next one in
   the order they have not met), which finds a round without a repeat whenever there is one
   (within `SEARCH_BUDGET`).
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

Meetings = Mapping[int, Mapping[int, int]]  # member → member → tables they shared

# Partners the tables-of-two search examines before it settles for the fewest repeats instead
# of none: a round that has a pairing without repeats finds it within a few times its number of
# players; the budget bounds the rounds that have none (the search would otherwise try them all).
SEARCH_BUDGET = 20_000
# Members, from the bottom, who may take a lone bye at tables of two so that the others can
# play without a repeat (the lowest-placed first).
BYE_CANDIDATES = 8
# Points and tie-breaks are sums of thirds and sevenths: rounded, sums made in another order
# compare equal.
DIGITS = 6


@dataclass(frozen=True)
class Entrant:
    """An entrant as the pairing sees them.

    Attributes:
        member_id: Who.
        points: Their tournament points so far.
        tiebreak: What orders equal points: Buchholz; in round 1 the rating (season, else
            all-time), or 0.0.
        rated: False when they have no rating: among equal points they come after the rated
            entrants, in the order drawn from the seed.
    """

    member_id: int
    points: float
    tiebreak: float
    rated: bool


@dataclass(frozen=True)
class Round:
    """A round's seating: the member ids at each table (table 1, the leaders', first; each in
    seat order, the best placed first) and the members with a bye, best placed first."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...]


def seeded_order(seed: int, salt: str, members: Iterable[int]) -> list[int]:
    """`members` in an order drawn from the event's seed and `salt`: the same members give
    the same order, whatever order they are given in."""
    ordered = sorted(set(members))
    random.Random(f"{seed}:{salt}").shuffle(ordered)
    return ordered


def standing_order(seed: int, round_number: int, entrants: Sequence[Entrant]) -> list[Entrant]:
    """The entrants from the leader down, as the round is dealt: points, then the tie-break
    (rated entrants first), then the seed's draw for the round."""
    drawn = seeded_order(seed, str(round_number), (e.member_id for e in entrants))
    if len(drawn) != len(entrants):
        raise ValueError("an entrant is listed twice")
    place = {member: n for n, member in enumerate(drawn)}
    return sorted(
        entrants,
        key=lambda e: (
            -round(e.points, DIGITS),
            not e.rated,
            -round(e.tiebreak, DIGITS),
            place[e.member_id],
        ),
    )


def table_sizes(entrants: int, table_size: int, min_size: int) -> tuple[int, ...]:
    """The sizes of a round's tables for `entrants` (larger first): as many seated as tables
    of `min_size` to `table_size` allow, at as few tables as possible, sizes differing by at
    most one. Those not seated get a bye (fewer than `min_size` entrants: everyone)."""
    if not 2 <= min_size <= table_size:
        raise ValueError(f"no tables of {min_size} to {table_size}")
    for seated in range(entrants, 0, -1):
        tables = -(-seated // table_size)
        if seated >= tables * min_size:
            small, larger = divmod(seated, tables)
            return (small + 1,) * larger + (small,) * (tables - larger)
    return ()


def meetings(history: Iterable[Sequence[int]]) -> dict[int, dict[int, int]]:
    """How many past tables each two members shared."""
    met: dict[int, dict[int, int]] = {}
    for table in history:
        for a in table:
            row = met.setdefault(a, {})
            for b in table:
                if b != a:
                    row[b] = row.get(b, 0) + 1
    return met


def repeats(tables: Iterable[Sequence[int]], met: Meetings) -> int:
    """The repeat meetings of a seating: over every two members at a table, the tables they
    shared before."""
    total = 0
    for table in tables:
        for n, a in enumerate(table):
            row = met.get(a, {})
            total += sum(row.get(b, 0) for b in table[n + 1 :])
    return total


def deal_round(
    *,
    seed: int,
    round_number: int,
    entrants: Sequence[Entrant],
    history: Sequence[Sequence[int]],
    table_size: int,
    min_size: int,
    past_byes: Collection[int] = (),
) -> Round:
    """The round's tables and byes. Pure and deterministic: the same inputs give the same
    Round.

    Args:
        seed: The event's seed.
        round_number: The round being dealt (1 first): part of the seed's draw.
        entrants: Everyone to seat, in any order.
        history: Every past table's member ids (who met whom).
        table_size: The largest table.
        min_size: The smallest table the game allows (at least 2).
        past_byes: Members who had a bye in an earlier round: the next bye goes to someone
            else where it can.

    Raises:
        ValueError: An entrant listed twice, or no table can be between the sizes.
    """
    ordered = [e.member_id for e in standing_order(seed, round_number, entrants)]
    sizes = table_sizes(len(ordered), table_size, min_size)
    rank = {member: n for n, member in enumerate(ordered)}
    met = meetings(history)
    choices = bye_choices(ordered, len(ordered) - sum(sizes), past_byes)
    if table_size == 2:
        for byes in choices:
            seated = [m for m in ordered if m not in byes]
            pairs = pairs_without_repeats(seated, met)
            if pairs is not None:
                return Round(pairs, byes)
    byes = choices[0]
    left = [m for m in ordered if m not in byes]
    tables: list[list[int]] = []
    for size in sizes:
        tables.append(left[:size])
        left = left[size:]
    cut_repeats(tables, met, rank)
    return Round(tuple(tuple(sorted(t, key=rank.__getitem__)) for t in tables), byes)


def bye_choices(
    ordered: Sequence[int], count: int, past_byes: Collection[int]
) -> list[tuple[int, ...]]:
    """Who may get the round's `count` byes, the first choice first: the lowest-placed who
    have had none (everyone, if all have). A lone bye has a few choices, tried in turn at
    tables of two; several byes have one."""
    bottom_up = ordered[::-1]
    fresh = [m for m in bottom_up if m not in past_byes]
    again = [m for m in bottom_up if m in past_byes]
    pool = fresh + again
    if count != 1:
        byes = set(pool[:count])
        return [tuple(m for m in ordered if m in byes)]
    return [(m,) for m in (fresh or again)[:BYE_CANDIDATES]]


def pairs_without_repeats(
    seated: Sequence[int], met: Meetings
) -> tuple[tuple[int, int], ...] | None:
    """Tables of two, top down: each player with the next one in the order they have not met,
    going back to an earlier table's next choice when someone is left without a partner.
    None if no such pairing was found within `SEARCH_BUDGET` partners examined."""
    n = len(seated)
    if n % 2:
        return None
    used = [False] * n
    chosen: list[tuple[int, int]] = []  # (first, partner) indices into `seated`
    first, start, examined = 0, 1, 0
    while first < n:
        row = met.get(seated[first], {})
        partner = start
        while partner < n and (used[partner] or row.get(seated[partner], 0)):
            partner += 1
        examined += partner - start + 1
        if examined > SEARCH_BUDGET:
            return None
        if partner < n:
            used[first] = used[partner] = True
            chosen.append((first, partner))
            while first < n and used[first]:
                first += 1
            start = first + 1
        elif chosen:
            first, taken = chosen.pop()
            used[first] = used[taken] = False
            start = taken + 1
        else:
            return None
    return tuple((seated[a], seated[b]) for a, b in chosen)


def cut_repeats(tables: list[list[int]], met: Meetings, rank: Mapping[int, int]) -> None:
    """Swap seats between neighbouring tables while a swap seats fewer repeat meetings (the
    best swap first; among equals, the two members closest in the order). Each swap lowers
    the total, so it ends."""
    cost = [repeats([t], met) for t in tables]
    pending = [n for n in range(len(tables) - 1) if cost[n] or cost[n + 1]]
    waiting = set(pending)
    while pending:
        upper = heapq.heappop(pending)
        waiting.discard(upper)
        if not (cost[upper] or cost[upper + 1]):
            continue  # no repeat at either: no swap can cut one
        swap = best_swap(tables[upper], tables[upper + 1], met, rank)
        if swap is None:
            continue
        a, b = swap
        tables[upper][tables[upper].index(a)] = b
        tables[upper + 1][tables[upper + 1].index(b)] = a
        cost[upper] = repeats([tables[upper]], met)
        cost[upper + 1] = repeats([tables[upper + 1]], met)
        for n in (upper - 1, upper, upper + 1):
            if 0 <= n < len(tables) - 1 and n not in waiting:
                waiting.add(n)
                heapq.heappush(pending, n)


def best_swap(
    upper: Sequence[int], lower: Sequence[int], met: Meetings, rank: Mapping[int, int]
) -> tuple[int, int] | None:
    """The member of `upper` and the member of `lower` whose swap cuts the most repeat
    meetings (the closest in the order among equals), or None if no swap cuts any."""

    def met_at(member: int, table: Sequence[int]) -> int:
        row = met.get(member, {})
        return sum(row.get(other, 0) for other in table if other != member)

    own = {m: met_at(m, upper) for m in upper} | {m: met_at(m, lower) for m in lower}
    across = {m: met_at(m, lower) for m in upper} | {m: met_at(m, upper) for m in lower}
    best: tuple[int, int, int, int, int] | None = None  # (-gain, distance, rank a, a, b)
    for a in upper:
        row = met.get(a, {})
        for b in lower:
            both = row.get(b, 0)
            gain = own[a] + own[b] - (across[a] - both) - (across[b] - both)
            if gain > 0:
                key = (-gain, abs(rank[b] - rank[a]), rank[a], a, b)
                if best is None or key < best:
                    best = key
    return None if best is None else (best[3], best[4])
