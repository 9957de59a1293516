"""The catalogs: complete, placeholders intact, loaded from a clean clone; the synced slash
commands carry Spanish names, descriptions and choices Discord accepts; the language follows
the Discord locale; no Spanish plural agrees with a bare number."""

from __future__ import annotations

import re
import string

import discord
import pytest
from babel.messages.pofile import read_po

from bot.catalog import code_messages, command_messages, option_messages, source_catalog
from bot.language.command_translator import NAME, TEXT_LIMIT, CatalogTranslator, fits
from bot.language.i18n import (
    CATALOGS,
    COMMAND_NAME,
    _,
    language_of,
    languages,
    speaking,
    translations,
)
from bot.language.wording import count, listing, winners_phrase

CATALOG_LANGUAGES = [language for language in languages() if language != "en"]


def _fields(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


@pytest.mark.parametrize("language", CATALOG_LANGUAGES)
def test_every_message_of_the_source_is_translated(language: str) -> None:
    with (CATALOGS / f"{language}.po").open("rb") as po:
        catalog = read_po(po, locale=language)
    untranslated = []
    for message in source_catalog():
        if not message.id:
            continue
        translated = catalog.get(message.id, message.context)
        strings = translated.string if translated is not None else None
        if (
            not strings
            or (isinstance(strings, tuple) and not all(strings))
            or (translated is not None and translated.fuzzy)  # never compiled: still English
        ):
            untranslated.append(message.id)
    assert untranslated == []


@pytest.mark.parametrize("language", CATALOG_LANGUAGES)
def test_translations_keep_the_placeholders(language: str) -> None:
    with (CATALOGS / f"{language}.po").open("rb") as po:
        catalog = read_po(po, locale=language)
    for message in catalog:
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            assert _fields(text) == _fields(ids[0]), (message.id, text)


def test_the_template_is_up_to_date() -> None:
    """`python -m bot.catalog` was run after the last change of a message."""
    with (CATALOGS / "messages.pot").open("rb") as pot:
        committed = {(m.id, m.context) for m in read_po(pot) if m.id}
    assert {(m.id, m.context) for m in source_catalog() if m.id} == committed


def test_no_message_is_both_a_plural_and_a_singular_in_one_context() -> None:
    """A catalog holds one entry per English text and context: looked up with `_` where it
    is a plural elsewhere (or the other way round), it would never be translated."""
    singular, plural = set(), set()
    for message, context in (*code_messages(), *option_messages(), *command_messages()):
        if isinstance(message, tuple):
            plural.add((message[0], context))
        else:
            singular.add((message, context))
    assert not singular & plural, sorted(singular & plural, key=str)


def test_discord_locales_map_to_catalogs() -> None:
    assert language_of(discord.Locale.spain_spanish) == "es"
    assert language_of(discord.Locale.latin_american_spanish) == "es"
    assert language_of("es-419") == "es"
    assert language_of(discord.Locale.american_english) == "en"
    assert language_of(discord.Locale.french) == "en"  # no catalog: English
    assert language_of(None) == "en"


def test_spanish_words_plurals_and_lists() -> None:
    with speaking("es"):
        assert _("Join") == "Unirse"
        assert count(1, "token", "tokens") == "1 ficha"
        assert count(3, "token", "tokens") == "3 fichas"
        assert listing(["Ana", "Leo", "Mia"]) == "Ana, Leo y Mia"
        assert winners_phrase([1, 2], {}) == "<@1> y <@2> comparten la victoria"
    assert _("Join") == "Join" and listing(["Ana", "Leo", "Mia"]) == "Ana, Leo and Mia"


async def test_command_names_in_spanish_are_names_discord_accepts() -> None:
    with (CATALOGS / "es.po").open("rb") as po:
        catalog = read_po(po, locale="es")
    translator = CatalogTranslator()
    names = [m for m in catalog if m.id and m.context == COMMAND_NAME]
    assert names
    for message in names:
        assert isinstance(message.string, str)
        assert message.string == message.string.lower(), message.string
        assert NAME.match(message.string) and not re.search(r"\s", message.string)
    context = discord.app_commands.TranslationContext(
        discord.app_commands.TranslationContextLocation.command_name, None
    )
    for locale in (discord.Locale.spain_spanish, discord.Locale.latin_american_spanish):
        assert (
            await translator.translate(discord.app_commands.locale_str("new"), locale, context)
            == "nueva"
        )
    english = discord.Locale.british_english
    assert (
        await translator.translate(discord.app_commands.locale_str("new"), english, context) is None
    )


# Fields that hold a bare number somewhere ("{left} left"), and Spanish words that agree
# with a plural subject: a third-person plural verb ("quedan", "han unido", "entraron") or
# a participle after the number ("apartadas"; "3 acumulado" in the singular is as wrong).
# One beside a bare number reads wrong on some count ("le quedan 1"): a count is a plural
# message (`ngettext`), or the sentence is built so it needs none.
NUMBER_FIELDS = {
    "armies", "cards", "carried", "count", "each", "joined", "left", "n", "needed", "paid",
    "played", "points", "pot", "tokens", "total", "unpaid", "votes", "won",
}  # fmt: skip
_PLURAL_VERB = r"\w+(?:an|en|aron|ieron|ían)|han|son|van|dan"
_PARTICIPLE = r"\w+(?:ado|ada|ido|ida)s?"
_NOT_AGREEING = {"también", "orden", "origen", "bien", "quien", "partidas"}  # nouns, adverbs


def plural_with_a_bare_number(text: str) -> list[str]:
    """The places where a Spanish plural word agrees with a number field of `text`."""
    found = []
    for field in _fields(text) & NUMBER_FIELDS:
        before = rf"\b({_PLURAL_VERB})\s+(?:\w+(?:ado|ido)\s+)?\{{{field}\}}"
        after = rf"\{{{field}\}}\s+(?:más\s+)?({_PLURAL_VERB}|{_PARTICIPLE})\b"
        for pattern in (before, after):
            found += [m[0] for m in re.finditer(pattern, text) if m[1] not in _NOT_AGREEING]
    return found


def test_the_bare_number_check_finds_plural_words_that_fail_on_1() -> None:
    assert plural_with_a_bare_number("a {territory} le quedan {armies}") == ["quedan {armies}"]
    assert plural_with_a_bare_number("(se han unido {joined})") == ["han unido {joined}"]
    assert plural_with_a_bare_number("{armies} más entraron en {territory}") == [
        "{armies} más entraron"
    ]
    assert plural_with_a_bare_number(" ({cards} apartadas)") == ["{cards} apartadas"]
    assert plural_with_a_bare_number("{carried} acumulado") == ["{carried} acumulado"]
    assert plural_with_a_bare_number("{territory} se queda con {armies}") == []
    assert plural_with_a_bare_number("{players} comparten la victoria") == []  # not a number


def test_no_spanish_plural_agrees_with_a_bare_number() -> None:
    with (CATALOGS / "es.po").open("rb") as po:
        catalog = read_po(po, locale="es")
    wrong = {
        message.id: found
        for message in catalog
        if message.id and isinstance(message.string, str)  # plural messages agree already
        if (found := plural_with_a_bare_number(message.string))
    }
    assert wrong == {}


def _command_texts() -> list[str]:
    """Every description and choice of the slash commands (names have rules of their own)."""
    return [m for m, context in command_messages() if context is None and isinstance(m, str)]


@pytest.mark.parametrize("language", CATALOG_LANGUAGES)
def test_every_command_description_and_choice_fits_discords_limits(language: str) -> None:
    """One description or choice over Discord's limit would make it refuse the whole sync."""
    texts = _command_texts()
    assert texts and all(fits(text) for text in texts)  # the English
    with speaking(language):
        too_long = [(text, _(text)) for text in texts if not fits(_(text))]
    assert too_long == []


async def test_the_translator_leaves_out_a_description_discord_would_refuse(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The English is shown where a translation is too long: the sync still goes through."""
    catalog = translations("es")
    long = "x" * (TEXT_LIMIT + 1)
    monkeypatch.setattr(catalog, "gettext", lambda message: long if message == "A" else "B")
    translator = CatalogTranslator()
    where = discord.app_commands.TranslationContext(
        discord.app_commands.TranslationContextLocation.command_description, None
    )
    spanish = discord.Locale.spain_spanish
    assert await translator.translate(discord.app_commands.locale_str("A"), spanish, where) is None
    assert await translator.translate(discord.app_commands.locale_str("C"), spanish, where) == "B"
