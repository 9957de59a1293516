"""What every game's `new` and `rules` commands share: the turn-timer option, opening the
lobby, and the rules summary reply."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

TURN_TIMER_CHOICES = [
    app_commands.Choice(name="off", value=0),
    app_commands.Choice(name="2 minutes", value=120),
    app_commands.Choice(name="10 minutes", value=600),
    app_commands.Choice(name="1 hour", value=3600),
    app_commands.Choice(name="24 hours", value=86400),
]
TURN_TIMER_HELP = "Remind an absent player, then let the AI play their turn (default: server's)"


def on_off(value: object) -> str:
    return "on" if value else "off"


async def open_lobby(
    interaction: discord.Interaction, game: str, options: dict[str, Any], turn_timer: int | None
) -> None:
    """Open `game`'s lobby with the house options chosen in the slash command."""
    if turn_timer is not None:
        options["turn_timer"] = turn_timer
    await interaction.client.tables.open_lobby(interaction, game, options)  # type: ignore[attr-defined]


async def send_rules(interaction: discord.Interaction, title: str, text: str, colour: int) -> None:
    """`/<game> rules`: the rules in short, to the asker only."""
    embed = discord.Embed(title=f"{title} — the rules in short", description=text, colour=colour)
    await interaction.response.send_message(embed=embed, ephemeral=True)
