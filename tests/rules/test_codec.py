"""rules/codec.py: frozen dataclasses to JSON and back, driven by their type hints."""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, replace
from typing import Any, Optional

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.cock_and_bull import ENGINE as COCK_AND_BULL
from rules.cock_and_bull.state import CockAndBullState, Face, GameResult, WinKind
from rules.codec import from_json, load_state, player_renamed, to_json
from rules.core import setup_rng
from rules.risk import ENGINE as RISK


class Suit(enum.Enum):
    HEARTS = "hearts"
    SPADES = "spades"
    CLUBS = "clubs"


class Rank(enum.IntEnum):
    LOW = 1
    HIGH = 2


@dataclass(frozen=True)
class Card:
    suit: Suit
    rank: Rank
    face_up: bool


@dataclass(frozen=True)
class Hand:
    owner: int
    cards: tuple[Card, ...]
    best: Card | None


@dataclass(frozen=True)
class Table:
    name: str
    hands: tuple[Hand, ...]
    pair: tuple[int, Suit]  # a fixed tuple of mixed types
    last: tuple[Suit | None, Suit | None]  # a fixed tuple of optionals
    dealer: Optional[Hand]  # noqa: UP045 - the typing.Optional spelling is what is tested
    grid: tuple[tuple[int, ...], ...]
    seen: frozenset[Suit]
    ids: frozenset[int]
    edges: frozenset[tuple[int, int]]
    ratio: float


def json_trip(value: Any) -> Any:
    """`to_json`, through real JSON text and back to Python."""
    return json.loads(json.dumps(to_json(value), allow_nan=False))


ACE = Card(Suit.SPADES, Rank.HIGH, face_up=True)
DEUCE = Card(Suit.HEARTS, Rank.LOW, face_up=False)
TABLE = Table(
    name="main",
    hands=(Hand(1001, (ACE, DEUCE), best=ACE), Hand(-1, (), best=None)),
    pair=(7, Suit.CLUBS),
    last=(None, Suit.HEARTS),
    dealer=Hand(-2, (DEUCE,), best=None),
    grid=((1, 2, 3), (), (4,)),
    seen=frozenset({Suit.CLUBS, Suit.HEARTS}),
    ids=frozenset({3, -1, 2}),
    edges=frozenset({(1, 2), (0, 5)}),
    ratio=0.5,
)


def test_a_nested_dataclass_round_trips_through_json() -> None:
    assert from_json(Table, json_trip(TABLE)) == TABLE


def test_none_in_optional_fields_round_trips() -> None:
    bare = replace(TABLE, dealer=None, last=(None, None), seen=frozenset(), hands=())
    assert from_json(Table, json_trip(bare)) == bare


def test_the_json_shape() -> None:
    data = to_json(TABLE)
    assert data["pair"] == [7, "clubs"]  # tuples become lists, enums their values
    assert data["last"] == [None, "hearts"]
    assert data["hands"][0]["cards"][0] == {"suit": "spades", "rank": 2, "face_up": True}
    assert data["hands"][1]["best"] is None
    assert data["ids"] == [-1, 2, 3]  # frozensets are sorted, so a dump is stable
    assert data["seen"] == ["clubs", "hearts"]
    assert data["edges"] == [[0, 5], [1, 2]]


def test_rebuilt_values_have_the_declared_types() -> None:
    table = from_json(Table, json_trip(TABLE))
    assert isinstance(table.hands, tuple) and isinstance(table.hands[0], Hand)
    assert isinstance(table.hands[0].cards[0].suit, Suit)
    assert type(table.hands[0].cards[0].rank) is Rank
    assert isinstance(table.pair, tuple) and table.pair[1] is Suit.CLUBS
    assert isinstance(table.grid[0], tuple)
    assert isinstance(table.seen, frozenset) and Suit.HEARTS in table.seen
    assert isinstance(next(iter(table.edges)), tuple)
    hash(table)  # every part is hashable again: no lists left inside


def test_a_fixed_tuple_of_the_wrong_length_is_refused() -> None:
    data = to_json(TABLE)
    data["pair"] = [7]
    with pytest.raises(ValueError):
        from_json(Table, data)


def test_an_unknown_enum_value_is_refused() -> None:
    data = to_json(TABLE)
    data["pair"] = [7, "diamonds"]
    with pytest.raises(ValueError):
        from_json(Table, data)


# --- generated values --------------------------------------------------------------------------

cards = st.builds(Card, st.sampled_from(Suit), st.sampled_from(Rank), st.booleans())
hands = st.builds(
    Hand,
    st.integers(min_value=-(2**63), max_value=2**63),
    st.lists(cards, max_size=4).map(tuple),
    st.none() | cards,
)
suits_or_none = st.none() | st.sampled_from(Suit)
tables = st.builds(
    Table,
    name=st.text(max_size=10),
    hands=st.lists(hands, max_size=3).map(tuple),
    pair=st.tuples(st.integers(), st.sampled_from(Suit)),
    last=st.tuples(suits_or_none, suits_or_none),
    dealer=st.none() | hands,
    grid=st.lists(st.lists(st.integers(), max_size=3).map(tuple), max_size=3).map(tuple),
    seen=st.frozensets(st.sampled_from(Suit)),
    ids=st.frozensets(st.integers()),
    edges=st.frozensets(st.tuples(st.integers(), st.integers()), max_size=4),
    ratio=st.floats(allow_nan=False, allow_infinity=False),
)


@settings(max_examples=200, deadline=None)
@given(tables)
def test_any_table_round_trips(table: Table) -> None:
    assert from_json(Table, json_trip(table)) == table
    assert to_json(from_json(Table, json_trip(table))) == to_json(table)


# --- the real thing --------------------------------------------------------------------------


def test_a_cock_and_bull_state_with_results_round_trips() -> None:
    state = COCK_AND_BULL.initial_state((1001, -1), {"best_of": 3}, setup_rng("codec"))
    result = GameResult(1, 0, WinKind.CHIP_IN, (54, 0), flying_monkey=True, le_pew=True)
    state = replace(
        state,
        results=(result,),
        start_rolls=(Face.MONKEY, None),
        last_roll=(Face.COCK, Face.BULL),
        wins=(1, 0),
    )
    assert from_json(CockAndBullState, json_trip(state)) == state


@dataclass(frozen=True)
class Saved:
    v: int
    name: str
    seats: int  # added in version 2
    rounds: tuple[int, ...]  # added in version 3


UPGRADES = {
    1: lambda data: {**data, "seats": 2},
    2: lambda data: {**data, "rounds": []},
}


def test_an_older_state_is_upgraded_one_version_at_a_time() -> None:
    assert load_state(Saved, {"v": 1, "name": "old"}, 3, "Test", UPGRADES) == Saved(3, "old", 2, ())
    assert load_state(Saved, {"v": 2, "name": "mid", "seats": 4}, 3, "Test", UPGRADES) == Saved(
        3, "mid", 4, ()
    )
    current = {"v": 3, "name": "new", "seats": 3, "rounds": [1]}
    assert load_state(Saved, current, 3, "Test", UPGRADES) == Saved(3, "new", 3, (1,))


@pytest.mark.parametrize("version", [0, 4, None])
def test_a_version_without_an_upgrade_is_refused(version: int | None) -> None:
    with pytest.raises(ValueError, match="unknown Test state version"):
        load_state(Saved, {"v": version, "name": "x"}, 3, "Test", UPGRADES)


def test_a_player_renamed_changes_player_ids_and_no_other_number() -> None:
    """Every field marked `PlayerId` (nested in tuples and dataclasses too) names the new
    id; seats, counts and a mission's target seat, however equal to the old id, stay."""
    old, new = 1, 10**15 + 7
    state = RISK.initial_state([3, old, 2], {"missions": 12}, setup_rng("renamed"))
    assert old in state.players and any(m.target == old for m in state.missions)

    renamed = player_renamed(state, old, new)

    assert renamed.players == tuple(new if p == old else p for p in state.players)
    assert renamed.start_rolls == tuple(
        (new if p == old else p, roll) for p, roll in state.start_rolls
    )
    assert renamed.owners == tuple(new if p == old else p for p in state.owners)
    unchanged = ("players", "start_rolls", "owners")
    assert replace(renamed, **{f: getattr(state, f) for f in unchanged}) == state
    assert player_renamed(state, 99, new) is state  # nobody of that id: the same state
