"""Risk state, options and events (rules: docs/rules/risk.md).

Territories are stored by their index in `map.TERRITORIES` order (`INDEX`, `SLUGS`); cards are
ints (`cards.py`): 0–41 the territory cards in map order, 42 and 43 the wilds.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from rules.codec import added_later
from rules.core import Event, PlayerId
from rules.frozen import frozen, replaced
from rules.risk.map import TERRITORIES, neighbours
from rules.seats import Seating, seating_field

SLUGS: tuple[str, ...] = tuple(TERRITORIES)
INDEX: dict[str, int] = {slug: i for i, slug in enumerate(SLUGS)}
ADJACENT: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(INDEX[n] for n in neighbours(slug))) for slug in SLUGS
)

T = TypeVar("T")

STATE_VERSION = 2  # 2: `bonus_pick` (a stored version 1 state is upgraded by `Risk.load`)

PLAYERS = range(2, 7)
"""Risk is for 2 to 6 players; two play with a neutral army."""

NEUTRAL: PlayerId = 0
"""The owner of the two-player game's neutral territories. Not a seat and never a player id
(Discord ids are > 0, bot seats < 0): it never acts, never reinforces, never draws cards."""


class SetupMode(enum.Enum):
    """How the territories are shared out at the start (house rule `setup`)."""

    DEAL = "deal"  # territories dealt at random, then armies placed in turn (the default)
    CLAIM = "claim"  # classic: territories claimed one at a time, then armies placed in turn


class Phase(enum.Enum):
    """What the player to act is doing."""

    SETUP_CLAIM = "setup_claim"  # claim an unclaimed territory (claim set-up)
    SETUP_PLACE = "setup_place"  # put set-up armies on one's own territories, in turn
    SETUP_NEUTRAL = "setup_neutral"  # two players: then one army on a neutral territory
    REINFORCE = "reinforce"  # trade cards and place reinforcements
    ATTACK = "attack"
    DEFEND = "defend"  # `defender_chooses`: the defender picks 1 or 2 dice
    MOVE_IN = "move_in"  # after a capture: how many armies follow
    FORTIFY = "fortify"
    OVER = "over"

    # Members are singletons compared by identity: hashed so too, in C, rather than by
    # Enum's Python-level __hash__ (`legal.py` looks up each action's check by phase).
    __hash__ = object.__hash__


class WinKind(enum.Enum):
    """How the game was won."""

    DOMINATION = "domination"  # every other player eliminated (all 42 in 3+ player games)
    ELIMINATION = "elimination"  # two players: the opponent eliminated (neutral may remain)
    MISSION = "mission"  # Secret Mission Risk: a mission completed
    TURN_LIMIT = "turn_limit"  # house option: most territories, then armies, after N rounds
    RESIGNATION = "resignation"  # everyone else resigned (or was eliminated)


class MissionKind(enum.Enum):
    """What a Secret Mission card asks for."""

    CONQUER = "conquer"  # hold whole continents
    OCCUPY = "occupy"  # hold a number of territories (with a minimum of armies on each)
    DESTROY = "destroy"  # eliminate one colour


@dataclass(frozen=True)
class Mission:
    """A Secret Mission Risk card. `target` is the seat (colour) to destroy."""

    kind: MissionKind
    continents: tuple[str, ...] = ()
    one_more_continent: bool = False  # "... and one more continent"
    territories: int = 0
    min_armies: int = 1
    target: int = -1


OCCUPY_24 = Mission(MissionKind.OCCUPY, territories=24)


@dataclass(frozen=True)
class Rules:
    """The house rules a game is played with (declared, with defaults, in `options.py`)."""

    setup: SetupMode
    missions: int  # 0 = classic; 12 or 14 mission cards = Secret Mission Risk
    defender_chooses: bool
    connected_fortify: bool
    turn_limit: int  # rounds; 0 = play to the end
    resign_to_ai: bool = added_later(False)  # a resigner's seat: the AI's, not neutral


@dataclass(frozen=True)
class Elimination:
    """A player eliminated: by whom, and in which turn (the order places the eliminated)."""

    victim: PlayerId
    victor: PlayerId
    turn: int


@dataclass(frozen=True)
class RiskState:
    """A game of Risk: the board, the cards, whose turn and phase it is, the choice being
    made, and the tallies for the scoreboard. Per-seat tuples follow `players`."""

    v: int
    players: tuple[PlayerId, ...]  # in turn order: players[0] won the roll and goes first
    rules: Rules
    start_rolls: tuple[tuple[PlayerId, int], ...]  # the rolls for first, in order (re-rolls too)
    owners: tuple[PlayerId, ...]  # per territory: a player, or NEUTRAL
    armies: tuple[int, ...]  # >= 1, except 0 on a territory still unclaimed (claim set-up)
    deck: tuple[int, ...]  # face down; drawn from the front
    hands: tuple[tuple[int, ...], ...]  # per seat, private
    discard: tuple[int, ...]
    missions: tuple[Mission, ...]  # per seat, private; () unless Secret Mission Risk
    setup_left: tuple[int, ...]  # per seat: set-up armies still to place
    phase: Phase
    current: int  # the seat whose (set-up) turn it is
    neutral_left: int = 0  # two players: neutral set-up armies still to place
    to_place: int = 0  # armies to place now: reinforcements, or a two-player set-up turn's 2
    round: int = 0  # 0 during set-up; every player's turn once is a round
    turn: int = 0  # turns played, counting this one
    source: str = ""  # pending selection: the territory to place on / attack from / move from
    target: str = ""  # pending selection: the territory to attack / fortify
    last_battle: tuple[str, str] | None = None  # (source, target) of the last roll, to highlight
    attack_dice: int = 0  # DEFEND: the dice the attacker rolls
    blitz_stop: int = 0  # > 0 while a blitz goes on: stop when the source is down to this
    move_min: int = 0  # MOVE_IN: armies that must follow (dice in the capturing roll)
    resume_attack: bool = False  # REINFORCE after an elimination's trade-down: attack on after
    conquered: bool = False  # took a territory this turn: draws a card at its end
    bonus_used: bool = False  # the +2 for a traded card's territory was had this turn
    bonus_pick: str = ""  # the territory the player chose for this turn's +2 ("" = the first)
    sets_traded: int = 0  # across all players: sets the escalation (4, 6, 8, 10, 12, 15, 20 ...)
    eliminated: tuple[Elimination, ...] = ()
    captures: tuple[int, ...] = ()  # per seat: territories taken
    eliminations: tuple[int, ...] = ()  # per seat: players eliminated
    trades: tuple[int, ...] = ()  # per seat: sets traded
    win: WinKind | None = None
    winners: tuple[PlayerId, ...] = ()
    seating: Seating = seating_field()  # who resigned, or left their seat to the AI

    def seat_of(self, player: PlayerId) -> int:
        """The seat (index in turn order) of `player`."""
        return self.players.index(player)

    @property
    def player(self) -> PlayerId:
        """The player whose (set-up) turn it is."""
        return self.players[self.current]

    def owner(self, slug: str) -> PlayerId:
        """Who holds the territory: a player, or NEUTRAL."""
        return self.owners[INDEX[slug]]

    def armies_on(self, slug: str) -> int:
        """The armies on the territory."""
        return self.armies[INDEX[slug]]

    def is_out(self, player: PlayerId) -> bool:
        """Whether `player` has been eliminated."""
        return any(e.victim == player for e in self.eliminated)

    def hand(self, player: PlayerId) -> tuple[int, ...]:
        """Private: the cards `player` holds."""
        return self.hands[self.seat_of(player)]


def evolve(state: RiskState, **changes: Any) -> RiskState:
    """`dataclasses.replace(state, **changes)`, many times faster (`evolved`).

    Raises:
        TypeError: For a name that is not a field (as `replace` does).
    """
    return replaced(state, changes)


evolved: Callable[[RiskState, Mapping[str, Any]], RiskState] = replaced
"""`evolve` with the changes in a dict (one built already is not unpacked into keywords and
packed back): the engine copies a state several times an action, and `dataclasses.replace`
re-runs the frozen `__init__` over every field (`rules.frozen.replaced`, whose contract
`RiskState` meets: a plain frozen dataclass). Raises TypeError for a name that is not a
field."""


def changed_at(values: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    """`values` with the one at `i` replaced: one seat's or one territory's entry changed."""
    changed = list(values)
    changed[i] = value
    return tuple(changed)


def with_armies(state: RiskState, placements: Iterable[tuple[int, int]]) -> tuple[int, ...]:
    """The armies on the board once each (territory index, armies) in `placements` is added."""
    armies = list(state.armies)
    for i, n in placements:
        armies[i] += n
    return tuple(armies)


# --- events -----------------------------------------------------------------------------------


@frozen
class TerritoryClaimed(Event):
    """Claim set-up: a player claimed a territory, with one army."""

    player: PlayerId
    territory: str


@frozen
class ArmiesPlaced(Event):
    """Set-up or reinforcement armies put on a territory (by NEUTRAL's hand in a two-player
    set-up: `player` is who placed them, `owner` whose they are)."""

    player: PlayerId
    owner: PlayerId
    territory: str
    count: int
    total: int  # armies there now
    left: int  # armies the player still has to place (this set-up or this turn)


@frozen
class SetupFinished(Event):
    """Every set-up army is placed: `first` takes the first turn."""

    first: PlayerId


@frozen
class Reinforcement:
    """How a turn's reinforcements are counted: max(3, territories ÷ 3) + continents."""

    territories: int
    from_territories: int
    continents: tuple[str, ...]
    from_continents: int

    @property
    def total(self) -> int:
        """The armies to place (before any card sets)."""
        return self.from_territories + self.from_continents


@frozen
class TurnStarted(Event):
    """A player's turn began, with how many reinforcements they get."""

    player: PlayerId
    round: int
    turn: int
    reinforcement: Reinforcement
    must_trade: bool  # holding 5 or more cards


@frozen
class CardsTraded(Event):
    """Public: traded cards are shown. `bonus_territory` got +2 (at most once a turn)."""

    player: PlayerId
    cards: tuple[int, ...]
    set_number: int  # across the game
    armies: int
    bonus_territory: str  # "" when no +2


@frozen
class DefenceNeeded(Event):
    """`defender_chooses`: the defender picks their dice."""

    attacker: PlayerId
    defender: PlayerId
    source: str
    target: str
    attack_dice: int


@frozen
class BattleRolled(Event):
    """One roll: "Ukraine 6-3-1 vs 5-2: attacker loses 0, defender 2"."""

    attacker: PlayerId
    defender: PlayerId
    source: str
    target: str
    attack_dice: tuple[int, ...]  # sorted high to low
    defend_dice: tuple[int, ...]
    attacker_losses: int
    defender_losses: int
    source_armies: int  # after the roll
    target_armies: int


@frozen
class AttackStopped(Event):
    """A blitz reached its stop level (or the source cannot attack any more)."""

    player: PlayerId
    source: str
    target: str
    source_armies: int


@frozen
class TerritoryCaptured(Event):
    """The attacker took the target: its defenders are all gone."""

    player: PlayerId
    previous_owner: PlayerId
    source: str
    target: str
    moved: int  # armies moved in at once (the dice of the last roll)


@frozen
class ArmiesMovedIn(Event):
    """After a capture: more armies followed the ones that moved in with it."""

    player: PlayerId
    source: str
    target: str
    count: int  # extra armies beyond those that moved in at the capture
    source_armies: int
    target_armies: int


@frozen
class PlayerEliminated(Event):
    """The victor took the victim's last territory, and their cards."""

    victim: PlayerId
    victor: PlayerId
    cards_taken: int  # how many: public; which: CardsHandedOver, private


@frozen
class CardsHandedOver(Event):
    """Private (victor and victim): which cards changed hands."""

    victim: PlayerId
    victor: PlayerId
    cards: tuple[int, ...]
    must_trade: bool  # 6 or more: the victor trades down to 4 or fewer now


@frozen
class MissionChanged(Event):
    """Private: a destroy mission whose colour is gone (or one's own) became "occupy 24"."""

    player: PlayerId
    mission: Mission


@frozen
class AttacksEnded(Event):
    """The player stopped attacking: on to the fortify."""

    player: PlayerId


@frozen
class Fortified(Event):
    """The turn's one fortify: armies moved between own territories."""

    player: PlayerId
    source: str
    target: str
    count: int


@frozen
class CardDrawn(Event):
    """Public: someone drew a card (which one: CardReceived, private)."""

    player: PlayerId
    cards_held: int


@frozen
class CardReceived(Event):
    """Private: the card a player drew."""

    player: PlayerId
    card: int


@frozen
class DeckReshuffled(Event):
    """The deck ran out: the traded cards were shuffled into a new one."""

    cards: int


@frozen
class TurnEnded(Event):
    """A player's turn ended."""

    player: PlayerId


@frozen
class MissionCompleted(Event):
    """Public: the mission is revealed."""

    player: PlayerId
    mission: Mission


@frozen
class GameWon(Event):
    """The game is over: the winners (several when tied at the turn limit), and how."""

    winners: tuple[PlayerId, ...]
    kind: WinKind
