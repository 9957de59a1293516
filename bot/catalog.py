"""The message catalog's source: `python -m bot.catalog` extracts every English string a
player may read into `bot/language/locale/messages.pot` and merges it into each language's `.po`
(new messages untranslated, vanished ones marked obsolete), for a translator to fill in.

Four places hold those strings: the code, marked for Babel's Python extractor (`_`, `N_`,
`ngettext`, `pgettext` and the counting helpers `count`/`agree` of `bot/language/wording.py`; the
pictures' own `images/words.py` has the same names); the house-rule declarations
(`rules/<game>/options.py`, which may not import the bot); Risk's map (territory and
continent names, `rules/risk/map.py`); and the
slash commands (names, docstring descriptions, parameters and choices), walked here from
the cogs. Command names are in the context `COMMAND_NAME`, because Discord holds them to
stricter rules than the same English elsewhere.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po
from discord import app_commands
from discord.ext import commands

from bot.client import COGS
from bot.language.i18n import CATALOGS, COMMAND_NAME
from rules.registry import ENGINES
from rules.risk.map import CONTINENTS, TERRITORIES

ROOT = Path(__file__).parent.parent
SOURCES = ("bot", "cogs", "images", "rules")
KEYWORDS = {
    "_": None,
    "N_": None,
    "NP_": ((1, "c"), 2),  # images/words.py: marked in a context, translated where drawn
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "count": (2, 3),  # count(n, one, other)
    "agree": (2, 3),  # agree(n, one, other)
    # The rules' refusals (`rules.core`): the bot words them in the player's language.
    "IllegalAction": None,
    "illegal_count": (1, 2),
}
# The context of the Risk map's names, as `images/risk_layout.py` marks its short ones.
MAP_NAME = "map name"
Message = tuple[str | tuple[str, str], str | None]  # (msgid or (one, other), context)


def code_messages() -> Iterator[Message]:
    """The strings marked in the code (`KEYWORDS`: `_`, `N_`, the counting helpers...), as Babel's
    Python extractor finds them."""
    for folder in SOURCES:
        method_map = [("**.py", "python")]
        for _file, _line, message, _comments, context in extract_from_dir(
            ROOT / folder, method_map, keywords=KEYWORDS
        ):
            yield (message if isinstance(message, str) else tuple(message)), context  # type: ignore[misc]


def option_messages() -> Iterator[Message]:
    """The house rules' titles, descriptions and choices (declared in the rules, which may not
    import the bot), and the words a flag reads as."""
    yield from (("on", None), ("off", None))  # how `Option.word` words a flag
    for engine in ENGINES.values():
        for option in engine.options:
            for text in (option.title, option.description, option.zero, option.misfit):
                if text:
                    yield text, None
            for choice in option.choices:
                yield choice.label, None


def map_messages() -> Iterator[Message]:
    """Risk's territory and continent names (the rules' map, which may not import the bot),
    translated where a board, a menu or the map shows them; and each territory's name as
    the map may draw it (context `MAP_NAME`), which a language may shorten to fit."""
    for territory in TERRITORIES.values():
        yield territory.name, None
        yield territory.name, MAP_NAME
    for continent in CONTINENTS.values():
        yield continent.name, None


def command_messages() -> Iterator[Message]:
    """Every slash command's names, descriptions, parameters and choices, walked from the
    cogs the bot loads (the games' cogs through `cogs.games`, which imports them)."""
    for cog in _cogs():
        if issubclass(cog, commands.GroupCog):
            yield cog.__cog_group_name__, COMMAND_NAME  # type: ignore[misc]
            yield str(cog.__cog_group_description__), None
        for command in cog.__cog_app_commands__:
            yield from _walk(command)


def _cogs() -> Iterator[type[commands.Cog]]:
    """Each cog class with commands, defined in a module of `cogs/` that loading `COGS`
    imports (a base such as `cogs.game_cog.GameCog` has none of its own)."""
    for name in COGS:
        importlib.import_module(name)
    for name, module in sorted(sys.modules.items()):
        if name.startswith("cogs."):
            for value in vars(module).values():
                if (
                    isinstance(value, type)
                    and issubclass(value, commands.Cog)
                    and value.__module__ == name
                    and value.__cog_app_commands__
                ):
                    yield value


def _walk(command: Any) -> Iterator[Message]:
    yield command.name, COMMAND_NAME
    yield command.description, None
    if isinstance(command, app_commands.Group):
        for sub in command.commands:
            yield from _walk(sub)
        return
    for parameter in command.parameters:
        yield parameter.display_name, COMMAND_NAME  # as Discord shows it (`@rename`d or not)
        yield parameter.description, None
        for choice in parameter.choices:
            yield choice.name, None


def source_catalog() -> Catalog:
    """Every message of the source language, as a template."""
    catalog = Catalog(project="Parlour", fuzzy=False)
    for source in (code_messages(), option_messages(), map_messages(), command_messages()):
        for message, context in source:
            if message and message != "…":  # "…": discord.py's description for none given
                catalog.add(message, context=context)
    return catalog


def main() -> None:
    """`python -m bot.catalog`: write `messages.pot` and merge it into each language's `.po`."""
    template = source_catalog()
    with (CATALOGS / "messages.pot").open("wb") as out:
        write_po(out, template, omit_header=False, sort_output=True, width=100)
    for path in sorted(CATALOGS.glob("*.po")):
        with path.open("rb") as po:
            catalog = read_po(po, locale=path.stem)
        catalog.update(template, no_fuzzy_matching=True)
        with path.open("wb") as out:
            write_po(out, catalog, sort_output=True, width=100, ignore_obsolete=True)
        print(f"{path.name}: {len(catalog)} messages")


if __name__ == "__main__":
    main()
