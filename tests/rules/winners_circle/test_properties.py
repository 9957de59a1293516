"""Properties of whole random games (hypothesis): money, cycles of cards, finish order."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.core import Event
from rules.winners_circle.cards import HORSES
from rules.winners_circle.state import (
    FINISH,
    PACE_PROGRESS,
    CardsTurnedUp,
    HorseFinished,
    HorseMoved,
    RaceEnded,
    RacePrepared,
    WinnersCircleState,
)
from tests.rules.winners_circle.scenario import random_game

PLAYERS = (11, -12, 13, -14, 15, -16)

games = st.builds(
    lambda n, seed, royal, hidden, crowded, alternative: random_game(
        PLAYERS[:n],
        str(seed),
        ai_seats=PLAYERS[1:n:2],  # bot seats play the AI, the others at random
        royal_turf=royal,
        hidden_bets=hidden,
        crowded_field=crowded,
        alternative_payouts=alternative,
    ),
    st.integers(2, 6),
    st.integers(0, 2**32),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)
Game = list[tuple[WinnersCircleState, tuple[Event, ...]]]


@settings(max_examples=40, deadline=None, derandomize=True)
@given(games)
def test_money_never_goes_negative(game: Game) -> None:
    for state, _ in game:
        assert min(state.money) >= 0


@settings(max_examples=40, deadline=None, derandomize=True)
@given(games)
def test_every_card_in_play_is_used_exactly_once_per_cycle(game: Game) -> None:
    cycle: set[int] = set(HORSES)  # horses whose card is in play at the cycle's start
    used: set[int] = set()
    cycles = 0
    for _, events in game:
        for event in events:
            if isinstance(event, RacePrepared):
                cycle, used = set(HORSES), set()
            elif isinstance(event, HorseMoved):
                assert event.horse in cycle and event.horse not in used, event
                used.add(event.horse)
            elif isinstance(event, CardsTurnedUp):
                assert used == cycle  # every card had its move, even a horse that stood still
                cycle, used = set(event.horses), set()
                cycles += 1
    assert cycles >= 3  # a race takes a few cycles: the check did run


@settings(max_examples=40, deadline=None, derandomize=True)
@given(games)
def test_the_finish_order_is_consistent_with_the_positions(game: Game) -> None:
    for state, events in game:
        crossed = state.finished
        assert all(state.progress[h - 1] > FINISH for h in crossed)
        running = state.running()
        assert all(state.progress[h - 1] <= FINISH for h in running)
        if not state.rules.crowded_field:  # one horse per space
            assert len({state.space(h) for h in running}) == len(running)
        finishes = [e for e in events if isinstance(e, HorseFinished)]
        assert [e.horse for e in finishes] == list(crossed[len(crossed) - len(finishes) :])
        assert [e.place for e in finishes] == list(
            range(len(crossed) - len(finishes) + 1, len(crossed) + 1)
        )
        for ended in (e for e in events if isinstance(e, RaceEnded)):
            assert ended.finish == state.finished
            back = min(state.progress[h - 1] for h in running)
            assert ended.last == tuple(h for h in running if state.progress[h - 1] == back)
            assert state.progress[ended.pace - 1] >= PACE_PROGRESS
