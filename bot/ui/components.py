"""The DynamicItems behind every Parlour button and select menu, so old messages survive
restarts.

Each is a `ParlourItem`: discord.py rebuilds it from the clicked custom id alone, and its
click goes, with the id it parsed, to the client's `clicks` (`bot.ui.click_routes`), found
on the interaction's client rather than imported, so this module depends on nothing above it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

import discord

from bot.language.i18n import _, language_of, speaking
from bot.ui.click_routes import ClickRoutes
from bot.ui.custom_ids import MENU_TEMPLATE, ButtonId, parse_choice
from bot.ui.replies import Reply

NO_ID = r"(?!)"  # the template of a base of kinds of items: it matches no custom id


async def click(interaction: discord.Interaction[Any], target: object) -> None:
    """The one way every Parlour click goes: to the client's `clicks` (`bot.client.ParlourBot`'s),
    with what it names."""
    # An attribute looked up, not a runtime-checkable Protocol: checking one walks its members
    # on every click.
    clicks = getattr(interaction.client, "clicks", None)
    if not isinstance(clicks, ClickRoutes):
        raise TypeError("Parlour's components need a client with `clicks` routes")
    await clicks.click(interaction, target)


ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])


class ParlourItem(discord.ui.DynamicItem[ItemT], template=NO_ID):
    """A Parlour button or menu, rebuilt from its custom id when clicked.

    A kind of item names the `template` its custom ids match where it is declared; a base
    of kinds, like this one, names none.
    """

    def __init_subclass__(cls, *, template: str = NO_ID) -> None:
        """Declare a kind of item, whose custom ids match `template` (none: a base)."""
        super().__init_subclass__(template=template)

    @classmethod
    def rebuilt(cls, custom_id: str, item: discord.ui.Item[Any]) -> Self:
        """The item that answers a click on `item`, whose `custom_id` matched the template
        (its label is not read back: only the click counts)."""
        raise NotImplementedError

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        """discord.py's way back from a clicked component to its item (`rebuilt`)."""
        return cls.rebuilt(match.string, item)


class ClickId(Protocol):
    """An id a button's custom id encodes: its kind (in `bot.ui.custom_ids`) names the
    template its custom ids match, and parses them."""

    TEMPLATE: ClassVar[str]

    def encode(self) -> str:
        """The custom id."""
        ...

    @classmethod
    def parse(cls, custom_id: str) -> Self:
        """The id `custom_id` encodes (ValueError if it is not one)."""
        ...


IdT = TypeVar("IdT", bound=ClickId)


class ParlourButton(ParlourItem[discord.ui.Button[Any]], Generic[IdT]):
    """A button whose custom id encodes one id (`target`) of a kind of `bot.ui.custom_ids`,
    which names the template and parses it: a kind of button is declared with `kind=`."""

    _kind: ClassVar[type[ClickId]]

    def __init_subclass__(cls, *, kind: type[ClickId] | None = None) -> None:
        """Declare a kind of button, whose custom ids encode a `kind` (none: a base)."""
        super().__init_subclass__(template=NO_ID if kind is None else kind.TEMPLATE)
        if kind is not None:
            cls._kind = kind

    def __init__(
        self,
        target: IdT,
        *,
        label: str = "…",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        """The button of `target`, looking as told (rebuilt from a click, it is "…")."""
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label,
            style=style,
            emoji=emoji,
            disabled=disabled,
            row=row,
            custom_id=target.encode(),
        )
        super().__init__(button)
        self.target = target

    @classmethod
    def rebuilt(cls, custom_id: str, item: discord.ui.Item[Any]) -> Self:
        """The button of the id `custom_id` encodes."""
        target: Any = cls._kind.parse(custom_id)
        return cls(target)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """The click goes to the route of its id's kind."""
        await click(interaction, self.target)


class GameButton(ParlourButton[ButtonId], kind=ButtonId):
    """A lobby's or a board's button: a `TableVerb`, or a game's action."""


class GameSelect(ParlourItem[discord.ui.Select[Any]], template=MENU_TEMPLATE):
    """A board's select menu: each option's value is an action, so a choice is a click."""

    def __init__(self, custom_id: str, options: list[discord.SelectOption], placeholder: str):
        """The menu `custom_id` (`ButtonId.menu_id`) offering `options`."""
        super().__init__(
            discord.ui.Select(custom_id=custom_id, options=options, placeholder=placeholder)
        )

    @classmethod
    def rebuilt(cls, custom_id: str, item: discord.ui.Item[Any]) -> Self:
        """The menu `item` is, with its options (the choice is read from them)."""
        if not isinstance(item, discord.ui.Select):
            raise TypeError(f"{custom_id!r} is not a select menu")
        return cls(custom_id, item.options, item.placeholder or "")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """The choice goes as the click of the button it stands for."""
        try:
            bid = parse_choice(self.item.custom_id, self.item.values[0])
        except (ValueError, IndexError):
            with speaking(language_of(interaction.locale)):
                await Reply.of(interaction).private(_("That choice is not available."))
            return
        await click(interaction, bid)


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
    """A view of `items` that never times out (its buttons are DynamicItems)."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view
