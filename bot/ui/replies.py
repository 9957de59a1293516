"""The answer to one interaction, whoever gives it.

Discord takes exactly one first response to an interaction, within 3 seconds; everything
after it is a follow-up or an edit of that response. Two parties may want to give it: the
handler (with the real answer) and the router (with a deferral when the handler is slow).
`Reply` is the one place that knows whether the first response went out, so the two never
both send one (Discord would refuse the second: "already acknowledged").
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.language.i18n import _

log = logging.getLogger(__name__)

_KEY = "parlour.reply"
TOKEN_LIFETIME = 15 * 60.0  # seconds Discord takes an interaction's token after creating it
TOKEN_MARGIN = 60.0  # not used in its last minute: a request may take a while to land


class Reply:
    """One interaction's answer: its first response, whoever gives it, and the follow-ups."""

    def __init__(self, interaction: discord.Interaction[Any], *, public: bool = False) -> None:
        """`public`: the command's deferral is public, as for one marked public in its `extras`."""
        self.interaction = interaction
        self.public = public
        self._first: asyncio.Future[bool] | None = None
        self.received = time.monotonic()
        self.answered_at: float | None = None  # when the first response went out
        self._deferred_click = False  # answered by deferring a click: @original is its message
        self.outcome = "ok"  # or "refused" (a player's mistake), "error", "shutting_down"

    @classmethod
    def of(cls, interaction: discord.Interaction[Any]) -> Reply:
        """The interaction's Reply (one per interaction, kept in its `extras`)."""
        reply = interaction.extras.get(_KEY)
        if not isinstance(reply, Reply):
            reply = interaction.extras[_KEY] = cls(interaction)
        return reply

    def _is_public(self) -> bool:
        """A command marked `extras={"public": True}` (a lobby, a scoreboard) is deferred
        in public, so that its answer can be public too."""
        command = self.interaction.command
        return self.public or bool(command is not None and command.extras.get("public"))

    @property
    def answered(self) -> bool:
        """True once a first response was given, or is being sent."""
        return self._first is not None

    @property
    def can_edit_clicked(self) -> bool:
        """True while the clicked message can be edited as this interaction's answer: no
        first response yet, or only a click's deferral (whose original is that message)."""
        return not self.answered or self._deferred_click

    @property
    def token_fresh(self) -> bool:
        """True while the interaction's token still takes follow-ups and their deletion."""
        age = (discord.utils.utcnow() - self.interaction.created_at).total_seconds()
        return age < TOKEN_LIFETIME - TOKEN_MARGIN

    @property
    def user_id(self) -> int:
        """The member who used the interaction."""
        return self.interaction.user.id

    @property
    def message_id(self) -> int | None:
        """The message whose component was used, if any."""
        message = self.interaction.message
        return None if message is None else message.id

    @property
    def in_private_panel(self) -> bool:
        """True for a click in an ephemeral message (a player's private panel)."""
        message = self.interaction.message
        return message is not None and message.flags.ephemeral

    @property
    def component_ids(self) -> list[str]:
        """The custom ids of the components of the message whose component was used."""
        message = self.interaction.message
        if message is None:
            return []
        return [
            custom_id
            for row in message.components
            for item in getattr(row, "children", ())
            if (custom_id := getattr(item, "custom_id", None))
        ]

    async def _answer(self, send: Callable[[], Awaitable[Any]]) -> bool:
        """Give the first response with `send` if nobody has; True if this call gave it.
        Otherwise wait until the first response has landed (a follow-up sent before it
        would be refused) and return False."""
        if self._first is None:
            self._first = asyncio.get_running_loop().create_future()
            try:
                await send()
            except BaseException:
                self._first.set_result(False)
                raise
            self.answered_at = time.monotonic()
            self._first.set_result(True)
            return True
        await asyncio.shield(self._first)
        return False

    async def defer(self) -> None:
        """Acknowledge now and answer later (a click: nothing visible changes)."""
        if self.answered:
            return
        response = self.interaction.response
        is_click = self.interaction.type is discord.InteractionType.component
        try:
            gave = await self._answer(
                response.defer
                if is_click
                else lambda: response.defer(ephemeral=not self._is_public(), thinking=True)
            )
        except discord.HTTPException:
            log.warning("could not defer interaction %s", self.interaction.id, exc_info=True)
            return
        self._deferred_click = gave and is_click

    async def private(self, text: str | None = None, **parts: Any) -> None:
        """A message only the user sees (a refusal, their hand, a panel)."""
        try:
            first = await self._answer(
                lambda: self.interaction.response.send_message(text, ephemeral=True, **parts)
            )
            if not first:
                await self.interaction.followup.send(text or "", ephemeral=True, **parts)
        except discord.HTTPException:
            log.warning("could not answer %s privately", self.interaction.user.id, exc_info=True)

    async def send(self, **parts: Any) -> int | None:
        """A public answer to a command (a lobby); the id of the message, if Discord says."""
        sent: list[int | None] = []

        async def first() -> None:
            callback = await self.interaction.response.send_message(**parts)
            sent.append(callback.message_id)

        if not await self._answer(first):
            message = await self.interaction.followup.send(**parts, wait=True)
            sent.append(message.id)
        return sent[0]

    async def announce(self, content: str = "", **parts: Any) -> discord.WebhookMessage | None:
        """A public message in the interaction's channel (a ping, a new board), sent as a
        follow-up: with the interaction's token, which Discord does not count against the
        bot's global rate limit. None when it can't be (no first response yet, the token
        too old, Discord refused): the caller then sends it with the bot's token."""
        if not self.answered or not self.token_fresh:
            return None
        await asyncio.shield(self._first)  # type: ignore[arg-type]  # a follow-up waits for it
        try:
            if content:
                parts["content"] = content
            return await self.interaction.followup.send(wait=True, **parts)
        except discord.HTTPException:
            log.info("interaction %s: follow-up refused; sent by the bot", self.interaction.id)
            return None

    async def modal(self, modal: discord.ui.Modal) -> None:
        """Open a box (a modal): only as the first answer, so a click that was deferred (a
        slow moment) asks the player to click again."""
        if self.answered:
            await self.private(_("Sorry, that took too long: click the button again."))
            return
        await self._answer(lambda: self.interaction.response.send_modal(modal))

    async def update(self, **parts: Any) -> bool:
        """Edit the message whose component was used, as this interaction's answer. False if
        Discord refused (the interaction expired): the caller edits the message directly."""
        try:
            if not await self._answer(lambda: self.interaction.response.edit_message(**parts)):
                await self.interaction.edit_original_response(**parts)
        except discord.HTTPException:
            log.warning("answering interaction %s by an edit failed", self.interaction.id)
            return False
        return True
