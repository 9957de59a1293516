"""What every game's `new` and `rules` commands share: the `new` command built from the game's
declared house rules (`rules/<game>/options.py`) plus the turn timer, the lobby's "House
rules" lines and the option list of `/<game> rules`, opening the lobby, and the rules reply.

A game declares an option once; the slash command's parameter (its type, range or choices
and description), the lobby line and the rules line all come from that declaration.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import discord
from discord import app_commands

from bot.client import Interaction
from bot.errors import UserError
from bot.language.command_translator import spoken_command, spoken_name
from bot.language.i18n import _
from bot.language.wording import listing
from bot.ui.replies import Reply
from rules.options import Kind, Option, OptionSet, OptionValue

TURN_TIMER = "turn_timer"
TURN_TIMER_CHOICES = [
    app_commands.Choice(name="off", value=0),
    app_commands.Choice(name="2 minutes", value=120),
    app_commands.Choice(name="10 minutes", value=600),
    app_commands.Choice(name="1 hour", value=3600),
    app_commands.Choice(name="24 hours", value=86400),
]
TURN_TIMER_HELP = "Remind an absent player, then let the AI play their turn (default: server's)"

Wording = Mapping[str, Callable[[OptionValue], str]]
"""A game's own wording of some options' values in the lobby, by option name."""


async def open_lobby(
    interaction: Interaction, game: str, options: dict[str, Any], turn_timer: int | None
) -> None:
    """Open `game`'s lobby with the house options chosen in the slash command."""
    if turn_timer is not None:
        options[TURN_TIMER] = turn_timer
    await interaction.client.lobby.open(Reply.of(interaction), game, options)


async def send_rules(interaction: Interaction, title: str, text: str, colour: int) -> None:
    """`/<game> rules`: the rules in short, to the asker only."""
    heading = _("{game} — the rules in short").format(game=title)
    embed = discord.Embed(title=heading, description=text, colour=colour)
    await Reply.of(interaction).private(embed=embed)


# --- the `new` command ---------------------------------------------------------------------


def new_command(
    game: str, declared: OptionSet, description: str
) -> app_commands.Command[Any, ..., None]:
    """`/<game> new`, with one parameter per declared option and the turn timer.

    discord.py reads a command's parameters from its callback's signature, so the callback
    gets a signature built from the declaration: its default, and the type that gives the
    option its kind (`bool`, `Range[int, low, high]`, or the choices' type with the choices).
    Put it in the game's cog class as `new = new_command(...)`.
    """

    async def new(cog: Any, interaction: Interaction, **chosen: Any) -> None:
        turn_timer = chosen.pop(TURN_TIMER)
        await open_lobby(interaction, game, chosen, turn_timer)

    # A qualified name makes discord.py treat the callback as a method (the cog comes first).
    new.__qualname__ = "GameCog.new"
    new.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [
            inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
            inspect.Parameter(
                "interaction",
                inspect.Parameter.POSITIONAL_OR_KEYWORD,
                annotation=discord.Interaction,
            ),
            *(
                inspect.Parameter(
                    o.name, inspect.Parameter.KEYWORD_ONLY, default=o.default, annotation=_type(o)
                )
                for o in declared
            ),
            inspect.Parameter(
                TURN_TIMER, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=int | None
            ),
        ]
    )
    descriptions = {o.name: o.description for o in declared} | {TURN_TIMER: TURN_TIMER_HELP}
    choices: dict[str, list[app_commands.Choice[Any]]] = {
        o.name: [app_commands.Choice(name=c.label, value=c.value) for c in o.choices]
        for o in declared
        if o.kind is Kind.CHOICE
    }
    choices[TURN_TIMER] = TURN_TIMER_CHOICES
    callback = app_commands.choices(**choices)(app_commands.describe(**descriptions)(new))
    # Public: a slow moment defers it in public, so that the lobby can still be posted.
    return app_commands.command(name="new", description=description, extras={"public": True})(
        callback
    )


def _type(option: Option) -> Any:
    """The parameter type discord.py turns into the option's kind."""
    if option.kind is Kind.FLAG:
        return bool
    if option.kind is Kind.NUMBER:
        return app_commands.Range[int, option.low, option.high]
    return type(option.choices[0].value)


# --- the lobby and `/<game> rules` ---------------------------------------------------------


def house_rules(
    declared: OptionSet, options: Mapping[str, Any], words: Wording | None = None
) -> list[str]:
    """The lobby's "House rules" lines, `Title: value`, one per declared option (a game
    stored before an option existed plays it at its default)."""
    lines = []
    for option in declared:
        value = options.get(option.name, option.default)
        word = (words or {}).get(option.name, _worded(option))
        lines.append(f"{_(option.title)}: {word(value)}")
    return lines


def _worded(option: Option) -> Callable[[OptionValue], str]:
    """The declaration's wording of a value (on/off, a choice's label), translated."""
    return lambda value: _(option.word(value))


def rules_text(
    summary: Sequence[str], declared: OptionSet, command: str, **values: int | str
) -> str:
    """`/<game> rules`: the rules in short (one catalog message per paragraph, `values`
    filling their `{fields}`), then every house rule the `new` command offers, what it takes
    and its default."""
    paragraphs = [_(paragraph).format(**values) for paragraph in summary]
    lines = [f"• **{spoken_name(o.name)}** — {_(o.description)} · {_takes(o)}" for o in declared]
    heading = _("**House rules** (options of `{command}`):")
    heading = heading.format(command=spoken_command(command))
    return "\n".join([*paragraphs, heading, *lines])


def _takes(option: Option) -> str:
    default = _worded(option)(option.default)
    if option.kind is Kind.FLAG:
        return _("on/off, default {default}").format(default=default)
    if option.kind is Kind.NUMBER:
        values = f"{option.low}–{option.high}"
        return _("{values}, default {default}").format(values=values, default=default)
    # The choices as the slash command offers them (by label, in the reader's language).
    values = listing([_(c.label) for c in option.choices], either=True)
    return _("{values}, default {default}").format(values=values, default=default)


def guild_id(interaction: Interaction) -> int:
    """The server a command was used in (server-only commands; Discord enforces it)."""
    if interaction.guild_id is None:
        raise UserError(_("This command works in a server, not in direct messages."))
    return interaction.guild_id
