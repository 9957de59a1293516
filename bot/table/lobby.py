"""A game's lobby: `/<game> new` posts it; Join, Leave, Add bot, Cancel and Start are
clicked on it. Start gives the game its thread and its first board."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import discord

from bot.errors import UserError
from bot.language.i18n import N_, _, game_language, speaking
from bot.language.wording import STAND_INS, agree, listing
from bot.service import GameService, LoadedGame
from bot.storage import FINISHED, Storage
from bot.table.autopilot import Autopilot
from bot.table.lobby_card import lobby_embed, lobby_view
from bot.table.presenters import Presenters
from bot.table.publisher import BoardPublisher
from bot.ui.custom_ids import ButtonId, TableVerb
from bot.ui.replies import Reply

# What the bot needs in the lobby's channel to run a game there, with Discord's wording.
REQUIRED_PERMISSIONS = {
    "create_public_threads": N_("Create Public Threads"),
    "send_messages_in_threads": N_("Send Messages in Threads"),
    "attach_files": N_("Attach Files"),
    "embed_links": N_("Embed Links"),
}
# A week, Discord's longest: a slow game's thread stays open between moves (and if it is
# archived all the same, the board publisher opens it again).
THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080
# Discord's error code for a second thread from one message.
THREAD_ALREADY_MADE = 160004


class Lobby:
    """Opens lobbies and answers their buttons (and the final board's Rematch)."""

    def __init__(
        self,
        service: GameService,
        storage: Storage,
        presenters: Presenters,
        publisher: BoardPublisher,
        autopilot: Autopilot,
    ) -> None:
        """A lobby desk that starts games with `publisher` and `autopilot`."""
        self._service = service
        self._storage = storage
        self._presenters = presenters
        self._publisher = publisher
        self._autopilot = autopilot
        self._starting: set[int] = set()
        self._rematching: set[int] = set()  # finished games whose rematch lobby is being posted

    def starting(self, game_id: int) -> bool:
        """True while a Start click is creating the game's thread and first board."""
        return game_id in self._starting

    async def open(self, reply: Reply, game: str, options: Mapping[str, Any]) -> None:
        """`/<game> new`: post a lobby in this channel."""
        interaction = reply.interaction
        if interaction.guild is None or interaction.channel is None:
            raise UserError(_("Games are played in a server's text channel, not in DMs."))
        if isinstance(interaction.channel, discord.Thread):
            raise UserError(_("Start games from a text channel: each game gets its own thread."))
        check_permissions(interaction)
        table = await self._service.create_lobby(
            game,
            guild_id=interaction.guild.id,
            channel_id=interaction.channel.id,
            host_id=interaction.user.id,
            host_name=interaction.user.display_name,
            options=options,
        )
        message_id = await reply.send(embed=self._embed(table), view=self._view(table))
        await self._service.set_ids(table.row.id, lobby_message_id=message_id)

    def _embed(self, table: LoadedGame, note: str = "") -> discord.Embed:
        game = table.row.game
        return lobby_embed(table, self._service.engine(game), self._presenters.get(game), note)

    def _view(self, table: LoadedGame) -> discord.ui.View:
        game = table.row.game
        return lobby_view(table, self._service.engine(game), self._presenters.get(game))

    async def click(self, reply: Reply, bid: ButtonId) -> None:
        """A click of a lobby's button (one of `LOBBY_VERBS`)."""
        user = reply.interaction.user
        if bid.verb == TableVerb.START:
            await self._start(reply, bid.game_id)
            return
        if bid.verb == TableVerb.REMATCH:
            await self._rematch(reply, bid.game_id)
            return
        if bid.verb == TableVerb.JOIN:
            side = int(bid.arg) if bid.arg.isdigit() else 0
            table = await self._service.join(bid.game_id, user.id, user.display_name, side)
        elif bid.verb == TableVerb.LEAVE:
            table = await self._service.leave(bid.game_id, user.id)
        elif bid.verb == TableVerb.ADD_BOT:
            table = await self._service.add_bot(bid.game_id, user.id)
        else:
            table = await self._service.cancel(bid.game_id, user.id)
            await reply.update(embed=self._embed(table), view=None)
            return
        await reply.update(embed=self._embed(table), view=self._view(table))

    async def _rematch(self, reply: Reply, game_id: int) -> None:
        """A new lobby in the channel the finished game was started from, with its options
        and the clicker as host; the humans who played are invited (mentioned once, here:
        they still click Join). While that lobby is open, Rematch leads to it: one rematch
        at a time, however many click."""
        old = await self._service.table(game_id)
        if old.row.status != FINISHED:
            raise UserError(_("A rematch can be started once this game is over."))
        user = reply.interaction.user
        if not isinstance(user, discord.Member) or user.guild.id != old.row.guild_id:
            raise UserError(_("Only a member of this server can start a rematch."))
        channel = reply.interaction.client.get_partial_messageable(
            old.row.channel_id, guild_id=old.row.guild_id
        )
        if game_id in self._rematching:
            raise UserError(
                _("A rematch lobby is being opened in {channel}.").format(
                    channel=f"<#{old.row.channel_id}>"
                )
            )
        self._rematching.add(game_id)  # before any await: a click at once is told to wait
        try:
            opened = await self._storage.open_rematch(game_id)
            if opened is not None and opened.lobby_message_id is not None:
                link = channel.get_partial_message(opened.lobby_message_id).jump_url
                text = _("A rematch lobby is open already: {link}")
                await reply.private(text.format(link=link))
            else:
                await self._open_rematch(reply, old, channel)
        finally:
            self._rematching.discard(game_id)

    async def _open_rematch(
        self, reply: Reply, old: LoadedGame, channel: discord.PartialMessageable
    ) -> None:
        user = reply.interaction.user
        game_id = old.row.id
        table = await self._service.create_lobby(
            old.row.game,
            guild_id=old.row.guild_id,
            channel_id=old.row.channel_id,
            host_id=user.id,
            host_name=user.display_name,
            options=old.row.options,
            rematch_of=game_id,
        )
        # A forgotten member's seat holds a stand-in id: a former player, nobody to ping.
        invited = sorted(
            {s.player_id for s in old.seats if not s.is_bot and s.player_id not in STAND_INS}
            - {user.id}
        )
        with speaking(game_language(table.row.options)):  # a public message
            text = _("🔁 Rematch of #{game}, hosted by {host}.").format(
                game=game_id, host=f"<@{user.id}>"
            )
            if invited:
                again = _("{players}: click **Join** to play again.")
                text += " " + again.format(players=" ".join(f"<@{p}>" for p in invited))
        try:
            message = await channel.send(
                text,
                embed=self._embed(table),
                view=self._view(table),
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(p) for p in invited]
                ),
            )
        except discord.HTTPException as e:
            await self._service.cancel(table.row.id, user.id)
            cannot = _(
                "I could not post the rematch's lobby in {channel}: check that the channel "
                "still exists and that I may send messages there."
            )
            raise UserError(cannot.format(channel=f"<#{old.row.channel_id}>")) from e
        await self._service.set_ids(table.row.id, lobby_message_id=message.id)
        await reply.private(_("Your rematch lobby is up: {link}").format(link=message.jump_url))

    async def _start(self, reply: Reply, game_id: int) -> None:
        table = await self._service.table(game_id)
        self._service.check_can_start(table, reply.user_id)
        check_permissions(reply.interaction)
        if game_id in self._starting:
            raise UserError(_("The game is starting already."))
        self._starting.add(game_id)
        try:
            await reply.defer()  # creating a thread can take a moment
            if table.row.thread_id is None:
                await self._create_thread(reply, table)
            table = await self._service.start(game_id, reply.user_id)
            await reply.update(embed=self._embed(table), view=None)
            await self._publisher.publish(game_id)
        finally:
            self._starting.discard(game_id)
        self._autopilot.after(table)

    async def _create_thread(self, reply: Reply, table: LoadedGame) -> None:
        message = reply.interaction.message
        if message is None:
            raise UserError(_("Click Start on the lobby message."))
        title = self._presenters.get(table.row.game).title
        try:
            thread = await message.create_thread(
                name=f"{title} #{table.row.id}", auto_archive_duration=THREAD_ARCHIVE_MINUTES
            )
            thread_id = thread.id
        except discord.Forbidden as e:
            raise UserError(
                _(
                    "Discord did not let me create the game's thread here. Ask a server "
                    "admin for the Create Public Threads permission, then click Start again."
                )
            ) from e
        except discord.HTTPException as e:
            if e.code != THREAD_ALREADY_MADE:
                raise
            # An earlier Start made it and the bot stopped before saving it: a thread made
            # from a message has the message's id.
            thread_id = message.id
        await self._service.set_ids(table.row.id, thread_id=thread_id)


def check_permissions(interaction: discord.Interaction[Any]) -> None:
    """Refuse (UserError) a channel where the bot lacks a permission a game's thread needs,
    naming each one missing."""
    perms = interaction.app_permissions
    missing = [label for attr, label in REQUIRED_PERMISSIONS.items() if not getattr(perms, attr)]
    if missing:
        cannot = _(
            "I can't run a game in this channel: I am missing the **{names}** {permissions} "
            "here. Ask a server admin to grant them, then try again."
        )
        permissions = agree(len(missing), "permission", "permissions")
        raise UserError(
            cannot.format(names=listing([_(m) for m in missing]), permissions=permissions)
        )
