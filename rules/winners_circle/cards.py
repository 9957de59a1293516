"""The project's own horse cards and the special die (docs/rules/winners_circle.md).

The printed cards are not public (Decision in the rules file): these are designed under the
same rule, 3 × head + cap + saddle + shoe = 30 with every value ≥ 1, so every horse averages
5 spaces a move (the die shows a head on three faces). They run from the steady 5/5/5/5 to
wild cards with a 20+ on one symbol and a 1 on the head.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

HORSES = (1, 2, 3, 4, 5, 6, 7)  # a horse is its gate number; gate and horse share a colour
CARD_TOTAL = 30  # 3 × head + cap + saddle + shoe


class Symbol(enum.Enum):
    """The symbols of the special die."""

    HEAD = "head"
    CAP = "cap"
    SADDLE = "saddle"
    SHOE = "shoe"


DIE = (Symbol.HEAD, Symbol.HEAD, Symbol.HEAD, Symbol.CAP, Symbol.SADDLE, Symbol.SHOE)
"""The special die: a horse's head on three faces, a jockey cap, a saddle and a horseshoe."""


@dataclass(frozen=True)
class Card:
    """A horse card: how far its horse runs for each die symbol. `horse` is the Royal Turf
    horse the card belongs to (0 for the 28 horse cards, which drive whichever gate)."""

    id: int
    head: int
    cap: int
    saddle: int
    shoe: int
    horse: int = 0

    def move(self, symbol: Symbol) -> int:
        """How far the card's horse runs for `symbol`."""
        return {
            Symbol.HEAD: self.head,
            Symbol.CAP: self.cap,
            Symbol.SADDLE: self.saddle,
            Symbol.SHOE: self.shoe,
        }[symbol]

    @property
    def values(self) -> tuple[int, int, int, int]:
        """Head, cap, saddle, shoe: the order the card prints them."""
        return self.head, self.cap, self.saddle, self.shoe


def _horse_cards() -> tuple[Card, ...]:
    rows = (
        # steady: head 5 or 6
        (5, 5, 5, 5),
        (5, 4, 5, 6),
        (5, 6, 6, 3),
        (5, 3, 7, 5),
        (6, 4, 4, 4),
        (6, 3, 5, 4),
        (6, 2, 2, 8),
        (6, 6, 5, 1),
        # head runners: strong on the common symbol, weak on the rest
        (7, 3, 3, 3),
        (7, 1, 4, 4),
        (7, 2, 6, 1),
        (8, 2, 2, 2),
        (8, 1, 4, 1),
        # slow heads, even sides
        (4, 6, 6, 6),
        (4, 8, 5, 5),
        (4, 3, 10, 5),
        (4, 12, 1, 5),
        (3, 7, 7, 7),
        (3, 10, 6, 5),
        (3, 2, 15, 4),
        (3, 4, 4, 13),
        # sprinters: one big symbol
        (2, 8, 8, 8),
        (2, 12, 10, 2),
        (2, 1, 3, 20),
        (2, 18, 3, 3),
        (1, 9, 9, 9),
        (1, 22, 3, 2),
        (1, 5, 20, 2),
    )
    return tuple(Card(i, *row) for i, row in enumerate(rows, start=1))


def _royal_turf_cards() -> tuple[Card, ...]:
    # Three cards per horse sharing its character; ids 100 + 10 × horse + 1..3.
    characters = {
        1: ((5, 5, 5, 5), (5, 4, 6, 5), (5, 6, 4, 5)),  # the steady one
        2: ((7, 3, 3, 3), (7, 2, 4, 3), (7, 4, 2, 3)),  # runs on heads
        3: ((2, 14, 5, 5), (2, 16, 4, 4), (2, 12, 6, 6)),  # cap sprinter
        4: ((3, 4, 13, 4), (3, 5, 12, 4), (3, 3, 14, 4)),  # saddle sprinter
        5: ((1, 3, 3, 21), (1, 2, 4, 21), (1, 4, 2, 21)),  # all or nothing on the shoe
        6: ((4, 6, 6, 6), (4, 7, 6, 5), (4, 5, 7, 6)),  # slow head, even sides
        7: ((6, 4, 4, 4), (6, 5, 3, 4), (6, 3, 5, 4)),  # good head
    }
    return tuple(
        Card(100 + 10 * horse + k, *row, horse=horse)
        for horse, rows in characters.items()
        for k, row in enumerate(rows, start=1)
    )


HORSE_CARDS = _horse_cards()
ROYAL_TURF_CARDS = _royal_turf_cards()
_BY_ID = {card.id: card for card in (*HORSE_CARDS, *ROYAL_TURF_CARDS)}


def card(card_id: int) -> Card:
    """The horse card or Royal Turf card with this id."""
    return _BY_ID[card_id]
