"""Slash-command option choices shared by every game's `new` command."""

from discord import app_commands

TURN_TIMER_CHOICES = [
    app_commands.Choice(name="off", value=0),
    app_commands.Choice(name="2 minutes", value=120),
    app_commands.Choice(name="10 minutes", value=600),
    app_commands.Choice(name="1 hour", value=3600),
    app_commands.Choice(name="24 hours", value=86400),
]
TURN_TIMER_HELP = "Remind an absent player, then let the AI play their turn (default: server's)"
