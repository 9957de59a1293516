"""Slash commands in the member's language: discord.py asks this translator for every
name, description and choice of the command tree, once per Discord locale, when it builds
the payload it syncs (so the synced hash in `command_sync` covers the translations too).
A translation Discord would refuse (a name against its rules, a description too long) is
left out, so Discord shows the English there instead of refusing every command."""

from __future__ import annotations

import logging
import re

import discord
from discord import app_commands

from bot.language.i18n import COMMAND_NAME, SOURCE, current, language_of, translations

# What Discord accepts as a command, option or group name in any language.
NAME = re.compile(r"^[-_\w]{1,32}$")
# The most characters Discord accepts in a description or a choice's name: one longer
# translation would make it refuse the whole sync.
TEXT_LIMIT = 100
log = logging.getLogger(__name__)
_NAMES = (
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
)


class CatalogTranslator(app_commands.Translator):
    """discord.py's translator for the command tree, reading the bot's message catalogs."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The catalog's translation, or None (Discord then shows the English)."""
        language = language_of(locale)
        if language == SOURCE:
            return None
        catalog = translations(language)
        english = string.message
        if context.location in _NAMES:
            return _localized_name(language, english)
        text = catalog.gettext(english)
        if text == english:
            return None
        if not fits(text):
            log.warning("%s translation too long for Discord, English shown: %r", language, text)
            return None
        return text


def fits(text: str) -> bool:
    """Whether Discord accepts `text` as a description or a choice's name."""
    return 0 < len(text) <= TEXT_LIMIT


def _localized_name(language: str, english: str) -> str | None:
    """A command, group or option name in `language`, or None where the catalog has none
    that Discord would accept (a name it refuses must not stop the whole sync)."""
    text = translations(language).pgettext(COMMAND_NAME, english)
    ok = text == text.lower() and NAME.match(text) is not None
    return text if text != english and ok else None


def spoken_name(english: str) -> str:
    """A command, group or option name as members speaking the current language see it in
    Discord (the synced tree's localization)."""
    return _localized_name(current(), english) or english


def spoken_command(english: str) -> str:
    """A command as members speaking the current language see it: "/risk new" is
    "/risk nueva" in Spanish."""
    return "/" + " ".join(map(spoken_name, english.lstrip("/").split()))
