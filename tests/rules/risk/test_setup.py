"""Set-up (docs/rules/risk.md, "Set-up" and "Two players"), and the house options."""

from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any

import pytest

from rules.core import IllegalAction, setup_rng
from rules.risk import ENGINE
from rules.risk.actions import (
    AUTO,
    BACK,
    Verb,
    claim,
    place,
)
from rules.risk.cards import ALL_CARDS
from rules.risk.engine import parse_rules, roll_for_first
from rules.risk.queries import territory_count
from rules.risk.state import (
    NEUTRAL,
    ArmiesPlaced,
    MissionKind,
    Phase,
    RiskState,
    Rules,
    SetupFinished,
    SetupMode,
    TerritoryClaimed,
    TurnStarted,
)
from tests.rules.risk.scenario import acts, legal, of_type

FOUR = (11, 12, 13, 14)


class LoadedDice(Random):
    """A Random whose dice come from a list."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = faces

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)


def new(seats: tuple[int, ...], seed: str = "setup", **options: Any) -> RiskState:
    return ENGINE.initial_state(seats, options, setup_rng(seed))


def test_the_highest_roll_goes_first_and_ties_roll_again() -> None:
    winner, rolls = roll_for_first((11, 12, 13), LoadedDice([5, 6, 6, 2, 4]))
    assert rolls == ((11, 5), (12, 6), (13, 6), (12, 2), (13, 4))
    assert winner == 13


def test_play_goes_round_the_table_from_the_first_player() -> None:
    for seed in range(10):
        state = new(FOUR, str(seed))
        first = state.players[0]
        k = FOUR.index(first)
        assert state.players == FOUR[k:] + FOUR[:k]
        assert (first, state.start_rolls) == roll_for_first(FOUR, setup_rng(str(seed)))


@pytest.mark.parametrize(("players", "armies"), [(3, 35), (4, 30), (5, 25), (6, 20)])
def test_starting_armies(players: int, armies: int) -> None:
    seats = tuple(range(11, 11 + players))
    state = new(seats)
    for seat, p in enumerate(state.players):
        assert territory_count(state, p) + state.setup_left[seat] == armies


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_deal_spreads_the_territories_evenly_one_army_each(players: int) -> None:
    state = new(tuple(range(11, 11 + players)))
    counts = [territory_count(state, p) for p in state.players]
    assert sum(counts) == 42 and max(counts) - min(counts) <= 1
    assert counts == sorted(counts, reverse=True)  # the extras go to the first in turn
    assert set(state.armies) == {1}
    assert state.phase is Phase.SETUP_PLACE and state.current == 0


def test_deal_then_place_in_turn_several_at_once() -> None:
    state = new((11, 12, 13))
    first, second = state.players[:2]
    own = [a for a in legal(state, first) if a.verb == Verb.PLACE_ON]
    assert len(own) == 14 and legal(state, first)[-1] == AUTO
    picked, _ = acts(state, first, own[0])
    # Any number of the 21 left (Decision: several at once), one territory a set-up turn.
    assert legal(picked, first) == [*(place(n) for n in range(1, 22)), BACK]
    placed, events = acts(picked, first, place(4))
    assert of_type(events, ArmiesPlaced)[0].count == 4 and placed.setup_left[0] == 17
    assert placed.player == second  # one territory a set-up turn, then the next player


def test_set_up_ends_with_the_first_players_turn() -> None:
    state = new((11, 12, 13))
    events: list[Any] = []
    while state.phase is Phase.SETUP_PLACE:
        state, more = acts(state, state.player, AUTO)
        events += more
    assert of_type(events, SetupFinished)[0].first == state.players[0]
    (started,) = of_type(events, TurnStarted)
    assert state.phase is Phase.REINFORCE and state.current == 0 and state.round == 1
    assert started.reinforcement.total == state.to_place
    assert sum(state.armies) == 3 * 35


def test_claim_one_territory_at_a_time_then_place() -> None:
    state = new((11, 12, 13), setup="claim")
    assert state.phase is Phase.SETUP_CLAIM and set(state.armies) == {0}
    assert len(legal(state, state.player)) == 42 + 1  # every territory, and auto
    claimed, events = acts(state, state.player, claim("ukraine"))
    assert of_type(events, TerritoryClaimed)[0].territory == "ukraine"
    assert claimed.owner("ukraine") == state.player and claimed.armies_on("ukraine") == 1
    assert claimed.current == 1
    assert claim("ukraine") not in legal(claimed, claimed.player)
    while claimed.phase is Phase.SETUP_CLAIM:
        claimed, _ = acts(claimed, claimed.player, AUTO)
    assert [territory_count(claimed, p) for p in claimed.players] == [14, 14, 14]
    assert claimed.phase is Phase.SETUP_PLACE and claimed.current == 0  # 42 claims: round
    assert list(claimed.setup_left) == [21, 21, 21]


def test_claim_set_up_then_places_several_at_once_too() -> None:
    """Decision (the `/risk rules` text): the classic "one army at a time" after claiming
    becomes any number on one territory a set-up turn, as in the dealt set-up."""
    claimed = new((11, 12, 13), setup="claim")
    while claimed.phase is Phase.SETUP_CLAIM:
        claimed, _ = acts(claimed, claimed.player, AUTO)
    me = claimed.player
    own = next(a for a in legal(claimed, me) if a.verb == Verb.PLACE_ON)
    picked, _ = acts(claimed, me, own)
    assert legal(picked, me) == [*(place(n) for n in range(1, 22)), BACK]
    placed, _ = acts(picked, me, place(21))
    assert placed.setup_left[0] == 0 and placed.player != me


def test_two_players_deal_three_piles_of_fourteen() -> None:
    state = new((11, 12))
    owners = Counter(state.owners)
    assert owners == {state.players[0]: 14, state.players[1]: 14, NEUTRAL: 14}
    assert set(state.armies) == {1}
    assert state.setup_left == (26, 26) and state.neutral_left == 26
    assert sorted(state.deck) == sorted(ALL_CARDS)  # wilds back in, shuffled


def test_two_players_place_two_of_their_own_and_one_neutral_a_turn() -> None:
    state = new((11, 12))
    ana = state.player
    own = next(a for a in legal(state, ana) if a.verb == Verb.PLACE_ON)
    picked, _ = acts(state, ana, own)
    assert legal(picked, ana) == [place(1), place(2), BACK]
    once, _ = acts(picked, ana, place(1))
    assert once.player == ana and once.phase is Phase.SETUP_PLACE and once.to_place == 1
    twice, _ = acts(once, ana, own, place(1))
    assert twice.phase is Phase.SETUP_NEUTRAL
    neutral = [a for a in legal(twice, ana) if a.verb == Verb.NEUTRAL_ON]
    assert len(neutral) == 14
    done, events = acts(twice, ana, neutral[0])
    placed = of_type(events, ArmiesPlaced)[0]
    assert (placed.player, placed.owner, placed.total) == (ana, NEUTRAL, 2)
    assert done.player != ana and done.phase is Phase.SETUP_PLACE and done.to_place == 2


def test_two_player_set_up_ends_with_forty_each() -> None:
    state = new((11, 12))
    while state.round == 0:
        state, _ = acts(state, state.player, AUTO)
    for owner in (*state.players, NEUTRAL):
        assert sum(a for o, a in zip(state.owners, state.armies, strict=True) if o == owner) == 40
    assert state.phase is Phase.REINFORCE and state.current == 0


# --- options -----------------------------------------------------------------------------------


def test_defaults() -> None:
    assert parse_rules({}, 4) == Rules(SetupMode.DEAL, 0, False, False, 0)
    assert parse_rules({"turn_timer": "24h"}, 4) == parse_rules({}, 4)  # the table's: ignored


def test_every_option() -> None:
    options = {
        "setup": "claim",
        "missions": 14,
        "defender_chooses": True,
        "connected_fortify": True,
        "turn_limit": 30,
    }
    assert parse_rules(options, 5) == Rules(SetupMode.CLAIM, 14, True, True, 30)


@pytest.mark.parametrize(
    "options",
    [
        {"setup": "random"},
        {"missions": 13},
        {"missions": True},
        {"missions": "12"},
        {"defender_chooses": "yes"},
        {"connected_fortify": 1},
        {"turn_limit": -1},
        {"turn_limit": 201},
        {"turn_limit": 2.5},
        {"turn_limit": True},
    ],
)
def test_bad_option_values_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(IllegalAction):
        parse_rules(options, 4)


def test_two_players_have_no_missions_and_always_deal() -> None:
    with pytest.raises(IllegalAction, match="3 to 6"):
        new((11, 12), missions=12)
    with pytest.raises(IllegalAction, match="deal"):
        new((11, 12), setup="claim")


def test_options_are_checked_for_the_tables_without_a_game() -> None:
    """The lobby checks the options before anyone sits: some table must suit them."""
    ENGINE.validate_options({"setup": "claim", "missions": 14})  # 3 to 6 players may
    ENGINE.validate_options({"missions": 12}, 3)
    with pytest.raises(IllegalAction, match=r"^Secret Mission Risk is for 3 to 6 players\.$"):
        ENGINE.validate_options({"missions": 12}, 2)
    with pytest.raises(IllegalAction, match=r"^Two players always deal the territories"):
        ENGINE.validate_options({"setup": "claim"}, 2)
    with pytest.raises(IllegalAction, match="Turn limit"):
        ENGINE.validate_options({"turn_limit": 500})


def test_table_sizes() -> None:
    with pytest.raises(IllegalAction):
        new((11,))
    with pytest.raises(IllegalAction):
        new(tuple(range(11, 18)))
    with pytest.raises(IllegalAction):
        new((11, 0, 12))  # 0 is the neutral army's


@pytest.mark.parametrize(("players", "size"), [(3, 12), (6, 12), (4, 14)])
def test_missions_are_dealt_from_the_colours_in_play(players: int, size: int) -> None:
    for seed in range(20):
        state = new(tuple(range(11, 11 + players)), str(seed), missions=size)
        assert len(state.missions) == players
        assert len(set(state.missions)) == players  # one card each from one deck
        for m in state.missions:
            if m.kind is MissionKind.DESTROY:
                assert 0 <= m.target < players  # no card for a colour nobody plays
            if m.continents and m.one_more_continent:
                assert size == 14
