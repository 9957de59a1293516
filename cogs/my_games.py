"""`/my-games`: the member's games in this server, those waiting for them first, privately;
its ◀ ▶ buttons (`mg1:<owner>:<page>:<tag>`) name the member, so only they page through it."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import Interaction, ParlourBot
from bot.language.command_translator import spoken_command
from bot.language.i18n import _, ngettext
from bot.language.wording import number
from bot.table.my_games import MyGamesPage, my_games_page
from bot.ui.components import ParlourButton
from bot.ui.custom_ids import MyGamesId
from bot.ui.replies import Reply
from cogs.community import check_owner
from cogs.options import guild_id


class MyGamesButton(ParlourButton[MyGamesId], kind=MyGamesId):
    """◀ or ▶ under a `/my-games` list: its click goes to the `MyGamesId` route."""


class MyGames(commands.Cog):
    """`/my-games`, and the clicks on its buttons (`MyGamesId`)."""

    def __init__(self, bot: ParlourBot) -> None:
        """The cog of `bot`."""
        self.bot = bot

    @app_commands.command(name="my-games")
    @app_commands.guild_only()
    async def my_games(self, interaction: Interaction) -> None:
        """Your games in this server, those waiting for you first (only you see it)."""
        mid = MyGamesId(interaction.user.id, 0, "open")
        embed, view = await self._page(guild_id(interaction), mid)
        await Reply.of(interaction).private(embed=embed, view=view)

    async def page_click(self, reply: Reply, mid: MyGamesId) -> None:
        """◀ or ▶ clicked: the page it leads to, in place (its owner's alone)."""
        check_owner(reply, mid.owner, spoken_command("/my-games"))
        embed, view = await self._page(guild_id(reply.interaction), mid)
        await reply.update(embed=embed, view=view)

    async def _page(self, guild: int, mid: MyGamesId) -> tuple[discord.Embed, discord.ui.View]:
        page = await my_games_page(
            self.bot.service, self.bot.storage, self.bot.presenters, guild, mid.owner, mid.page
        )
        embed = discord.Embed(title=_("Your games in this server"), description=_text(page))
        embed.set_footer(
            text=_("Page {page} of {pages}").format(
                page=number(page.number + 1), pages=number(page.pages)
            )
        )
        view = discord.ui.View(timeout=None)
        if page.pages > 1:
            for move, label, emoji, tag, off in (
                (-1, _("Previous"), "◀", "back", page.number == 0),
                (1, _("Next"), "▶", "on", page.number + 1 >= page.pages),
            ):
                target = MyGamesId(mid.owner, max(0, page.number + move), tag)
                view.add_item(MyGamesButton(target, label=label, emoji=emoji, disabled=off))
        return embed, view


def _text(page: MyGamesPage) -> str:
    if not page.games:
        return _("You are in no game here. `{command}` lists the games to start.").format(
            command=spoken_command("/help")
        )
    waiting = ngettext("{n} game waits for you.", "{n} games wait for you.", page.waiting).format(
        n=number(page.waiting)
    )
    lines = [("▶ " if g.waiting else "• ") + g.line for g in page.games]
    return "\n".join([waiting, *lines])[:4096]


async def setup(bot: ParlourBot) -> None:
    """Load the cog, and route its buttons' clicks to it."""
    cog = MyGames(bot)
    bot.clicks.add(MyGamesId, cog.page_click)
    bot.add_dynamic_items(MyGamesButton)
    await bot.add_cog(cog)
