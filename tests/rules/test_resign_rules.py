"""What a resignation means in each game (issue 17): in a game of two the opponent wins; in
Risk of more the resigner's territories turn neutral (or, by house rule, the AI plays them);
Hold Your Horses and Winner's Circle play the seat out with the AI, the resigner last; Horse
Collar's AI takes the seat unless the side is left empty, and then the other side wins."""

from __future__ import annotations

from random import Random
from typing import Any

from rules.core import Engine, PlayerId, setup_rng, step_rng
from rules.registry import ENGINES
from rules.risk.state import NEUTRAL, Phase, WinKind
from rules.seats import RESIGN, Resigned

SEED = "resign"


def new(game: str, seats: tuple[PlayerId, ...], **options: Any) -> tuple[Engine[Any], Any]:
    engine = ENGINES[game]
    return engine, engine.initial_state(seats, options, setup_rng(SEED))


def play_ai(engine: Engine[Any], state: Any, steps: int) -> Any:
    for n in range(steps):
        player = min(engine.to_act(state))
        action = engine.choose(state, player, Random(n))
        state = engine.apply(state, player, action, step_rng(SEED, n)).state
    return state


def test_cock_and_bull_resigning_hands_the_match_to_the_opponent() -> None:
    engine, state = new("cock_and_bull", (1, 2))
    state = play_ai(engine, state, 6)
    step = engine.apply(state, 2, RESIGN, step_rng(SEED, 6))
    assert step.events == (Resigned(2, winners=(1,)),)
    assert engine.to_act(step.state) == frozenset()
    outcome = engine.outcome(step.state)
    assert outcome is not None and outcome.places == {1: 1, 2: 2}


def test_two_player_risk_resigning_hands_the_game_to_the_opponent() -> None:
    engine, state = new("risk", (1, 2))
    step = engine.apply(state, 2, RESIGN, step_rng(SEED, 0))
    assert step.events[0] == Resigned(2, winners=(1,))
    assert step.state.win is WinKind.RESIGNATION and step.state.winners == (1,)
    outcome = engine.outcome(step.state)
    assert outcome is not None and outcome.places == {1: 1, 2: 2}


def test_risk_of_three_turns_a_resigners_territories_neutral_and_plays_on() -> None:
    engine, state = new("risk", (1, 2, 3))
    state = play_ai(engine, state, 60)  # past the set-up, into the turns
    assert state.phase is not Phase.OVER and state.round >= 1
    me = state.player
    held = [i for i, owner in enumerate(state.owners) if owner == me]
    armies = [state.armies[i] for i in held]
    step = engine.apply(state, me, RESIGN, step_rng(SEED, 60))
    after = step.state
    assert step.events[0] == Resigned(me)
    assert [after.owners[i] for i in held] == [NEUTRAL] * len(held)
    assert [after.armies[i] for i in held] == armies
    assert after.is_out(me) and after.player != me and after.phase is Phase.REINFORCE
    assert me not in engine.ai_seats(after)
    # The last one standing wins when the other also resigns.
    other = next(p for p in after.players if p not in (me, after.player))
    end = engine.apply(after, other, RESIGN, step_rng(SEED, 61)).state
    assert end.winners == (after.player,) and end.win is WinKind.RESIGNATION
    outcome = engine.outcome(end)
    assert outcome is not None
    assert outcome.places == {after.player: 1, other: 2, me: 3}


def test_risk_house_rule_resign_to_ai_keeps_the_seat_for_the_ai() -> None:
    engine, state = new("risk", (1, 2, 3), resign_to_ai=True)
    state = play_ai(engine, state, 60)
    idle = next(p for p in state.players if p != state.player)
    after = engine.apply(state, idle, RESIGN, step_rng(SEED, 60)).state
    assert after.owners == state.owners and engine.ai_seats(after) == {idle}


def test_hold_your_horses_and_winners_circle_play_a_resigner_out_last() -> None:
    for game in ("hold_your_horses", "winners_circle"):
        engine, state = (
            new(game, (1, 2, 3), races=1) if game == "hold_your_horses" else new(game, (1, 2, 3))
        )
        step = engine.apply(state, 2, RESIGN, step_rng(SEED, 0))
        assert step.events == (Resigned(2),)
        assert engine.ai_seats(step.state) == {2} and engine.to_act(step.state)
        end = step.state
        for n in range(1, 2000):
            if not engine.to_act(end):
                break
            player = min(engine.to_act(end))
            action = engine.choose(end, player, Random(n))
            end = engine.apply(end, player, action, step_rng(SEED, n)).state
        outcome = engine.outcome(end)
        assert outcome is not None and outcome.places[2] == 3, game


def test_horse_collar_singles_resigning_hands_the_game_to_the_other_side() -> None:
    engine, state = new("horse_collar", (1, 2))
    step = engine.apply(state, 1, RESIGN, step_rng(SEED, 0))
    assert step.events == (Resigned(1, winners=(2,)),)
    outcome = engine.outcome(step.state)
    assert outcome is not None and outcome.places == {2: 1, 1: 2}


def test_horse_collar_pairs_the_ai_takes_the_seat_until_the_side_is_empty() -> None:
    engine, state = new("horse_collar", (1, 2, 3, 4), sides=2)  # sides (1, 2) v (3, 4)
    step = engine.apply(state, 1, RESIGN, step_rng(SEED, 0))
    assert step.events == (Resigned(1),) and engine.ai_seats(step.state) == {1}
    assert engine.to_act(step.state)
    last = engine.apply(step.state, 2, RESIGN, step_rng(SEED, 1))
    assert last.events == (Resigned(2, winners=(3, 4)),)
    outcome = engine.outcome(last.state)
    assert outcome is not None
    assert outcome.places == {3: 1, 4: 1, 2: 3, 1: 4}
