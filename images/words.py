"""The words drawn in pictures, in the language being spoken.

`images/` may not import the bot, which holds the catalogs and knows the language: the bot
hands its translation functions in once at start-up (`use_translations`, from
`cogs/pictures.py`), and renderers word their text with `_`, `ngettext` and `pgettext` here,
marked for the catalog like the bot's own. Pictures are drawn where the game's language is
spoken (a worker thread inherits it), so a Spanish game's board is drawn in Spanish. Until
the bot installs its functions (a renderer tested or benchmarked alone) the words are the
English msgids. A static layer holding words is cached per language: it takes `language()`
as an argument. A picture worded in a language of its own (not the one being spoken) is drawn
inside `in_language`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass

from babel.lists import format_list
from babel.numbers import format_decimal

SOURCE = "en"


@dataclass(frozen=True)
class Translations:
    """The gettext functions pictures are worded with."""

    gettext: Callable[[str], str]
    ngettext: Callable[[str, str, int], str]
    pgettext: Callable[[str, str], str]
    language: Callable[[], str]
    speaking: Callable[[str], AbstractContextManager[object]] = lambda _language: nullcontext()


_ENGLISH = Translations(
    gettext=lambda message: message,
    ngettext=lambda one, other, n: one if n == 1 else other,
    pgettext=lambda _context, message: message,
    language=lambda: SOURCE,
)
_installed = _ENGLISH


def use_translations(translations: Translations | None) -> None:
    """Word pictures with `translations` from now on (None: English)."""
    global _installed
    _installed = translations or _ENGLISH


def language() -> str:
    """The language pictures are being worded in: part of a cached layer's key."""
    return _installed.language()


def in_language(spoken: str) -> AbstractContextManager[object]:
    """Word pictures in `spoken` within this block (English until the bot's catalogs are
    installed)."""
    return _installed.speaking(spoken)


def _(message: str) -> str:
    return _installed.gettext(message)


def ngettext(one: str, other: str, n: int) -> str:
    """`message` or its plural for `n`, in the installed language."""
    return _installed.ngettext(one, other, n)


def pgettext(context: str, message: str) -> str:
    """`message` in `context`, in the installed language."""
    return _installed.pgettext(context, message)


def _locale() -> str:
    """Babel's locale for the language drawn (British English: no serial comma)."""
    spoken = language()
    return "en_GB" if spoken == SOURCE else spoken


def decimal(value: float, pattern: str = "0.##") -> str:
    """A number as the language drawn writes it (CLDR `pattern`): Spanish "1,5"."""
    return format_decimal(value, format=pattern, locale=_locale())


def listing(items: Sequence[str]) -> str:
    """Items as the language drawn lists them: "Ana and Leo", Spanish "Ana y Leo"."""
    return format_list(list(items), locale=_locale()) if items else ""


def N_(message: str) -> str:
    """Mark `message` for the catalog where it is defined; it is translated where drawn."""
    return message


def NP_(context: str, message: str) -> str:
    """Mark `message` in `context` for the catalog (`pgettext` translates it where drawn)."""
    return message
