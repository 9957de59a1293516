"""The pyrisk comparison's Parlour side plays real games: `RandomGeneral` only makes moves
`ENGINE.apply` accepts (it raises otherwise) and its games reach world domination. Nothing
here is timed."""

from __future__ import annotations

from random import Random

import pytest

from bench.versus_pyrisk import ENV, RandomGeneral, load_pyrisk, parlour_game, parlour_losses
from rules.core import setup_rng
from rules.risk import ENGINE
from rules.risk.engine import TERRITORY_BONUS
from rules.risk.state import ArmiesPlaced, CardsTraded, Phase, TerritoryClaimed


@pytest.mark.parametrize("seed", ["a", "b", "c"])
def test_random_generals_play_a_game_to_its_end(seed: str) -> None:
    steps, turns = parlour_game(seed)
    assert turns > 3 and steps > 168  # past the claim set-up (42 claims, 63 armies × 2)


def test_a_games_battle_losses_are_the_armies_gone_from_the_board() -> None:
    """Every army that came onto the board (claims, set-up and reinforcement placings, a
    traded card's +2) is on it at the end of the game or was lost in a battle."""
    rng = Random("d")
    general = RandomGeneral(rng)
    state = ENGINE.initial_state((101, 202, 303), {"setup": "claim"}, setup_rng("d"))
    came = 0
    while to_act := ENGINE.to_act(state):
        player = min(to_act)
        step = ENGINE.apply(state, player, general.choose(state, player), rng)
        state = step.state
        for event in step.events:
            if isinstance(event, TerritoryClaimed):
                came += 1
            elif isinstance(event, ArmiesPlaced):
                came += event.count
            elif isinstance(event, CardsTraded) and event.bonus_territory:
                came += TERRITORY_BONUS
    assert state.phase is Phase.OVER
    assert parlour_losses("d") == came - sum(state.armies) > 0


def test_without_a_checkout_pyrisk_is_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    assert load_pyrisk() is None
