"""Every game's side in Discord, one line per game: the presenter that words and draws it
and the cog of its slash commands.

The bot loads this module as one extension (`bot/client.py`'s `COGS`); its `setup`
registers each game's presenter and adds its cog. A game's rules are its engine's line in
`rules/registry.py`; `tests/cogs/test_games.py` holds the two lists to the same games.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from discord.ext import commands

from bot.client import ParlourBot
from bot.table.presenter import Presenter
from cogs.cock_and_bull import CockAndBullCog, CockAndBullPresenter
from cogs.hold_your_horses import HoldYourHorsesCog, HoldYourHorsesPresenter
from cogs.horse_collar import HorseCollarCog, HorseCollarPresenter
from cogs.risk import RiskCog, RiskPresenter
from cogs.winners_circle import WinnersCircleCog, WinnersCirclePresenter
from rules.core import Engine
from rules.registry import ENGINES


@dataclass(frozen=True)
class GameSpec:
    """One game as the bot shows it: its presenter, and its cog built for the bot."""

    presenter: type[Presenter[Any]]
    cog: Callable[[ParlourBot], commands.Cog]

    @property
    def name(self) -> str:
        """The game's name, its engine's (`rules.registry.ENGINES`)."""
        return self.presenter.game

    @property
    def engine(self) -> Engine[Any]:
        """The game's rules; its house rules are the engine's `options`."""
        return ENGINES[self.name]


# In the order their commands were first registered: the synced command list keeps it.
GAMES: tuple[GameSpec, ...] = (
    GameSpec(CockAndBullPresenter, CockAndBullCog),
    GameSpec(HoldYourHorsesPresenter, HoldYourHorsesCog),
    GameSpec(WinnersCirclePresenter, WinnersCircleCog),
    GameSpec(HorseCollarPresenter, HorseCollarCog),
    GameSpec(RiskPresenter, RiskCog),
)


async def setup(bot: ParlourBot) -> None:
    """Register every game's presenter and add its cog."""
    for game in GAMES:
        bot.presenters.register(game.presenter())
        await bot.add_cog(game.cog(bot))
