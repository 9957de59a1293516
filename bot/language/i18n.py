"""Parlour's languages: the gettext catalogs, and the language a piece of text is worded in.

English is the source language: every msgid is the English text, so English needs no
catalog. Each other language is one file, `bot/language/locale/<language>.po` (edited with Babel's
tools, see docs/LANGUAGES.md); it is compiled to a `.mo` in memory with Babel the
first time it is used, so a clean clone needs no build step and no compiled file goes stale.

Which language is spoken is a context variable: the router sets the clicker's for each
interaction (their private replies), and the publisher and the lobby set the game's around
a public message. Wording code simply calls `_` (or `ngettext`, `pgettext`); worker threads
started with `asyncio.to_thread` inherit the context, so pictures are worded the same way.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from gettext import NullTranslations
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

SOURCE = "en"  # the language of the msgids
CATALOGS = Path(__file__).parent / "locale"
# The context of slash command names: Discord holds them to stricter rules (lower case, no
# spaces) than the same English elsewhere.
COMMAND_NAME = "command name"

GAME_LANGUAGE = "language"  # the key of a game's language in its stored options

_speaking: ContextVar[str] = ContextVar("parlour_language", default=SOURCE)


@functools.cache
def languages() -> tuple[str, ...]:
    """The languages Parlour speaks: English and one per catalog (read once: every click
    asks, and the catalogs come with the code)."""
    return (SOURCE, *sorted(p.stem for p in CATALOGS.glob("*.po")))


def language_name(language: str, in_language: str | None = None) -> str:
    """A language's name, in `in_language` (the current language by default): "español"."""
    name = Locale.parse(language).get_display_name(in_language or current()) or language
    return name[:1].upper() + name[1:]


def language_of(locale: object) -> str:
    """The catalog language for a Discord locale (`es-ES`, `es-419` → `es`; `pt-BR` →
    `pt_BR` if that catalog exists, else `pt`); English for anything without a catalog."""
    if locale is None:
        return SOURCE
    tag = str(getattr(locale, "value", locale)).replace("-", "_")
    known = languages()
    for candidate in (tag, tag.split("_")[0]):
        if candidate in known:
            return candidate
    return SOURCE


def game_language(options: Mapping[str, Any]) -> str:
    """The language of a game's public messages and pictures (English for a game stored
    before games had one)."""
    language = options.get(GAME_LANGUAGE)
    return language if isinstance(language, str) and language in languages() else SOURCE


@functools.cache
def translations(language: str) -> NullTranslations:
    """The compiled catalog of `language` (English: none, the msgids are the text)."""
    path = CATALOGS / f"{language}.po"
    if language == SOURCE or not path.exists():
        return NullTranslations()
    with path.open("rb") as po:
        catalog = read_po(po, locale=language)
    mo = io.BytesIO()
    write_mo(mo, catalog)
    mo.seek(0)
    return Translations(mo)


def current() -> str:
    """The language being spoken now."""
    return _speaking.get()


def babel_locale() -> Locale:
    """The Babel locale for lists, plural rules and numbers in the current language
    (British English for English: its lists have no serial comma)."""
    language = current()
    return Locale.parse("en_GB" if language == SOURCE else language)


@contextmanager
def speaking(language: str) -> Iterator[None]:
    """Word everything inside in `language`."""
    token = _speaking.set(language)
    try:
        yield
    finally:
        _speaking.reset(token)


def _(message: str) -> str:
    """`message` (English) in the current language."""
    return translations(current()).gettext(message)


def ngettext(one: str, other: str, n: int) -> str:
    """The form of a message for a count of `n`, in the current language."""
    return translations(current()).ngettext(one, other, n)


def pgettext(context: str, message: str) -> str:
    """`message` in the current language, where the same English means something else
    elsewhere (slash command names)."""
    return translations(current()).pgettext(context, message)


def NP_(context: str, message: str) -> str:
    """Mark `message` in `context` for the catalog; `pgettext` translates it where shown."""
    return message


def N_(message: str) -> str:
    """Mark `message` for the catalog where it is defined; it is translated where shown."""
    return message
