"""The DynamicItems behind every Parlour button and select menu, so old boards survive restarts.

A click is handed to the client's `clicks` (see `bot.table.clicks`), found on the interaction's
client rather than imported, so this module depends on nothing above it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import discord

from bot.language.i18n import _, language_of, speaking
from bot.ui.custom_ids import MENU_TEMPLATE, TEMPLATE, ButtonId, parse, parse_choice
from bot.ui.replies import Reply


class ClickHandler(Protocol):
    async def click(self, interaction: discord.Interaction[Any], bid: ButtonId) -> None: ...


@runtime_checkable
class HasClicks(Protocol):
    clicks: ClickHandler


async def _click(interaction: discord.Interaction[Any], bid: ButtonId) -> None:
    client = interaction.client
    if not isinstance(client, HasClicks):
        raise TypeError("Parlour's components need a client with a `clicks` handler")
    await client.clicks.click(interaction, bid)


def plain_button(
    custom_id: str,
    *,
    label: str,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    emoji: str | None = None,
    disabled: bool = False,
    row: int | None = None,
) -> discord.ui.Button[Any]:
    """The button a DynamicItem wraps (every Parlour button is one)."""
    return discord.ui.Button(
        label=label, style=style, emoji=emoji, disabled=disabled, row=row, custom_id=custom_id
    )


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
            plain_button(
                button_id.encode(), label=label, style=style, emoji=emoji, disabled=disabled
            )
        )
        self.button_id = button_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameButton:
        return cls(parse(match.string))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _click(interaction, self.button_id)


class GameSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=MENU_TEMPLATE):
    """A board's select menu: each option's value is an action, so a choice is a click."""

    def __init__(self, custom_id: str, options: list[discord.SelectOption], placeholder: str):
        super().__init__(
            discord.ui.Select(custom_id=custom_id, options=options, placeholder=placeholder)
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameSelect:
        if not isinstance(item, discord.ui.Select):
            raise TypeError(f"{match.string!r} is not a select menu")
        return cls(match.string, item.options, item.placeholder or "")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            bid = parse_choice(self.item.custom_id, self.item.values[0])
        except (ValueError, IndexError):
            with speaking(language_of(interaction.locale)):
                await Reply.of(interaction).private(_("That choice is not available."))
            return
        await _click(interaction, bid)


def shows(message: discord.Message | None, custom_id: str, component_type: Any) -> bool:
    """True if `message` still has the component a click names: only then does discord.py
    hand the click to a DynamicItem (`ViewStore.schedule_dynamic_item_call`)."""
    if message is None:
        return False
    rows = [c for c in message.components if isinstance(c, discord.ActionRow)]
    return any(
        getattr(item, "custom_id", None) == custom_id and item.type.value == component_type
        for row in rows
        for item in row.children
    )


def view_of(items: Sequence[discord.ui.Item[Any]]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view
