"""Reading a board without seeing its picture, or on a small screen: the 📝 text board (and
the member's setting to get it after each of their moves) and the 🔍 zoom. Each answers the
clicker alone, in their language; none of it costs a move anything unless asked for."""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import Sequence

import discord

from bot.errors import UserError
from bot.language.i18n import _
from bot.language.speech import spoken
from bot.language.wording import without_mentions
from bot.service import GameService, LoadedGame, Played
from bot.storage import Storage
from bot.table.alt_text import joined, plain
from bot.table.board import narration, prompt_here, zoom_menu
from bot.table.presenters import Presenters
from bot.table.text_board import is_text_board, text_board
from bot.ui.components import view_of
from bot.ui.custom_ids import ButtonId
from bot.ui.replies import Reply

MEMBERS_TTL = 60.0  # seconds the members who asked for the text board are trusted unread


class Reading:
    """The 📝 text board and the 🔍 zoom, and who asked for the text board after each move."""

    def __init__(self, service: GameService, storage: Storage, presenters: Presenters) -> None:
        """Who wants the text board after each move is read from storage at the first `wanted`."""
        self._service = service
        self._storage = storage
        self._presenters = presenters
        # The members who get the text board after each move, and when they were read.
        self._members: set[int] = set()
        self._read_at = -MEMBERS_TTL

    async def text(self, reply: Reply, game_id: int) -> None:
        """📝 Text board: the game as text for the clicker, with their moves; clicked on a
        text board ("Read again"), it redraws that one in place."""
        table = await self._service.table(game_id)
        if table.state is None:
            raise UserError(_("The game has not started yet."))
        await self._send(reply, table, ())

    async def after_move(self, reply: Reply, played: Played, news: Sequence[str]) -> bool:
        """After a move made on the public board (and shown): the mover's text board with
        what the move did and `news` (what only they learnt), if they asked for it after
        each move. False if they did not."""
        if not await self.wanted(reply.user_id):
            return False
        presenter = self._presenters.get(played.table.row.game)
        said = narration(presenter, played.events, played.table.names)[0]
        await self._send(reply, played.table, [*said, *news])
        return True

    async def redraw(self, reply: Reply, played: Played, news: Sequence[str]) -> bool:
        """A move made on a text board: redraw it, with what the move did. False if the
        click came from another private panel."""
        if not is_text_board(reply.component_ids):
            return False
        presenter = self._presenters.get(played.table.row.game)
        said = narration(presenter, played.events, played.table.names)[0]
        await self._send(reply, played.table, [*said, *news])
        return True

    async def wanted(self, user_id: int) -> bool:
        """Whether the member gets the text board after each of their moves. The members
        who asked are read in one query at most once a minute (another process may have
        been asked), after a move is shown: a move costs no read of its own."""
        now = time.monotonic()
        if now - self._read_at > MEMBERS_TTL:
            self._members = await self._storage.text_board_members()
            self._read_at = now
        return user_id in self._members

    async def set_wanted(self, reply: Reply, bid: ButtonId) -> None:
        """The text board's own button: show it after each of my moves, or stop."""
        await self.set_default(reply.user_id, bid.arg == "on")
        await self.text(reply, bid.game_id)

    async def set_default(self, user_id: int, on: bool) -> None:
        """Whether the member gets the text board after each of their moves (the text
        board's button, `/settings me text-board:`), stored and in effect at once here."""
        await self._storage.set_text_board_default(user_id, on)
        if on:
            self._members.add(user_id)
        else:
            self._members.discard(user_id)

    async def _send(self, reply: Reply, table: LoadedGame, news: Sequence[str]) -> None:
        """The text board as the answer: in place of the text board clicked, else new."""
        engine = self._service.engine(table.row.game)
        presenter = self._presenters.get(table.row.game)
        default = await self.wanted(reply.user_id)
        embed, view = text_board(
            table, engine, presenter, reply.user_id, default=default, news=news
        )
        if reply.in_private_panel and is_text_board(reply.component_ids):
            await reply.update(embed=embed, view=view)
        else:
            await reply.private(embed=embed, view=view)

    async def zoom(self, reply: Reply, bid: ButtonId) -> None:
        """🔍 Zoom: a part of the board at full size for the clicker (the part chosen in its
        menu, else where the action is), with what it shows as text."""
        table = await self._service.table(bid.game_id)
        presenter = self._presenters.get(table.row.game)
        if table.state is None or not presenter.zoomable:
            raise UserError(_("That button is not available."))
        key = bid.arg or presenter.zoom_default(table.state)
        choices = presenter.zooms(table.state)
        chosen = next((z for z in choices if z.key == key), None)
        if chosen is None:
            raise UserError(_("That choice is not available."))
        engine = self._service.engine(table.row.game)
        png, lines = await asyncio.to_thread(presenter.zoom, table.state, table.names, key)
        prompt = without_mentions(prompt_here(table, engine, presenter), table.names)
        text = spoken("\n".join([prompt, *lines]))
        title = spoken(f"{presenter.title} #{table.row.id} · {chosen.label}")
        embed = discord.Embed(title=title, description=text[:4096], colour=presenter.colour)
        embed.set_image(url="attachment://zoom.png")
        alt = joined([plain(line, table.names) for line in (chosen.label, prompt, *lines)])
        file = discord.File(io.BytesIO(png), filename="zoom.png", description=alt)
        view = view_of([zoom_menu(table, choices, key)])
        if reply.in_private_panel:
            await reply.update(embed=embed, attachments=[file], view=view)
        else:
            await reply.private(embed=embed, file=file, view=view)
