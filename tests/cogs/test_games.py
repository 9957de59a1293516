"""Each game is declared once on each side: its engine in `rules.registry`, its presenter and
cog in `cogs.games`; the two list the same games, and the bot loads them all."""

from __future__ import annotations

import typing

from bot.client import COGS
from cogs.games import GAMES
from rules.engine_base import EngineBase
from rules.registry import ENGINES


def test_every_registered_engine_has_its_presenter_and_cog_once() -> None:
    names = [game.name for game in GAMES]
    assert sorted(names) == sorted(ENGINES)


def test_each_game_is_played_by_its_own_engine() -> None:
    for game in GAMES:
        assert game.engine.name == game.name
        assert game.presenter.title == game.engine.title


def test_each_presenter_is_typed_by_its_engines_state() -> None:
    """`Presenter[S]`: the state its hooks take is the one its engine builds."""
    for game in GAMES:
        (base,) = [b for b in game.presenter.__orig_bases__ if typing.get_args(b)]
        (state,) = typing.get_args(base)
        assert isinstance(game.engine, EngineBase), game.name
        assert state is game.engine.state_type, game.name


def test_the_bot_loads_the_games() -> None:
    assert "cogs.games" in COGS
