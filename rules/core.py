"""The engine interface every game implements, and the types shared by all games (the
refusals of `rules/refusals.py` and the options type of `rules/options.py` too, re-exported
here so that a game imports its vocabulary from one place)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Annotated, Any, ClassVar, Generic, Protocol, TypeVar

from rules.frozen import frozen
from rules.options import Options as Options
from rules.options import OptionSet
from rules.refusals import N_ as N_
from rules.refusals import IllegalAction as IllegalAction
from rules.refusals import Term as Term
from rules.refusals import either as either
from rules.refusals import illegal_count as illegal_count

PLAYER_ID = "player id"
PlayerId = Annotated[int, PLAYER_ID]
"""Opaque player id: a Discord user id, or a negative number for a bot seat. Marked, so that
a state's fields holding one are known by their type hints (`rules.codec.with_player`)."""


@frozen
class Action:
    """What a player does, shaped like a button: a verb and an optional argument."""

    verb: str
    arg: str = ""


@frozen
class Event:
    """Something that happened. `visible_to` is None for public events."""

    visible_to: frozenset[PlayerId] | None = field(default=None, kw_only=True)


S = TypeVar("S")


@frozen
class Step(Generic[S]):
    """The result of applying an action: the new state and what happened, in order."""

    state: S
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    `places` maps every player to 1 (first), 2, ... (equal places for shared results);
    `scores` are the game's points; `stats` holds per-player counters worth a scoreboard
    column (e.g. Cock & Bull's Flying Monkeys).
    """

    places: Mapping[PlayerId, int]
    scores: Mapping[PlayerId, int]
    stats: Mapping[PlayerId, Mapping[str, int]] = field(default_factory=dict)

    @property
    def winners(self) -> frozenset[PlayerId]:
        """The players in first place (several on a shared win)."""
        return frozenset(p for p, place in self.places.items() if place == 1)


class Engine(Protocol[S]):
    """A game's rules: synchronous, pure and deterministic (docs/ARCHITECTURE.md).

    Engines subclass `rules.engine_base.EngineBase`, which implements the methods every game
    does alike (the gate of `apply`, options, storage, the AI's hook) from class attributes.

    An engine holds no state of its own: every method takes the game's state and returns a
    new one, so the service can keep states as JSON, replay them from a seed and an action
    log, and run one engine for every game in play.
    """

    name: ClassVar[str]
    """The game's name everywhere: rules/, images/, cogs/, the database, custom ids."""
    title: ClassVar[str]
    """The game's name as players read it ("Cock & Bull")."""
    min_players: ClassVar[int]
    """The smallest table, bot seats included."""
    max_players: ClassVar[int]
    """The largest table."""
    options: ClassVar[OptionSet]
    """The house rules a host may choose (`rules/<game>/options.py`)."""

    def validate_options(self, options: Options, players: int | None = None) -> None:
        """Refuse house options before a game is built from them.

        Args:
            options: The options as chosen in the lobby or stored with a game; missing ones
                take their defaults, keys the game does not declare are ignored.
            players: The table's size, or None while a lobby has no table yet: then the
                options need only suit some table size the game allows.

        Raises:
            IllegalAction: With a message for the host saying what is allowed.
        """
        ...

    def initial_state(self, seats: Sequence[PlayerId], options: Options, rng: Random) -> S:
        """A new game for `seats` (in seat order) with `options`; `rng` is `setup_rng(seed)`.

        Raises:
            IllegalAction: For a table or options the game cannot be played with.
        """
        ...

    def to_act(self, state: S) -> frozenset[PlayerId]:
        """Players who may act now; empty exactly when the game is over."""
        ...

    def legal_actions(self, state: S, player: PlayerId) -> Sequence[Action]:
        """Everything `player` may do now (nothing if they are not to act), in the order a
        board offers them."""
        ...

    def apply(self, state: S, player: PlayerId, action: Action, rng: Random) -> Step[S]:
        """`player` does `action`: the next state and the events, in order.

        Args:
            state: The game before the action.
            player: Who acts.
            action: What they do.
            rng: `step_rng(seed, step)`: every roll, draw or noise of this step comes from
                it, so the seed and the action log replay the game exactly.

        Raises:
            IllegalAction: With a message for the player, for anyone not to act or any
                action not in `legal_actions` (but the seat actions of `rules.seats`, which
                any seated player may take at any time); the state is unchanged.
        """
        ...

    def outcome(self, state: S) -> Outcome | None:
        """How the game ended, or None while it is being played."""
        ...

    def dump(self, state: S) -> dict[str, Any]:
        """A JSON-safe dict with a version key "v"."""
        ...

    def load(self, data: Mapping[str, Any]) -> S:
        """The state `dump` stored.

        An engine that changes its state's shape bumps the version and upgrades older dumps
        here, so a game saved before the change plays on.

        Raises:
            ValueError: For a version this engine cannot read.
        """
        ...

    def choose(self, state: S, player: PlayerId, rng: Random) -> Action:
        """The AI's action for `player` (bot seats and absent players): always legal."""
        ...

    def ai_seats(self, state: S) -> frozenset[PlayerId]:
        """Seats the AI plays for the rest of the game, or until taken back (`rules.seats`):
        a resigner's seat the game plays out, and seats handed to the AI."""
        ...


def step_rng(seed: str, step: int) -> Random:
    """The random source for the action applied at `step` (replays need exactly this)."""
    return Random(f"{seed}:{step}")


def setup_rng(seed: str) -> Random:
    """The random source for `initial_state`."""
    return Random(f"{seed}:setup")
