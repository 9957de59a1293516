"""Secret Mission Risk (shared/rules/risk.md): every mission kind completing, the fall-back to
24 territories, and missions staying private."""

from __future__ import annotations

from dataclasses import replace

from rules.risk import ENGINE
from rules.risk.map import CONTINENTS, TERRITORIES
from rules.risk.missions import BASE_MISSIONS, EXTRA_MISSIONS, describe, mission_text
from rules.risk.state import (
    OCCUPY_24,
    GameWon,
    Mission,
    MissionChanged,
    MissionCompleted,
    MissionKind,
    Phase,
    RiskState,
    Rules,
    WinKind,
)
from tests.rules.risk.scenario import ANA, BOB, CY, acts, of_type, position

NAMES = {ANA: "Ana", BOB: "Bob", CY: "Cy"}
ASIA_AND_SOUTH_AMERICA, _, _, NORTH_AMERICA_AND_AUSTRALIA, EIGHTEEN, TWENTY_FOUR = BASE_MISSIONS
EUROPE_AUSTRALIA_AND_ONE = EXTRA_MISSIONS[1]
DESTROY_BOB = Mission(MissionKind.DESTROY, target=1)


def with_missions(
    state: RiskState, ana: Mission, bob: Mission = TWENTY_FOUR, cy: Mission = EIGHTEEN
) -> RiskState:
    return replace(state, rules=replace(state.rules, missions=12), missions=(ana, bob, cy))


def capture(state: RiskState, source: str, target: str) -> RiskState:
    """Ana takes `target` from `source` with three sixes, moving in the minimum."""
    state = replace(state, source=source, target=target, phase=Phase.ATTACK)
    step = ENGINE.resolve_roll(state, (6, 6, 6), (1,))
    return step.state


def test_the_mission_cards() -> None:
    assert [describe(m) for m in BASE_MISSIONS] == [
        "Conquer Asia and South America.",
        "Conquer Asia and Africa.",
        "Conquer North America and Africa.",
        "Conquer North America and Australia.",
        "Occupy 18 territories with at least 2 armies in each.",
        "Occupy 24 territories.",
    ]
    assert [describe(m) for m in EXTRA_MISSIONS] == [
        "Conquer Europe and South America and one more continent.",
        "Conquer Europe and Australia and one more continent.",
    ]
    assert describe(DESTROY_BOB, {1: "Bob"}) == "Destroy all armies of Bob."


def test_conquering_two_continents() -> None:
    """Ana holds Asia and South America but Argentina; taking it wins at once."""
    held = [*CONTINENTS["asia"].territories, *CONTINENTS["south_america"].territories]
    board = {t: (ANA, 2) for t in held}
    board["peru"] = (ANA, 8)
    board["argentina"] = (BOB, 1)
    state = with_missions(position(board, rest=BOB), ASIA_AND_SOUTH_AMERICA)
    after = capture(state, "peru", "argentina")
    assert after.phase is Phase.OVER and after.win is WinKind.MISSION and after.winners == (ANA,)


def test_one_more_continent_means_a_third() -> None:
    both = [*CONTINENTS["europe"].territories, *CONTINENTS["australia"].territories]
    board = {t: (ANA, 2) for t in both}
    board["siam"] = (ANA, 8)
    board["indonesia"] = (BOB, 1)  # Australia still to take
    state = with_missions(position(board, rest=BOB), EUROPE_AUSTRALIA_AND_ONE)
    after = capture(state, "siam", "indonesia")
    assert after.phase is not Phase.OVER  # Europe and Australia only
    third = {**board, **{t: (ANA, 2) for t in CONTINENTS["south_america"].territories}}
    state = with_missions(position(third, rest=BOB), EUROPE_AUSTRALIA_AND_ONE)
    assert capture(state, "siam", "indonesia").win is WinKind.MISSION


def test_eighteen_territories_with_two_armies_each_completes_on_placing() -> None:
    eighteen = list(TERRITORIES)[:18]
    board = {t: (ANA, 2) for t in eighteen}
    board[eighteen[0]] = (ANA, 1)
    state = with_missions(
        position(board, rest=BOB, phase=Phase.REINFORCE, to_place=3), EIGHTEEN, cy=TWENTY_FOUR
    )
    after, events = acts(state, ANA, f"place_on:{eighteen[0]}", "place:1")
    (done,) = of_type(events, MissionCompleted)
    assert done.mission == EIGHTEEN and done.visible_to is None  # revealed
    assert after.winners == (ANA,)


def test_twenty_four_territories() -> None:
    board = {t: (ANA, 1) for t in list(TERRITORIES)[:23]}
    board["ukraine"] = (ANA, 5)
    board["ural"] = (BOB, 1)
    state = with_missions(position(board, rest=BOB), TWENTY_FOUR, bob=EIGHTEEN)
    assert capture(state, "ukraine", "ural").win is WinKind.MISSION


def test_destroying_the_colour() -> None:
    board = {"ukraine": (ANA, 10), "ural": (BOB, 1)}
    state = with_missions(position(board, rest=CY), DESTROY_BOB)
    after = capture(state, "ukraine", "ural")
    assert after.win is WinKind.MISSION and after.winners == (ANA,)


def test_destroy_your_own_colour_is_occupy_24() -> None:
    """Ana drew her own colour (seat 0): she plays for 24 territories instead."""
    own = Mission(MissionKind.DESTROY, target=0)
    board = {t: (ANA, 1) for t in list(TERRITORIES)[:23]}
    board["ukraine"] = (ANA, 5)
    board["ural"] = (BOB, 1)
    state = with_missions(position(board, rest=BOB), own, bob=EIGHTEEN)
    text = mission_text(state, ANA, NAMES)
    assert text.startswith("Destroy all armies of Ana. (your own colour: so occupy 24")
    step = ENGINE.resolve_roll(replace(state, source="ukraine", target="ural"), (6, 6, 6), (1,))
    assert step.state.win is WinKind.MISSION
    assert of_type(step.events, MissionCompleted)[0].mission == OCCUPY_24


def test_destroyed_by_another_becomes_occupy_24_checked_on_the_owners_turn() -> None:
    """Cy must destroy Bob, but Ana does it: Cy is told privately that the mission is now 24
    territories; Cy already holds 24, and wins when Cy's turn comes."""
    destroy_bob = Mission(MissionKind.DESTROY, target=1)
    board = {"ukraine": (ANA, 10), "ural": (BOB, 1), "scandinavia": (ANA, 1), "iceland": (ANA, 1)}
    state = replace(
        position(board, rest=CY),
        rules=Rules(missions=12),
        missions=(EIGHTEEN, TWENTY_FOUR, destroy_bob),
    )
    step = ENGINE.resolve_roll(replace(state, source="ukraine", target="ural"), (6, 6, 6), (1,))
    (changed,) = of_type(step.events, MissionChanged)
    assert changed.player == CY and changed.mission == OCCUPY_24 and changed.visible_to == {CY}
    assert step.state.phase is not Phase.OVER  # not Ana's mission, not Cy's turn
    assert "another player destroyed them" in mission_text(step.state, CY, NAMES)
    _, events = acts(step.state, ANA, "move_in:3", "end_turn")
    (won,) = of_type(events, GameWon)
    assert won.winners == (CY,) and won.kind is WinKind.MISSION
    assert of_type(events, MissionCompleted)[0].mission == OCCUPY_24


def test_a_mission_is_private_until_completed() -> None:
    state = with_missions(position({}, rest=BOB), NORTH_AMERICA_AND_AUSTRALIA, bob=EIGHTEEN)
    # Nothing public carries it: only `mission_text` for its holder, and events on completion.
    assert mission_text(state, ANA, NAMES).startswith("Conquer North America and Australia.")
    after, events = acts(state, ANA, "end_turn")
    assert not of_type(events, MissionCompleted) and after.phase is Phase.REINFORCE
