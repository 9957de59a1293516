"""The classic Risk map (docs/rules/risk.md, "The map"): 42 territories, 6 continents, 83 borders.

Slugs are the names lowercased with spaces turned into underscores ("eastern_australia").
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Symbol(Enum):
    """The symbol printed on a territory's card."""

    INFANTRY = "infantry"
    CAVALRY = "cavalry"
    ARTILLERY = "artillery"

    # Hashed by identity in C, as `state.Phase` is: every hand's sets are found by symbol.
    __hash__ = object.__hash__


@dataclass(frozen=True)
class Territory:
    """A territory: its slug and name, its continent's slug and its card's symbol."""

    slug: str
    name: str
    continent: str
    symbol: Symbol


@dataclass(frozen=True)
class Continent:
    """A continent: its slug and name, the bonus for holding it wholly, and its territories'
    slugs in the rules file's order."""

    slug: str
    name: str
    bonus: int
    territories: tuple[str, ...]


def slugify(name: str) -> str:
    """A name as a slug: "Eastern Australia" -> "eastern_australia"."""
    return name.lower().replace(" ", "_")


_I, _C, _A = Symbol.INFANTRY, Symbol.CAVALRY, Symbol.ARTILLERY

# The rules file's territory table, in its order: name, continent, card symbol, neighbours.
_TABLE: tuple[tuple[str, str, Symbol, tuple[str, ...]], ...] = (
    ("Alaska", "North America", _I, ("Alberta", "Kamchatka", "Northwest Territory")),
    ("Northwest Territory", "North America", _A, ("Alaska", "Alberta", "Greenland", "Ontario")),
    ("Greenland", "North America", _C, ("Iceland", "Northwest Territory", "Ontario", "Quebec")),
    (
        "Alberta",
        "North America",
        _I,
        ("Alaska", "Northwest Territory", "Ontario", "Western United States"),
    ),
    (
        "Ontario",
        "North America",
        _C,
        (
            "Alberta",
            "Eastern United States",
            "Greenland",
            "Northwest Territory",
            "Quebec",
            "Western United States",
        ),
    ),
    ("Quebec", "North America", _A, ("Eastern United States", "Greenland", "Ontario")),
    (
        "Western United States",
        "North America",
        _I,
        ("Alberta", "Central America", "Eastern United States", "Ontario"),
    ),
    (
        "Eastern United States",
        "North America",
        _A,
        ("Central America", "Ontario", "Quebec", "Western United States"),
    ),
    (
        "Central America",
        "North America",
        _C,
        ("Eastern United States", "Venezuela", "Western United States"),
    ),
    ("Venezuela", "South America", _A, ("Brazil", "Central America", "Peru")),
    ("Peru", "South America", _C, ("Argentina", "Brazil", "Venezuela")),
    ("Brazil", "South America", _A, ("Argentina", "North Africa", "Peru", "Venezuela")),
    ("Argentina", "South America", _I, ("Brazil", "Peru")),
    ("Iceland", "Europe", _I, ("Great Britain", "Greenland", "Scandinavia")),
    ("Scandinavia", "Europe", _A, ("Great Britain", "Iceland", "Northern Europe", "Ukraine")),
    (
        "Great Britain",
        "Europe",
        _C,
        ("Iceland", "Northern Europe", "Scandinavia", "Western Europe"),
    ),
    (
        "Northern Europe",
        "Europe",
        _C,
        ("Great Britain", "Scandinavia", "Southern Europe", "Ukraine", "Western Europe"),
    ),
    (
        "Western Europe",
        "Europe",
        _I,
        ("Great Britain", "North Africa", "Northern Europe", "Southern Europe"),
    ),
    (
        "Southern Europe",
        "Europe",
        _C,
        ("Egypt", "Middle East", "North Africa", "Northern Europe", "Ukraine", "Western Europe"),
    ),
    (
        "Ukraine",
        "Europe",
        _A,
        ("Afghanistan", "Middle East", "Northern Europe", "Scandinavia", "Southern Europe", "Ural"),
    ),
    (
        "North Africa",
        "Africa",
        _I,
        ("Brazil", "Congo", "East Africa", "Egypt", "Southern Europe", "Western Europe"),
    ),
    ("Egypt", "Africa", _I, ("East Africa", "Middle East", "North Africa", "Southern Europe")),
    (
        "East Africa",
        "Africa",
        _A,
        ("Congo", "Egypt", "Madagascar", "Middle East", "North Africa", "South Africa"),
    ),
    ("Congo", "Africa", _C, ("East Africa", "North Africa", "South Africa")),
    ("South Africa", "Africa", _A, ("Congo", "East Africa", "Madagascar")),
    ("Madagascar", "Africa", _I, ("East Africa", "South Africa")),
    ("Ural", "Asia", _C, ("Afghanistan", "China", "Siberia", "Ukraine")),
    ("Siberia", "Asia", _A, ("China", "Irkutsk", "Mongolia", "Ural", "Yakutsk")),
    ("Yakutsk", "Asia", _C, ("Irkutsk", "Kamchatka", "Siberia")),
    ("Kamchatka", "Asia", _C, ("Alaska", "Irkutsk", "Japan", "Mongolia", "Yakutsk")),
    ("Irkutsk", "Asia", _I, ("Kamchatka", "Mongolia", "Siberia", "Yakutsk")),
    ("Mongolia", "Asia", _A, ("China", "Irkutsk", "Japan", "Kamchatka", "Siberia")),
    ("Japan", "Asia", _I, ("Kamchatka", "Mongolia")),
    ("Afghanistan", "Asia", _I, ("China", "India", "Middle East", "Ukraine", "Ural")),
    ("China", "Asia", _C, ("Afghanistan", "India", "Mongolia", "Siam", "Siberia", "Ural")),
    (
        "Middle East",
        "Asia",
        _A,
        ("Afghanistan", "East Africa", "Egypt", "India", "Southern Europe", "Ukraine"),
    ),
    ("India", "Asia", _I, ("Afghanistan", "China", "Middle East", "Siam")),
    ("Siam", "Asia", _A, ("China", "India", "Indonesia")),
    ("Indonesia", "Australia", _C, ("New Guinea", "Siam", "Western Australia")),
    ("New Guinea", "Australia", _C, ("Eastern Australia", "Indonesia", "Western Australia")),
    ("Western Australia", "Australia", _A, ("Eastern Australia", "Indonesia", "New Guinea")),
    ("Eastern Australia", "Australia", _I, ("New Guinea", "Western Australia")),
)

_BONUSES: tuple[tuple[str, int], ...] = (
    ("North America", 5),
    ("South America", 2),
    ("Europe", 5),
    ("Africa", 3),
    ("Asia", 7),
    ("Australia", 2),
)

# The borders the rules file says are drawn as dashed sea lanes.
_SEA_LANES: tuple[tuple[str, str], ...] = (
    ("Alaska", "Kamchatka"),
    ("Greenland", "Northwest Territory"),
    ("Greenland", "Ontario"),
    ("Greenland", "Quebec"),
    ("Greenland", "Iceland"),
    ("Iceland", "Great Britain"),
    ("Iceland", "Scandinavia"),
    ("Great Britain", "Scandinavia"),
    ("Great Britain", "Northern Europe"),
    ("Great Britain", "Western Europe"),
    ("Brazil", "North Africa"),
    ("North Africa", "Western Europe"),
    ("North Africa", "Southern Europe"),
    ("Southern Europe", "Egypt"),
    ("East Africa", "Middle East"),
    ("Madagascar", "East Africa"),
    ("Madagascar", "South Africa"),
    ("Japan", "Kamchatka"),
    ("Japan", "Mongolia"),
    ("Siam", "Indonesia"),
    ("Indonesia", "New Guinea"),
    ("Indonesia", "Western Australia"),
    ("New Guinea", "Eastern Australia"),
    ("New Guinea", "Western Australia"),
)

TERRITORIES: dict[str, Territory] = {
    slugify(name): Territory(slugify(name), name, slugify(continent), symbol)
    for name, continent, symbol, _ in _TABLE
}

CONTINENTS: dict[str, Continent] = {
    slugify(name): Continent(
        slugify(name),
        name,
        bonus,
        tuple(t.slug for t in TERRITORIES.values() if t.continent == slugify(name)),
    )
    for name, bonus in _BONUSES
}

# Each territory's neighbours exactly as the table lists them (tests check the table is symmetric).
LISTED_NEIGHBOURS: dict[str, tuple[str, ...]] = {
    slugify(name): tuple(slugify(n) for n in neighbours) for name, _, _, neighbours in _TABLE
}

BORDERS: frozenset[frozenset[str]] = frozenset(
    frozenset((t, n)) for t, listed in LISTED_NEIGHBOURS.items() for n in listed
)

SEA_LANES: frozenset[frozenset[str]] = frozenset(
    frozenset((slugify(a), slugify(b))) for a, b in _SEA_LANES
)

_NEIGHBOURS: dict[str, frozenset[str]] = {
    t: frozenset(n for border in BORDERS if t in border for n in border if n != t)
    for t in TERRITORIES
}


def neighbours(slug: str) -> frozenset[str]:
    """The territories sharing a border (land or sea) with `slug`."""
    return _NEIGHBOURS[slug]
