"""The conformance suite: what every rules engine promises.

The promises are listed in docs/ARCHITECTURE.md, "The engine protocol". The suite is
parametrised over `rules.registry.ENGINES`, so a new game is checked as soon as it is
registered. Nothing here knows any game's rules; the engines play with their default options,
except where `PLAYOUTS` shortens a game random play would make too long for the suite.

- Random playouts (a player from `to_act`, a uniformly random legal action, the engine's
  randomness from `step_rng(seed, n)`) end within `MAX_STEPS`.
- `load(dump(s)) == s` at every step, through real JSON text, and the dump carries "v".
- The same seed and the same choices give the same events and the same states.
- `to_act(s)` is empty exactly when `outcome(s)` is set; the outcome places every seat.
- A player outside `to_act` (a seated one or an outsider) always gets `IllegalAction`; every
  action in `legal_actions` applies; an action not in `legal_actions` raises `IllegalAction`.
- `validate_options` accepts a table size exactly when `initial_state` does.
- The AI (`choose`) always returns a legal action, and AI-vs-AI games end.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any

import pytest

from rules.core import (
    Action,
    Engine,
    Event,
    IllegalAction,
    Outcome,
    PlayerId,
    Step,
    setup_rng,
    step_rng,
)
from rules.registry import ENGINES

MAX_STEPS = 5000
# The every-step checks (dump/load through JSON, every action tried) cost ~10x a plain step,
# so they run on fewer seeds; the plain playouts round-trip a sample of their states.
PLAIN_SEEDS = 200  # per engine
ROUND_TRIP_EVERY = 10  # steps, in the plain playouts
FULL_CHECK_EXAMPLES = 30  # per engine, every check at every step
AI_SEEDS = 40

ENGINE_LIST: list[Engine[Any]] = list(ENGINES.values())
engines = pytest.mark.parametrize("engine", ENGINE_LIST, ids=[e.name for e in ENGINE_LIST])

BOGUS = Action("no-such-verb", "no-such-arg")


@dataclass(frozen=True)
class PlayoutSettings:
    """How the random playouts play a game that random play would make too long: house
    options that shorten it, and the share of the default seeds its costlier steps get, so
    the suite stays within minutes on 2 cores."""

    options: Mapping[str, Any] = field(default_factory=dict)
    seed_share: float = 1.0


PLAYOUTS: dict[str, PlayoutSettings] = {
    # Two races meet every rule of a race change, at 2/5 of the cost of a full game.
    "hold_your_horses": PlayoutSettings({"races": 2}),
    # A game is ~300 steps (bets, then a roll and a move per turn).
    "winners_circle": PlayoutSettings(seed_share=0.25),
    # Random aiming would rarely reach 51: one frame; and every shot is a physics run.
    "horse_collar": PlayoutSettings({"frames": 1}, seed_share=0.2),
    # Random play rarely conquers the world: the playouts stop after a round.
    "risk": PlayoutSettings({"turn_limit": 1}, seed_share=0.25),
}


def playout_settings(engine: Engine[Any]) -> PlayoutSettings:
    return PLAYOUTS.get(engine.name, PlayoutSettings())


# --- seating ----------------------------------------------------------------------------------


def seat_counts(engine: Engine[Any]) -> list[int]:
    """The smallest and largest tables the playouts' options allow, and one in between (not
    every count need be valid: Horse Collar's sides are 1, 2 or 4 players)."""
    valid = [
        count
        for count in range(engine.min_players, engine.max_players + 1)
        if accepts(engine, playout_settings(engine).options, count)
    ]
    return sorted({valid[0], valid[len(valid) // 2], valid[-1]})


def accepts(engine: Engine[Any], options: Mapping[str, Any], players: int) -> bool:
    try:
        engine.validate_options(options, players)
    except IllegalAction:
        return False
    return True


def seating(count: int, style: str) -> tuple[PlayerId, ...]:
    """Discord-like user ids, negative bot ids, or a mix (bot seats get negative ids)."""
    humans = [1001 + i for i in range(count)]
    bots = [-1 - i for i in range(count)]
    if style == "humans":
        return tuple(humans)
    if style == "bots":
        return tuple(bots)
    return tuple(bots[i] if i % 2 else humans[i] for i in range(count))


def outsiders(seats: Sequence[PlayerId]) -> tuple[PlayerId, ...]:
    """A user id and a bot id that are not at the table."""
    return (max(abs(p) for p in seats) + 7, -max(abs(p) for p in seats) - 7)


def tables(engine: Engine[Any]) -> list[tuple[PlayerId, ...]]:
    return [seating(n, style) for n in seat_counts(engine) for style in ("humans", "bots", "mix")]


# --- playouts ---------------------------------------------------------------------------------


@dataclass
class Playout:
    seats: tuple[PlayerId, ...]
    states: list[Any]  # states[n] is the state before step n; the last one is the end
    choices: list[tuple[PlayerId, Action]]
    events: list[tuple[Event, ...]]


def start(engine: Engine[Any], seats: Sequence[PlayerId], seed: str) -> Any:
    return engine.initial_state(seats, playout_settings(engine).options, setup_rng(seed))


def seed_count(engine: Engine[Any], default: int) -> int:
    """A share of the default seeds for a game whose steps are costly (physics, big maps)."""
    return max(1, round(default * playout_settings(engine).seed_share))


def random_playout(
    engine: Engine[Any], seats: Sequence[PlayerId], seed: str, *, ai: bool = False
) -> Playout:
    """Play to the end with random (or AI) choices; fail if it takes more than MAX_STEPS."""
    picker = Random(f"{seed}:picker")
    state = start(engine, seats, seed)
    playout = Playout(tuple(seats), [state], [], [])
    for n in range(MAX_STEPS):
        acting = engine.to_act(state)
        if not acting:
            return playout
        player = picker.choice(sorted(acting))
        if ai:
            action = engine.choose(state, player, Random(f"{seed}:ai:{n}"))
            assert action in engine.legal_actions(state, player), (state, player, action)
        else:
            action = picker.choice(list(engine.legal_actions(state, player)))
        step = engine.apply(state, player, action, step_rng(seed, n))
        state = step.state
        playout.states.append(state)
        playout.choices.append((player, action))
        playout.events.append(step.events)
    pytest.fail(f"{engine.name} seed {seed!r}: no end after {MAX_STEPS} steps")


def replay(engine: Engine[Any], playout: Playout, seed: str) -> Playout:
    """The same seed and the same choices, applied again from scratch."""
    state = start(engine, playout.seats, seed)
    again = Playout(playout.seats, [state], [], [])
    for n, (player, action) in enumerate(playout.choices):
        step = engine.apply(state, player, action, step_rng(seed, n))
        state = step.state
        again.states.append(state)
        again.choices.append((player, action))
        again.events.append(step.events)
    return again


# --- the checks -------------------------------------------------------------------------------


def check_outcome(engine: Engine[Any], state: Any, seats: Sequence[PlayerId]) -> None:
    acting = engine.to_act(state)
    outcome = engine.outcome(state)
    assert (not acting) == (outcome is not None), (acting, outcome)
    assert acting <= frozenset(seats), acting
    if outcome is None:
        return
    assert isinstance(outcome, Outcome)
    assert set(outcome.places) == set(seats)
    assert all(isinstance(place, int) and place >= 1 for place in outcome.places.values())
    assert 1 in outcome.places.values()
    assert set(outcome.scores) == set(seats)
    assert outcome.winners <= frozenset(seats) and outcome.winners


def check_round_trip(engine: Engine[Any], state: Any) -> None:
    data = engine.dump(state)
    assert isinstance(data, dict) and "v" in data
    text = json.dumps(data, allow_nan=False)  # JSON-safe: no tuples-as-keys, enums, NaN...
    assert engine.load(json.loads(text)) == state
    assert engine.load(data) == state
    assert json.dumps(engine.dump(engine.load(json.loads(text)))) == text  # dump is stable


def refuses(engine: Engine[Any], state: Any, player: PlayerId, action: Action, rng: Any) -> bool:
    """Whether `apply` refuses the action with `IllegalAction` (any other error propagates, as
    under `pytest.raises`, which costs more than the refusal itself at this count)."""
    try:
        engine.apply(state, player, action, rng)
    except IllegalAction:
        return True
    return False


def check_actions(
    engine: Engine[Any], state: Any, seats: Sequence[PlayerId], seed: str, n: int, seen: set[Action]
) -> None:
    """Who may act, what they may do, and that everything else is refused."""
    acting = engine.to_act(state)
    refused_rng = step_rng(seed, n)  # a refusal draws nothing: one generator serves them all
    for player in (*seats, *outsiders(seats)):
        if player in acting:
            continue
        assert not engine.legal_actions(state, player), player
        for action in (*sorted(seen, key=repr), BOGUS):
            assert refuses(engine, state, player, action, refused_rng), (player, action)
    for player in acting:
        legal = list(engine.legal_actions(state, player))
        assert legal, f"{player} is to act but has nothing to do"
        assert all(isinstance(a, Action) for a in legal)
        seen.update(legal)
        for action in legal:
            step = engine.apply(state, player, action, step_rng(seed, n))
            assert isinstance(step, Step)
            assert all(isinstance(e, Event) for e in step.events)
            # Deterministic: the same state, action and step rng give the same result.
            assert engine.apply(state, player, action, step_rng(seed, n)) == step
        offered = set(legal)
        wrong = [a for a in seen if a not in offered]
        wrong += [BOGUS, *(Action(a.verb, a.arg + "?") for a in legal)]
        for action in wrong:
            assert refuses(engine, state, player, action, refused_rng), (player, action)
        ai = engine.choose(state, player, Random(f"{seed}:ai:{n}"))
        assert ai in legal, (player, ai, legal)


# --- the tests --------------------------------------------------------------------------------


@engines
def test_every_step_of_a_random_playout_keeps_the_promises(engine: Engine[Any]) -> None:
    for i in range(seed_count(engine, FULL_CHECK_EXAMPLES)):
        seed = f"full-{i}"
        seats = tables(engine)[i % len(tables(engine))]
        playout = random_playout(engine, seats, seed)
        seen: set[Action] = set()
        for n, state in enumerate(playout.states):
            check_outcome(engine, state, seats)
            check_round_trip(engine, state)
            check_actions(engine, state, seats, seed, n, seen)
        assert engine.outcome(playout.states[-1]) is not None


@engines
def test_random_playouts_end_and_replay_identically(engine: Engine[Any]) -> None:
    for i in range(seed_count(engine, PLAIN_SEEDS)):
        seed = f"plain-{i}"
        seats = tables(engine)[i % len(tables(engine))]
        playout = random_playout(engine, seats, seed)
        for n, state in enumerate(playout.states):
            check_outcome(engine, state, seats)
            if n % ROUND_TRIP_EVERY == 0:
                check_round_trip(engine, state)
        final = playout.states[-1]
        check_round_trip(engine, final)
        again = replay(engine, playout, seed)
        assert again.events == playout.events
        assert again.states[-1] == final


@engines
def test_different_seeds_give_different_games(engine: Engine[Any]) -> None:
    """Chance really comes from the seed (a constant rng would pass the replay test)."""
    seats = tables(engine)[0]
    event_logs = {repr(random_playout(engine, seats, f"vary-{i}").events) for i in range(10)}
    assert len(event_logs) > 1


@engines
def test_ai_always_chooses_a_legal_action_and_ai_games_end(engine: Engine[Any]) -> None:
    for i in range(seed_count(engine, AI_SEEDS)):
        seed = f"ai-{i}"
        seats = tables(engine)[i % len(tables(engine))]
        playout = random_playout(engine, seats, seed, ai=True)  # checks legality each step
        check_outcome(engine, playout.states[-1], seats)


@engines
def test_a_finished_game_refuses_everyone(engine: Engine[Any]) -> None:
    seats = tables(engine)[0]
    final = random_playout(engine, seats, "finished").states[-1]
    assert engine.to_act(final) == frozenset()
    for player in (*seats, *outsiders(seats)):
        assert not engine.legal_actions(final, player)
        with pytest.raises(IllegalAction):
            engine.apply(final, player, BOGUS, step_rng("finished", 0))


@engines
def test_the_initial_state_is_valid_for_every_table_size(engine: Engine[Any]) -> None:
    for seats in tables(engine):
        state = start(engine, seats, "initial")
        check_outcome(engine, state, seats)
        assert engine.to_act(state), "a new game has someone to act"
        check_round_trip(engine, state)
        assert start(engine, seats, "initial") == state  # setup is deterministic


@engines
def test_options_are_validated_for_exactly_the_tables_a_game_can_start_with(
    engine: Engine[Any],
) -> None:
    options = playout_settings(engine).options
    engine.validate_options(options)  # some table suits them
    for count in range(engine.min_players, engine.max_players + 1):
        try:
            start(engine, seating(count, "humans"), "validate")
            started = True
        except IllegalAction:
            started = False
        assert accepts(engine, options, count) == started, count


@engines
def test_a_table_of_the_wrong_size_is_refused(engine: Engine[Any]) -> None:
    too_many = seating(engine.max_players + 1, "humans")
    with pytest.raises(IllegalAction):
        start(engine, too_many, "size")
    if engine.min_players > 1:
        with pytest.raises(IllegalAction):
            start(engine, seating(engine.min_players - 1, "humans"), "size")


@engines
def test_a_player_cannot_take_two_seats(engine: Engine[Any]) -> None:
    if engine.max_players < 2:
        pytest.skip("a one-seat game")
    seats = list(seating(max(engine.min_players, 2), "humans"))
    seats[-1] = seats[0]
    with pytest.raises(IllegalAction):
        start(engine, seats, "twice")


@engines
def test_a_stored_state_of_another_version_is_refused_not_misread(engine: Engine[Any]) -> None:
    data = engine.dump(start(engine, tables(engine)[0], "version"))
    with pytest.raises(ValueError, match=f"unknown {engine.title} state version"):
        engine.load({**data, "v": data["v"] + 1})
