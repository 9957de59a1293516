"""The engine interface every game implements, and the types shared by all games."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any, ClassVar, Generic, Protocol, TypeVar

PlayerId = int
"""Opaque player id: a Discord user id, or a negative number for a bot seat."""

Options = Mapping[str, Any]


class IllegalAction(Exception):
    """Raised by `Engine.apply` for an action the rules forbid; the message is for the player."""


@dataclass(frozen=True)
class Action:
    """What a player does, shaped like a button: a verb and an optional argument."""

    verb: str
    arg: str = ""


@dataclass(frozen=True)
class Event:
    """Something that happened. `visible_to` is None for public events."""

    visible_to: frozenset[PlayerId] | None = field(default=None, kw_only=True)


S = TypeVar("S")


@dataclass(frozen=True)
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
        return frozenset(p for p, place in self.places.items() if place == 1)


class Engine(Protocol[S]):
    """A game's rules: synchronous, pure and deterministic (see DESIGN.md)."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]

    def initial_state(self, seats: Sequence[PlayerId], options: Options, rng: Random) -> S: ...

    def to_act(self, state: S) -> frozenset[PlayerId]:
        """Players who may act now; empty exactly when the game is over."""
        ...

    def legal_actions(self, state: S, player: PlayerId) -> Sequence[Action]: ...

    def apply(self, state: S, player: PlayerId, action: Action, rng: Random) -> Step[S]: ...

    def outcome(self, state: S) -> Outcome | None: ...

    def dump(self, state: S) -> dict[str, Any]:
        """A JSON-safe dict with a version key "v"."""
        ...

    def load(self, data: Mapping[str, Any]) -> S: ...

    def choose(self, state: S, player: PlayerId, rng: Random) -> Action:
        """The AI's action for `player` (bot seats and absent players)."""
        ...


def step_rng(seed: str, step: int) -> Random:
    """The random source for the action applied at `step` (replays need exactly this)."""
    return Random(f"{seed}:{step}")


def setup_rng(seed: str) -> Random:
    """The random source for `initial_state`."""
    return Random(f"{seed}:setup")
