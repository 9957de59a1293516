"""House-rule options, declared once per game.

Each game lists its options in `rules/<game>/options.py` as one `OptionSet`. Everything else
about an option is derived from that declaration: here, validation with a refusal worded for
the host and the defaults an engine plays with; in `cogs/options.py`, the slash command's
options, the lobby's "House rules" lines and the option list of `/<game> rules`. Adding an
option is one line there plus the rule that reads it.

Options arrive as a JSON-safe mapping (from the slash command, or stored with a game long
ago), so a missing key takes its default and a key no option declares is left alone: the
table keeps its own settings, such as `turn_timer`, in the same mapping.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Container, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeGuard

from rules.refusals import IllegalAction, Term

Options = Mapping[str, Any]
"""House options as chosen: a JSON-safe mapping of option names to values."""

OptionValue = bool | int | str
"""What an option can be set to: on/off, a whole number, or one of its choices' values."""


class Kind(enum.Enum):
    """The shape of an option's value, which decides how it is offered and checked."""

    FLAG = "flag"  # on or off
    NUMBER = "number"  # a whole number from `low` to `high`
    CHOICE = "choice"  # one of `choices` (their values are all ints or all strings)


@dataclass(frozen=True)
class Choice:
    """One value of a `Kind.CHOICE` option and its label (the slash command's choice name,
    also shown in the lobby)."""

    value: int | str
    label: str


TableRule = Callable[[OptionValue], Container[int]]
"""The table sizes at which an option's value may be played (e.g. Horse Collar's sides)."""


@dataclass(frozen=True)
class Option:
    """One house rule.

    Attributes:
        name: The key in stored options and the slash command's option name.
        title: How the lobby and a refusal name it ("Point limit").
        description: One line of at most 100 characters, shown with the slash command and in
            `/<game> rules`.
        kind: Flag, number or choice.
        default: The value the rules reference gives it.
        low: The smallest whole number a `Kind.NUMBER` option accepts.
        high: The largest.
        choices: A `Kind.CHOICE` option's values, in the order offered.
        zero: For a number whose 0 turns the rule off, how that 0 reads ("off", "none").
        tables: The table sizes at which a value may be played; None for every size.
        misfit: The refusal when `tables` excludes the table, with `{players}` and `{value}`
            filled in.
    """

    name: str
    title: str
    description: str
    kind: Kind
    default: OptionValue
    low: int = 0
    high: int = 0
    choices: tuple[Choice, ...] = ()
    zero: str = ""
    tables: TableRule | None = None
    misfit: str = ""

    def __post_init__(self) -> None:
        """Refuse a declaration Discord would refuse, or that contradicts itself."""
        _check_declaration(self)

    def check(self, value: object) -> OptionValue:
        """`value` if it is a value of this option, else IllegalAction saying what is."""
        if self.kind is Kind.FLAG:
            if isinstance(value, bool):
                return value
            raise IllegalAction("{title}: on or off.", title=Term(self.title))
        if self.kind is Kind.NUMBER:
            if _whole(value) and self.low <= value <= self.high:
                return value
            raise IllegalAction(
                "{title}: a whole number from {low} to {high}.",
                title=Term(self.title),
                low=self.low,
                high=self.high,
            )
        for choice in self.choices:
            # A bool is an int in Python: True must not pass for a choice of 1.
            if type(value) is type(choice.value) and value == choice.value:
                return choice.value
        values = tuple(c.value for c in self.choices)
        raise IllegalAction("{title}: {values}.", title=Term(self.title), values=values)

    def fits(self, value: OptionValue, players: int) -> bool:
        """Whether a table of `players` may play this option set to `value`."""
        return self.tables is None or players in self.tables(value)

    def word(self, value: OptionValue) -> str:
        """`value` as the lobby shows it: on/off, its choice's label, or the number."""
        if self.kind is Kind.FLAG:
            return "on" if value else "off"
        if self.kind is Kind.CHOICE:
            # A value stored before a choice was withdrawn still reads as itself.
            return next((c.label for c in self.choices if c.value == value), str(value))
        return self.zero if value == 0 and self.zero else str(value)


def flag(name: str, title: str, description: str, *, default: bool = False) -> Option:
    """An option that is on or off."""
    return Option(name, title, description, Kind.FLAG, default)


def number(
    name: str,
    title: str,
    description: str,
    *,
    default: int,
    low: int,
    high: int,
    zero: str = "",
    tables: TableRule | None = None,
    misfit: str = "",
) -> Option:
    """An option that is a whole number from `low` to `high`."""
    return Option(
        name,
        title,
        description,
        Kind.NUMBER,
        default,
        low,
        high,
        zero=zero,
        tables=tables,
        misfit=misfit,
    )


def choice(
    name: str,
    title: str,
    description: str,
    *,
    default: int | str,
    choices: Sequence[tuple[int | str, str]],
    tables: TableRule | None = None,
    misfit: str = "",
) -> Option:
    """An option that is one of `choices`, given as (value, label) pairs."""
    labelled = tuple(Choice(value, label) for value, label in choices)
    return Option(
        name,
        title,
        description,
        Kind.CHOICE,
        default,
        choices=labelled,
        tables=tables,
        misfit=misfit,
    )


@dataclass(frozen=True)
class Chosen:
    """A game's options, every one of them set: checked, with defaults filled in."""

    values: Mapping[str, OptionValue]

    def flag(self, name: str) -> bool:
        """A `Kind.FLAG` option's value."""
        value = self.values[name]
        assert isinstance(value, bool), name
        return value

    def number(self, name: str) -> int:
        """A whole-number option's value (a number, or a choice of numbers)."""
        value = self.values[name]
        assert _whole(value), name
        return value

    def text(self, name: str) -> str:
        """A choice option's value, when its values are strings."""
        value = self.values[name]
        assert isinstance(value, str), name
        return value


@dataclass(frozen=True)
class OptionSet:
    """Every house rule of one game, in the order they are offered."""

    options: tuple[Option, ...]

    def __post_init__(self) -> None:
        """Refuse two options of one name, or more than a slash command takes."""
        names = [o.name for o in self.options]
        if len(set(names)) != len(names):
            raise ValueError(f"an option is declared twice: {names}")
        if len(names) > MAX_OPTIONS:
            raise ValueError(f"at most {MAX_OPTIONS} options: the table adds `turn_timer`")

    def __iter__(self) -> Iterator[Option]:
        """The options, in declaration order."""
        return iter(self.options)

    def __getitem__(self, name: str) -> Option:
        """The option called `name`."""
        return next(o for o in self.options if o.name == name)

    def defaults(self) -> Chosen:
        """Every option at its default."""
        return Chosen({o.name: o.default for o in self.options})

    def resolve(self, given: Options, players: int | range) -> Chosen:
        """The options `given`, checked and completed with defaults.

        Args:
            given: The options as chosen or stored; a missing one takes its default, and keys
                no option declares are ignored (they belong to the table, e.g. `turn_timer`).
            players: The table's size, or the range of sizes the game allows when no table
                is seated yet: then the options need only suit one of them.

        Raises:
            IllegalAction: With a message for the host, for a value the option does not take
                or a table size (or range of sizes) that does not suit the options.
        """
        chosen = {o.name: o.check(given.get(o.name, o.default)) for o in self.options}
        sizes = range(players, players + 1) if isinstance(players, int) else players
        misfits = [self._misfit(chosen, n) for n in sizes]
        if misfits[0] is not None and all(misfits):
            raise misfits[0]
        return Chosen(chosen)

    def _misfit(self, chosen: Mapping[str, OptionValue], players: int) -> IllegalAction | None:
        """Why a table of `players` cannot play `chosen`, or None when it can."""
        for option in self.options:
            value = chosen[option.name]
            if not option.fits(value, players):
                return IllegalAction(option.misfit, players=players, value=value)
        return None


def _whole(value: object) -> TypeGuard[int]:
    """An int that is not a bool (True is 1 to Python, not to a player)."""
    return isinstance(value, int) and not isinstance(value, bool)


# Discord's limits on a slash command's options and choices.
MAX_NAME = 32
MAX_TEXT = 100
MAX_CHOICES = 25
MAX_OPTIONS = 25 - 1  # a `new` command also takes the table's `turn_timer`


def _check_declaration(option: Option) -> None:
    if not (option.name and len(option.name) <= MAX_NAME and option.name == option.name.lower()):
        raise ValueError(f"{option.name!r}: a name is 1-{MAX_NAME} lower-case characters")
    if not 1 <= len(option.description) <= MAX_TEXT:
        raise ValueError(f"{option.name}: a description is 1-{MAX_TEXT} characters")
    if option.kind is Kind.CHOICE:
        if not 1 <= len(option.choices) <= MAX_CHOICES:
            raise ValueError(f"{option.name}: 1 to {MAX_CHOICES} choices")
        if len({type(c.value) for c in option.choices}) != 1:
            raise ValueError(f"{option.name}: choice values are all ints or all strings")
        if any(not 1 <= len(c.label) <= MAX_TEXT for c in option.choices):
            raise ValueError(f"{option.name}: a choice label is 1-{MAX_TEXT} characters")
    if option.kind is Kind.NUMBER and option.low > option.high:
        raise ValueError(f"{option.name}: low > high")
    if option.tables is not None and not option.misfit:
        raise ValueError(f"{option.name}: a table rule needs its refusal (`misfit`)")
    try:
        option.check(option.default)
    except IllegalAction as e:
        raise ValueError(f"{option.name}: the default is not one of its values") from e
