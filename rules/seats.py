"""Leaving a game before its end, the same in every game: resigning, and a seat handed to the
AI for an absent player (by the host) and taken back.

These are actions like any other, so the action log holds them and a replay repeats them.
But they are nobody's turn: a player may resign while someone else is to act, so
`legal_actions` never lists them (the AI never resigns) and `EngineBase.apply` hands them
here before its turn check. What a resignation does to the game is each game's rule: the
engine's `resign_rule`, which `apply_seat_action` runs.

Every game state keeps a `seating` field (`Seating`); it is `added_later`, so games saved
before it load, and dump as before until someone leaves.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, cast

from rules.codec import added_later
from rules.core import Action, Event, IllegalAction, Outcome, PlayerId, Step
from rules.frozen import frozen


class Verb(enum.StrEnum):
    """The seat verbs every game shares (stored in action logs: never renamed)."""

    RESIGN = "resign"
    HAND_TO_AI = "hand_to_ai"  # applied for the seat handed over; the host's right is the bot's
    TAKE_SEAT = "take_seat"


RESIGN = Action(Verb.RESIGN)
HAND_TO_AI = Action(Verb.HAND_TO_AI)
TAKE_SEAT = Action(Verb.TAKE_SEAT)
SEAT_VERBS = frozenset(v.value for v in Verb)


def is_seat_action(action: Action) -> bool:
    """Whether `action` is one of the seat verbs (out of turn, never among legal actions)."""
    return action.verb in SEAT_VERBS


@dataclass(frozen=True)
class Seating:
    """Who has left the table's play: resigned (for good), or away (the AI plays meanwhile)."""

    resigned: tuple[PlayerId, ...] = ()  # in the order they resigned
    away: tuple[PlayerId, ...] = ()  # handed to the AI, until they take the seat back

    @property
    def ai_seats(self) -> frozenset[PlayerId]:
        """The seats the AI plays now (a resigner's seat left in play, or an absent one)."""
        return frozenset(self.resigned) | frozenset(self.away)


def seating_field() -> Any:
    """The `seating` field of a game state: empty, and left out of dumps while empty."""
    return added_later(Seating())


@frozen
class Resigned(Event):
    """A player resigned; `winners` is set when that ended the game."""

    player: PlayerId
    winners: tuple[PlayerId, ...] = ()


@frozen
class SeatHandedToAI(Event):
    """The host handed an absent player's seat to the AI."""

    player: PlayerId


@frozen
class SeatTakenBack(Event):
    """A player took their seat back from the AI."""

    player: PlayerId


class Seated(Protocol):
    """A game state: every one has its `players` and a `seating`."""

    @property
    def players(self) -> Sequence[PlayerId]:
        """Everyone playing, in seat order."""
        ...

    @property
    def seating(self) -> Seating:
        """Who resigned, or left their seat to the AI."""
        ...


S = TypeVar("S", bound=Seated)
ResignRule = Callable[[S, PlayerId], Step[S]]
"""A game's rule for a resignation: the state (with the resigner already in
`seating.resigned`) and the resigner -> the next state and its events (a `Resigned` first)."""


def one_seat_each(seats: Sequence[PlayerId]) -> None:
    """Refuse a table where someone holds two seats.

    Raises:
        IllegalAction: If a player is seated twice.
    """
    if len(set(seats)) != len(seats):
        raise IllegalAction("A player can take only one seat.")


def with_seating(state: S, seating: Seating) -> S:
    """`state` with `seating` (every game state is a frozen dataclass with the field)."""
    return cast(S, dataclasses.replace(cast(Any, state), seating=seating))


def apply_seat_action(
    state: S,
    player: PlayerId,
    action: Action,
    *,
    seats: Sequence[PlayerId],
    over: bool,
    resign: ResignRule[S],
) -> Step[S]:
    """Apply a seat action for `player`, whoever is to act.

    Raises:
        IllegalAction: For someone not seated, a game over, a resigner, or a seat action
            that does not fit (handing over a seat the AI plays, taking back one it does not).
    """
    if player not in seats:
        raise IllegalAction("You are not playing in this game.")
    if over:
        raise IllegalAction("The game is over.")
    seating = state.seating
    if player in seating.resigned:
        raise IllegalAction("You have resigned from this game.")
    if action == RESIGN:
        away = tuple(p for p in seating.away if p != player)
        return resign(with_seating(state, Seating((*seating.resigned, player), away)), player)
    if action == HAND_TO_AI:
        if player in seating.away:
            raise IllegalAction("The AI is already playing that seat.")
        handed = dataclasses.replace(seating, away=(*seating.away, player))
        return Step(with_seating(state, handed), (SeatHandedToAI(player),))
    if action == TAKE_SEAT:
        if player not in seating.away:
            raise IllegalAction("Your seat is yours: the AI is not playing it.")
        back = dataclasses.replace(seating, away=tuple(p for p in seating.away if p != player))
        return Step(with_seating(state, back), (SeatTakenBack(player),))
    raise IllegalAction("That move is not available right now.")


def ai_plays_on(state: S, player: PlayerId) -> Step[S]:
    """The resign rule of games that go on without the resigner: the AI plays their seat out
    (Hold Your Horses, Winner's Circle; Risk's house rule) and they finish last."""
    return Step(state, (Resigned(player),))


def resigned_last(outcome: Outcome, seating: Seating) -> Outcome:
    """A resignation is a loss: resigners finish below everyone who played on, a later
    resigner above an earlier one; the others keep their order (and shared places)."""
    if not seating.resigned:
        return outcome
    stayed = {p: place for p, place in outcome.places.items() if p not in seating.resigned}
    places = {p: 1 + sum(q < place for q in stayed.values()) for p, place in stayed.items()}
    for k, p in enumerate(reversed(seating.resigned)):
        places[p] = len(stayed) + 1 + k
    return dataclasses.replace(outcome, places=places)


def seats_left(seating: Seating, players: Sequence[PlayerId]) -> tuple[PlayerId, ...]:
    """`players` who have not resigned, in their order."""
    return tuple(p for p in players if p not in seating.resigned)
