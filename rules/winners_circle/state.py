"""Winner's Circle state, options and events (rules: docs/rules/winners_circle.md).

A horse is its gate number, 1–7. Where a horse is on the track is its *progress*: its start
space (30–36), +1 per space run, so it has finished once past 72 and has reached space 18 of
its lap at 54 (the rules file's counting). Per-horse tuples are indexed by `horse - 1`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from rules.core import Event, PlayerId
from rules.frozen import frozen
from rules.seats import Seating, seating_field
from rules.winners_circle.cards import HORSES, Card, Symbol

RACES = 3
TRACK = 36  # spaces on the oval; the start/finish line lies between 36 and 1
FINISH = 2 * TRACK  # progress past this has crossed the line a second time
PACE_SPACE = 18
PACE_PROGRESS = TRACK + PACE_SPACE  # 54: space 18 of the race's lap
PLACES = 3  # Win, Place, Show
NO_HORSE = 0


def space_of(progress: int) -> int:
    """The track space (1–36) a horse with this progress stands on."""
    return (progress - 1) % TRACK + 1


class Phase(enum.Enum):
    """What the player to act does."""

    BETTING = "betting"  # `current` puts one chip on a horse
    ROLL = "roll"  # `current` rolls the die
    MOVE = "move"  # `current` chooses a face-up horse to move by the rolled symbol
    RACE_OVER = "race_over"  # paid out; `current` (next race's first bettor) starts it
    OVER = "over"  # three races run: the richest player has won


@dataclass(frozen=True)
class Rules:
    """The house rules a game is played with (declared, with defaults, in `options.py`)."""

    royal_turf: bool  # the 21 Royal Turf cards: one card per horse, its own
    hidden_bets: bool  # chips 0, 1, 1, 2, four rounds, values secret until the end
    crowded_field: bool  # horses may share spaces; all start on space 36
    alternative_payouts: bool  # the payout column counts chips, not bets

    @property
    def chips(self) -> tuple[int, ...]:
        """Every player's chips for a race; one goes down per betting round."""
        return (0, 1, 1, 2) if self.hidden_bets else (1, 1, 2)


@dataclass(frozen=True)
class Bet:
    """A chip on a horse."""

    player: PlayerId
    horse: int
    chip: int  # 0 (a bluff, hidden bets only), 1 or 2 (counts as two bets)


class LineKind(enum.Enum):
    """Why a chip is paid (or pays) at the end of a race."""

    WIN = "win"
    PLACE = "place"
    SHOW = "show"
    PACE = "pace"  # the pace horse finished in the top three
    LAST = "last"  # chips on the last horse pay the bank


@dataclass(frozen=True)
class LineItem:
    """One chip's payment at the end of a race.

    `bets` is the payout column used (WIN/PLACE/SHOW; 0 otherwise), `per_bet` the table's (or
    the pace or last-place) amount per bet before race 3's doubling, `amount` the money that
    actually changed hands (negative: paid to the bank), and `unpaid` what a player short of
    money could not pay.
    """

    player: PlayerId
    horse: int
    kind: LineKind
    chip: int
    bets: int
    per_bet: int
    amount: int
    unpaid: int = 0


@dataclass(frozen=True)
class RaceResult:
    """A race run. Its bets stay in the state until the next race is prepared, and its
    itemised payout follows from them (`payout.race_payout`)."""

    race: int
    finish: tuple[int, int, int]  # Win, Place, Show
    last: tuple[int, ...]  # the hindmost horse (several only in a crowded field)
    pace: int
    money: tuple[int, ...]  # by seat, after this race


@dataclass(frozen=True)
class LastMove:
    """The latest move, for the picture: who rolled what and where the horse went."""

    player: PlayerId
    horse: int
    symbol: Symbol
    start: int  # progress
    end: int


@dataclass(frozen=True)
class WinnersCircleState:
    """A game: the race being run, the bets, the track and everyone's money."""

    v: int
    players: tuple[PlayerId, ...]  # clockwise
    rules: Rules
    race: int  # 1–3
    phase: Phase
    current: int  # the seat to act
    first_bettor: int  # this race's first bettor, who also rolls first
    money: tuple[int, ...]  # by seat
    deck: tuple[int, ...]  # card ids left for later races
    gates: tuple[int, ...]  # the card id driving each horse this race
    progress: tuple[int, ...]
    face_up: tuple[bool, ...]  # a finished horse's card has left play (kept False)
    winners_backed: tuple[int, ...]  # by seat, over the game: chips on a Win horse
    lasts_backed: tuple[int, ...]  # by seat: chips on a last horse
    finished: tuple[int, ...] = ()  # horses across the line, in order
    pace: int = NO_HORSE  # the first horse to reach space 18
    bets: tuple[Bet, ...] = ()  # this race's (or the race just run's), in the order placed
    rolled: Symbol | None = None  # MOVE: the symbol to move by
    last_move: LastMove | None = None
    results: tuple[RaceResult, ...] = ()
    seating: Seating = seating_field()  # who resigned, or left their seat to the AI

    def seat_of(self, player: PlayerId) -> int:
        """`player`'s seat (clockwise from 0)."""
        return self.players.index(player)

    def space(self, horse: int) -> int:
        """The track space `horse` stands on."""
        return space_of(self.progress[horse - 1])

    def running(self) -> tuple[int, ...]:
        """Horses still on the track."""
        return tuple(h for h in HORSES if h not in self.finished)

    def is_face_up(self, horse: int) -> bool:
        """Whether `horse`'s card may still move it this cycle."""
        return self.face_up[horse - 1]

    def bets_of(self, player: PlayerId) -> tuple[Bet, ...]:
        """`player`'s bets this race, in the order placed."""
        return tuple(b for b in self.bets if b.player == player)

    def bets_on(self, horse: int) -> tuple[Bet, ...]:
        """Every bet on `horse` this race."""
        return tuple(b for b in self.bets if b.horse == horse)


# --- events -------------------------------------------------------------------------------


@frozen
class RacePrepared(Event):
    """The cards went to the gates (shown with their values) and the horses lined up."""

    race: int
    cards: tuple[Card, ...]  # by horse
    starts: tuple[int, ...]  # start space by horse
    set_aside: int  # Royal Turf: cards drawn for a horse already placed, shuffled back


@frozen
class FirstBettorChosen(Event):
    """`player` bets first and rolls first: drawn among `candidates` (everyone in race 1,
    those tied for the most money after)."""

    race: int
    player: PlayerId
    candidates: tuple[PlayerId, ...]


@frozen
class BetPlaced(Event):
    """Open bets: `player` put chip `chip` on `horse`."""

    player: PlayerId
    horse: int
    chip: int


@frozen
class HiddenBetPlaced(Event):
    """Hidden bets: everyone sees that `player` put a chip on `horse`, not its value."""

    player: PlayerId
    horse: int


@frozen
class HiddenChipChosen(Event):
    """Hidden bets: the chip's value, for its owner only (`visible_to`)."""

    player: PlayerId
    horse: int
    chip: int


@frozen
class RaceStarted(Event):
    """The bets are in: the race starts."""

    race: int
    player: PlayerId  # rolls first


@frozen
class DieRolled(Event):
    """The player to act rolled `symbol`."""

    player: PlayerId
    symbol: Symbol
    choices: tuple[int, ...]  # the horses whose card is face up


@frozen
class HorseMoved(Event):
    """A horse moved by its card's value for the symbol rolled."""

    player: PlayerId
    horse: int
    symbol: Symbol
    wanted: int  # the card's value for the symbol
    moved: int  # spaces actually run (less when blocked; 0 when it could not move)
    from_space: int
    to_space: int  # the space it stands on, or past the line when `finished`
    finished: bool
    forced: bool  # the only face-up card: no choice was left


@frozen
class PaceHorseSet(Event):
    """`horse` reached space 18 of its lap first: the pace chip is its."""

    horse: int


@frozen
class HorseFinished(Event):
    """`horse` crossed the finish line in `place`."""

    horse: int
    place: int  # 1 Win, 2 Place, 3 Show


@frozen
class CardsTurnedUp(Event):
    """Every card still in play was face down: all turn face up."""

    horses: tuple[int, ...]  # every card still in play


@frozen
class RaceEnded(Event):
    """The third horse finished: Win, Place, Show, the last horse and the pace horse."""

    race: int
    finish: tuple[int, int, int]
    last: tuple[int, ...]
    pace: int


@frozen
class BetsRevealed(Event):
    """Hidden bets: every chip's value, once the race has ended."""

    race: int
    bets: tuple[Bet, ...]


@frozen
class PayoutMade(Event):
    """One line of the itemised payout (see `LineItem`)."""

    race: int
    doubled: bool
    line: LineItem


@frozen
class RaceSettled(Event):
    """The payout is done."""

    race: int
    money: tuple[int, ...]  # by seat, after the payout


@frozen
class GameWon(Event):
    """Three races run: the richest players win."""

    winners: tuple[PlayerId, ...]  # the richest; several share the win
    money: tuple[int, ...]  # by seat
