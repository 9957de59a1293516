"""Scoring a turn, zone by zone (docs/rules/horse_collar.md, "The table", "Scoring a turn")."""

from __future__ import annotations

import pytest

from rules.horse_collar.engine import parse_rules
from rules.horse_collar.geometry import RADIUS, FoulLine, Zone, table_for, zone_of
from rules.horse_collar.scoring import score_turn
from rules.horse_collar.state import VoidReason, Weight
from tests.rules.horse_collar.helpers import board

TABLE = table_for(22, FoulLine.SHORT)
HW = TABLE.half_width
T, D2, A, H, C, S = Zone.THREE, Zone.TWO, Zone.ALLEY, Zone.HANGER, Zone.CORNER, Zone.SHORT
ONE = Zone.ONE


def test_the_full_size_table() -> None:
    """22 ft cabinet: 248 in x 20 in, foul lines 72 in from each end."""
    assert (TABLE.length, TABLE.width) == (248_000, 20_000)
    assert (TABLE.long_foul, TABLE.short_foul, TABLE.foul) == (72_000, 176_000, 176_000)
    assert table_for(22, FoulLine.LONG).foul == 72_000


@pytest.mark.parametrize(
    ("feet", "length", "width"),
    [(9, 92_000, 18_000), (11, 116_000, 18_000), (12, 128_000, 20_000), (16, 176_000, 20_000)],
)
def test_shorter_tables_scale_the_foul_lines(feet: int, length: int, width: int) -> None:
    """Playfield = cabinet - 16 in; 20 in wide from 12 ft up, 18 in below; foul lines
    72 in x playfield / 248 in from their ends."""
    table = table_for(feet, FoulLine.SHORT)
    assert (table.length, table.width) == (length, width)
    assert table.long_foul == round(72_000 * length / 248_000)
    assert table.short_foul == length - table.long_foul


@pytest.mark.parametrize(
    ("d", "zone"),
    [
        (-1, A),  # centre off the end: in the alley
        (0, H),  # centre on the very end: overhangs it
        (RADIUS - 1, H),
        (RADIUS, T),  # flush with the end: no overhang, a 3
        (6_000 - RADIUS - 1, T),  # wholly past the trey line
        (6_000 - RADIUS, D2),  # touching the trey line counts for the lower zone
        (12_000 - RADIUS - 1, D2),
        (12_000 - RADIUS, ONE),  # touching the deuce line: a 1
        (176_000 - RADIUS - 1, ONE),  # just clear of the foul line
        (176_000 - RADIUS, S),  # touching the foul line: short
        (240_000, S),
        (248_000, S),
        (248_001, A),
    ],
)
def test_each_zone_boundary(d: int, zone: Zone) -> None:
    assert zone_of(d, 0, TABLE) is zone


@pytest.mark.parametrize(
    ("d", "y", "zone"),
    [
        (500, HW - RADIUS, H),  # overhangs the end, flush with the side
        (500, HW - RADIUS + 1, C),  # overhangs the end and a side: corner hanger
        (500, -HW, C),  # centre on the side edge: still on
        (500, HW + 1, A),  # centre off the side: in the alley
        (50_000, HW - 100, ONE),  # hanging off a side only has no special value
        (3_000, -HW + 10, T),
    ],
)
def test_corners_and_sides(d: int, y: int, zone: Zone) -> None:
    assert zone_of(d, y, TABLE) is zone


def test_a_fallen_weight_is_dead_wherever_it_lies() -> None:
    assert zone_of(3_000, 0, TABLE, fallen=True) is A


def test_seed_001s_example_scores_10() -> None:
    """One 3, two 2s, three 1s, the rest off the board: 3 + 4 + 3 = 10."""
    result = score_turn(parse_rules({}), 0, 1, board(T, D2, D2, ONE, ONE, ONE, A, A))
    assert result.values == (3, 2, 2, 1, 1, 1, 0, 0)
    assert (result.points, result.void) == (10, None)


def test_no_three_no_score() -> None:
    result = score_turn(parse_rules({}), 0, 1, board(D2, D2, D2, ONE, ONE, ONE, ONE, D2))
    assert (result.points, result.void) == (0, VoidReason.NO_THREE)


def test_a_hanger_or_a_corner_hanger_also_opens_the_scoring() -> None:
    assert score_turn(parse_rules({}), 0, 1, board(H, D2, A, A, A, A, A, A)).points == 15
    assert score_turn(parse_rules({}), 0, 1, board(C, ONE, A, A, A, A, A, A)).points == 27


def test_the_corner_hanger_house_option_counts_it_13() -> None:
    rules = parse_rules({"corner_hanger": 13})
    assert score_turn(rules, 0, 1, board(C, ONE, A, A, A, A, A, A)).points == 14


def test_a_short_weight_voids_the_turn() -> None:
    result = score_turn(parse_rules({}), 0, 1, board(H, T, T, D2, D2, ONE, ONE, S))
    assert result.values[-1] == 0
    assert (result.points, result.void) == (0, VoidReason.SHORT_WEIGHT)


def test_with_the_option_off_a_short_weight_is_just_dead() -> None:
    """The other source's reading (docs/rules/horse_collar.md, "Scoring a turn")."""
    rules = parse_rules({"short_weight_voids_turn": False})
    result = score_turn(rules, 0, 1, board(H, T, T, D2, D2, ONE, ONE, S))
    assert (result.points, result.void) == (13 + 3 + 3 + 2 + 2 + 1 + 1, None)


def test_the_long_foul_line_moves_what_counts_as_short() -> None:
    middle = Weight(0, 100_000, 0)  # between the foul lines
    assert zone_of(middle.d, middle.y, table_for(22, FoulLine.SHORT)) is ONE
    assert zone_of(middle.d, middle.y, table_for(22, FoulLine.LONG)) is S
