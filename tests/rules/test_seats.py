"""The seat actions every engine shares (`rules.seats`): resigning, a seat handed to the AI
and taken back. Like the conformance suite, parametrised over every registered engine and
blind to their rules; each game's own meaning of a resignation is tested with its rules.

- A seat action is accepted from any seated player, out of turn, and never listed among the
  legal actions; outsiders, resigners and finished games are refused.
- A game with seat actions in its log ends, replays to the same events and states, and
  round-trips through JSON; a resigner always finishes below everyone who played on.
- `ai_seats` names the seats handed over, until they are taken back.
"""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from rules.core import Action, Engine, IllegalAction, PlayerId, step_rng
from rules.seats import HAND_TO_AI, RESIGN, TAKE_SEAT, Resigned, SeatHandedToAI, SeatTakenBack
from tests.rules.test_conformance import (
    MAX_STEPS,
    Playout,
    check_outcome,
    check_round_trip,
    engines,
    outsiders,
    replay,
    seating,
    seed_count,
    start,
    tables,
)

SEAT_SEEDS = 12  # per engine


def playout_with_seat_actions(
    engine: Engine[Any], seats: tuple[PlayerId, ...], seed: str
) -> tuple[Playout, list[PlayerId]]:
    """AI play where, now and then, a random seated player resigns, or hands their seat to
    the AI and takes it back. Returns the playout and the resigners in order."""
    picker = Random(f"{seed}:seats")
    state = start(engine, seats, seed)
    playout = Playout(seats, [state], [], [])
    resigned: list[PlayerId] = []
    away: set[PlayerId] = set()
    for n in range(MAX_STEPS):
        acting = engine.to_act(state)
        if not acting:
            return playout, resigned
        playing = [p for p in seats if p not in resigned]
        roll = picker.random()
        if roll < 0.03 and playing:
            player = picker.choice(playing)
            action = (
                TAKE_SEAT if player in away else picker.choice([RESIGN, HAND_TO_AI, HAND_TO_AI])
            )
        else:
            player = picker.choice(sorted(acting))
            action = engine.choose(state, player, Random(f"{seed}:ai:{n}"))
        assert all(
            a not in (RESIGN, HAND_TO_AI, TAKE_SEAT) for a in engine.legal_actions(state, player)
        )
        step = engine.apply(state, player, action, step_rng(seed, n))
        if action == RESIGN:
            resigned.append(player)
            away.discard(player)
            assert isinstance(step.events[0], Resigned) and step.events[0].player == player
        elif action == HAND_TO_AI:
            away.add(player)
            assert step.events == (SeatHandedToAI(player),)
        elif action == TAKE_SEAT:
            away.discard(player)
            assert step.events == (SeatTakenBack(player),)
        state = step.state
        if engine.to_act(state):
            assert away <= engine.ai_seats(state) <= frozenset(seats)
        playout.states.append(state)
        playout.choices.append((player, action))
        playout.events.append(step.events)
    pytest.fail(f"{engine.name} seed {seed!r}: no end after {MAX_STEPS} steps")


@engines
def test_a_game_with_resignations_ends_and_replays_exactly(engine: Engine[Any]) -> None:
    resignations = 0
    for i in range(seed_count(engine, SEAT_SEEDS)):
        seed = f"seats-{i}"
        seats = tables(engine)[i % len(tables(engine))]
        playout, resigned = playout_with_seat_actions(engine, seats, seed)
        resignations += len(resigned)
        for state in playout.states[:: max(1, len(playout.states) // 20)]:
            check_outcome(engine, state, seats)
            check_round_trip(engine, state)
        final = playout.states[-1]
        check_round_trip(engine, final)
        again = replay(engine, playout, seed)
        assert again.events == playout.events
        assert again.states[-1] == final
        outcome = engine.outcome(final)
        assert outcome is not None
        stayed = [p for p in seats if p not in resigned]
        for p in resigned:
            assert all(outcome.places[p] > outcome.places[q] for q in stayed), (p, outcome)
    assert resignations, "the seeds should include some resignations"


@engines
def test_anyone_seated_may_resign_out_of_turn_and_only_once(engine: Engine[Any]) -> None:
    seats = seating(engine.min_players + (engine.name == "risk"), "humans")
    state, n = start(engine, seats, "out-of-turn"), 0
    while len(engine.to_act(state)) == len(seats):  # Cock & Bull: both roll for first turn
        player = min(engine.to_act(state))
        action = engine.choose(state, player, Random(n))
        state, n = engine.apply(state, player, action, step_rng("out-of-turn", n)).state, n + 1
    idle = next(p for p in seats if p not in engine.to_act(state))
    assert RESIGN not in engine.legal_actions(state, idle)
    after = engine.apply(state, idle, RESIGN, step_rng("out-of-turn", n)).state
    assert idle not in engine.to_act(after) or idle in engine.ai_seats(after)
    for action in (RESIGN, HAND_TO_AI, TAKE_SEAT):
        with pytest.raises(IllegalAction):
            engine.apply(after, idle, action, step_rng("out-of-turn", n + 1))
    for outsider in outsiders(seats):
        with pytest.raises(IllegalAction):
            engine.apply(state, outsider, RESIGN, step_rng("out-of-turn", n))
    with pytest.raises(IllegalAction):
        engine.apply(state, idle, Action(RESIGN.verb, "x"), step_rng("out-of-turn", n))


@engines
def test_a_seat_handed_to_the_ai_is_the_ais_until_taken_back(engine: Engine[Any]) -> None:
    seats = seating(engine.max_players if engine.name != "horse_collar" else 4, "humans")
    state = start(engine, seats, "hand-over")
    player = seats[1]
    handed = engine.apply(state, player, HAND_TO_AI, step_rng("hand-over", 0)).state
    assert engine.ai_seats(handed) == {player}
    with pytest.raises(IllegalAction):
        engine.apply(handed, player, HAND_TO_AI, step_rng("hand-over", 1))
    with pytest.raises(IllegalAction):
        engine.apply(state, player, TAKE_SEAT, step_rng("hand-over", 0))
    back = engine.apply(handed, player, TAKE_SEAT, step_rng("hand-over", 1)).state
    assert engine.ai_seats(back) == frozenset()
    assert engine.dump(back) == engine.dump(state), "nothing else changed"


@engines
def test_a_finished_game_refuses_seat_actions(engine: Engine[Any]) -> None:
    seats = tables(engine)[0]
    playout, _ = playout_with_seat_actions(engine, seats, "finished-seats")
    for action in (RESIGN, HAND_TO_AI, TAKE_SEAT):
        with pytest.raises(IllegalAction):
            engine.apply(playout.states[-1], seats[0], action, step_rng("finished-seats", 0))
