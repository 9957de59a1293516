"""The project's own horse cards and the die (rules file: Components, and its Decisions)."""

from __future__ import annotations

from collections import Counter

import pytest

from rules.winners_circle.cards import (
    CARD_TOTAL,
    DIE,
    HORSE_CARDS,
    HORSES,
    ROYAL_TURF_CARDS,
    Card,
    Symbol,
    card,
)


def rule_total(c: Card) -> int:
    return 3 * c.head + c.cap + c.saddle + c.shoe


@pytest.mark.parametrize("deck", [HORSE_CARDS, ROYAL_TURF_CARDS], ids=["horse", "royal_turf"])
def test_every_card_satisfies_three_heads_plus_cap_saddle_shoe_is_30(
    deck: tuple[Card, ...],
) -> None:
    for c in deck:
        assert rule_total(c) == CARD_TOTAL == 30, c
        assert min(c.values) >= 1, c


@pytest.mark.parametrize("deck", [HORSE_CARDS, ROYAL_TURF_CARDS], ids=["horse", "royal_turf"])
def test_every_card_averages_five_spaces_a_roll(deck: tuple[Card, ...]) -> None:
    for c in deck:
        assert sum(c.move(face) for face in DIE) == 6 * 5, c


def test_there_are_28_distinct_horse_cards_from_steady_to_wild() -> None:
    assert len(HORSE_CARDS) == 28
    assert len({c.values for c in HORSE_CARDS}) == 28
    assert len({c.id for c in HORSE_CARDS}) == 28
    assert (5, 5, 5, 5) in {c.values for c in HORSE_CARDS}  # the steadiest
    wild = [c for c in HORSE_CARDS if c.head == 1 and max(c.values) >= 20]
    assert wild, "a wild card: head 1 and one symbol 20+"
    assert {c.head for c in HORSE_CARDS} >= {1, 2, 3, 4, 5, 6, 7, 8}  # a wide range
    assert all(c.horse == 0 for c in HORSE_CARDS)  # they drive whichever gate they reach


def test_there_are_21_royal_turf_cards_three_per_horse_sharing_its_character() -> None:
    assert len(ROYAL_TURF_CARDS) == 21
    assert len({c.values for c in ROYAL_TURF_CARDS}) == 21
    assert Counter(c.horse for c in ROYAL_TURF_CARDS) == {h: 3 for h in HORSES}
    for horse in HORSES:
        own = [c for c in ROYAL_TURF_CARDS if c.horse == horse]
        # The same head value, and a sprinter sprints on the same symbol on all three.
        assert len({c.head for c in own}) == 1, horse
        assert len({frozenset(s for s in Symbol if c.move(s) >= 10) for c in own}) == 1, horse
    sprinters = {s for c in ROYAL_TURF_CARDS for s in Symbol if c.move(s) >= 10}
    assert sprinters == {Symbol.CAP, Symbol.SADDLE, Symbol.SHOE}


def test_card_ids_are_unique_across_both_decks_and_look_up() -> None:
    every = (*HORSE_CARDS, *ROYAL_TURF_CARDS)
    assert len({c.id for c in every}) == 49
    assert all(card(c.id) == c for c in every)


def test_the_die_shows_a_head_on_three_faces_and_cap_saddle_shoe_once() -> None:
    assert Counter(DIE) == {Symbol.HEAD: 3, Symbol.CAP: 1, Symbol.SADDLE: 1, Symbol.SHOE: 1}


def test_a_card_moves_by_its_value_for_the_symbol() -> None:
    c = Card(99, head=2, cap=18, saddle=3, shoe=3)
    assert [c.move(s) for s in Symbol] == [2, 18, 3, 3]
