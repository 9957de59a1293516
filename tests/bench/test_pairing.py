"""`bench.pairing` deals every round of its event, as the bot would, and counts repeats."""

from __future__ import annotations

from bench.pairing import event


def test_each_round_is_dealt_as_often_as_asked_and_duels_repeat_nobody() -> None:
    dealing, ranking, seen = event(entrants=64, table_size=2, rounds=4, repeats_each=3)
    assert len(dealing) == 4 * 3 and len(ranking) == 4
    assert seen == 0  # 4 ≤ ⌈log₂ 64⌉ rounds of duels


def test_larger_tables_are_dealt_too() -> None:
    dealing, ranking, _seen = event(entrants=50, table_size=6, rounds=3, repeats_each=1)
    assert len(dealing) == 3 and len(ranking) == 3
