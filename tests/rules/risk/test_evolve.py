"""`evolve` and `evolved`, the engine's copy of a state with some fields changed: the same as
`dataclasses.replace`, for a new state and for one loaded from an earlier version's JSON."""

from __future__ import annotations

import dataclasses
import json

import pytest

from rules.core import setup_rng
from rules.risk import ENGINE
from rules.risk.state import Phase, RiskState, evolve, evolved
from tests.rules.risk.saved_games import OLD_GAMES


def _states() -> list[RiskState]:
    new = ENGINE.initial_state((1, 2, 3), {}, setup_rng("evolve"))
    loaded = ENGINE.load(json.loads(json.dumps(OLD_GAMES[0]["states"]["300"])))  # version 1
    return [new, loaded]


@pytest.mark.parametrize("state", _states(), ids=["new", "loaded"])
def test_evolve_is_replace(state: RiskState) -> None:
    changes = {"phase": Phase.ATTACK, "source": "alaska", "armies": (7,) * len(state.armies)}
    before = ENGINE.dump(state)
    for copy in (evolve(state, **changes), evolved(state, changes)):
        assert copy == dataclasses.replace(state, **changes)  # type: ignore[arg-type]
        assert copy.source == "alaska" and copy.players == state.players
    assert ENGINE.dump(state) == before  # the original is untouched


@pytest.mark.parametrize("state", _states(), ids=["new", "loaded"])
def test_a_name_that_is_not_a_field_is_refused(state: RiskState) -> None:
    with pytest.raises(TypeError, match="sourse"):
        evolve(state, sourse="alaska")
    with pytest.raises(TypeError, match="colour"):
        evolved(state, {"source": "alaska", "colour": "red"})
