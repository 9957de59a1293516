"""How the rules refuse: `IllegalAction`, its message kept as the catalog knows it, and the
helpers that build one. The ground floor of `rules/`: `rules/options.py` and `rules/core.py`
both refuse with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class IllegalAction(Exception):
    """Raised by `Engine.apply` for an action the rules forbid; the message is for the player.

    `str(e)` is the English. The message is also kept as the catalog knows it, so that the
    bot words it in the player's language (rules may not import the bot): `message`, the
    English with `{field}`s that `values` fill in, and for a noun agreeing with a count,
    `plural` (the catalog's plural form; the count is `values["n"]`).

    `IllegalAction("It is not your turn.")`,
    `IllegalAction("Move between {low} and {high} armies.", low=1, high=5)`; plurals are
    built with `illegal_count`. A value that is a catalog message itself (an option's title)
    is a `Term`; a tuple of values reads as alternatives ("1, 3 or 5"). Literal messages in
    `IllegalAction(...)`, `N_(...)` and `illegal_count(...)` are extracted for the catalog
    (`bot/catalog.py`).
    """

    def __init__(
        self, message: str, /, *, plural: str | None = None, **values: str | int | tuple[Any, ...]
    ) -> None:
        """A refusal: `message` (or `plural`, for a count `n` other than 1) with `values`."""
        self.message = message
        self.plural = plural
        self.values = values
        text = plural if plural is not None and values.get("n") != 1 else message
        english = {k: either(v) if isinstance(v, tuple) else v for k, v in values.items()}
        super().__init__(text.format(**english))


class Term(str):
    """A refusal's value that is a catalog message itself (an option's title): the bot
    translates it with the refusal."""


def illegal_count(
    one: str, other: str, /, n: int, **values: str | int | tuple[Any, ...]
) -> IllegalAction:
    """An IllegalAction whose words agree with the count `n` (mostly `{n}` in the message):
    `illegal_count("Place {n} army.", "Place {n} armies.", n=3)`."""
    return IllegalAction(one, plural=other, n=n, **values)


def N_(message: str) -> str:
    """Mark a message built away from its `IllegalAction` for the catalog (`bot/catalog.py`
    extracts it); the bot translates it where it is shown."""
    return message


def either(values: Sequence[object]) -> str:
    """Values as English alternatives: "1, 3 or 5"."""
    words = [str(v) for v in values]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"
