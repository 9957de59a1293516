"""Where a click on a Parlour button or menu goes: the lobby, a private panel, or a move."""

from __future__ import annotations

from typing import Any

import discord

from bot.errors import UserError
from bot.language.i18n import _
from bot.table.board import ASK, PEEK, TEXT_BOARD, TEXT_DEFAULT, ZOOM
from bot.table.lobby import Lobby
from bot.table.lobby_card import LOBBY_VERBS
from bot.table.play import Play
from bot.table.table_menu import TABLE_VERBS, TableMenu
from bot.ui.custom_ids import ButtonId
from bot.ui.replies import Reply
from bot.ui.router import Router
from rules.core import Action


class Clicks:
    def __init__(self, router: Router, lobby: Lobby, play: Play, table_menu: TableMenu) -> None:
        self._router = router
        self._lobby = lobby
        self._play = play
        self._table_menu = table_menu

    async def click(self, interaction: discord.Interaction[Any], bid: ButtonId) -> None:
        await self._router.handle(Reply.of(interaction), lambda reply: self._route(reply, bid))

    async def typed(self, interaction: discord.Interaction[Any], bid: ButtonId, value: str) -> None:
        """A number box submitted (its custom id is the button's that opened it)."""
        await self._router.handle(
            Reply.of(interaction), lambda reply: self._play.typed(reply, bid, value)
        )

    async def _route(self, reply: Reply, bid: ButtonId) -> None:
        if bid.verb in LOBBY_VERBS:
            await self._lobby.click(reply, bid)
        elif bid.verb == PEEK:
            await self._play.peek(reply, bid.game_id)
        elif bid.verb == ASK:
            await self._play.ask(reply, bid)
        elif bid.verb == TEXT_BOARD:
            await self._play.reading.text(reply, bid.game_id)
        elif bid.verb == TEXT_DEFAULT:
            await self._play.reading.set_wanted(reply, bid)
        elif bid.verb == ZOOM:
            await self._play.reading.zoom(reply, bid)
        elif bid.verb in TABLE_VERBS:
            await self._table_menu.click(reply, bid)
        elif bid.step is None:
            raise UserError(_("That button is not available."))
        else:
            await self._play.click(
                reply, bid.game, bid.game_id, bid.step, Action(bid.verb, bid.arg)
            )
