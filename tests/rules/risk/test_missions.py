"""Secret Mission Risk (docs/rules/risk.md): every mission kind completing, the fall-back to
24 territories, and missions staying private."""

from __future__ import annotations

from dataclasses import replace

from rules.risk import ENGINE
from rules.risk.actions import (
    END_TURN,
    fortify,
    fortify_from,
    fortify_to,
    move_in,
    place,
    place_on,
)
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
    after, events = acts(state, ANA, place_on(eighteen[0]), place(1))
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
    state = position(
        board,
        rest=CY,
        options={"missions": 12},
        missions=(EIGHTEEN, TWENTY_FOUR, destroy_bob),
    )
    step = ENGINE.resolve_roll(replace(state, source="ukraine", target="ural"), (6, 6, 6), (1,))
    (changed,) = of_type(step.events, MissionChanged)
    assert changed.player == CY and changed.mission == OCCUPY_24 and changed.visible_to == {CY}
    assert step.state.phase is not Phase.OVER  # not Ana's mission, not Cy's turn
    assert "another player destroyed them" in mission_text(step.state, CY, NAMES)
    _, events = acts(step.state, ANA, move_in(3), END_TURN)
    (won,) = of_type(events, GameWon)
    assert won.winners == (CY,) and won.kind is WinKind.MISSION
    assert of_type(events, MissionCompleted)[0].mission == OCCUPY_24


def test_a_mission_is_private_until_completed() -> None:
    state = with_missions(position({}, rest=BOB), NORTH_AMERICA_AND_AUSTRALIA, bob=EIGHTEEN)
    # Nothing public carries it: only `mission_text` for its holder, and events on completion.
    assert mission_text(state, ANA, NAMES).startswith("Conquer North America and Australia.")
    after, events = acts(state, ANA, END_TURN)
    assert not of_type(events, MissionCompleted) and after.phase is Phase.REINFORCE


# --- when a mission is checked: after every action, for the player whose turn it is -----------


def eighteen_but_one(**fields: object) -> RiskState:
    """Ana holds 18 territories, 17 of them with 2 armies; Iceland has 1, next to
    Scandinavia's 5: one fortify completes "18 territories with at least 2 armies"."""
    eighteen = [t for t in TERRITORIES if t not in ("iceland", "scandinavia")][:16]
    board = {t: (ANA, 2) for t in eighteen}
    board |= {"iceland": (ANA, 1), "scandinavia": (ANA, 5)}
    # Bob holds the other 24 territories, with 1 army each: his 18-with-2 is not complete.
    return with_missions(position(board, rest=BOB, **fields), EIGHTEEN, bob=EIGHTEEN)


def test_a_mission_completed_by_fortifying_wins_in_that_step() -> None:
    """The fortify ends the turn in the same action, but the win is Ana's, at once: the turn
    does not pass, nobody draws, Bob's turn never starts."""
    state = eighteen_but_one(phase=Phase.FORTIFY, conquered=True)
    after, events = acts(state, ANA, fortify_from("scandinavia"), fortify_to("iceland"), fortify(1))
    assert after.phase is Phase.OVER and after.win is WinKind.MISSION and after.winners == (ANA,)
    assert [type(e).__name__ for e in events] == ["Fortified", "MissionCompleted", "GameWon"]
    assert of_type(events, MissionCompleted)[0].mission == EIGHTEEN
    assert after.hand(ANA) == () and after.turn == state.turn  # no card, no next turn


def test_a_mission_completed_by_the_last_fortify_of_the_last_round_beats_the_turn_limit() -> None:
    state = eighteen_but_one(phase=Phase.FORTIFY, options={"missions": 12, "turn_limit": 1})
    state = replace(
        state, players=(BOB, CY, ANA), current=2, missions=(EIGHTEEN, TWENTY_FOUR, EIGHTEEN)
    )
    _, events = acts(state, ANA, fortify_from("scandinavia"), fortify_to("iceland"), fortify(1))
    (won,) = of_type(events, GameWon)
    assert won.kind is WinKind.MISSION and won.winners == (ANA,)


def test_fortifying_without_completing_passes_the_turn() -> None:
    state = eighteen_but_one(phase=Phase.FORTIFY)
    after, events = acts(state, ANA, fortify_from("scandinavia"), fortify_to("iceland"), fortify(4))
    assert after.phase is Phase.REINFORCE and after.player == BOB  # Scandinavia left with 1
    assert not of_type(events, MissionCompleted)


def test_when_one_capture_completes_two_missions_the_player_in_turn_wins() -> None:
    """Ana's capture of Bob's last territory completes her "18 with 2 armies" and, through
    Bob's elimination, Cy's "destroy Bob" (now "occupy 24", and Cy holds 24): Ana, whose
    turn it is, completed hers first."""
    seventeen = [t for t in TERRITORIES if t not in ("ukraine", "ural")][:16]
    board = {t: (ANA, 2) for t in seventeen}
    board |= {"ukraine": (ANA, 10), "ural": (BOB, 1)}
    state = with_missions(position(board, rest=CY), EIGHTEEN, bob=EIGHTEEN, cy=DESTROY_BOB)
    after = capture(state, "ukraine", "ural")
    assert after.win is WinKind.MISSION and after.winners == (ANA,)


def test_a_mission_completed_by_another_player_is_checked_on_its_owners_turn() -> None:
    """Ana eliminates Bob: Cy's "destroy Bob" becomes "occupy 24", and Cy holds 24. The rules
    check it on Cy's turn, not Ana's: before it comes, Ana takes China from Cy, and Cy,
    down to 23, has not won when the turn starts."""
    cys = ["china", *(t for t in TERRITORIES if t not in ("ukraine", "ural", "afghanistan"))]
    board = {t: (CY, 1) for t in cys[:24]}
    board |= {"ukraine": (ANA, 10), "ural": (BOB, 1), "afghanistan": (ANA, 6)}
    state = position(
        board,
        rest=ANA,
        options={"missions": 12},
        missions=(TWENTY_FOUR, TWENTY_FOUR, DESTROY_BOB),
    )
    taken = capture(state, "ukraine", "ural")
    assert taken.is_out(BOB) and taken.phase is Phase.MOVE_IN  # Cy's is complete: not checked
    moved, _ = acts(taken, ANA, move_in(3))
    broken = capture(moved, "afghanistan", "china")
    after, events = acts(broken, ANA, move_in(3), END_TURN)
    assert not of_type(events, MissionCompleted)
    assert after.player == CY and after.phase is Phase.REINFORCE
