"""Swiss at tables (`bot.tournament.pairing`): every entrant seated or given a bye once a
round, tables of one round within a size of each other and within the game's limits, byes
only where nobody else can sit and to those who had none, tables of two with no repeat pair
in the first ⌈log₂ n⌉ rounds, fewer repeats than a random seating at larger tables, and the
same tables from the same inputs."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.pairing import SwissEvent
from bot.tournament.pairing import (
    Entrant,
    Round,
    deal_round,
    meetings,
    repeats,
    standing_order,
    table_sizes,
)
from rules.registry import ENGINES


def play_event(
    *,
    n: int,
    table_size: int,
    min_size: int,
    rounds: int,
    seed: int,
    check: Callable[[list[Entrant], Round, list[tuple[int, ...]], set[int]], None] | None = None,
) -> int:
    """An event of `n` entrants whose tables end in places drawn from `seed`: each round is
    dealt from the standings so far, as the bot does. Returns the repeat meetings seated."""
    played = SwissEvent(n, seed)
    for number in range(1, rounds + 1):
        entrants = [Entrant(s.member_id, s.points, s.buchholz, False) for s in played.standings()]
        dealt = played.deal(number, entrants, table_size, min_size)
        if check:
            check(entrants, dealt, played.history, played.had_bye)
        played.play(number, dealt)
    return played.seen


def can_seat(entrants: int, table_size: int, min_size: int) -> bool:
    """Whether `entrants` fit exactly at tables of `min_size` to `table_size` (any count)."""
    return any(
        tables * min_size <= entrants <= tables * table_size for tables in range(1, entrants + 1)
    )


def check_round(
    table_size: int, min_size: int
) -> Callable[[list[Entrant], Round, list[tuple[int, ...]], set[int]], None]:
    def check(
        entrants: list[Entrant], dealt: Round, _history: list[tuple[int, ...]], had_bye: set[int]
    ) -> None:
        everyone = sorted(e.member_id for e in entrants)
        placed = [m for table in dealt.tables for m in table] + list(dealt.byes)
        assert sorted(placed) == everyone  # seated or given a bye, exactly once
        sizes = [len(table) for table in dealt.tables]
        if sizes:
            assert max(sizes) - min(sizes) <= 1
            assert min_size <= min(sizes) and max(sizes) <= table_size
        seated = sum(sizes)
        # A bye only where nobody more could sit.
        assert not any(
            can_seat(more, table_size, min_size) for more in range(seated + 1, len(everyone) + 1)
        )
        # A second bye only once everyone else without one has one this round.
        if set(dealt.byes) & had_bye:
            assert set(everyone) - had_bye <= set(dealt.byes)

    return check


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(2, 40),
    table_size=st.integers(2, 12),
    min_gap=st.integers(0, 10),
    rounds=st.integers(1, 5),
    seed=st.integers(0, 2**32),
)
def test_every_round_seats_everyone_once_at_tables_within_a_size(
    n: int, table_size: int, min_gap: int, rounds: int, seed: int
) -> None:
    min_size = max(2, table_size - min_gap)
    play_event(
        n=n,
        table_size=table_size,
        min_size=min_size,
        rounds=rounds,
        seed=seed,
        check=check_round(table_size, min_size),
    )


@pytest.mark.parametrize("game", list(ENGINES))
def test_every_games_table_sizes_deal_within_its_limits(game: str) -> None:
    engine = ENGINES[game]
    low, high = engine.min_players, engine.max_players
    for table_size in range(low, high + 1):
        for n in (2, 3, 7, 9, 13, 40):
            play_event(
                n=n,
                table_size=table_size,
                min_size=low,
                rounds=3,
                seed=n,
                check=check_round(table_size, low),
            )


@settings(max_examples=120, deadline=None)
@given(half=st.integers(1, 20), seed=st.integers(0, 2**32))
def test_tables_of_two_repeat_no_pair_in_the_first_log2_n_rounds(half: int, seed: int) -> None:
    n = 2 * half
    rounds = math.ceil(math.log2(n))
    assert play_event(n=n, table_size=2, min_size=2, rounds=rounds, seed=seed) == 0


def test_odd_fields_at_tables_of_two_repeat_no_pair_either() -> None:
    """With one bye a round, the bye may go to another player without one so that the rest
    pair without a repeat."""
    for n in range(3, 41, 2):
        for seed in range(5):
            rounds = math.ceil(math.log2(n))
            assert play_event(n=n, table_size=2, min_size=2, rounds=rounds, seed=seed) == 0, n


def random_seating(*, n: int, table_size: int, min_size: int, rounds: int, seed: int) -> int:
    """The repeat meetings of seating `n` at random, round after round, at the tables a
    round of them is dealt (with no bye: `min_size` 2)."""
    rng = Random(seed)
    sizes = table_sizes(n, table_size, min_size)
    history: list[tuple[int, ...]] = []
    seen = 0
    for _round in range(rounds):
        everyone = list(range(n))
        rng.shuffle(everyone)
        tables = []
        for size in sizes:
            tables.append(tuple(everyone[:size]))
            everyone = everyone[size:]
        seen += repeats(tables, meetings(history))
        history += tables
    return seen


def test_larger_tables_repeat_fewer_meetings_than_a_random_seating() -> None:
    """Averaged over 1,000 events of 6 to 16 entrants at tables of 3 to 6, three rounds."""
    dealt = drawn = 0
    events = 1000
    for event in range(events):
        setup = {
            "n": 6 + event % 11,
            "table_size": 3 + event % 4,
            "min_size": 2,
            "rounds": 3,
            "seed": event,
        }
        dealt += play_event(**setup)
        drawn += random_seating(**setup)
    print(f"repeats an event: {dealt / events:.2f} dealt, {drawn / events:.2f} at random")
    assert dealt / events < drawn / events


def test_the_same_inputs_deal_the_same_tables_whatever_their_order() -> None:
    rng = Random(3)
    entrants = [
        Entrant(m, rng.choice([0, 5, 10]), rng.choice([0, 1]), rng.random() < 0.5)
        for m in range(30)
    ]
    history = [tuple(rng.sample(range(30), 4)) for _ in range(12)]
    args = {"seed": 77, "round_number": 3, "table_size": 4, "min_size": 2}
    first = deal_round(entrants=entrants, history=history, **args)
    shuffled = entrants[:]
    rng.shuffle(shuffled)
    assert deal_round(entrants=shuffled, history=history[::-1], **args) == first
    # Equal points and tie-breaks are ordered by the seed's draw.
    assert deal_round(entrants=entrants, history=history, **args | {"seed": 78}) != first


def test_round_one_seats_the_leaders_together() -> None:
    """No history: the order cut into tables, table 1 the best rated, the unrated last in the
    seed's order."""
    entrants = [Entrant(m, 0.0, float(1000 + m), True) for m in range(1, 8)]
    entrants += [Entrant(m, 0.0, 0.0, False) for m in range(8, 10)]
    dealt = deal_round(
        seed=1, round_number=1, entrants=entrants, history=[], table_size=4, min_size=2
    )
    # 9 entrants at tables of 4: ⌈9 / 4⌉ = 3 tables, 9 = 3 + 3 + 3.
    assert dealt.tables[:2] == ((7, 6, 5), (4, 3, 2))
    assert set(dealt.tables[2]) == {1, 8, 9} and dealt.tables[2][0] == 1
    assert dealt.byes == ()


@pytest.mark.parametrize(
    ("entrants", "table_size", "min_size", "sizes"),
    [
        (9, 4, 2, (3, 3, 3)),  # ⌈9/4⌉ = 3 tables of 3
        (7, 4, 2, (4, 3)),
        (13, 6, 2, (5, 4, 4)),  # ⌈13/6⌉ = 3 tables: 13 = 5 + 4 + 4
        (5, 2, 2, (2, 2)),  # one bye
        (7, 3, 3, (3, 3)),  # 7 would need a table of 1 or of 4: one bye
        (7, 4, 4, (4,)),  # three byes
        (1, 6, 2, ()),
        (0, 6, 2, ()),
        (1000, 6, 2, (6,) * 165 + (5, 5)),  # ⌈1000/6⌉ = 167 tables: 165 × 6 + 2 × 5
    ],
)
def test_table_sizes(entrants: int, table_size: int, min_size: int, sizes: tuple[int, ...]) -> None:
    assert table_sizes(entrants, table_size, min_size) == sizes


def test_table_sizes_refuse_tables_no_game_has() -> None:
    with pytest.raises(ValueError):
        table_sizes(8, 4, 1)
    with pytest.raises(ValueError):
        table_sizes(8, 3, 4)


def test_an_entrant_listed_twice_is_refused() -> None:
    twice = [Entrant(1, 0.0, 0.0, False), Entrant(1, 0.0, 0.0, False)]
    with pytest.raises(ValueError):
        standing_order(1, 1, twice)


def test_the_bye_goes_to_the_lowest_placed_without_one() -> None:
    entrants = [Entrant(m, float(10 - m), 0.0, True) for m in range(1, 6)]
    args = {"seed": 1, "round_number": 2, "entrants": entrants, "history": []}
    assert deal_round(**args, table_size=2, min_size=2).byes == (5,)
    assert deal_round(**args, table_size=2, min_size=2, past_byes={5}).byes == (4,)
    assert deal_round(**args, table_size=2, min_size=2, past_byes={1, 2, 3, 4, 5}).byes == (5,)
    # 5 at tables of exactly 4: one table, the lowest placed out.
    assert deal_round(**args, table_size=4, min_size=4, past_byes={5}).byes == (4,)


def test_neighbouring_tables_swap_seats_to_avoid_repeats() -> None:
    """1, 2 and 3 lead but met last round, as did 4, 5 and 6: cut as they stand, each table
    repeats three pairs. Any swap of one seat leaves one repeat a table; of those, 3 and 4 are
    the closest in the order."""
    entrants = [Entrant(m, float(10 - m), 0.0, True) for m in range(1, 7)]
    history: Sequence[Sequence[int]] = [(1, 2, 3), (4, 5, 6)]
    dealt = deal_round(
        seed=1, round_number=2, entrants=entrants, history=history, table_size=3, min_size=2
    )
    assert repeats(((1, 2, 3), (4, 5, 6)), meetings(history)) == 6
    assert dealt.tables == ((1, 2, 4), (3, 5, 6))
    assert repeats(dealt.tables, meetings(history)) == 2


def test_tables_of_two_pair_top_down_around_a_repeat() -> None:
    """1 met 2: 1 plays 3, the next in the order, and 2 plays 4."""
    entrants = [Entrant(m, float(10 - m), 0.0, True) for m in range(1, 5)]
    dealt = deal_round(
        seed=1, round_number=2, entrants=entrants, history=[(1, 2)], table_size=2, min_size=2
    )
    assert dealt.tables == ((1, 3), (2, 4))
