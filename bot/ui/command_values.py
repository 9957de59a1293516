"""A slash command's option values, held to what the command offers before it runs.

Discord checks an option's choices, range and length only in the member's client, against
the definition that client holds: a client with an older definition (after an upgrade,
before the new commands reach it) or a custom client sends what it likes, and discord.py
hands such a value to the command as it came. So every value is checked here against its
parameter, which carries the declaration it was built from (a game's house rules, the shared
turn timer, `/settings`' choices, a `Range`): the refusal names what the option takes.
"""

from __future__ import annotations

from typing import Any

from discord import AppCommandOptionType as Kind
from discord import app_commands

from bot.language.command_translator import spoken_name
from bot.language.i18n import _
from bot.language.wording import listing

SHOWN = 20  # characters of a refused value repeated in the refusal


def refusal(
    command: app_commands.Command[Any, ..., Any] | app_commands.ContextMenu | None,
    namespace: app_commands.Namespace,
) -> str | None:
    """Why a value given to `command` is not one it offers, or None when all are (or no
    command of this version was called: discord.py answers that itself)."""
    if not isinstance(command, app_commands.Command):
        return None  # a context menu takes no values
    for parameter in command.parameters:
        value = namespace.__dict__.get(parameter.display_name)
        if value is not None and not _offered(parameter, value):
            text = _("**{option}** can't be `{value}`: it takes {allowed}.")
            return text.format(
                option=spoken_name(parameter.display_name),
                value=_shown(value),
                allowed=_allowed(parameter),
            )
    return None


def _offered(parameter: app_commands.Parameter, value: Any) -> bool:
    if parameter.choices:
        # By type too: True must not pass for a choice of 1, nor "1" for 1.
        return any(type(value) is type(c.value) and value == c.value for c in parameter.choices)
    kind, low, high = parameter.type, parameter.min_value, parameter.max_value
    if kind is Kind.boolean:
        return isinstance(value, bool)
    if kind is Kind.string:  # its range is one of lengths
        return isinstance(value, str) and _within(len(value), low, high)
    if kind in (Kind.integer, Kind.number):
        kinds = (int,) if kind is Kind.integer else (int, float)
        number = isinstance(value, kinds) and not isinstance(value, bool)
        return number and _within(value, low, high)
    return True  # members, channels, roles: Discord resolves them


def _within(value: float, low: float | None, high: float | None) -> bool:
    return (low is None or value >= low) and (high is None or value <= high)


def _allowed(parameter: app_commands.Parameter) -> str:
    """What the option takes, in the member's words: its choices as the command shows them,
    or the kind of value and its range."""
    if parameter.choices:
        return listing([_(c.name) for c in parameter.choices], either=True)
    kind, low, high = parameter.type, parameter.min_value, parameter.max_value
    if kind is Kind.boolean:
        return _("true or false")
    if kind is Kind.string:
        if high is None:
            return _("text")
        return _("text of {low} to {high} characters").format(low=low or 0, high=high)
    if low is None or high is None:
        return _("a whole number") if kind is Kind.integer else _("a number")
    if kind is Kind.integer:
        return _("a whole number from {low} to {high}").format(low=low, high=high)
    return _("a number from {low} to {high}").format(low=low, high=high)


def _shown(value: Any) -> str:
    """The value as the member sent it, cut short, for inline code (no backticks)."""
    text = str(value).replace("`", "")
    return text[:SHOWN] + "…" if len(text) > SHOWN else text
