"""The pyrisk comparison's Parlour side plays real games: `RandomGeneral` only makes moves
`ENGINE.apply` accepts (it raises otherwise) and its games reach world domination. Nothing
here is timed."""

from __future__ import annotations

import pytest

from bench.versus_pyrisk import ENV, load_pyrisk, parlour_game


@pytest.mark.parametrize("seed", ["a", "b", "c"])
def test_random_generals_play_a_game_to_its_end(seed: str) -> None:
    steps, turns = parlour_game(seed)
    assert turns > 3 and steps > 168  # past the claim set-up (42 claims, 63 armies × 2)


def test_without_a_checkout_pyrisk_is_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    assert load_pyrisk() is None
