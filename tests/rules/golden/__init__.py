"""Golden playthroughs: recorded games that every later version of the rules must replay.

In the manner of OpenSpiel's playthroughs, each game keeps, per option set, a few games played
by its AI with the engine's own seeded randomness (`setup_rng`, `step_rng`): the seed, the
seats, the options, and for every step the player, the action, a digest of the state after
it and the transcript of its events; then the digest of the final state. `test_golden.py`
replays every recorded game and fails at the first step whose events or state differ, so a
change of the rules code cannot silently alter a stored game (a saved game is replayed the
same way: its seed and its action log).

An intended rules change re-records in the same commit (`python -m tests.rules.golden
record [game ...]`) and, when the state's shape changed, bumps the state version with an
upgrade for saved games.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from random import Random
from typing import Any

from rules.codec import to_json
from rules.core import Action, Engine, Event, PlayerId, setup_rng, step_rng

HERE = Path(__file__).parent
MAX_STEPS = 5000
LONG_VALUE = 200  # characters: a longer field (a shot's paths) is kept as its digest


@dataclass(frozen=True)
class Sample:
    """What to record for one option set: a name for it, the options, and one game per
    table size in `tables` and per seed. With `shortest_of` > 1 each game is the shortest of
    that many seeds: a match of five games is long, and its files would be."""

    name: str
    options: Mapping[str, Any]
    tables: Sequence[int]
    seeds: int = 1
    shortest_of: int = 1


@dataclass(frozen=True)
class StepRecord:
    """One recorded step: who did what, the state's digest after it, what happened."""

    player: PlayerId
    action: str  # `<verb>[:<arg>]`, as in custom ids
    state: str
    events: tuple[str, ...]


@dataclass(frozen=True)
class Playthrough:
    """One recorded game."""

    name: str
    seed: str
    seats: tuple[PlayerId, ...]
    options: Mapping[str, Any]
    initial: str
    steps: tuple[StepRecord, ...]
    final: str


# --- text forms ----------------------------------------------------------------------------


def action_text(action: Action) -> str:
    """`<verb>[:<arg>]`, the form custom ids and the action log carry."""
    return f"{action.verb}:{action.arg}" if action.arg else action.verb


def parse_action(text: str) -> Action:
    """The inverse of `action_text`."""
    verb, _, arg = text.partition(":")
    return Action(verb, arg)


def _plain(value: Any) -> str:
    """A JSON-safe value written without quotes: `[cock,bull]`, `{angle:0,lane:left}`."""
    if isinstance(value, list):
        return "[" + ",".join(_plain(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"{k}:{_plain(v)}" for k, v in value.items()) + "}"
    return value if isinstance(value, str) else json.dumps(value)


def _digest(text: str, length: int) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:length]


def event_text(event: Event) -> str:
    """`Name field=value ...`; a value longer than `LONG_VALUE` as `#<digest>`."""
    parts = [type(event).__name__]
    for f in fields(event):
        value = getattr(event, f.name)
        if f.name == "visible_to" and value is None:
            continue
        text = _plain(to_json(value))
        parts.append(f"{f.name}={'#' + _digest(text, 16) if len(text) > LONG_VALUE else text}")
    return " ".join(parts)


def state_digest(engine: Engine[Any], state: Any, length: int = 12) -> str:
    """A digest of the dumped state (the form a saved game takes)."""
    return _digest(json.dumps(engine.dump(state), sort_keys=True, separators=(",", ":")), length)


def seating(count: int) -> tuple[PlayerId, ...]:
    """User-like ids and negative bot ids, alternating: the table the recordings use."""
    return tuple(-(n + 1) if n % 2 else 1001 + n for n in range(count))


# --- recording and replaying ---------------------------------------------------------------


def record(
    engine: Engine[Any], name: str, seed: str, seats: Sequence[PlayerId], options: Mapping[str, Any]
) -> Playthrough:
    """An AI-vs-AI game: the lowest player id acts when several may."""
    state = engine.initial_state(seats, options, setup_rng(seed))
    initial = state_digest(engine, state)
    steps: list[StepRecord] = []
    for n in range(MAX_STEPS):
        acting = engine.to_act(state)
        if not acting:
            break
        player = min(acting)
        action = engine.choose(state, player, Random(f"{seed}:ai:{n}"))
        step = engine.apply(state, player, action, step_rng(seed, n))
        state = step.state
        steps.append(
            StepRecord(
                player,
                action_text(action),
                state_digest(engine, state),
                tuple(event_text(e) for e in step.events),
            )
        )
    else:
        raise RuntimeError(f"{engine.name} {name}: no end after {MAX_STEPS} steps")
    final = state_digest(engine, state, 64)
    return Playthrough(name, seed, tuple(seats), dict(options), initial, tuple(steps), final)


class Diverged(AssertionError):
    """A replay that no longer matches its recording."""


def replay(engine: Engine[Any], game: Playthrough) -> None:
    """Replay `game`'s actions; raise `Diverged` at the first difference, saying where."""
    where = f"{engine.name} {game.name} (seed {game.seed!r})"
    state = engine.initial_state(game.seats, game.options, setup_rng(game.seed))
    if state_digest(engine, state) != game.initial:
        raise Diverged(f"{where}: the initial state differs")
    for n, recorded in enumerate(game.steps):
        action = parse_action(recorded.action)
        try:
            step = engine.apply(state, recorded.player, action, step_rng(game.seed, n))
        except Exception as e:  # an IllegalAction now, or a crash: either way a divergence
            message = f"{where}, step {n}: {recorded.action} by {recorded.player}: {e!r}"
            raise Diverged(message) from e
        state = step.state
        events = tuple(event_text(e) for e in step.events)
        if events != recorded.events:
            raise Diverged(
                f"{where}, step {n} ({recorded.action} by {recorded.player}): other events\n"
                f"  recorded: {list(recorded.events)}\n  replayed: {list(events)}"
            )
        if state_digest(engine, state) != recorded.state:
            raise Diverged(f"{where}, step {n} ({recorded.action}): the state after it differs")
    if engine.to_act(state):
        raise Diverged(f"{where}: the game is not over after its {len(game.steps)} steps")
    if state_digest(engine, state, 64) != game.final:
        raise Diverged(f"{where}: the final state differs")


# --- files ---------------------------------------------------------------------------------


def path_for(game: str) -> Path:
    return HERE / f"{game}.json"


def write(game: str, playthroughs: Sequence[Playthrough]) -> Path:
    """One JSON file per game, one step per line so that a re-recording diffs readably."""
    lines = ["{", f'"game": {json.dumps(game)},', '"playthroughs": [']
    for i, p in enumerate(playthroughs):
        head = {
            "name": p.name,
            "seed": p.seed,
            "seats": list(p.seats),
            "options": dict(p.options),
            "initial": p.initial,
            "final": p.final,
        }
        lines.append(json.dumps(head, ensure_ascii=False)[:-1] + ', "steps": [')
        for j, s in enumerate(p.steps):
            row = json.dumps([s.player, s.action, s.state, list(s.events)], ensure_ascii=False)
            lines.append(row + ("," if j < len(p.steps) - 1 else ""))
        lines.append("]}" + ("," if i < len(playthroughs) - 1 else ""))
    lines += ["]", "}", ""]
    path = path_for(game)
    path.write_text("\n".join(lines))
    return path


def read(game: str) -> list[Playthrough]:
    data = json.loads(path_for(game).read_text())
    return [
        Playthrough(
            name=p["name"],
            seed=p["seed"],
            seats=tuple(p["seats"]),
            options=p["options"],
            initial=p["initial"],
            steps=tuple(StepRecord(s[0], s[1], s[2], tuple(s[3])) for s in p["steps"]),
            final=p["final"],
        )
        for p in data["playthroughs"]
    ]
