"""Every game's side in Discord, one line per game: the `GameSpec` that ends its cog module
(its engine, the presenter that words and draws it, and the cog of its slash commands).

The bot loads this module as one extension (`bot/client.py`'s `COGS`); its `setup`
registers each game's presenter and adds its cog. A game's rules are its engine's line in
`rules/registry.py`; `tests/cogs/test_games.py` holds the two lists to the same games, and
docs/ADDING_A_GAME.md says what else a new game brings.
"""

from __future__ import annotations

from bot.client import ParlourBot
from cogs import cock_and_bull, hold_your_horses, horse_collar, risk, winners_circle
from cogs.game_cog import GameSpec

# In the order their commands were first registered: the synced command list keeps it.
GAMES: tuple[GameSpec, ...] = (
    cock_and_bull.SPEC,
    hold_your_horses.SPEC,
    winners_circle.SPEC,
    horse_collar.SPEC,
    risk.SPEC,
)


async def setup(bot: ParlourBot) -> None:
    """Register every game's presenter and add its cog."""
    for game in GAMES:
        bot.presenters.register(game.presenter())
        await bot.add_cog(game.cog(bot))
