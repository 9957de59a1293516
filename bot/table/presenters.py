"""The games this bot shows: `cogs/games.py` registers each game's Presenter here at load."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from bot.errors import UserError
from bot.language.i18n import _
from bot.table.presenter import Presenter


class Presenters:
    def __init__(self) -> None:
        self._by_game: dict[str, Presenter[Any]] = {}

    def register(self, presenter: Presenter[Any]) -> None:
        self._by_game[presenter.game] = presenter

    def __contains__(self, game: object) -> bool:
        return game in self._by_game

    def __iter__(self) -> Iterator[Presenter[Any]]:
        return iter(self._by_game.values())

    def get(self, game: str) -> Presenter[Any]:
        """The game's presenter; a player-facing error for a game this bot no longer has."""
        try:
            return self._by_game[game]
        except KeyError:
            raise UserError(_("This game is not available on this bot any more.")) from None
