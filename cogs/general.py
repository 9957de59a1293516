"""`/games`, `/help` and the server admins' `/settings`."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.storage import ACTIVE, LOBBY
from bot.tables import format_duration
from cogs.options import TURN_TIMER_CHOICES

HELP = """\
**Start a game:** `/<game> new` opens a lobby here. Others click **Join** (or the host \
clicks **Add bot**), then the host clicks **Start**: the game gets its own thread.
**Play:** click the buttons and menus under the board in the game's thread. Only the \
player whose turn it is can move; everyone else gets a private note. Your cards, bets or \
mission are behind the 🔒 button, seen only by you.
**See:** `/games` (games in this server), `/scoreboard` (standings per game), \
`/stats` (one member's record).
**Admins:** `/settings turn-timer` sets the default turn timer for new games."""


def command_of(game: str) -> str:
    """A game's slash command group: its registry name with hyphens (`/horse-collar`)."""
    return "/" + game.replace("_", "-")


class General(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="games")
    @app_commands.guild_only()
    async def games(self, interaction: discord.Interaction) -> None:
        """List the games being played or waiting for players in this server."""
        assert interaction.guild is not None
        tables = self.bot.tables  # type: ignore[attr-defined]
        storage = tables.service.storage
        lines = []
        for status in (ACTIVE, LOBBY):
            for row in await storage.games(status=status, guild_id=interaction.guild.id):
                title = tables.presenter(row.game).title
                seats = await storage.seats(row.id)
                players = ", ".join(s.name for s in seats)
                where = (
                    f"<#{row.thread_id}>"
                    if status == ACTIVE and row.thread_id
                    else f"lobby in <#{row.channel_id}>"
                )
                lines.append(f"**{title} #{row.id}** — {players} — {where}")
        text = "\n".join(lines[:25]) or "No games right now. `/help` lists the games to start."
        embed = discord.Embed(title="Games in this server", description=text)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="help")
    async def help(self, interaction: discord.Interaction) -> None:
        """How to use Parlour."""
        presenters = self.bot.tables.presenters.values()  # type: ignore[attr-defined]
        games = "\n".join(
            f"• **{p.title}**: `{command_of(p.game)} new` · `{command_of(p.game)} rules`"
            for p in presenters
        )
        embed = discord.Embed(
            title="Parlour — tabletop games in chat", description=f"**Games:**\n{games}\n{HELP}"
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    settings = app_commands.Group(
        name="settings",
        description="Server settings for Parlour",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    @settings.command(name="turn-timer")
    @app_commands.describe(timer="How long a player may take before the AI plays their turn")
    @app_commands.choices(timer=TURN_TIMER_CHOICES)
    async def turn_timer(self, interaction: discord.Interaction, timer: int) -> None:
        """Set the default turn timer for new games in this server."""
        assert interaction.guild is not None
        storage = self.bot.tables.service.storage  # type: ignore[attr-defined]
        await storage.set_guild_turn_timer(interaction.guild.id, timer)
        await interaction.response.send_message(
            f"New games in this server now have a turn timer of {format_duration(timer)}.",
            ephemeral=True,
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(General(bot))
