"""Hold Your Horses state, options and events (rules: docs/rules/hold_your_horses.md).

Cards have no suits here: a card is the number of its horse (Jack 11, Queen 12), since only
the number ever matters. Seats are indices into `players`; seat order is "to the left".
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from rules.core import Event, PlayerId
from rules.frozen import frozen
from rules.seats import Seating, seating_field

HORSES = tuple(range(2, 13))
SCRATCHES = 4  # horses scratched before each race
DECK = tuple(sorted(HORSES * 4))  # 44 cards: 2-10, Jack, Queen in four suits


class Track(enum.Enum):
    """The finish-line presets (**Decision** in the rules: the board's lengths are not public)."""

    CLASSIC = "classic"
    EVEN = "even"  # every horse equally likely to win
    SHORT = "short"

    @property
    def lengths(self) -> tuple[int, ...]:
        """Steps from start to finish for horses 2..12."""
        return {
            Track.CLASSIC: (3, 6, 8, 11, 14, 17, 14, 11, 8, 6, 3),
            Track.EVEN: (3, 6, 9, 12, 15, 18, 15, 12, 9, 6, 3),
            Track.SHORT: (2, 4, 6, 8, 10, 12, 10, 8, 6, 4, 2),
        }[self]

    def finish(self, horse: int) -> int:
        """The steps `horse` needs to reach its finish line."""
        return self.lengths[horse - HORSES[0]]


class Phase(enum.Enum):
    """Where a race is: its scratches, the race, or the game's end."""

    SCRATCH = "scratch"  # rolling for the four scratches
    RACE = "race"  # rolling to move the horses
    OVER = "over"  # all races run


@dataclass(frozen=True)
class Rules:
    """The house rules a game is played with (declared, with defaults, in `options.py`)."""

    track: Track
    escalating_scratches: bool  # scratches cost 1, 2, 3, 4 tokens per card / per roll
    races: int
    tokens: int
    autoplay: bool  # the bot rolls for everyone; the engine only keeps it


class RollResult(enum.Enum):
    """What a roll did, for the picture."""

    SCRATCHED = "scratched"  # a scratch roll took a new horse out
    REROLLED = "rerolled"  # a scratch roll on a scratched horse: the same player goes again
    MOVED = "moved"
    FINED = "fined"  # a race roll on a scratched horse
    WON = "won"  # the move that crossed a finish line


@dataclass(frozen=True)
class Roll:
    """The last roll of a race and what came of it, for the picture."""

    player: PlayerId
    dice: tuple[int, int]
    result: RollResult
    paid: int = 0  # tokens this roll put into the pot (a scratch's payments, or a fine)

    @property
    def total(self) -> int:
        """The number rolled: the horse it names."""
        return self.dice[0] + self.dice[1]


@dataclass(frozen=True)
class Race:
    """One race's board: everything public about it, kept after it ends so the finished
    race can still be shown."""

    number: int  # 1-based
    first_roller: int  # seat: starts the scratches and the race itself
    scratched: tuple[int, ...] = ()  # horses, in scratch order (order 1 first)
    positions: tuple[int, ...] = (0,) * len(HORSES)  # steps taken by horses 2..12
    last_roll: Roll | None = None
    winner: int | None = None  # the horse that crossed its finish line
    payouts: tuple[int, ...] = ()  # by seat, once won
    carried: int = 0  # what stayed in the pot, once won

    def position(self, horse: int) -> int:
        """The steps `horse` has taken this race."""
        return self.positions[horse - HORSES[0]]

    def scratch_order(self, horse: int) -> int | None:
        """1-4 for a scratched horse, else None."""
        return self.scratched.index(horse) + 1 if horse in self.scratched else None


@dataclass(frozen=True)
class HoldYourHorsesState:
    """A game: the race being run, the hands, the tokens, the pot and the scoring grid."""

    v: int
    players: tuple[PlayerId, ...]
    rules: Rules
    race: Race  # the race being run (at the end: the last race, as it finished)
    last_finished: Race | None  # the race that ended most recently, for its final picture
    phase: Phase
    roller: int  # seat to roll
    hands: tuple[tuple[int, ...], ...]  # by seat, sorted: private to their holders
    discards: tuple[int, ...]  # sorted: cards of scratched horses, face up
    tokens: tuple[int, ...]  # by seat
    pot: int
    grid: tuple[tuple[int, ...], ...]  # the scoring grid: by finished race, by seat
    seating: Seating = seating_field()  # who resigned, or left their seat to the AI

    def seat_of(self, player: PlayerId) -> int:
        """`player`'s seat (an index into `players`)."""
        return self.players.index(player)

    def price(self, horse: int) -> int:
        """What a scratched horse costs per card, and per later roll of its number."""
        order = self.race.scratch_order(horse)
        assert order is not None, horse
        return order if self.rules.escalating_scratches else 1


def hand_of(state: HoldYourHorsesState, player: PlayerId) -> tuple[int, ...]:
    """`player`'s own cards, sorted (horse numbers; 11 is a Jack, 12 a Queen). Private: show
    it only to that player."""
    return state.hands[state.seat_of(player)]


def hand_counts(state: HoldYourHorsesState) -> tuple[int, ...]:
    """How many cards each seat holds: public, unlike the cards themselves."""
    return tuple(len(hand) for hand in state.hands)


def totals(state: HoldYourHorsesState) -> tuple[int, ...]:
    """Each seat's total on the scoring grid so far."""
    return tuple(sum(race[seat] for race in state.grid) for seat in range(len(state.players)))


def leaders(state: HoldYourHorsesState) -> tuple[PlayerId, ...]:
    """The players with the highest total, in seat order: after the last race, the winners
    ("equal totals share the win")."""
    scores = totals(state)
    return tuple(p for p, t in zip(state.players, scores, strict=True) if t == max(scores))


# --- events -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Payment:
    """A player's payment into the pot: `owed`, of which `paid` (nobody goes below 0)."""

    player: PlayerId
    cards: int  # cards of the horse they held (0 for a fine on a roll)
    owed: int
    paid: int

    @property
    def short(self) -> int:
        """What the player could not pay."""
        return self.owed - self.paid


@dataclass(frozen=True)
class Payout:
    """A share of a won race's pot: `won` for `cards` cards of the winning horse."""

    player: PlayerId
    cards: int  # cards of the winning horse they held
    won: int


@frozen
class Rolled(Event):
    """Every event a roll causes says who rolled what, so each can be worded on its own."""

    roller: PlayerId
    dice: tuple[int, int]

    @property
    def total(self) -> int:
        """The number rolled: the horse it names."""
        return self.dice[0] + self.dice[1]


@dataclass(frozen=True)
class HorseScratched(Rolled):
    """Scratch number `order` (1-4): every holder paid `price` per card and discarded them."""

    horse: int
    order: int
    price: int
    payments: tuple[Payment, ...]  # holders of the horse's cards, in seat order
    pot: int  # after the payments


@dataclass(frozen=True)
class ScratchRerolled(Rolled):
    """A scratch roll on an already scratched horse: the same player rolls again."""

    horse: int


@dataclass(frozen=True)
class RaceStarted(Rolled):
    """The fourth scratch is in: the dice go back to the race's first roller."""

    race: int
    next_roller: PlayerId


@dataclass(frozen=True)
class HorseMoved(Rolled):
    """A race roll moved `horse` one step, to `position` of `finish`."""

    horse: int
    position: int
    finish: int


@dataclass(frozen=True)
class ScratchFinePaid(Rolled):
    """A race roll on a scratched horse: the roller pays its price into the pot."""

    horse: int
    payment: Payment
    pot: int  # after the payment


@dataclass(frozen=True)
class RaceWon(Rolled):
    """`horse` crossed its finish line: its cards' holders split the pot."""

    race: int
    horse: int
    pot: int  # before the payout
    payouts: tuple[Payout, ...]  # holders of the winning horse's cards, in seat order
    carried: int  # the remainder, left in the pot for the next race


@frozen
class TokensDivided(Event):
    """Before a race: the tokens shared out evenly, the rest (and any carry) in the pot."""

    race: int
    each: int
    pot: int


@frozen
class CardsDealt(Event):
    """The public side of a deal: how many cards each player got."""

    race: int
    first_roller: PlayerId
    hand_sizes: tuple[tuple[PlayerId, int], ...]


@frozen
class HandDealt(Event):
    """A player's new hand: sent with `visible_to` that player only."""

    race: int
    player: PlayerId
    cards: tuple[int, ...]


@frozen
class GameWon(Event):
    """The last race is run: the highest total wins."""

    winners: tuple[PlayerId, ...]  # more than one on equal totals
    totals: tuple[tuple[PlayerId, int], ...]  # in seat order
