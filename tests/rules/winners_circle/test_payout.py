"""Paying out (rules file, stage 4): the table, pace bonus, last place, no debt, race 3."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.winners_circle.engine import parse_rules
from rules.winners_circle.payout import PAYOUT_TABLE, column, per_bet, race_payout, settle
from rules.winners_circle.state import Bet, LineItem, LineKind, Phase, RaceResult
from tests.rules.winners_circle.scenario import ANA, BOB, CAT, DAN, racing

DEFAULTS = parse_rules({})
HIDDEN = parse_rules({"hidden_bets": True})

A, B, C, D = ANA, BOB, CAT, DAN
PLAYERS = (A, B, C, D)
WIN, PLACE, SHOW, PACE, LAST = LineKind


def test_the_payout_table_is_the_rules_files() -> None:
    assert PAYOUT_TABLE[WIN] == (500, 350, 300, 250, 200, 150, 100)
    assert PAYOUT_TABLE[PLACE] == (350, 250, 200, 150, 100, 100, 50)
    assert PAYOUT_TABLE[SHOW] == (250, 200, 150, 100, 100, 50, 50)
    # Seed 004's figures: Win 2 bets 350, Place 4 bets 150, Show 1 bet 250; 7+ is one column.
    assert (per_bet(WIN, 2), per_bet(PLACE, 4), per_bet(SHOW, 1)) == (350, 150, 250)
    assert per_bet(WIN, 12) == per_bet(WIN, 7) == 100


def test_example_3_line_by_line() -> None:
    bets = (
        Bet(A, 1, 2),  # alone on the winner
        Bet(B, 2, 2),
        Bet(A, 2, 1),
        Bet(C, 2, 1),  # 4 bets on Place, the pace horse
        Bet(C, 3, 1),  # alone on Show
        Bet(C, 7, 2),
        Bet(D, 7, 1),  # on the last horse
    )
    lines, money = settle(PLAYERS, (1000,) * 4, bets, (1, 2, 3), 2, (7,), DEFAULTS, race=1)
    assert lines == (
        LineItem(A, 1, WIN, 2, 2, 350, 700),
        LineItem(B, 2, PLACE, 2, 4, 150, 300),
        LineItem(A, 2, PLACE, 1, 4, 150, 150),
        LineItem(C, 2, PLACE, 1, 4, 150, 150),
        LineItem(C, 3, SHOW, 1, 1, 250, 250),
        LineItem(B, 2, PACE, 2, 0, 100, 200),
        LineItem(A, 2, PACE, 1, 0, 100, 100),
        LineItem(C, 2, PACE, 1, 0, 100, 100),
        LineItem(C, 7, LAST, 2, 0, 100, -200),
        LineItem(D, 7, LAST, 1, 0, 100, -100),
    )
    assert money == (1950, 1500, 1300, 900)


def test_the_pace_bonus_is_paid_only_if_the_pace_horse_finished_in_the_top_three() -> None:
    bets = (Bet(A, 5, 2), Bet(B, 1, 1))
    lines, _ = settle(PLAYERS, (0,) * 4, bets, (1, 2, 3), 5, (7,), DEFAULTS, race=1)
    assert [line.kind for line in lines] == [WIN]
    lines, _ = settle(PLAYERS, (0,) * 4, bets, (1, 2, 3), 1, (7,), DEFAULTS, race=1)
    assert [(line.kind, line.amount) for line in lines] == [(WIN, 500), (PACE, 100)]


def test_race_3_doubles_payments_to_players_and_to_the_bank() -> None:
    bets = (Bet(A, 1, 2), Bet(B, 7, 2))
    lines, money = settle(PLAYERS, (0, 1000, 0, 0), bets, (1, 2, 3), 1, (7,), DEFAULTS, race=3)
    # A 2-chip alone on the winner: 2 bets at 350 = 700, doubled; pace 200, doubled.
    assert [line.amount for line in lines] == [2 * 700, 2 * 200, -2 * 200]
    assert money == (1800, 600, 0, 0)


def test_winnings_come_before_last_place_and_money_never_goes_below_zero() -> None:
    # Bob wins 250 on Show, then owes 200 for his 2-chip on the last horse; Cat owes 100
    # with nothing: she pays nothing and is not in debt.
    bets = (Bet(B, 3, 1), Bet(B, 7, 2), Bet(C, 7, 1))
    lines, money = settle(PLAYERS, (0, 0, 0, 0), bets, (1, 2, 3), 1, (7,), DEFAULTS, race=1)
    assert money == (0, 50, 0, 0)
    assert lines[-1] == LineItem(C, 7, LAST, 1, 0, 100, 0, unpaid=100)
    lines, money = settle(PLAYERS, (0, 0, 30, 0), bets[2:], (1, 2, 3), 1, (7,), DEFAULTS, race=3)
    assert money == (0, 0, 0, 0) and lines[0].amount == -30 and lines[0].unpaid == 170


def test_a_2_chip_counts_as_two_bets_and_a_0_chip_as_none() -> None:
    rules = DEFAULTS
    assert column((Bet(A, 1, 2), Bet(B, 1, 1)), rules) == 3
    assert column((Bet(A, 1, 0), Bet(B, 1, 1)), HIDDEN) == 1


def test_a_0_chip_is_a_bluff_paid_nothing_and_paying_nothing() -> None:
    bets = (Bet(A, 1, 0), Bet(B, 1, 1), Bet(A, 7, 0))
    lines, money = settle(PLAYERS, (0,) * 4, bets, (1, 2, 3), 1, (7,), HIDDEN, 1)
    assert [(line.player, line.kind) for line in lines] == [(B, WIN), (B, PACE)]
    assert lines[0].amount == 500  # Bob alone counts: one bet
    assert money == (0, 600, 0, 0)


@pytest.mark.parametrize(("hidden", "expected"), [(False, 2), (True, 3)])
def test_alternative_payouts_count_chips_not_bets(hidden: bool, expected: int) -> None:
    rules = parse_rules({"alternative_payouts": True, "hidden_bets": hidden})
    bets = (Bet(A, 1, 2), Bet(B, 1, 1)) + ((Bet(C, 1, 0),) if hidden else ())
    assert column(bets, rules) == expected  # a 2-chip once; with hidden bets 0-chips too
    lines, _ = settle(PLAYERS, (0,) * 4, bets, (1, 2, 3), 5, (7,), rules, race=1)
    assert [line.amount for line in lines] == [2 * per_bet(WIN, expected), per_bet(WIN, expected)]


def test_race_payout_itemises_the_race_just_run_from_the_money_before_it() -> None:
    bets = (Bet(A, 1, 1), Bet(B, 7, 2))
    after = RaceResult(2, (1, 2, 3), (7,), 1, (1100, 0, 0))
    state = racing(players=(A, B, C), bets=bets, race=2)
    state = replace(
        state,
        phase=Phase.RACE_OVER,
        money=after.money,
        results=(RaceResult(1, (4, 5, 6), (7,), 4, (500, 150, 0)), after),
    )
    assert race_payout(state) == (
        LineItem(A, 1, WIN, 1, 1, 500, 500),
        LineItem(A, 1, PACE, 1, 0, 100, 100),
        LineItem(B, 7, LAST, 2, 0, 100, -150, unpaid=50),
    )
    with pytest.raises(ValueError):
        race_payout(racing())
