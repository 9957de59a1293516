"""Properties of whole Hold Your Horses games, over random tables, options and seeds:
tokens are conserved, hands and discards partition the deck, and every winning horse has
exactly four cards in hands."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.core import Event, setup_rng, step_rng
from rules.hold_your_horses.actions import ROLL
from rules.hold_your_horses.state import DECK, HoldYourHorsesState, Phase, RaceWon
from tests.rules.hold_your_horses.helpers import ENGINE

options = st.fixed_dictionaries(
    {
        "track": st.sampled_from(["classic", "even", "short"]),
        "escalating_scratches": st.booleans(),
        "races": st.integers(1, 10),
        "tokens": st.integers(12, 600),
        "autoplay": st.booleans(),
    }
)


def play(
    players: int, opts: dict[str, Any], seed: int
) -> list[tuple[HoldYourHorsesState, tuple[Event, ...]]]:
    """A whole game, every player rolling in turn: each state with the events that led to it."""
    state = ENGINE.initial_state(tuple(range(1, players + 1)), opts, setup_rng(str(seed)))
    history: list[tuple[HoldYourHorsesState, tuple[Event, ...]]] = [(state, ())]
    n = 0
    while acting := ENGINE.to_act(state):
        (player,) = acting
        step = ENGINE.apply(state, player, ROLL, step_rng(str(seed), n))
        state = step.state
        history.append((state, step.events))
        n += 1
    return history


games = settings(max_examples=40, deadline=None, derandomize=True)


@games
@given(players=st.integers(2, 12), opts=options, seed=st.integers(0, 2**32))
def test_tokens_are_conserved_and_nobody_goes_below_zero(
    players: int, opts: dict[str, Any], seed: int
) -> None:
    for state, _ in play(players, opts, seed):
        assert sum(state.tokens) + state.pot == opts["tokens"]
        assert min(state.tokens) >= 0 and state.pot >= 0


@games
@given(players=st.integers(2, 12), opts=options, seed=st.integers(0, 2**32))
def test_hands_and_discards_are_a_partition_of_the_deck(
    players: int, opts: dict[str, Any], seed: int
) -> None:
    for state, _ in play(players, opts, seed):
        cards = Counter(c for hand in state.hands for c in hand) + Counter(state.discards)
        assert cards == Counter(DECK)
        # The discards are exactly the scratched horses' cards, and nobody holds one.
        assert set(state.discards) == set(state.race.scratched)
        assert not any(set(hand) & set(state.race.scratched) for hand in state.hands)
        if not state.race.scratched:  # a fresh deal: one card at a time round the table
            sizes = [len(hand) for hand in state.hands]
            assert max(sizes) - min(sizes) <= 1


@games
@given(players=st.integers(2, 12), opts=options, seed=st.integers(0, 2**32))
def test_every_winning_horse_has_exactly_four_cards_in_hands(
    players: int, opts: dict[str, Any], seed: int
) -> None:
    history = play(players, opts, seed)
    wins = [e for _, events in history for e in events if isinstance(e, RaceWon)]
    assert len(wins) == opts["races"]
    for won in wins:
        assert sum(p.cards for p in won.payouts) == 4
        assert sum(p.won for p in won.payouts) + won.carried == won.pot
        assert won.carried < 4  # a remainder of ⌊pot / 4⌋ per card
    final = history[-1][0]
    assert final.phase is Phase.OVER and len(final.grid) == opts["races"]
