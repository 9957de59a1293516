"""A tournament's scoring (`bot.tournament.scoring`), worked out by hand: places scored as
season points (ties sharing the average), a bye worth the average of its round, and the
standings' tie-breaks in turn: Buchholz, places against each other, rating, the seed."""

from __future__ import annotations

import pytest

from bot.seasons import season_points
from bot.tournament.pairing import seeded_order
from bot.tournament.scoring import Standing, TableResult, bye_points, standings, table_points


def test_a_table_scores_its_places_as_season_points() -> None:
    # Place p of k earns (k − p) / (k − 1) × 10: at a table of three 10, 5, 0.
    assert table_points({1: 1, 2: 2, 3: 3}) == {1: 10.0, 2: 5.0, 3: 0.0}
    # A win at a table of two is worth a win at a table of six.
    assert table_points({1: 1, 2: 2})[1] == table_points(dict.fromkeys(range(6), 2) | {9: 1})[9]
    # Two sharing second of three share places 2 and 3: (5 + 0) / 2 = 2.5.
    assert table_points({1: 1, 2: 2, 3: 2}) == {1: 10.0, 2: 2.5, 3: 2.5}
    assert table_points({1: 1, 2: 2, 3: 3, 4: 4}) == season_points({1: 1, 2: 2, 3: 3, 4: 4})


def test_a_bye_scores_the_average_of_its_rounds_tables() -> None:
    # A table of three (10, 5, 0) and one of two (10, 0): 25 points over 5 seats = 5.
    round_two = [TableResult(2, {1: 1, 2: 2, 3: 3}), TableResult(2, {4: 2, 5: 1})]
    assert bye_points(round_two) == 5.0
    assert bye_points([]) == 0.0


def test_standings_of_a_small_event_worked_out_by_hand() -> None:
    """Seven entrants at tables of three (the game's least: three), two rounds, one bye a
    round."""
    results = [
        # Round 1: 1 > 2 > 3 → 10, 5, 0; 4 first, 5 and 6 share second → 10, 2.5, 2.5.
        TableResult(1, {1: 1, 2: 2, 3: 3}),
        TableResult(1, {4: 1, 5: 2, 6: 2}),
        # Round 2: 7 > 4 > 1 → 10, 5, 0; 2 and 5 share first → 7.5, 7.5; 3 → 0.
        TableResult(2, {7: 1, 4: 2, 1: 3}),
        TableResult(2, {2: 1, 5: 1, 3: 3}),
    ]
    # Byes: (10 + 5 + 0 + 10 + 2.5 + 2.5) / 6 = 5 in round 1, (10 + 5 + 0 + 7.5 + 7.5 + 0) /
    # 6 = 5 in round 2.
    byes = {1: [7], 2: [6]}
    # Points: 1: 10 + 0 = 10; 2: 5 + 7.5 = 12.5; 3: 0 + 0 = 0; 4: 10 + 5 = 15;
    # 5: 2.5 + 7.5 = 10; 6: 2.5 + 5 (bye) = 7.5; 7: 5 (bye) + 10 = 15.
    # Buchholz (opponents' points, once a table shared; a bye has no opponents):
    # 1: 2, 3, 4, 7 → 12.5 + 0 + 15 + 15 = 42.5;  2: 1, 3, 5, 3 → 10 + 0 + 10 + 0 = 20;
    # 3: 1, 2, 2, 5 → 10 + 12.5 + 12.5 + 10 = 45; 4: 5, 6, 7, 1 → 10 + 7.5 + 15 + 10 = 42.5;
    # 5: 4, 6, 2, 3 → 15 + 7.5 + 12.5 + 0 = 35;   6: 4, 5 → 15 + 10 = 25;  7: 4, 1 → 15 + 10 = 25.
    # Order: 15 points: 4 (42.5) over 7 (25); 12.5: 2; 10: 1 (42.5) over 5 (35); 7.5: 6; 0: 3.
    table = standings(seed=1, entrants=range(1, 8), results=results, byes=byes, ratings={})
    assert table == [
        Standing(member_id=4, rank=1, points=15.0, buchholz=42.5, played=2),
        Standing(member_id=7, rank=2, points=15.0, buchholz=25.0, played=2),
        Standing(member_id=2, rank=3, points=12.5, buchholz=20.0, played=2),
        Standing(member_id=1, rank=4, points=10.0, buchholz=42.5, played=2),
        Standing(member_id=5, rank=5, points=10.0, buchholz=35.0, played=2),
        Standing(member_id=6, rank=6, points=7.5, buchholz=25.0, played=2),
        Standing(member_id=3, rank=7, points=0.0, buchholz=45.0, played=2),
    ]


def test_places_against_each_other_break_a_tie_before_rating() -> None:
    """Four play everyone once at tables of two: 1 beats 2 and 3, loses to 4; 2 beats 3 and
    4; 3 beats 4."""
    results = [
        TableResult(1, {1: 1, 2: 2}),
        TableResult(1, {3: 1, 4: 2}),
        TableResult(2, {1: 1, 3: 2}),
        TableResult(2, {2: 1, 4: 2}),
        TableResult(3, {4: 1, 1: 2}),
        TableResult(3, {2: 1, 3: 2}),
    ]
    # Points: 1 and 2 two wins, 20; 3 and 4 one, 10. Everyone met everyone, so Buchholz is
    # the other three's points: 1 and 2: 20 + 10 + 10 = 40; 3 and 4: 20 + 20 + 10 = 50.
    # Tied: 1 beat 2, 3 beat 4; the ratings say otherwise and come only after.
    ratings = {1: 1000.0, 2: 2000.0, 3: 1000.0, 4: 2000.0}
    table = standings(seed=1, entrants=[1, 2, 3, 4], results=results, byes={}, ratings=ratings)
    assert [(s.member_id, s.points, s.buchholz) for s in table] == [
        (1, 20.0, 40.0),
        (2, 20.0, 40.0),
        (3, 10.0, 50.0),
        (4, 10.0, 50.0),
    ]


def test_rating_then_the_seed_break_the_ties_left() -> None:
    """Two tables of three, one round, nobody met: 1 and 4 won (10, Buchholz 5 + 0 = 5), 2
    and 5 came second (5, Buchholz 10 + 0 = 10), 3 and 6 last (0, Buchholz 10 + 5 = 15)."""
    results = [TableResult(1, {1: 1, 2: 2, 3: 3}), TableResult(1, {4: 1, 5: 2, 6: 3})]
    ratings = {1: 1500.0, 4: 1600.0, 3: 900.0}  # 2, 5 and 6 are unrated
    table = standings(seed=9, entrants=range(1, 7), results=results, byes={}, ratings=ratings)
    drawn = seeded_order(9, "standings", range(1, 7))
    seconds = sorted([2, 5], key=drawn.index)
    assert [s.member_id for s in table] == [4, 1, *seconds, 3, 6]
    assert [s.rank for s in table] == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("seed", range(20))
def test_the_seed_orders_entrants_tied_on_everything(seed: int) -> None:
    table = standings(seed=seed, entrants=[5, 6, 7], results=[], byes={}, ratings={})
    assert [s.member_id for s in table] == seeded_order(seed, "standings", [5, 6, 7])
    assert all(s.played == 0 and s.points == 0.0 for s in table)


def test_the_seeds_order_differs_between_events() -> None:
    orders = {tuple(seeded_order(seed, "standings", range(6))) for seed in range(20)}
    assert len(orders) > 1


def test_an_opponent_who_left_still_counts_for_buchholz() -> None:
    """9 beat 1 and then left the event: only 1 is ranked, with 9's 10 points as Buchholz."""
    table = standings(
        seed=1, entrants=[1], results=[TableResult(1, {9: 1, 1: 2})], byes={}, ratings={}
    )
    assert table == [Standing(member_id=1, rank=1, points=0.0, buchholz=10.0, played=1)]
