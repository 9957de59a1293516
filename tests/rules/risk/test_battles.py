"""Attacks, captures and moving in (docs/rules/risk.md, "2. Attacks"), dice passed in."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from rules.core import Action, IllegalAction
from rules.risk import ENGINE, battle
from rules.risk.actions import (
    BACK,
    END_ATTACKS,
    Verb,
    attack_from,
    attack_to,
    blitz,
    defend,
    move_in,
    roll,
)
from rules.risk.battle import max_attack_dice, max_defend_dice, resolve_battle
from rules.risk.engine import attack_path
from rules.risk.state import (
    ArmiesMovedIn,
    AttackStopped,
    BattleRolled,
    DefenceNeeded,
    Phase,
    RiskState,
    TerritoryCaptured,
)
from tests.rules.risk.scenario import ANA, BOB, CY, act, acts, legal, of_type, position


@pytest.mark.parametrize(
    ("attack", "defence", "losses"),
    [
        ((6, 3, 1), (5, 2), (0, 2)),  # 6 beats 5, 3 beats 2
        ((6, 3, 1), (6, 2), (1, 1)),  # a tie on the highest goes to the defender
        ((4, 4, 4), (4, 4), (2, 0)),  # all ties: the defender wins both
        ((2, 1), (3,), (1, 0)),  # one defender die: only the highest pair is compared
        ((5,), (4, 6), (1, 0)),  # one attacker die: compared with the defender's 6
        ((6, 6, 6), (5,), (0, 1)),
        ((1, 3, 2), (1, 2), (0, 2)),  # sorted first: 3 beats 2, 2 beats 1
    ],
)
def test_resolve_battle_compares_highest_then_second(
    attack: tuple[int, ...], defence: tuple[int, ...], losses: tuple[int, int]
) -> None:
    assert resolve_battle(attack, defence) == losses


@pytest.mark.parametrize("seed", range(20))
def test_dice_are_the_draws_randint_makes(seed: int) -> None:
    """Saved games were rolled with `randint(1, 6)`: the same generator gives the same dice."""
    ours, theirs = Random(seed), Random(seed)
    for count in (3, 2, 1, 3, 3, 2) * 20:
        expected = tuple(sorted((theirs.randint(1, 6) for _ in range(count)), reverse=True))
        assert battle.roll(ours, count) == expected
    assert ours.random() == theirs.random()  # and they leave it in the same place


@pytest.mark.parametrize("seed", range(20))
def test_a_battle_is_the_attackers_roll_then_the_defenders_and_their_losses(seed: int) -> None:
    ours, theirs = Random(seed), Random(seed)
    for attack, defence in [(3, 2), (1, 1), (2, 2), (3, 1), (2, 1), (1, 2)] * 20:
        attack_dice, defend_dice = battle.roll(theirs, attack), battle.roll(theirs, defence)
        assert battle.roll_battle(ours, attack, defence) == (
            attack_dice,
            defend_dice,
            *resolve_battle(attack_dice, defend_dice),
        )
    assert ours.random() == theirs.random()


def test_dice_limits() -> None:
    """The attacker rolls 1–3 dice, at most armies − 1; the defender 1, or 2 with 2+ armies."""
    assert [max_attack_dice(a) for a in (2, 3, 4, 10)] == [1, 2, 3, 3]
    assert [max_defend_dice(d) for d in (1, 2, 5)] == [1, 2, 2]


def attack_position(source_armies: int, target_armies: int, **fields: Any) -> RiskState:
    """Ana's Ukraine against Bob's Ural, both chosen."""
    return position(
        {"ukraine": (ANA, source_armies), "ural": (BOB, target_armies)},
        source="ukraine",
        target="ural",
        **fields,
    )


def test_the_dice_offered_follow_the_armies() -> None:
    state = attack_position(3, 4)
    assert [a for a in legal(state, ANA) if a.verb == Verb.ROLL] == [roll(1), roll(2)]
    assert blitz(1) in legal(state, ANA) and BACK in legal(state, ANA)
    with pytest.raises(IllegalAction):
        act(state, ANA, roll(3))


def test_a_roll_costs_both_sides() -> None:
    state = attack_position(5, 4)
    step = ENGINE.resolve_roll(state, (6, 3, 1), (5, 2))
    (rolled,) = of_type(step.events, BattleRolled)
    assert (rolled.attacker_losses, rolled.defender_losses) == (0, 2)
    assert (rolled.source_armies, rolled.target_armies) == (5, 2)
    assert (rolled.attack_dice, rolled.defend_dice) == ((6, 3, 1), (5, 2))
    assert step.state.last_battle == ("ukraine", "ural")
    # The selection stays, so the attacker can roll again.
    assert (step.state.source, step.state.target) == ("ukraine", "ural")


def test_ties_go_to_the_defender_in_play() -> None:
    state = attack_position(4, 3)
    step = ENGINE.resolve_roll(state, (5, 5, 1), (5, 5))
    assert step.state.armies_on("ukraine") == 2
    assert step.state.armies_on("ural") == 3


def test_capture_moves_in_at_least_the_dice_rolled() -> None:
    """On taking a territory the attacker moves in at least as many armies as dice in the
    last roll, and may move more, leaving at least 1 behind."""
    state = attack_position(8, 1)
    step = ENGINE.resolve_roll(state, (6, 3, 2), (1,))
    (captured,) = of_type(step.events, TerritoryCaptured)
    assert (captured.player, captured.previous_owner, captured.moved) == (ANA, BOB, 3)
    after = step.state
    assert after.owner("ural") == ANA
    assert (after.armies_on("ukraine"), after.armies_on("ural")) == (5, 3)
    assert after.phase is Phase.MOVE_IN and after.move_min == 3
    # 3 (the minimum) up to 7 (all but one of the 8).
    assert legal(after, ANA) == [move_in(3), move_in(4), move_in(5), move_in(6), move_in(7)]
    moved, events = acts(after, ANA, move_in(7))
    assert (moved.armies_on("ukraine"), moved.armies_on("ural")) == (1, 7)
    assert of_type(events, ArmiesMovedIn)[0].count == 4
    assert moved.phase is Phase.ATTACK and not moved.source and moved.conquered


def captured_from_forty() -> RiskState:
    """Ukraine's 40 took Ural with three dice: 3 are in, 37 wait behind."""
    return ENGINE.resolve_roll(attack_position(40, 1), (6, 6, 6), (1,)).state


def test_move_in_offers_every_number_from_the_dice_to_all_but_one() -> None:
    assert legal(captured_from_forty(), ANA) == [move_in(n) for n in range(3, 40)]


@pytest.mark.parametrize("total", range(3, 40))
def test_move_in_any_legal_number(total: int) -> None:
    moved, events = acts(captured_from_forty(), ANA, move_in(total))
    assert (moved.armies_on("ukraine"), moved.armies_on("ural")) == (40 - total, total)
    assert of_type(events, ArmiesMovedIn)[0].count == total - 3  # beyond the 3 already in
    assert moved.phase is Phase.ATTACK


@pytest.mark.parametrize("total", ["2", "40", "0", "-4", "4?", "four", "04", ""])
def test_move_in_refuses_a_number_out_of_range_clearly(total: str) -> None:
    with pytest.raises(IllegalAction, match=r"^Move in between 3 and 39 armies\.$"):
        act(captured_from_forty(), ANA, Action(Verb.MOVE_IN, total))  # as typed in a box


def test_the_minimum_is_the_dice_of_the_last_roll() -> None:
    state = attack_position(8, 1)
    step = ENGINE.resolve_roll(state, (6,), (1,))  # one die rolled: one must move
    assert step.state.move_min == 1
    assert legal(step.state, ANA)[0] == move_in(1)


def test_no_choice_when_only_the_minimum_can_move() -> None:
    state = attack_position(3, 1)
    step = ENGINE.resolve_roll(state, (6, 2), (1,))
    assert step.state.phase is Phase.ATTACK
    assert (step.state.armies_on("ukraine"), step.state.armies_on("ural")) == (1, 2)


def test_the_source_needs_two_armies_and_an_enemy_neighbour() -> None:
    state = position(
        {
            "ukraine": (ANA, 1),
            "scandinavia": (ANA, 5),
            "iceland": (ANA, 4),
            "great_britain": (ANA, 3),
        },
        rest=BOB,
    )
    sources = [a for a in legal(state, ANA) if a.verb == Verb.ATTACK_FROM]
    assert attack_from("ukraine") not in sources  # one army
    assert attack_from("scandinavia") in sources  # next to Northern Europe (Bob's)
    picked, _ = acts(state, ANA, attack_from("scandinavia"))
    assert legal(picked, ANA) == [attack_to("northern_europe"), BACK]  # not Ukraine: own
    back, _ = acts(picked, ANA, BACK)
    assert back.source == ""


def test_back_undoes_one_part_of_the_choice() -> None:
    state = position({"ukraine": (ANA, 5)}, rest=BOB)
    chosen, _ = acts(state, ANA, attack_from("ukraine"), attack_to("ural"))
    assert (chosen.source, chosen.target) == ("ukraine", "ural")
    once, _ = acts(chosen, ANA, BACK)
    assert (once.source, once.target) == ("ukraine", "")
    with pytest.raises(IllegalAction):
        act(chosen, ANA, attack_to("scandinavia"))  # not offered while a target is chosen


def test_blitz_rolls_until_the_stop_level() -> None:
    state = attack_position(12, 30)
    step = act(state, ANA, blitz(5), seed=3)
    rolls = of_type(step.events, BattleRolled)
    assert len(rolls) > 1
    for r in rolls:  # always the most dice the armies allow
        assert len(r.attack_dice) == max_attack_dice(r.source_armies + r.attacker_losses)
    assert step.state.armies_on("ukraine") <= 5
    assert of_type(step.events, AttackStopped)
    assert step.state.blitz_stop == 0


def test_blitz_goes_on_until_the_territory_falls() -> None:
    state = attack_position(30, 2)
    step = act(state, ANA, blitz(1))
    assert of_type(step.events, TerritoryCaptured)
    assert step.state.owner("ural") == ANA


def test_the_defender_rolls_at_the_maximum_by_default() -> None:
    state = attack_position(10, 5)
    step = act(state, ANA, roll(3))
    (rolled,) = of_type(step.events, BattleRolled)
    assert len(rolled.attack_dice) == 3 and len(rolled.defend_dice) == 2


def test_defender_chooses_lets_the_defender_pick() -> None:
    state = attack_position(10, 5, options={"defender_chooses": True})
    asked = act(state, ANA, roll(2))
    assert of_type(asked.events, DefenceNeeded)[0].defender == BOB
    assert asked.state.phase is Phase.DEFEND
    assert ENGINE.to_act(asked.state) == {BOB}
    assert legal(asked.state, BOB) == [defend(1), defend(2)]
    assert legal(asked.state, ANA) == []
    with pytest.raises(IllegalAction):
        act(asked.state, ANA, defend(1))
    step = act(asked.state, BOB, defend(1))
    (rolled,) = of_type(step.events, BattleRolled)
    assert (len(rolled.attack_dice), len(rolled.defend_dice)) == (2, 1)
    assert step.state.phase is Phase.ATTACK and ENGINE.to_act(step.state) == {ANA}


def test_a_defender_with_one_army_is_not_asked() -> None:
    state = attack_position(10, 1, options={"defender_chooses": True})
    step = act(state, ANA, roll(3))
    assert not of_type(step.events, DefenceNeeded)
    assert of_type(step.events, BattleRolled)


def test_a_blitz_asks_a_choosing_defender_before_every_roll() -> None:
    state = attack_position(10, 6, options={"defender_chooses": True})
    asked = act(state, ANA, blitz(1)).state
    for n in range(3):
        if asked.phase is not Phase.DEFEND:
            break
        step = act(asked, BOB, defend(2), seed=n)
        assert len(of_type(step.events, BattleRolled)) == 1
        asked = step.state
        assert asked.phase in (Phase.DEFEND, Phase.MOVE_IN, Phase.ATTACK)
    assert asked.blitz_stop in (0, 1)


def test_ending_attacks_leads_to_fortify_or_ends_the_turn() -> None:
    state = position({"ukraine": (ANA, 5), "ural": (ANA, 1)}, rest=BOB)
    fortify, _ = acts(state, ANA, END_ATTACKS)
    assert fortify.phase is Phase.FORTIFY
    lonely = position({"ukraine": (ANA, 5)}, rest=BOB)  # no own neighbour: nothing to fortify
    over, _ = acts(lonely, ANA, END_ATTACKS)
    assert over.phase is Phase.REINFORCE and over.player == BOB


def test_cannot_attack_out_of_turn() -> None:
    state = attack_position(5, 3)
    for player in (BOB, CY, 4242):
        with pytest.raises(IllegalAction):
            act(state, player, roll(1))


@pytest.mark.parametrize(
    "pending",
    [
        (),
        (attack_from("ukraine"),),
        (attack_from("ukraine"), attack_to("ural")),
        (attack_from("scandinavia"),),
        (attack_from("scandinavia"), attack_to("northern_europe")),
    ],
)
def test_attack_path_gets_there_from_any_pending_choice(pending: tuple[Action, ...]) -> None:
    """`/risk attack from: to:` applies these actions, whatever was chosen before."""
    state = position({"ukraine": (ANA, 5), "scandinavia": (ANA, 4)}, rest=BOB)
    state, _ = acts(state, ANA, *pending)
    for action in attack_path(state, ANA, "ukraine", "afghanistan"):
        state = act(state, ANA, action).state
    assert (state.source, state.target) == ("ukraine", "afghanistan")
    assert roll(3) in legal(state, ANA)


def test_attack_path_refuses_what_is_not_possible() -> None:
    state = position({"ukraine": (ANA, 5), "scandinavia": (ANA, 1)}, rest=BOB)
    with pytest.raises(IllegalAction, match="2 or more"):
        attack_path(state, ANA, "scandinavia", "iceland")
    with pytest.raises(IllegalAction, match="next to it"):
        attack_path(state, ANA, "ukraine", "scandinavia")
    with pytest.raises(IllegalAction, match="your turn"):
        attack_path(state, BOB, "ural", "ukraine")
