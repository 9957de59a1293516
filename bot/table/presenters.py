"""The games this bot shows: `cogs/games.py` registers each game's Presenter here at load."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from bot.errors import UserError
from bot.language.i18n import _
from bot.table.presenter import Presenter


class Presenters:
    """Each game's presenter, by its name (`Presenter.game`)."""

    def __init__(self) -> None:
        """Empty until the cogs load."""
        self._by_game: dict[str, Presenter[Any]] = {}

    def register(self, presenter: Presenter[Any]) -> None:
        """Show `presenter.game` with `presenter` from now on."""
        self._by_game[presenter.game] = presenter

    def __contains__(self, game: object) -> bool:
        """True when this bot shows `game`."""
        return game in self._by_game

    def __iter__(self) -> Iterator[Presenter[Any]]:
        """Every game's presenter, in the order they were registered."""
        return iter(self._by_game.values())

    def get(self, game: str) -> Presenter[Any]:
        """The game's presenter; a player-facing error for a game this bot no longer has."""
        try:
            return self._by_game[game]
        except KeyError:
            raise UserError(_("This game is not available on this bot any more.")) from None
