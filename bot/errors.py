"""Errors whose message is written for the player and shown to them ephemerally."""

from __future__ import annotations

from bot.language.i18n import _, ngettext
from bot.language.wording import listing
from rules.core import IllegalAction, Term


class UserError(Exception):
    """Bad input from a player (wrong turn, stale click, full lobby...): nothing changed."""


class GameUnreadable(UserError):
    """This version of the bot cannot load the game (a state of another version, a game no
    longer offered). The game is set aside; every other game plays on."""

    def __init__(self, reason: str, *, marked: bool = False) -> None:
        """`reason` is for the admin's log (the player reads a fixed apology); `marked`: the
        database has set the game aside already."""
        super().__init__(
            _(
                "This game can't be continued: it was saved in a form this version of Parlour "
                "can't read. The bot's admin can find the details in its log."
            )
        )
        self.reason = reason
        self.marked = marked  # set aside already (the database says so)


def refused(illegal: IllegalAction) -> UserError:
    """The rules' refusal (`IllegalAction`, English) worded in the current language."""
    n = illegal.values.get("n")
    if illegal.plural is None or not isinstance(n, int):
        text = _(illegal.message)
    else:
        text = ngettext(illegal.message, illegal.plural, n)
    return UserError(text.format(**{k: _worded(v) for k, v in illegal.values.items()}))


def _worded(value: object) -> object:
    if isinstance(value, Term):
        return _(value)
    if isinstance(value, tuple):
        return listing([str(v) for v in value], either=True)
    return value
