"""One vocabulary per game (`rules/<game>/actions.py`): every action an engine offers uses a
verb of its game's `Verb`, every verb but its coarse ones (`COARSE_VERBS`, a whole decision in
one action, never offered) is offered somewhere in the recorded games, and every
action fits the `<verb>[:<arg>]` form that custom ids and action logs carry.

The recorded games are the golden playthroughs, played by the AI, and for Risk also two games
saved by an older engine (`tests/rules/risk/saved_games.py`): played partly at random, they
reach the sub-steps the AI leaves to Auto (choosing a territory, then how many to place)."""

from __future__ import annotations

import enum
import importlib
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import pytest

from rules.core import Action, PlayerId, setup_rng, step_rng
from rules.registry import ENGINES
from tests.rules.golden import parse_action, read
from tests.rules.risk.saved_games import OLD_GAMES


def vocabulary(game: str) -> ModuleType:
    """The game's `rules/<game>/actions.py`."""
    return importlib.import_module(f"rules.{game}.actions")


# The grammar of bot/ui/custom_ids.py: a verb, and an argument of these characters.
VERB = re.compile(r"[a-z_]+")
ARG = re.compile(r"[A-Za-z0-9_.,-]*")


@dataclass(frozen=True)
class Recorded:
    """A recorded game: how it began, and who did what at each step."""

    seed: str
    seats: tuple[PlayerId, ...]
    options: Mapping[str, Any]
    moves: tuple[tuple[PlayerId, Action], ...]


def recorded_games(game: str) -> Iterator[Recorded]:
    """The game's golden playthroughs, then (Risk) its saved games."""
    for p in read(game):
        moves = tuple((s.player, parse_action(s.action)) for s in p.steps)
        yield Recorded(p.seed, p.seats, p.options, moves)
    if game == "risk":
        for g in OLD_GAMES:
            moves = tuple((player, Action(verb, arg)) for player, verb, arg in g["log"])
            yield Recorded(g["seed"], tuple(g["seats"]), g["options"], moves)


@pytest.mark.parametrize("game", ENGINES)
def test_every_offered_action_speaks_its_games_vocabulary(game: str) -> None:
    engine = ENGINES[game]
    verbs: type[enum.StrEnum] = vocabulary(game).Verb
    offered: set[str] = set()
    for recorded in recorded_games(game):
        state = engine.initial_state(recorded.seats, recorded.options, setup_rng(recorded.seed))
        for n, (mover, move) in enumerate(recorded.moves):
            for player in engine.to_act(state):
                for action in engine.legal_actions(state, player):
                    assert action.verb in verbs.__members__.values(), action
                    assert VERB.fullmatch(action.verb) and ARG.fullmatch(action.arg), action
                    offered.add(action.verb)
            state = engine.apply(state, mover, move, step_rng(recorded.seed, n)).state
    # A game's coarse verbs (a whole decision in one action) are accepted, never offered.
    assert offered == set(verbs) - getattr(vocabulary(game), "COARSE_VERBS", frozenset())
