"""An event's house rules as its organiser types them, `races=2 track=short`, read against
the game's own declaration (`rules/<game>/options.py`): the same names, values and checks as
`/<game> new`'s parameters, declared once."""

from __future__ import annotations

from bot.errors import UserError, refused
from bot.language.i18n import _
from rules.core import IllegalAction
from rules.options import Kind, Option, OptionSet, OptionValue

MAX_TEXT = 200
_ON, _OFF = ("on", "yes", "true"), ("off", "no", "false")


def parse_house_rules(text: str, declared: OptionSet) -> dict[str, OptionValue]:
    """Each `name=value` of `text` as the option's value; UserError naming what is wrong
    (an unknown name, a value the option does not take, a pair without `=`)."""
    chosen: dict[str, OptionValue] = {}
    names = {option.name: option for option in declared}
    for pair in text.replace(",", " ").split():
        name, equals, value = pair.partition("=")
        if not equals or name not in names:
            known = ", ".join(f"`{n}`" for n in names) or "—"
            unknown = _("`{pair}` is not a house rule of this game: it has {names}.")
            raise UserError(unknown.format(pair=pair[:40], names=known))
        option = names[name]
        try:
            chosen[name] = option.check(_typed(option, value))
        except IllegalAction as e:
            raise refused(e) from e
    return chosen


def _typed(option: Option, value: str) -> object:
    """The value as the option's kind holds it (what the slash command's type would give),
    or the text itself when it is no such value (the option's check then says what is)."""
    word = value.strip().lower()
    if option.kind is Kind.FLAG:
        return True if word in _ON else False if word in _OFF else word
    wants_number = option.kind is Kind.NUMBER or any(
        isinstance(c.value, int) for c in option.choices
    )
    if wants_number and word.lstrip("-").isdigit():
        return int(word)
    return word
