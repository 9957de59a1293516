"""Where a click on a lobby's or a board's button or menu goes: the lobby, a private panel,
the board's reading, the table menu, or a move.

A click names a verb (its `ButtonId`): a `TableVerb` is the table's own and is answered
here, before the game's; any other verb is a move of the game. No game's verb is a
`TableVerb` (tests/bot/test_table_verbs.py holds it), so a move never lands in the table.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.errors import UserError
from bot.language.i18n import _
from bot.table.lobby import Lobby
from bot.table.lobby_card import LOBBY_VERBS
from bot.table.notifier import Notifier
from bot.table.play import Play
from bot.table.table_menu import TABLE_MENU_VERBS, TableMenu
from bot.ui.custom_ids import ButtonId, TableVerb
from bot.ui.replies import Reply
from bot.ui.router import Router
from rules.core import Action


class Clicks:
    """The table's clicks: the route of every `ButtonId` (`bot.ui.click_routes`), and the
    number boxes its "Type a number…" buttons open."""

    def __init__(
        self, router: Router, lobby: Lobby, play: Play, table_menu: TableMenu, notifier: Notifier
    ) -> None:
        """The table's clicks, sent to `lobby`, `play` and `table_menu` (boxes under `router`);
        `notifier` learns who is watching which game."""
        self._router = router
        self._notifier = notifier
        self._lobby = lobby
        self._play = play
        self._table_menu = table_menu

    async def typed(self, interaction: discord.Interaction[Any], bid: ButtonId, value: str) -> None:
        """A number box submitted (its custom id is the button's that opened it)."""
        await self._router.handle(
            Reply.of(interaction), lambda reply: self._play.typed(reply, bid, value)
        )

    async def click(self, reply: Reply, bid: ButtonId) -> None:
        """A button or menu choice of a lobby, a board or a private panel: the table's own
        verbs first, then the game's move. A member whose DM was refused is told why they
        were pinged instead, once, after their click is answered."""
        self._notifier.clicked(bid.game_id, reply.user_id, reply.interaction.locale)
        await self._route(reply, bid)
        if note := await self._notifier.refusal_note(reply.user_id):
            await reply.private(note)

    async def _route(self, reply: Reply, bid: ButtonId) -> None:
        if bid.verb in LOBBY_VERBS:
            await self._lobby.click(reply, bid)
        elif bid.verb in TABLE_MENU_VERBS:
            await self._table_menu.click(reply, bid)
        elif bid.verb == TableVerb.PEEK:
            await self._play.peek(reply, bid.game_id)
        elif bid.verb == TableVerb.ASK:
            await self._play.ask(reply, bid)
        elif bid.verb == TableVerb.TEXT:
            await self._play.reading.text(reply, bid.game_id)
        elif bid.verb == TableVerb.TEXT_DEFAULT:
            await self._play.reading.set_wanted(reply, bid)
        elif bid.verb == TableVerb.ZOOM:
            await self._play.reading.zoom(reply, bid)
        elif bid.step is None:
            raise UserError(_("That button is not available."))
        else:
            await self._play.click(
                reply, bid.game, bid.game_id, bid.step, Action(bid.verb, bid.arg)
            )
