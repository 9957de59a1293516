"""`bench.load`'s Risk members, through the engine alone over the labels the bot's board
offers (`bot.table.board.public_offers`): the choices declared in `bench.load.RISK` play
whole games and make nearly every move a step of an attack. Nothing here is timed."""

from __future__ import annotations

import asyncio
from collections import Counter
from random import Random

import pytest

from bench.common import seats
from bench.load import RISK, in_time
from bot.table.board import public_offers
from cogs.risk import RiskPresenter
from rules.core import setup_rng
from rules.risk import ENGINE
from tests.e2e.driver import first_of

ATTACK_STEPS = ("attack: a roll", "attack: source or target picked", "move in after a capture")


def moves_by_kind(seed: str) -> Counter[str]:
    """One two-member game played as the bench's members play it: its moves from the first
    offer of `RISK.played_to` on, by kind."""
    presenter = RiskPresenter()
    state = ENGINE.initial_state(seats(2), {}, setup_rng(seed))
    rng, measured, kinds = Random(seed), False, Counter[str]()
    while to_act := ENGINE.to_act(state):
        offers, _ = public_offers(ENGINE, presenter, state, to_act)
        labels = [look.label for _, look in offers]
        measured = measured or first_of(labels, (RISK.played_to or "",)) is not None
        label = first_of(labels, RISK.choices)
        assert label is not None, labels
        kinds[RISK.kind_of(label) if measured else "unmeasured"] += 1
        action = next(action for action, look in offers if look.label == label)
        state = ENGINE.apply(state, min(to_act), action, rng).state
    return kinds


@pytest.mark.parametrize("seed", ["a", "b"])
def test_risks_members_play_a_game_to_its_end_mostly_attacking(seed: str) -> None:
    kinds = moves_by_kind(seed)
    measured = kinds.total() - kinds["unmeasured"]
    assert kinds["attack: a roll"] > 0 and kinds["other"] == 0
    assert sum(kinds[kind] for kind in ATTACK_STEPS) >= 0.9 * measured, kinds


async def test_a_stalled_stretch_ends_the_bench_saying_where() -> None:
    with pytest.raises(SystemExit, match="opening took over 0 s"):
        async with in_time(0.01, "opening"):
            await asyncio.sleep(1)
