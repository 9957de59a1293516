"""A turn's ping: who is told their turn began, the short message in the game's thread that
names them (the previous one deleted, so a thread holds one), and the DMs of members who
chose them (`bot.table.notifier` says how each member hears of their turn)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable, Mapping
from typing import Any

import discord

from bot.language.i18n import _, game_language, speaking
from bot.language.wording import without_mentions
from bot.service import GameService, LoadedGame
from bot.table.notifier import Audience, Notifier, turn_note
from bot.table.presenters import Presenters
from bot.ui.replies import Reply
from rules.core import PlayerId

# Pings being sent at once, across games. A turn's ping (its post and the last one's
# deletion) costs about as much as the click's answer; when many turns pass at the same
# moment, pings beyond these wait, so the answers to other clicks go first.
PINGS_AT_ONCE = 2


def thread_of(client: discord.Client, table: LoadedGame) -> discord.PartialMessageable:
    """The game's thread, to send to without fetching it."""
    return client.get_partial_messageable(table.row.thread_id or 0)


class Pings:
    """Each game's turn pings: at most one in its thread at a time, sent and deleted two
    games at a time (`PINGS_AT_ONCE`), as a follow-up of the click that began the turn
    when there is one."""

    def __init__(
        self,
        client: discord.Client,
        service: GameService,
        presenters: Presenters,
        notifier: Notifier,
    ) -> None:
        """`notifier` says how each member hears of their turn, and sends the DMs."""
        self._client = client
        self._service = service
        self._presenters = presenters
        self._notifier = notifier
        # Each game's ping sent as a click's follow-up: its id and that click's reply, whose
        # token deletes it (in memory: after a restart the bot's token does).
        self._ping_senders: dict[int, tuple[int, Reply]] = {}
        self._pinging = asyncio.Semaphore(PINGS_AT_ONCE)

    def turn_ping(
        self, table: LoadedGame, *, first: bool, told: frozenset[PlayerId]
    ) -> tuple[set[PlayerId], str]:
        """Who to ping and what to say: the humans to act but those `told` already (a turn
        of many steps pings once); at the first board, everyone."""
        engine = self._service.engine(table.row.game)
        humans = set(engine.to_act(table.state) - table.autoplayed)
        presenter = self._presenters.get(table.row.game)
        with speaking(game_language(table.row.options)):  # a public message
            prompt = without_mentions(presenter.prompt(table.state, table.names), table.names)
            if first:
                return humans, _("the game is on! {prompt}").format(prompt=prompt)
            turn = _("your turn: {prompt}").format(prompt=prompt)
        return humans - told, turn

    @staticmethod
    def parts(
        audience: Audience, text: str, names: Mapping[PlayerId, str]
    ) -> dict[str, Any] | None:
        """A message's content and mentions that ping only the members of `audience` who
        chose a ping and name the others without a mention, or None for nobody."""
        mentioned = sorted(p for p in audience.mentioned if p > 0)
        named = sorted(p for p in audience.named | audience.messaged if p > 0)
        if not mentioned and not named:
            return None
        who = [f"<@{p}>" for p in mentioned] + [
            f"**{discord.utils.escape_markdown(names.get(p, '?'))}**" for p in named
        ]
        return {
            "content": " ".join(who) + f" {text}",
            "allowed_mentions": discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(p) for p in mentioned]
            ),
        }

    async def ping(
        self, table: LoadedGame, players: Iterable[PlayerId], text: str, *, reminder: bool = False
    ) -> None:
        """One short message about `players`' turn (humans), each told as they chose; the
        previous one goes. `reminder`: the turn timer's reminder, worded so in a DM."""
        audience = await self._notifier.audience(table.row.guild_id, table.row.id, set(players))
        ping = await self.send(table, audience, text, None)
        if ping:
            await self._service.set_ids(table.row.id, **ping)
        self.send_dms(table, audience, text, table.row.board_message_id, reminder=reminder)

    def send_dms(
        self,
        table: LoadedGame,
        audience: Audience,
        text: str,
        board_id: int | None,
        *,
        reminder: bool = False,
    ) -> None:
        """Queue the DMs of the members who chose them (sent in the background, paced)."""
        if board_id is None or table.row.thread_id is None:
            return
        presenter = self._presenters.get(table.row.game)
        for player in audience.messaged:
            language = self._notifier.language(player) or game_language(table.row.options)
            note = turn_note(table, presenter, language, board_id, text, reminder=reminder)
            self._notifier.send(player, note)

    async def send(
        self, table: LoadedGame, audience: Audience, text: str, voice: Reply | None
    ) -> dict[str, int | None]:
        """Send a ping (after deleting the previous one) as a follow-up of `voice`, the click
        that began the turn, when there is one; returns `{"ping_message_id": id}` to save,
        or nothing when nobody was named."""
        parts = self.parts(audience, text, table.names)
        if parts is None and audience.left_out and table.row.ping_message_id is not None:
            # Nobody to name (they chose to hear nothing): the last turn's ping goes.
            await self.delete(table, forget=False)
            return {"ping_message_id": None}
        if parts is None or table.row.thread_id is None:
            return {}
        async with self._pinging:
            await self.delete(table, forget=False)  # the new one's id replaces its id
            message: discord.Message | None = None
            if voice is not None and (message := await voice.announce(**parts)) is not None:
                self._ping_senders[table.row.id] = (message.id, voice)
            else:
                try:
                    message = await thread_of(self._client, table).send(**parts)
                except discord.NotFound:
                    return {}  # the thread is gone; the next board edit ends the game
        return {"ping_message_id": message.id}

    async def delete(self, table: LoadedGame, *, forget: bool = True) -> None:
        """Delete the game's last ping; `forget`: and save that it has none."""
        ping_id = table.row.ping_message_id
        sent = self._ping_senders.pop(table.row.id, None)
        if ping_id is None:
            return
        # Already deleted by a moderator, or the thread is gone: nothing to tidy.
        with contextlib.suppress(discord.HTTPException):
            if sent is not None and sent[0] == ping_id and sent[1].token_fresh:
                # With the token it was sent with: off the bot's global rate limit.
                await sent[1].interaction.followup.delete_message(ping_id)
            else:
                await thread_of(self._client, table).get_partial_message(ping_id).delete()
        if forget:  # else a new ping's id is saved next (a deleted id left is harmless)
            await self._service.set_ids(table.row.id, ping_message_id=None)
