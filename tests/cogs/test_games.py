"""Each game is declared once on each side: its engine in `rules.registry`, its `GameSpec`
(engine, presenter and cog, ending its cog module) in `cogs.games`; the two list the same
games, and the bot loads them all."""

from __future__ import annotations

import typing

import pytest

from bot.client import COGS
from cogs.cock_and_bull import CockAndBullCog, CockAndBullPresenter
from cogs.game_cog import GameSpec
from cogs.games import GAMES
from cogs.risk import RiskPresenter
from rules.cock_and_bull import ENGINE as COCK_AND_BULL
from rules.engine_base import EngineBase
from rules.registry import ENGINES


def test_every_registered_engine_has_its_presenter_and_cog_once() -> None:
    names = [game.name for game in GAMES]
    assert sorted(names) == sorted(ENGINES)


def test_each_game_is_played_by_its_own_engine() -> None:
    for game in GAMES:
        assert game.engine is ENGINES[game.name]
        assert game.presenter.engine is game.engine and game.cog.presenter is game.presenter
        assert (game.presenter.game, game.presenter.title) == (game.name, game.engine.title)


def test_a_spec_naming_another_games_presenter_or_cog_fails_at_once() -> None:
    with pytest.raises(ValueError, match="RiskPresenter does not show cock_and_bull"):
        GameSpec(COCK_AND_BULL, RiskPresenter, CockAndBullCog)
    risk = ENGINES["risk"]
    with pytest.raises(ValueError, match="CockAndBullCog is not risk's cog"):
        GameSpec(risk, RiskPresenter, CockAndBullCog)
    assert GameSpec(COCK_AND_BULL, CockAndBullPresenter, CockAndBullCog).name == "cock_and_bull"


def test_each_game_has_new_and_rules_then_its_own_commands() -> None:
    for game in GAMES:
        names = [command.name for command in game.cog.__cog_app_commands__]
        assert names[:2] == ["new", "rules"], game.name
    (risk,) = [game for game in GAMES if game.name == "risk"]
    assert [c.name for c in risk.cog.__cog_app_commands__] == ["new", "rules", "attack"]


def test_each_presenter_is_typed_by_its_engines_state() -> None:
    """`Presenter[S]`: the state its hooks take is the one its engine builds."""
    for game in GAMES:
        (base,) = [b for b in game.presenter.__orig_bases__ if typing.get_args(b)]
        (state,) = typing.get_args(base)
        assert isinstance(game.engine, EngineBase), game.name
        assert state is game.engine.state_type, game.name


def test_the_bot_loads_the_games() -> None:
    assert "cogs.games" in COGS
