"""Building Winner's Circle positions for tests, written the way the rulebook talks.

Horses are numbers 1–7 (their gates); positions are given as track spaces (1–36) of the
race's lap, or as progress (start space + spaces run) where a horse is past space 36.
"""

from __future__ import annotations

from dataclasses import replace
from random import Random
from typing import Any

from rules.core import Event, setup_rng, step_rng
from rules.winners_circle import ENGINE
from rules.winners_circle.cards import HORSE_CARDS, HORSES, Card, Symbol
from rules.winners_circle.state import TRACK, Bet, Phase, WinnersCircleState

ANA, BOB, CAT, DAN = 1001, 1002, 1003, -1  # seats 0-3; Dan is a bot seat
HEAD, CAP, SADDLE, SHOE = Symbol.HEAD, Symbol.CAP, Symbol.SADDLE, Symbol.SHOE
STEADY = 1  # horse card 1: 5/5/5/5
RNG = Random(0)


def new_game(players: tuple[int, ...] = (ANA, BOB, CAT), **options: Any) -> WinnersCircleState:
    return ENGINE.initial_state(players, options, setup_rng("scenario"))


def lap(space: int) -> int:
    """Progress of a horse standing on `space` after crossing the start line (spaces 1–36
    of the race's lap: progress 37–72)."""
    return space + TRACK


def racing(
    progress: dict[int, int] | None = None,
    *,
    cards: dict[int, int] | None = None,
    face_down: tuple[int, ...] = (),
    finished: tuple[int, ...] = (),
    bets: tuple[Bet, ...] = (),
    players: tuple[int, ...] = (ANA, BOB, CAT),
    current: int = 0,
    race: int = 1,
    money: tuple[int, ...] | None = None,
    **options: Any,
) -> WinnersCircleState:
    """A race under way with `players[current]` to roll. Horses not in `progress` stay on
    their start spaces; `cards` gives horse -> card id (default: the steady 5/5/5/5 card)."""
    state = new_game(players, **options)
    at = list(state.progress)
    for horse, value in (progress or {}).items():
        at[horse - 1] = value
    gates = tuple((cards or {}).get(h, STEADY) for h in HORSES)
    return replace(
        state,
        phase=Phase.ROLL,
        race=race,
        current=current,
        first_bettor=current,
        gates=gates,
        progress=tuple(at),
        face_up=tuple(h not in face_down and h not in finished for h in HORSES),
        finished=finished,
        bets=bets,
        money=money if money is not None else state.money,
    )


def card_with(symbol: Symbol, value: int) -> int:
    """The id of a horse card moving `value` spaces on `symbol`."""
    found: Card = next(c for c in HORSE_CARDS if c.move(symbol) == value)
    return found.id


def of_type(events: tuple[Event, ...], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def the(events: tuple[Event, ...], kind: type) -> Any:
    (found,) = of_type(events, kind)
    return found


def random_game(
    players: tuple[int, ...], seed: str, *, ai_seats: tuple[int, ...] = (), **options: Any
) -> list[tuple[WinnersCircleState, tuple[Event, ...]]]:
    """A whole game with random legal choices (or the AI's, for `ai_seats`): every state
    with the events that led to it (none for the first)."""
    state = ENGINE.initial_state(players, options, setup_rng(seed))
    picker = Random(f"{seed}:picker")
    played: list[tuple[WinnersCircleState, tuple[Event, ...]]] = [(state, ())]
    for n in range(2000):
        acting = ENGINE.to_act(state)
        if not acting:
            return played
        (player,) = acting
        if player in ai_seats:
            action = ENGINE.choose(state, player, Random(n))
        else:
            action = picker.choice(list(ENGINE.legal_actions(state, player)))
        step = ENGINE.apply(state, player, action, step_rng(seed, n))
        state = step.state
        played.append((state, step.events))
    raise AssertionError(f"no end after 2000 steps (seed {seed})")
