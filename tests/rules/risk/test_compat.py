"""Saved games survive engine upgrades: a game is its seed plus its action log, and its state
is stored as JSON with a version (the games: `saved_games.py`)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules.core import Action, setup_rng, step_rng
from rules.risk import ENGINE
from rules.risk.state import RiskState
from tests.rules.risk.saved_games import OLD_GAMES


@pytest.mark.parametrize("game", OLD_GAMES, ids=[g["seed"] for g in OLD_GAMES])
def test_an_old_game_log_replays_to_its_saved_states(game: dict[str, Any]) -> None:
    seed = game["seed"]
    state: RiskState = ENGINE.initial_state(game["seats"], game["options"], setup_rng(seed))
    saved = {int(n): data for n, data in game["states"].items()}
    for n, (player, verb, arg) in enumerate(game["log"], 1):
        state = ENGINE.apply(state, player, Action(verb, arg), step_rng(seed, n - 1)).state
        if n in saved:
            assert state == ENGINE.load(saved[n]), f"step {n}"
    assert max(saved) == len(game["log"]) and ENGINE.outcome(state) is not None


def test_a_stored_version_1_state_loads_as_version_2_with_nothing_chosen() -> None:
    stored = OLD_GAMES[0]["states"]["300"]
    assert stored["v"] == 1 and "bonus_pick" not in stored
    state = ENGINE.load(json.loads(json.dumps(stored)))
    assert state.v == 2 and state.bonus_pick == ""
    again = ENGINE.dump(state)
    assert again["v"] == 2 and {k: v for k, v in again.items() if k not in ("v", "bonus_pick")} == {
        k: v for k, v in stored.items() if k != "v"
    }
    assert ENGINE.load(again) == state
