"""The contracts of `rules/risk/_fast.py`: each speed-up does what its plain form does."""

from __future__ import annotations

import ast
from pathlib import Path
from random import Random

import pytest

from rules.core import PlayerId, setup_rng
from rules.risk import ENGINE, _fast, battle
from rules.risk.actions import Verb
from rules.risk.state import Phase, RiskState


@pytest.mark.parametrize("seed", range(20))
def test_a_battle_rolls_as_the_plain_roll_battle(seed: int) -> None:
    """Rule 1: the same dice and losses as `battle.roll_battle`, the generator left alike."""
    ours, theirs = Random(seed), Random(seed)
    for attack, defend in [(3, 2), (1, 1), (2, 2), (3, 1), (2, 1), (1, 2)] * 20:
        assert _fast.roll_battle(ours, attack, defend) == battle.roll_battle(theirs, attack, defend)
    assert ours.random() == theirs.random()


def test_the_globals_are_the_members() -> None:
    """Rule 2: each global is the enum member of its name."""
    for name in ("PLACE_AT", "ATTACK_FROM", "ASSAULT"):
        assert getattr(_fast, name) is Verb[name]
    for name in ("OVER", "DEFEND"):
        assert getattr(_fast, name) is Phase[name]


def plain_to_act(state: RiskState) -> frozenset[PlayerId]:
    """Who acts, as the rules say it: nobody after the end, the defender choosing dice, else
    the player whose turn it is."""
    if state.phase is Phase.OVER:
        return frozenset()
    if state.phase is Phase.DEFEND:
        return frozenset({state.owner(state.target)})
    return frozenset({state.players[state.current]})


@pytest.mark.parametrize("seed", range(4))
def test_to_act_answers_as_the_plain_rule(seed: int) -> None:
    """Rule 3: the engine's `to_act` is the fenced one, and it names the player the plain
    rule names at every step of seeded random games, the defender choosing dice included,
    until nobody once the game is over."""
    assert ENGINE.to_act is _fast.to_act
    seats = (101, 202, 303)
    options = {"defender_chooses": True, "turn_limit": 6}
    state = ENGINE.initial_state(seats, options, setup_rng(str(seed)))
    picker, phases = Random(seed), set()
    while acting := ENGINE.to_act(state):
        assert acting == plain_to_act(state)
        phases.add(state.phase)
        player = min(acting)
        action = picker.choice(list(ENGINE.legal_actions(state, player)))
        state = ENGINE.apply(state, player, action, picker).state
    assert state.phase is Phase.OVER and plain_to_act(state) == frozenset()
    assert Phase.DEFEND in phases


def test_outside_the_fence_only_the_roll_is_taken_from_it() -> None:
    """Rule 2: the rule modules write `Phase.X` and `Verb.X`; of `_fast.py` they use only
    `roll_battle` and `to_act` (functions with contracts of their own), never its enum
    globals."""
    taken: dict[str, set[str]] = {}
    for path in Path(_fast.__file__).parent.glob("*.py"):
        if path.name.startswith("_fast"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module == "rules.risk._fast":
                taken.setdefault(path.name, set()).update(a.name for a in node.names)
    assert taken == {"attack.py": {"roll_battle"}, "engine.py": {"to_act"}}
