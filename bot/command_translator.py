"""Slash commands in the member's language: discord.py asks this translator for every
name, description and choice of the command tree, once per Discord locale, when it builds
the payload it syncs (so the synced hash in `command_sync` covers the translations too)."""

from __future__ import annotations

import re

import discord
from discord import app_commands

from bot.i18n import COMMAND_NAME, SOURCE, language_of, translations

# What Discord accepts as a command, option or group name in any language.
NAME = re.compile(r"^[-_\w]{1,32}$")
_NAMES = (
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
)


class CatalogTranslator(app_commands.Translator):
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
            text = catalog.pgettext(COMMAND_NAME, english)
            # A name Discord would refuse must not stop the whole sync.
            ok = text == text.lower() and NAME.match(text) is not None
            return text if text != english and ok else None
        text = catalog.gettext(english)
        return text if text != english else None
