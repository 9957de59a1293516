"""Every game registered has its test spec (`tests/games.py`), and no spec leaves a table out:
a game is never silently left unchecked by the per-game tests."""

from __future__ import annotations

import re
from dataclasses import fields, replace

import pytest

from rules.registry import ENGINES
from tests.games import TEST_SPECS, GameTestSpec, lists, missing


def test_every_registered_game_has_one_test_spec() -> None:
    without = sorted(set(ENGINES) - set(TEST_SPECS))
    unknown = sorted(set(TEST_SPECS) - set(ENGINES))
    assert not without, f"add a GameTestSpec to tests/games.py for {without}"
    assert not unknown, f"test specs of no registered game: {unknown}"
    assert set(TEST_SPECS) == set(ENGINES)


@pytest.mark.parametrize("game", TEST_SPECS)
def test_each_test_spec_is_complete(game: str) -> None:
    assert missing(game, TEST_SPECS[game]) == []


@pytest.mark.parametrize("table", lists(TEST_SPECS["risk"]))
def test_a_sixth_game_missing_a_table_is_named(table: str) -> None:
    """A sixth game copied from Risk's spec with one table left empty: `missing` names that
    table, and the rules page it has not written yet."""
    sixth = replace(TEST_SPECS["risk"], storm=replace(TEST_SPECS["risk"].storm, game="sixth"))
    sixth = replace(sixth, budgets=tuple(replace(b, game="sixth") for b in sixth.budgets))
    sixth = replace(sixth, **{table: type(getattr(sixth, table))()})
    named = missing("sixth", sixth)
    assert table in named
    page = "sixth.md"  # not written: the test names it
    assert f"docs/rules/{page}" in named and f"docs/rules/README.md's link to {page}" in named


def test_a_table_left_out_entirely_is_named_when_the_spec_is_built() -> None:
    given = {f.name: getattr(TEST_SPECS["risk"], f.name) for f in fields(GameTestSpec)}
    del given["phone"]
    with pytest.raises(TypeError, match=re.escape("'phone'")):
        GameTestSpec(**given)


def test_a_storm_or_budget_of_another_game_is_named() -> None:
    risk = TEST_SPECS["risk"]
    borrowed = replace(risk, budgets=TEST_SPECS["cock_and_bull"].budgets)
    assert missing("risk", borrowed) == ["storm/budgets of cock_and_bull"]
