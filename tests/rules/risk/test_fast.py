"""The contracts of `rules/risk/_fast.py`: each speed-up does what its plain form does."""

from __future__ import annotations

import ast
from pathlib import Path
from random import Random

import pytest

from rules.risk import _fast, battle
from rules.risk.actions import Verb


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


def test_outside_the_fence_only_the_roll_is_taken_from_it() -> None:
    """Rule 2: the rule modules write `Phase.X` and `Verb.X`; of `_fast.py` they use only
    `roll_battle` (a function with its own contract), never its enum globals."""
    taken: dict[str, set[str]] = {}
    for path in Path(_fast.__file__).parent.glob("*.py"):
        if path.name.startswith("_fast"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module == "rules.risk._fast":
                taken.setdefault(path.name, set()).update(a.name for a in node.names)
    assert taken == {"attack.py": {"roll_battle"}}
