"""The contracts of `rules/risk/_fast.py`: each speed-up does what its plain form does."""

from __future__ import annotations

from random import Random

import pytest

from rules.risk import _fast, battle
from rules.risk.actions import Verb
from rules.risk.state import Phase


@pytest.mark.parametrize("seed", range(20))
def test_a_battle_rolls_as_the_plain_roll_battle(seed: int) -> None:
    """Rule 1: the same dice and losses as `battle.roll_battle`, the generator left alike."""
    ours, theirs = Random(seed), Random(seed)
    for attack, defend in [(3, 2), (1, 1), (2, 2), (3, 1), (2, 1), (1, 2)] * 20:
        assert _fast.roll_battle(ours, attack, defend) == battle.roll_battle(theirs, attack, defend)
    assert ours.random() == theirs.random()


def test_the_globals_are_the_members() -> None:
    """Rule 2: each global is the enum member of its name."""
    for name in ("OVER", "DEFEND", "ATTACK", "MOVE_IN", "REINFORCE", "SETUP_PLACE"):
        assert getattr(_fast, name) is Phase[name]
    for name in ("PLACE_AT", "ATTACK_FROM", "ASSAULT"):
        assert getattr(_fast, name) is Verb[name]
