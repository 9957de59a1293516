"""The map data against docs/rules/risk.md, "The map"."""

from collections import Counter

import pytest

from rules.risk.map import (
    BORDERS,
    CONTINENTS,
    LISTED_NEIGHBOURS,
    SEA_LANES,
    TERRITORIES,
    Symbol,
    neighbours,
    slugify,
)


def pair(a: str, b: str) -> frozenset[str]:
    return frozenset((slugify(a), slugify(b)))


def test_42_territories_with_slugs_from_their_names() -> None:
    assert len(TERRITORIES) == 42
    for slug, territory in TERRITORIES.items():
        assert slug == territory.slug == territory.name.lower().replace(" ", "_")
    assert next(iter(TERRITORIES)) == "alaska"
    assert list(TERRITORIES)[-1] == "eastern_australia"


def test_83_borders_each_between_two_known_territories() -> None:
    assert len(BORDERS) == 83
    for border in BORDERS:
        assert len(border) == 2
        assert border <= TERRITORIES.keys()


def test_the_neighbour_table_is_symmetric() -> None:
    for slug, listed in LISTED_NEIGHBOURS.items():
        assert slug not in listed
        for other in listed:
            assert slug in LISTED_NEIGHBOURS[other], (slug, other)
        assert neighbours(slug) == frozenset(listed)


def test_14_cards_per_symbol() -> None:
    assert Counter(t.symbol for t in TERRITORIES.values()) == {
        Symbol.INFANTRY: 14,
        Symbol.CAVALRY: 14,
        Symbol.ARTILLERY: 14,
    }


@pytest.mark.parametrize(
    ("continent", "size", "bonus"),
    [
        ("north_america", 9, 5),
        ("south_america", 4, 2),
        ("europe", 7, 5),
        ("africa", 6, 3),
        ("asia", 12, 7),
        ("australia", 4, 2),
    ],
)
def test_continent_sizes_and_bonuses(continent: str, size: int, bonus: int) -> None:
    c = CONTINENTS[continent]
    assert (len(c.territories), c.bonus) == (size, bonus)
    assert all(TERRITORIES[t].continent == continent for t in c.territories)


def test_continents_partition_the_map() -> None:
    assert list(CONTINENTS) == [
        "north_america",
        "south_america",
        "europe",
        "africa",
        "asia",
        "australia",
    ]
    members = [t for c in CONTINENTS.values() for t in c.territories]
    assert sorted(members) == sorted(TERRITORIES)


def test_the_14_inter_continent_borders() -> None:
    named = {
        pair("Alaska", "Kamchatka"),
        pair("Greenland", "Iceland"),
        pair("Central America", "Venezuela"),
        pair("Brazil", "North Africa"),
        pair("North Africa", "Western Europe"),
        pair("North Africa", "Southern Europe"),
        pair("Egypt", "Southern Europe"),
        pair("Egypt", "Middle East"),
        pair("East Africa", "Middle East"),
        pair("Middle East", "Southern Europe"),
        pair("Middle East", "Ukraine"),
        pair("Afghanistan", "Ukraine"),
        pair("Ural", "Ukraine"),
        pair("Siam", "Indonesia"),
    }
    crossing = {b for b in BORDERS if len({TERRITORIES[t].continent for t in b}) == 2}
    assert crossing == named


def test_every_named_sea_lane_is_a_border() -> None:
    named = {
        pair("Alaska", "Kamchatka"),
        pair("Greenland", "Northwest Territory"),
        pair("Greenland", "Ontario"),
        pair("Greenland", "Quebec"),
        pair("Greenland", "Iceland"),
        pair("Iceland", "Great Britain"),
        pair("Iceland", "Scandinavia"),
        pair("Great Britain", "Scandinavia"),
        pair("Great Britain", "Northern Europe"),
        pair("Great Britain", "Western Europe"),
        pair("Brazil", "North Africa"),
        pair("North Africa", "Western Europe"),
        pair("North Africa", "Southern Europe"),
        pair("Southern Europe", "Egypt"),
        pair("East Africa", "Middle East"),
        pair("Madagascar", "East Africa"),
        pair("Madagascar", "South Africa"),
        pair("Japan", "Kamchatka"),
        pair("Japan", "Mongolia"),
        pair("Siam", "Indonesia"),
        pair("Indonesia", "New Guinea"),
        pair("Indonesia", "Western Australia"),
        pair("New Guinea", "Eastern Australia"),
        pair("New Guinea", "Western Australia"),
    }
    assert named == SEA_LANES
    assert SEA_LANES <= BORDERS


def test_a_few_well_known_borders() -> None:
    assert neighbours("ukraine") == {
        "afghanistan",
        "middle_east",
        "northern_europe",
        "scandinavia",
        "southern_europe",
        "ural",
    }
    assert neighbours("argentina") == {"brazil", "peru"}
    assert "kamchatka" in neighbours("alaska")
    assert "alaska" in neighbours("kamchatka")
