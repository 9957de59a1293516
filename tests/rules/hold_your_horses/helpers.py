"""Decks, dice and tables for the Hold Your Horses tests: deals and rolls passed in."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from rules.core import Event, PlayerId, Step
from rules.hold_your_horses import HoldYourHorses
from rules.hold_your_horses.state import DECK, HoldYourHorsesState

ENGINE = HoldYourHorses()

# The payout example's players (docs/rules/hold_your_horses.md, "Payout") and Max, in seat
# order (left of Greg is Lois, and so on round the table).
GREG, LOIS, MAX, SHERRE = 101, 102, 103, 104
TABLE = (GREG, LOIS, MAX, SHERRE)

DICE = {
    2: (1, 1),
    3: (1, 2),
    4: (2, 2),
    5: (2, 3),
    6: (3, 3),
    7: (3, 4),
    8: (4, 4),
    9: (4, 5),
    10: (5, 5),
    11: (5, 6),
    12: (6, 6),
}
"""A throw of two dice for each horse number."""


def deck_giving(
    players: int, wanted: Mapping[int, Sequence[int]] | None = None, first: int = 0
) -> list[int]:
    """A deck order that, dealt one card at a time from seat `first`, gives each seat in
    `wanted` those cards (the rest of its hand filled from the cards nobody asked for)."""
    wanted = wanted or {}
    spare = Counter(DECK) - Counter(c for cards in wanted.values() for c in cards)
    rest = sorted(spare.elements())
    hands: list[list[int]] = [list(wanted.get(seat, ())) for seat in range(players)]
    sizes = Counter((first + i) % players for i in range(len(DECK)))
    for seat in range(players):
        while len(hands[seat]) < sizes[seat]:
            hands[seat].append(rest.pop(0))
    return [hands[(first + i) % players].pop(0) for i in range(len(DECK))]


def new_game(
    seats: Sequence[PlayerId] = TABLE,
    wanted: Mapping[int, Sequence[int]] | None = None,
    **options: Any,
) -> HoldYourHorsesState:
    return ENGINE.start(seats, options, deck_giving(len(seats), wanted))


def roll(state: HoldYourHorsesState, horse: int, deck: Sequence[int] = DECK) -> Step[Any]:
    """The roller throws `horse`; a race won here deals the next from `deck`."""
    return ENGINE.resolve_roll(state, DICE[horse], lambda: deck)


def rolls(state: HoldYourHorsesState, *horses: int) -> HoldYourHorsesState:
    for horse in horses:
        state = roll(state, horse).state
    return state


def of_type(events: Sequence[Event], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def the(events: Sequence[Event], kind: type) -> Any:
    (found,) = of_type(events, kind)
    return found


def tokens_in_play(state: HoldYourHorsesState) -> int:
    return sum(state.tokens) + state.pot
