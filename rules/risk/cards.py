"""The territory deck (docs/rules/risk.md, "Cards" and "A turn"): 42 territory cards and 2
wilds, sets of three, and the escalating value of each set traded.

A card is an int: 0–41 the territory cards in map order, 42 and 43 the wilds.
"""

from __future__ import annotations

from itertools import combinations

from rules.risk.map import TERRITORIES, Symbol

TERRITORY_CARDS: tuple[int, ...] = tuple(range(len(TERRITORIES)))
WILDS: tuple[int, ...] = (42, 43)
ALL_CARDS: tuple[int, ...] = TERRITORY_CARDS + WILDS
_SLUGS = tuple(TERRITORIES)
_SYMBOLS: tuple[Symbol | None, ...] = (*(TERRITORIES[s].symbol for s in _SLUGS), None, None)
# The escalation, counted across all players: 4, 6, 8, 10, 12, 15, then +5 each.
_FIRST_VALUES = (4, 6, 8, 10, 12, 15)


def symbol(card: int) -> Symbol | None:
    """The card's symbol; None for a wild (it stands for all three)."""
    return _SYMBOLS[card]


def territory(card: int) -> str:
    """The territory shown on the card; "" for a wild."""
    return "" if card in WILDS else _SLUGS[card]


def label(card: int) -> str:
    """The card's name: "Ukraine (artillery)", or "Wild"."""
    if card in WILDS:
        return "Wild"
    t = TERRITORIES[_SLUGS[card]]
    return f"{t.name} ({t.symbol.value})"


def is_set(cards: tuple[int, ...]) -> bool:
    """Three of a kind, one of each, or any two with a wild."""
    if len(cards) != 3 or len(set(cards)) != 3:
        return False
    symbols = {_SYMBOLS[c] for c in cards}  # `symbol`, without calls: every hand's sets
    return None in symbols or len(symbols) in (1, 3)


def set_value(number: int) -> int:
    """Armies for the `number`-th set traded in the game (1-based): 4, 6, 8, 10, 12, 15, 20..."""
    if number <= len(_FIRST_VALUES):
        return _FIRST_VALUES[number - 1]
    return _FIRST_VALUES[-1] + 5 * (number - len(_FIRST_VALUES))


def sets_in(hand: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every set the hand can make, each sorted, in a stable order."""
    return [combo for combo in combinations(sorted(hand), 3) if is_set(combo)]
