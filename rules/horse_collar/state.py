"""Horse Collar state, house options and events (rules: docs/rules/horse_collar.md).

Lengths are mils (thousandths of an inch), angles hundredths of a degree: see `geometry`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from rules.core import Event, PlayerId
from rules.frozen import frozen
from rules.horse_collar.geometry import FoulLine, Table, Zone, table_for
from rules.seats import Seating, seating_field

WEIGHTS_PER_TURN = 8
WEIGHTS_PER_COLOUR = 4
SIDE_SIZES = (1, 2, 4)  # singles, pairs, fours


class BoardSpeed(enum.Enum):
    """House option `board_speed`: the sliding friction coefficient mu."""

    FAST = "fast"
    MEDIUM = "medium"
    SLOW = "slow"

    @property
    def mu(self) -> float:
        """The sliding friction coefficient."""
        return {BoardSpeed.FAST: 0.03, BoardSpeed.MEDIUM: 0.05, BoardSpeed.SLOW: 0.08}[self]


class Colour(enum.Enum):
    """A weight's colour: a turn shoots 4 red and 4 blue."""

    RED = "red"
    BLUE = "blue"


def colour_of(index: int) -> Colour:
    """Weights 0-3 of a turn are red, 4-7 blue: a pair's first player shoots the reds and
    the partner the blues; a four's first two players the reds (rules, "Sides and weights")."""
    return Colour.RED if index < WEIGHTS_PER_COLOUR else Colour.BLUE


def weight_label(index: int) -> str:
    """`R1`..`R4`, `B1`..`B4`: a weight's code in actions (`r1`); chat and the picture name
    it in the language spoken (`images.horse_collar.weight_name`)."""
    return f"{colour_of(index).value[0].upper()}{index % WEIGHTS_PER_COLOUR + 1}"


@dataclass(frozen=True)
class Rules:
    """The house rules a game is played with (declared, with defaults, in `options.py`)."""

    sides: int
    target: int
    table_feet: int
    foul_line: FoulLine
    corner_hanger: int
    short_weight_voids_turn: bool
    board_speed: BoardSpeed
    hickey: int  # the stake; 0 = no Hickey jar
    frames: int  # > 0: the game ends after this many frames (a quick game); 0 = to target

    @property
    def table(self) -> Table:
        """The playfield of this cabinet length and foul line."""
        return table_for(self.table_feet, self.foul_line)


@dataclass(frozen=True)
class Weight:
    """A weight shot this turn: where it rests (or fell), in mils."""

    index: int  # shooting order 0-7; also its colour and number (`weight_label`)
    d: int
    y: int
    fallen: bool = False


@dataclass(frozen=True)
class Aim:
    """A shooter's settings, kept between shots so "Same again" is one click."""

    release: int  # mils from the centre line where the weight leaves the hand
    angle: int  # hundredths of a degree, positive toward the shooter's right
    target: str  # a name from `shots.TARGETS`: where a lone weight would stop
    lane: str  # the `release` or `line_up` argument that set `release`


@dataclass(frozen=True)
class SeatStats:
    """Counters worth a scoreboard column, per player."""

    hangers: int = 0  # 13-point hangers left at the end of a turn
    corner_hangers: int = 0
    hickeys: int = 0  # times this player paid the Hickey stake


class VoidReason(enum.Enum):
    """Why a turn scored nothing although weights counted."""

    NO_THREE = "no_three"  # no weight worth 3 or more: nothing counts
    SHORT_WEIGHT = "short_weight"  # a short weight remains (`short_weight_voids_turn`)


@dataclass(frozen=True)
class TurnResult:
    """A scored turn: the board as it was left, and what it was worth."""

    side: int
    frame: int
    weights: tuple[Weight, ...]
    values: tuple[int, ...]  # per weight, 0 for dead and short ones
    points: int
    void: VoidReason | None


@dataclass(frozen=True)
class HorseCollarState:
    """A game: the sides, their scores, the frame and turn, and the board this turn."""

    v: int
    sides: tuple[tuple[PlayerId, ...], ...]  # in shooting order; the last has the hammer
    rules: Rules
    scores: tuple[int, ...]  # per side
    frame: int
    contenders: tuple[int, ...]  # sides shooting this frame: all, or the tied leaders
    turn: int  # index into `contenders`
    shot: int  # weights shot this turn, 0-8
    weights: tuple[Weight, ...]  # this turn's weights in shooting order
    aims: tuple[Aim, ...]  # per seat (`seats` order)
    history: tuple[TurnResult, ...]  # every scored turn, oldest first
    jar: int  # the Hickey jar
    stats: tuple[SeatStats, ...]  # per seat
    winners: tuple[int, ...] = ()  # sides; set when the game is over
    seating: Seating = seating_field()  # who resigned, or left their seat to the AI

    @property
    def players(self) -> tuple[PlayerId, ...]:
        """Every player, side by side, in shooting order."""
        return tuple(p for side in self.sides for p in side)

    @property
    def over(self) -> bool:
        """Whether the game has been won."""
        return bool(self.winners)

    @property
    def side(self) -> int:
        """The side shooting now."""
        return self.contenders[self.turn]

    @property
    def shooter(self) -> PlayerId:
        """Singles: one player shoots all 8; pairs 4 each; fours 2 each, in turn."""
        players = self.sides[self.side]
        return players[self.shot // (WEIGHTS_PER_TURN // len(players))]

    def seat_of(self, player: PlayerId) -> int:
        """`player`'s index in `players`."""
        return self.players.index(player)

    def side_of(self, player: PlayerId) -> int:
        """The side `player` plays for."""
        return next(s for s, players in enumerate(self.sides) if player in players)

    def shooter_of(self, side: int, index: int) -> PlayerId:
        """Who shoots weight `index` of `side`'s turn."""
        players = self.sides[side]
        return players[index // (WEIGHTS_PER_TURN // len(players))]

    @property
    def hammer(self) -> int:
        """The side shooting last in this frame."""
        return self.contenders[-1]


# --- events -------------------------------------------------------------------------------


@frozen
class AimSet(Event):
    """The shooter changed a setting: `aim` is what a shot would now be."""

    player: PlayerId
    aim: Aim


@dataclass(frozen=True)
class WeightPath:
    """One weight's track during a shot: (d, y) in mils every `sample_ms`, from the moment
    the shot starts until everything is still; `fell_at` is the sample where it fell."""

    index: int
    points: tuple[tuple[int, int], ...]
    fell_at: int | None


@frozen
class WeightShot(Event):
    """A shot, with everything the replay needs to draw it without simulating again."""

    player: PlayerId
    side: int
    index: int  # the weight shot
    aim: Aim  # what the player asked for
    speed: int  # the launch speed after execution noise, mils per second
    angle: int  # the launch angle after noise, hundredths of a degree
    sample_ms: int
    paths: tuple[WeightPath, ...]  # every weight that moved, the shot one first
    before: tuple[Weight, ...]  # the board before the shot (the shot weight not on it)
    after: tuple[Weight, ...]  # the board at rest, the shot weight included
    fell: tuple[int, ...]  # weights that fell into the alleys in this shot
    zones: tuple[Zone, ...]  # per weight in `after`


@frozen
class TurnScored(Event):
    """A side's turn is over and scored (its points count, or the turn is void)."""

    players: tuple[PlayerId, ...]
    result: TurnResult
    total: int  # the side's score after the turn


@frozen
class HickeyPaid(Event):
    """A turn that scored nothing: each player of the side puts the stake in the jar."""

    players: tuple[PlayerId, ...]
    amount: int
    jar: int


@frozen
class TargetReached(Event):
    """A side reached the target: the frame is finished, then the highest score wins."""

    side: int
    total: int
    target: int


@frozen
class TurnStarted(Event):
    """A side starts its turn on a cleared board."""

    side: int
    frame: int
    shooter: PlayerId
    hammer: bool


@frozen
class TieFrame(Event):
    """Sides tied for the lead after the last frame play another among themselves."""

    sides: tuple[int, ...]
    frame: int
    score: int


@frozen
class GameWon(Event):
    """The game is over: `sides` won (and take the Hickey jar)."""

    sides: tuple[int, ...]  # more than one only when a frame limit ends in a tie
    players: tuple[PlayerId, ...]
    scores: tuple[int, ...]
    jar: int  # the Hickey jar the winners take (0 without `hickey`)
