"""The coarse verbs (`actions.COARSE_VERBS`): `place_at` is `place_on` then `place`, and
`assault` is `attack_from`, `attack_to`, `blitz` and a `move_in`, in one action each. Checked
against their sub-steps: the same state and events for the same dice, refused with a clear
reason, never offered, and a game played with them replays from its log (that one is legal
exactly when its sub-steps are is `test_legal`'s property)."""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.core import Action, IllegalAction, PlayerId, setup_rng, step_rng
from rules.risk import ENGINE
from rules.risk._fast_legal import is_legal
from rules.risk.actions import (
    Verb,
    assault,
    attack_from,
    attack_to,
    blitz,
    move_in,
    parse_assault,
    place,
    place_at,
    place_on,
)
from rules.risk.legal import legal_actions
from rules.risk.queries import how_many, placeable
from rules.risk.state import (
    ADJACENT,
    INDEX,
    SLUGS,
    ArmiesMovedIn,
    ArmiesPlaced,
    AttackStopped,
    BattleRolled,
    Phase,
    RiskState,
    TerritoryCaptured,
)
from tests.rules.risk.scenario import ANA, BOB, act, of_type, position
from tests.rules.risk.test_legal import expansion

# --- the same as the sub-steps -----------------------------------------------------------------


def by_sub_steps(
    state: RiskState, player: PlayerId, action: Action, seed: int
) -> tuple[RiskState, list[object]]:
    """A coarse action made as its sub-steps, all with one generator seeded `seed`: an
    assault's `move_in` keeps what the assault keeps."""
    rng = Random(seed)
    events: list[object] = []
    steps = expansion(action)
    assert steps is not None
    for step in steps:
        done = ENGINE.apply(state, player, step, rng)
        state, events = done.state, events + list(done.events)
    if action.verb == Verb.ASSAULT and state.phase is Phase.MOVE_IN:
        asked = how_many(state)
        assert asked is not None
        keep = parse_assault(action).keep
        total = max(asked.numbers[0], asked.numbers[-1] + 1 - keep)
        done = ENGINE.apply(state, player, move_in(total), rng)
        state, events = done.state, events + list(done.events)
    return state, events


@settings(
    max_examples=15, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), missions=st.sampled_from([0, 12]))
def test_a_coarse_action_does_what_its_sub_steps_do_with_the_same_dice(
    seed: int, players: int, missions: int
) -> None:
    """Random games; wherever a coarse action may be made, one (random stop and keep) gives
    the very state and events its sub-steps give with the same generator."""
    options = {"missions": missions if players > 2 else 0}
    seats = tuple(range(-1, -1 - players, -1))
    state = ENGINE.initial_state(seats, options, setup_rng(str(seed)))
    picker = Random(seed)
    compared = 0
    for n in range(1500):
        acting = ENGINE.to_act(state)
        if not acting:
            break
        player = min(acting)
        legal = legal_actions(state)
        coarse = _a_coarse_action(state, legal, picker) if picker.random() < 0.5 else None
        if coarse is not None:
            coarse_step = ENGINE.apply(state, player, coarse, Random(n))
            assert by_sub_steps(state, player, coarse, n) == (
                coarse_step.state,
                list(coarse_step.events),
            )
            compared += 1
            state = coarse_step.state
            continue
        state = ENGINE.apply(state, player, picker.choice(legal), step_rng(str(seed), n)).state
    assert compared > 20


def _a_coarse_action(state: RiskState, legal: tuple[Action, ...], picker: Random) -> Action | None:
    """A legal coarse action made from an offered first sub-step, if one is offered."""
    for action in picker.sample(legal, len(legal)):
        if action.verb == Verb.PLACE_ON:
            return place_at(action.arg, picker.randint(1, placeable(state)))
        if action.verb == Verb.ATTACK_FROM:
            i = INDEX[action.arg]
            target = picker.choice(
                [SLUGS[j] for j in ADJACENT[i] if state.owners[j] != state.player]
            )
            stop = picker.choice([s for s in (1, 3, 5, 10) if s < state.armies[i]])
            candidate = assault(action.arg, target, stop, picker.choice((1, 1, 2, 5)))
            return candidate if is_legal(state, candidate) else None
    return None


# --- scenarios ---------------------------------------------------------------------------------


def test_place_at_places_in_one_action() -> None:
    state = position({"ukraine": (ANA, 3)}, phase=Phase.REINFORCE, to_place=5)
    step = act(state, ANA, place_at("ukraine", 2))
    assert step.events == (ArmiesPlaced(ANA, ANA, "ukraine", 2, 5, 3),)
    assert (step.state.armies_on("ukraine"), step.state.to_place, step.state.source) == (5, 3, "")
    done = act(step.state, ANA, place_at("ukraine", 3)).state
    assert done.phase is Phase.ATTACK  # all placed: the attacks begin


@pytest.mark.parametrize(
    ("action", "why"),
    [
        (place_at("ukraine", 6), "Place between 1 and 5 armies on a territory of yours."),
        (place_at("ural", 1), "Place between 1 and 5 armies on a territory of yours."),
        (place_at("ukraine", 0), "Place between 1 and 5 armies on a territory of yours."),
        (
            Action(Verb.PLACE_AT, "ukraine,02"),
            "Place between 1 and 5 armies on a territory of yours.",
        ),
    ],
)
def test_place_at_refuses_clearly_and_changes_nothing(action: Action, why: str) -> None:
    state = position({"ukraine": (ANA, 3)}, phase=Phase.REINFORCE, to_place=5)
    with pytest.raises(IllegalAction, match=f"^{why}$"):
        act(state, ANA, action)


def test_place_at_waits_for_a_forced_trade_and_a_place_already_chosen() -> None:
    hand = {ANA: (0, 1, 2, 3, 4)}
    forced = position({"ukraine": (ANA, 3)}, phase=Phase.REINFORCE, to_place=5, hands=hand)
    with pytest.raises(IllegalAction, match="not available"):
        act(forced, ANA, place_at("ukraine", 1))
    free = position({"ukraine": (ANA, 3)}, phase=Phase.REINFORCE, to_place=5)
    chosen = act(free, ANA, place_on("ukraine"))
    with pytest.raises(IllegalAction, match="not available"):
        act(chosen.state, ANA, place_at("ukraine", 1))


def test_an_assault_takes_the_territory_and_moves_in_all_but_keep() -> None:
    state = position({"ukraine": (ANA, 30), "ural": (BOB, 2)}, rest=BOB)
    step = act(state, ANA, assault("ukraine", "ural", 1, 4))
    (taken,) = of_type(step.events, TerritoryCaptured)
    (moved,) = of_type(step.events, ArmiesMovedIn)
    assert step.state.owner("ural") == ANA
    assert step.state.armies_on("ukraine") == 4 and moved.source_armies == 4
    assert step.state.armies_on("ural") == moved.target_armies == taken.moved + moved.count
    assert (step.state.phase, step.state.source, step.state.target) == (Phase.ATTACK, "", "")


def test_an_assault_stops_at_its_level_and_keeps_the_dice_only_when_asked() -> None:
    state = position({"ukraine": (ANA, 12), "ural": (BOB, 30)}, rest=BOB)
    step = act(state, ANA, assault("ukraine", "ural", 5, 1), seed=3)
    assert of_type(step.events, AttackStopped) and step.state.armies_on("ukraine") <= 5
    assert len(of_type(step.events, BattleRolled)) > 1
    # As after a blitz, the attack stays selected: roll on, blitz on, or go back.
    assert (step.state.source, step.state.target, step.state.blitz_stop) == ("ukraine", "ural", 0)
    small = position({"ukraine": (ANA, 5), "ural": (BOB, 1)}, rest=BOB)
    won = act(small, ANA, assault("ukraine", "ural", 1, 99), seed=1)  # keep more than there is
    (taken,) = of_type(won.events, TerritoryCaptured)
    (moved,) = of_type(won.events, ArmiesMovedIn)
    assert (taken.moved, moved.count) == (3, 0)  # only the dice moved in
    assert (won.state.armies_on("ukraine"), won.state.armies_on("ural")) == (2, 3)


@pytest.mark.parametrize(
    ("action", "why"),
    [
        (
            assault("ural", "ukraine"),
            "You can attack only from your territory with 2 or more armies.",
        ),
        (assault("ukraine", "ukraine"), "You can attack only an enemy territory next to it."),
        (assault("ukraine", "alaska"), "You can attack only an enemy territory next to it."),
        (assault("ukraine", "ural", 10), "A blitz from there may stop at 1, 3 or 5 armies."),
        (assault("ukraine", "ural", 2), "A blitz from there may stop at 1, 3 or 5 armies."),
        (assault("ukraine", "ural", 1, 0), "Keep at least 1 army behind after a capture."),
        (Action(Verb.ASSAULT, "ukraine,ural"), "An assault names its territories, stop level"),
    ],
)
def test_an_assault_refuses_clearly_and_changes_nothing(action: Action, why: str) -> None:
    state = position({"ukraine": (ANA, 8), "ural": (BOB, 3)}, rest=BOB)
    with pytest.raises(IllegalAction, match=f"^{why}"):
        act(state, ANA, action)


def test_no_assault_when_the_defender_chooses_dice_or_an_attack_is_chosen() -> None:
    options = {"defender_chooses": True}
    state = position({"ukraine": (ANA, 8), "ural": (BOB, 3)}, rest=BOB, options=options)
    with pytest.raises(IllegalAction, match="The defender chooses their dice"):
        act(state, ANA, assault("ukraine", "ural"))
    one = position({"ukraine": (ANA, 8), "ural": (BOB, 1)}, rest=BOB, options=options)
    assert act(one, ANA, assault("ukraine", "ural")).state.owner("ural") == ANA  # no choice
    plain = position({"ukraine": (ANA, 8), "ural": (BOB, 3)}, rest=BOB)
    chosen = act(plain, ANA, attack_from("ukraine")).state
    with pytest.raises(IllegalAction, match="not available"):
        act(chosen, ANA, assault("ukraine", "ural"))
    with pytest.raises(IllegalAction, match="not available"):
        act(act(chosen, ANA, attack_to("ural")).state, ANA, assault("ukraine", "ural"))


def test_the_sub_steps_of_an_assault_are_still_the_board_s() -> None:
    state = position({"ukraine": (ANA, 8), "ural": (BOB, 3)}, rest=BOB)
    assert attack_from("ukraine") in legal_actions(state)
    chosen = act(act(state, ANA, attack_from("ukraine")).state, ANA, attack_to("ural")).state
    assert blitz(1) in legal_actions(chosen) and place(1) not in legal_actions(chosen)


# --- a game played with coarse actions replays from its log -----------------------------------


def test_a_game_of_coarse_actions_replays_from_its_log() -> None:
    """A whole game, coarse actions wherever one may be made, with the bot's per-step
    generators: replaying its log (as text, as stored) from the seed gives every state."""
    seed, seats = "coarse-replay", (101, 202, 303)
    picker = Random(seed)
    state = ENGINE.initial_state(seats, {}, setup_rng(seed))
    log: list[tuple[PlayerId, str, RiskState]] = []
    while (acting := ENGINE.to_act(state)) and len(log) < 3000:
        player = min(acting)
        legal = legal_actions(state)
        action = _a_coarse_action(state, legal, picker) or picker.choice(legal)
        state = ENGINE.apply(state, player, action, step_rng(seed, len(log))).state
        log.append((player, f"{action.verb}:{action.arg}", state))
    assert {text.split(":")[0] for _, text, _ in log} >= {Verb.PLACE_AT, Verb.ASSAULT}
    replayed = ENGINE.initial_state(seats, {}, setup_rng(seed))
    for n, (player, text, saved) in enumerate(log):
        verb, arg = text.split(":", 1)
        replayed = ENGINE.apply(replayed, player, Action(verb, arg), step_rng(seed, n)).state
        assert ENGINE.dump(replayed) == ENGINE.dump(saved)
