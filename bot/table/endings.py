"""A game's end on Discord: the result posted and the lobby card redrawn; a game ended
early (by its host or a vote) left with its last board; a deleted thread ending its game;
a game this version cannot show set aside."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.language.command_translator import spoken_command
from bot.language.i18n import _, game_language, speaking
from bot.language.wording import rating_changes
from bot.scheduler import Scheduler
from bot.service import GameService, LoadedGame
from bot.storage import Storage
from bot.table.board import Board, build_board, prompt_of
from bot.table.lobby_card import lobby_embed
from bot.table.pictures import PictureWorkers
from bot.table.pings import Pings, thread_of
from bot.table.presenters import Presenters
from bot.ui.replies import Reply

log = logging.getLogger(__name__)

# Edits a board message (the publisher's, as the answer to a click on it when there is one).
EditBoard = Callable[[LoadedGame, int, Board, Reply | None], Awaitable[None]]


class Endings:
    """What a game's end shows, once its board is final (see the module)."""

    def __init__(
        self,
        client: discord.Client,
        service: GameService,
        storage: Storage,
        presenters: Presenters,
        scheduler: Scheduler,
        pictures: PictureWorkers,
        pings: Pings,
        edit_board: EditBoard,
    ) -> None:
        """`edit_board` edits a board message, `pictures` draws a board; `pings` deletes a game's
        last ping."""
        self._client = client
        self._service = service
        self._storage = storage
        self._presenters = presenters
        self._scheduler = scheduler
        self._pictures = pictures
        self._pings = pings
        self._edit_board = edit_board
        # Told of each game's end, by its id (a tournament's clock scores its tables).
        self.game_ended: list[Callable[[int], None]] = []

    async def finish(self, table: LoadedGame, voice: Reply | None = None) -> None:
        """The result in the thread (a follow-up of the last click, when it has one) and on
        the lobby message."""
        self._scheduler.cancel_game(table.row.id)
        self._tell_ended(table.row.id)
        engine = self._service.engine(table.row.game)
        presenter = self._presenters.get(table.row.game)
        result = prompt_of(table, engine, presenter)
        changes = await self._storage.rating_changes(table.row.id)
        with speaking(game_language(table.row.options)):  # a public message
            shown = rating_changes(changes, table.names)
            rated = "\n📈 " + _("Rating: {changes}").format(changes=shown) if changes else ""
            standings = _("See `{scoreboard}` and `{leaderboard}` for the standings.").format(
                scoreboard=spoken_command("/scoreboard"), leaderboard=spoken_command("/leaderboard")
            )
        parts: dict[str, Any] = {
            "content": f"🏁 {result}{rated}\n{standings}",
            "allowed_mentions": discord.AllowedMentions.none(),
        }
        try:
            if voice is None or await voice.announce(**parts) is None:
                await thread_of(self._client, table).send(**parts)
        except discord.NotFound:
            log.warning("game %s finished after its thread was deleted", table.row.id)
        await self.edit_lobby(table, result)

    def _tell_ended(self, game_id: int) -> None:
        for told in self.game_ended:
            told(game_id)

    async def edit_lobby(self, table: LoadedGame, note: str) -> None:
        """Redraw the lobby message (in the channel the game was started from)."""
        if table.row.lobby_message_id is None:
            return
        engine = self._service.engine(table.row.game)
        presenter = self._presenters.get(table.row.game)
        channel = self._client.get_partial_messageable(table.row.channel_id)
        lobby = channel.get_partial_message(table.row.lobby_message_id)
        try:
            await lobby.edit(embed=lobby_embed(table, engine, presenter, note=note), view=None)
        except discord.HTTPException:
            log.info("game %s: lobby message gone, not updated", table.row.id)

    async def ended(self, table: LoadedGame, note: str) -> None:
        """A game ended before its end (`GameService.end`, or a vote): its timers stop, its
        board keeps the last picture with `note` and no buttons, the thread and the lobby
        message say so."""
        self._scheduler.cancel_game(table.row.id)
        self._tell_ended(table.row.id)
        await self._pings.delete(table)
        engine = self._service.engine(table.row.game)
        presenter = self._presenters.get(table.row.game)
        board = await build_board(self._pictures, table, engine, presenter, None)
        board.embed.description = f"{board.embed.description or ''}\n**⏹ {note}**".strip()
        if table.row.board_message_id is not None:
            with contextlib.suppress(discord.HTTPException):
                await self._edit_board(table, table.row.board_message_id, board, None)
        with contextlib.suppress(discord.HTTPException):
            await thread_of(self._client, table).send(
                f"⏹ {note}", allowed_mentions=discord.AllowedMentions.none()
            )
        await self.edit_lobby(table, note)

    async def thread_gone(self, table: LoadedGame) -> None:
        """The game's thread was deleted: the game ends, and its lobby card says why."""
        log.warning("game %s: its thread was deleted; the game ends", table.row.id)
        self._scheduler.cancel_game(table.row.id)
        await self._service.abandon(table.row.id)
        self._tell_ended(table.row.id)
        fresh = await self._service.table(table.row.id)
        with speaking(game_language(table.row.options)):
            note = _("The game's thread was deleted, so the game ended.")
        await self.edit_lobby(fresh, note)

    async def set_aside(self, game_id: int, reason: str) -> None:
        """A game this version can't load or show: marked, so every other game plays on
        and `/games` tells its players."""
        log.error("game %s can't be loaded and is set aside: %s", game_id, reason)
        self._scheduler.cancel_game(game_id)
        await self._service.mark_broken(game_id, reason)
