"""The DynamicItems behind every Parlour button and select menu, so old boards survive restarts."""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.custom_ids import MENU_TEMPLATE, TEMPLATE, ButtonId, parse, parse_choice
from bot.errors import UserError

if TYPE_CHECKING:
    from bot.tables import TableManager

log = logging.getLogger(__name__)

GENERIC_ERROR = "Something went wrong on our side; your move was not applied. Please try again."


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    def __init__(
        self,
        button_id: ButtonId,
        *,
        label: str = "…",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                emoji=emoji,
                disabled=disabled,
                custom_id=button_id.encode(),
            )
        )
        self.button_id = button_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameButton:
        return cls(parse(match.string))

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle_click(interaction, self.button_id)


class GameSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=MENU_TEMPLATE):
    """A board's select menu: each option's value is an action, so a choice is a click."""

    def __init__(self, custom_id: str, options: list[discord.SelectOption], placeholder: str):
        super().__init__(
            discord.ui.Select(custom_id=custom_id, options=options, placeholder=placeholder)
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameSelect:
        assert isinstance(item, discord.ui.Select)
        return cls(match.string, item.options, item.placeholder or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            bid = parse_choice(self.item.custom_id, self.item.values[0])
        except (ValueError, IndexError):
            await reply_privately(interaction, "That choice is not available.")
            return
        await handle_click(interaction, bid)


async def handle_click(interaction: discord.Interaction, bid: ButtonId) -> None:
    tables: TableManager = interaction.client.tables  # type: ignore[attr-defined]
    try:
        await tables.on_click(interaction, bid)
    except UserError as e:
        await reply_privately(interaction, str(e))
    except Exception:
        # discord.py only logs errors raised in dynamic items: answer the player too.
        log.exception("click failed: game %s step %s verb %s", bid.game_id, bid.step, bid.verb)
        await reply_privately(interaction, GENERIC_ERROR)


async def reply_privately(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral answer, whether or not the interaction was answered already."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not send an error reply to %s", interaction.user.id, exc_info=True)


def view_of(items: Sequence[discord.ui.Item[Any]]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view
