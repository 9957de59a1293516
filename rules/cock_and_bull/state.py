"""Cock & Bull state, options and events (rules: docs/rules/cock_and_bull.md)."""

from __future__ import annotations

import enum
from dataclasses import MISSING, dataclass, fields, replace

from rules.core import Event, PlayerId
from rules.frozen import frozen
from rules.seats import Seating, seating_field

SEATS = (0, 1)
EMPTY = -1
MANTLE_TOP = 36  # the peg stops in hole 36; no exact count needed
ARMS_POINTS = 18
FLYING_MONKEY_POINTS = 54


class Face(enum.Enum):
    """A face of a die: each die shows Cocks, Bulls and Monkeys."""

    COCK = "cock"
    BULL = "bull"
    MONKEY = "monkey"

    @property
    def rank(self) -> int:
        """Start-roll ranking. Decision in the rules file: Monkey > Bull > Cock."""
        return {Face.COCK: 0, Face.BULL: 1, Face.MONKEY: 2}[self]


class Group(enum.Enum):
    """The three groups of spots on the Arms, in removal order."""

    BEND = "bend"
    FIELD = "field"
    CROWN = "crown"

    @property
    def spots(self) -> tuple[int, ...]:
        """The group's spots on the Arms (Bend 0-2, Field 3-4, Crown 5)."""
        return {Group.BEND: (0, 1, 2), Group.FIELD: (3, 4), Group.CROWN: (5,)}[self]

    @property
    def points(self) -> int:
        """Mantle points for a pair once the group is all yours, and each chip's worth at
        a peg-out: Cock 2, Bull 3, Crown 6 — the same numbers in the rules."""
        return {Group.BEND: 2, Group.FIELD: 3, Group.CROWN: 6}[self]

    @property
    def face(self) -> Face:
        """The face whose pair places a chip on this group."""
        return {Group.BEND: Face.COCK, Group.FIELD: Face.BULL, Group.CROWN: Face.MONKEY}[self]


def group_of(spot: int) -> Group:
    """The group `spot` belongs to."""
    return next(g for g in Group if spot in g.spots)


class Colour(enum.Enum):
    """The two sides of a chip; the first-turn winner chooses one."""

    RED = "red"
    BLACK = "black"


class Phase(enum.Enum):
    """What the player to act is deciding."""

    START_ROLL = "start_roll"  # both roll one die for the first turn
    CHOOSE_COLOUR = "choose_colour"  # the start-roll winner picks red or black
    ROLL = "roll"  # the player to act rolls both dice
    PLACE_OR_FLIP = "place_or_flip"  # a pair where both an empty spot and a flip are possible
    REMOVE_OR_POINT = "remove_or_point"  # Cock + Bull with an opponent's chip on the Arms
    TAKE_OR_DECLINE = "take_or_decline"  # `optional_points`: mantle points on offer
    OVER = "over"  # the match is over


class RollKind(enum.Enum):
    """What a roll of both dice is, by the table of rolls."""

    PAIR = "pair"  # place (or score) on the pair's group, and roll again
    COCK_AND_BULL = "cock_and_bull"  # remove an opponent's chip or +1, and roll again
    TURN_LOST = "turn_lost"  # Cock + Monkey or Bull + Monkey: the dice pass


def roll_kind(dice: tuple[Face, Face]) -> RollKind:
    """Which row of the table of rolls `dice` fall in."""
    if dice[0] is dice[1]:
        return RollKind.PAIR
    return RollKind.TURN_LOST if Face.MONKEY in dice else RollKind.COCK_AND_BULL


class WinKind(enum.Enum):
    """How a game was won: all six chips (Chip-In) or hole 36 (Peg-Out)."""

    CHIP_IN = "chip_in"
    PEG_OUT = "peg_out"


@dataclass(frozen=True)
class Rules:
    """The house rules a match is played with (declared, with defaults, in `options.py`)."""

    weighted_dice: bool  # `dice: weighted`: 3 Cocks, 2 Bulls, 1 Monkey per die
    optional_points: bool  # a player may decline mantle points
    best_of: int  # a match of 1, 3 or 5 games
    point_limit: int  # > 0: the match is played to this many points instead


@dataclass(frozen=True)
class GameResult:
    """One finished game of a match, with the scores it gave by seat."""

    game_no: int
    winner: int  # seat
    kind: WinKind
    scores: tuple[int, int]  # by seat
    flying_monkey: bool
    le_pew: bool  # the loser scored 0


@dataclass(frozen=True)
class CockAndBullState:
    """A match. The fields with defaults are one game's board: `fresh_board` resets them."""

    v: int
    players: tuple[PlayerId, PlayerId]
    rules: Rules
    game_no: int
    wins: tuple[int, int]
    match_points: tuple[int, int]
    flying_monkeys: tuple[int, int]
    le_pews: tuple[int, int]
    results: tuple[GameResult, ...]
    phase: Phase = Phase.START_ROLL
    current: int = 0  # seat to act in every phase but START_ROLL
    # Six spots (Bend 0-2, Field 3-4, Crown 5): a seat, or EMPTY.
    spots: tuple[int, ...] = (EMPTY,) * 6
    mantle: tuple[int, int] = (0, 0)
    red: int = EMPTY  # the seat playing red, or EMPTY before the colour is chosen
    start_rolls: tuple[Face | None, Face | None] = (None, None)
    last_roll: tuple[Face, Face] | None = None
    pending_group: Group | None = None  # PLACE_OR_FLIP: the group of the pair just rolled
    pending_points: int = 0  # TAKE_OR_DECLINE: the points on offer
    seating: Seating = seating_field()  # the match's, not one game's: kept by `fresh_board`

    def seat_of(self, player: PlayerId) -> int:
        """`player`'s seat, 0 or 1."""
        return self.players.index(player)

    def colour_of(self, seat: int) -> Colour | None:
        """The colour `seat` plays, or None before it is chosen."""
        if self.red == EMPTY:
            return None
        return Colour.RED if seat == self.red else Colour.BLACK

    def chips_of(self, seat: int) -> tuple[int, ...]:
        """The spots showing `seat`'s colour."""
        return tuple(i for i, owner in enumerate(self.spots) if owner == seat)

    @property
    def last_roller(self) -> int | None:
        """The seat that threw `last_roll` (a losing roll has passed the dice on already)."""
        if self.last_roll is None:
            return None
        lost = roll_kind(self.last_roll) is RollKind.TURN_LOST
        return 1 - self.current if lost else self.current


# --- events -------------------------------------------------------------------------------


@frozen
class StartDieRolled(Event):
    """A player rolled one die for the first turn."""

    player: PlayerId
    face: Face


@frozen
class StartRollTied(Event):
    """Both first-turn dice showed `face`: both roll again."""

    face: Face


@frozen
class FirstTurnWon(Event):
    """`player` won the roll for the first turn and chooses a colour."""

    player: PlayerId


@frozen
class ColourChosen(Event):
    """The first-turn winner plays `colour` (the other player the other)."""

    player: PlayerId
    colour: Colour


@frozen
class DiceRolled(Event):
    """The player to act rolled both dice."""

    player: PlayerId
    dice: tuple[Face, Face]


@frozen
class ChipPlaced(Event):
    """A pair put `player`'s chip on `spot`, empty or flipped from the opponent."""

    player: PlayerId
    spot: int
    flipped: bool  # True when an opponent's chip was turned over


@frozen
class ChipRemoved(Event):
    """Cock + Bull: `player` removed the opponent's chip from `spot`."""

    player: PlayerId  # who removed it
    spot: int


@frozen
class MantleScored(Event):
    """`player`'s peg moved up the Mantle."""

    player: PlayerId
    points: int  # what the peg actually moved (capped at hole 36)
    total: int


@frozen
class PointsDeclined(Event):
    """`optional_points`: `player` declined the mantle points on offer."""

    player: PlayerId
    points: int


@frozen
class ChoiceNeeded(Event):
    """The roll left `player` a choice (the phase says which)."""

    player: PlayerId
    phase: Phase


@frozen
class TurnLost(Event):
    """A losing mix: the dice pass to `next_player`."""

    player: PlayerId
    next_player: PlayerId


@frozen
class GameWon(Event):
    """A game of the match is won (Chip-In or Peg-Out)."""

    winner: PlayerId
    loser: PlayerId
    result: GameResult


@frozen
class NextGameStarted(Event):
    """The match goes on: game `game_no` starts with the roll for the first turn."""

    game_no: int


@frozen
class MatchWon(Event):
    """The match is over: `winner` won it."""

    winner: PlayerId
    wins: tuple[int, int]
    points: tuple[int, int]


def fresh_board(state: CockAndBullState) -> CockAndBullState:
    """The board at the start of a game: no chips, no pegs, both to roll for first turn."""
    board = {
        f.name: f.default
        for f in fields(CockAndBullState)
        if f.default is not MISSING and f.name != "seating"
    }
    return replace(state, **board)
