"""The least a discord.py bot can do for a click, for `bench.floor`: answer it by editing the
clicked message into a board, as Parlour's answer to a move does, and nothing else (no game,
no database, no drawing, no ping).

It is a discord.py client set up as Parlour's is: the same intents, the same gateway events
left unparsed, no message cache, the same garbage collector settings and uvloop. A board's
buttons and menus are one `DynamicItem` (`floor:<board>:<item>`), and every click on one is
answered with the board Parlour showed (`FLOOR_BOARD`: a JSON file of its embed, components
and picture, written by the bench): the same embed, a fresh upload of the same picture, the
same buttons and menus.

Run by the bench: `python -m bench.floor_bot`, with a bot process's settings and FLOOR_BOARD.
"""

from __future__ import annotations

import asyncio
import base64
import io
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
from uvloop import new_event_loop

from bot.client import INTENTS, UNREAD_EVENTS, point_at_endpoints
from bot.ops.warm_up import settle_memory
from bot.settings import Settings

JSON = dict[str, Any]


@dataclass(frozen=True)
class Shown:
    """A board as Parlour showed it: its embed, its buttons and menus row by row, its
    picture."""

    embed: JSON
    rows: list[JSON]  # action rows, as Discord sends them
    picture: bytes

    @classmethod
    def of(cls, board: JSON) -> Shown:
        """From the bench's JSON (the picture in base64)."""
        return cls(board["embed"], board["components"], base64.b64decode(board["picture"]))

    def view(self, board: int) -> discord.ui.View:
        """Board `board`'s buttons and menus: Parlour's looks, this bot's custom ids."""
        view = discord.ui.View(timeout=None)
        count = 0
        for row, shown in enumerate(self.rows):
            for component in discord.ActionRow(shown).children:  # type: ignore[arg-type]
                item = _item(component)
                item.row = row
                view.add_item(Clicked(board, count, item))
                count += 1
        return view

    def answer(self, board: int) -> JSON:
        """What a click on board `board` is answered with: the message edited into the board."""
        embed = discord.Embed.from_dict(self.embed)
        filename = (embed.image.url or "board.png").removeprefix("attachment://")
        return {
            "content": None,
            "embed": embed,
            "attachments": [discord.File(io.BytesIO(self.picture), filename)],
            "view": self.view(board),
        }


def _item(shown: discord.Component) -> discord.ui.Button[Any] | discord.ui.Select[Any]:
    """A board's button or menu as discord.py's item of it (as `View.from_message` makes them)."""
    if isinstance(shown, discord.SelectMenu):
        return discord.ui.Select.from_component(shown)  # type: ignore[return-value]
    assert isinstance(shown, discord.Button), f"a board shows buttons and menus, not {shown}"
    return discord.ui.Button.from_component(shown)


class Clicked(
    discord.ui.DynamicItem[discord.ui.Button[Any] | discord.ui.Select[Any]],
    template=r"floor:(\d+):(\d+)",
):
    """Any button or menu of a board: its click or choice is answered with the board again."""

    def __init__(
        self,
        board: int,
        item_number: int,
        look: discord.ui.Button[Any] | discord.ui.Select[Any] | None = None,
    ) -> None:
        look = look or discord.ui.Button[Any]()
        look.custom_id = f"floor:{board}:{item_number}"
        super().__init__(look)
        self.board = board

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Clicked:
        return cls(int(match[1]), int(match[2]))

    async def callback(self, interaction: discord.Interaction) -> None:
        client = interaction.client
        assert isinstance(client, FloorBot)
        await interaction.response.edit_message(**client.shown.answer(self.board))


class FloorBot(discord.Client):
    """A client that hears what Parlour hears and answers only board clicks."""

    def __init__(self, shown: Shown) -> None:
        super().__init__(
            intents=INTENTS, max_messages=None, allowed_mentions=discord.AllowedMentions.none()
        )
        for event in UNREAD_EVENTS:
            self._connection.parsers[event] = lambda data: None
        self.shown = shown

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Clicked)
        settle_memory()


def main() -> None:
    settings = Settings.from_env()
    point_at_endpoints(settings)
    bot = FloorBot(Shown.of(json.loads(Path(os.environ["FLOOR_BOARD"]).read_text())))

    async def serve() -> None:
        async with bot:
            await bot.start(settings.token or "")

    with asyncio.Runner(loop_factory=new_event_loop) as runner:
        runner.run(serve())


if __name__ == "__main__":
    main()
