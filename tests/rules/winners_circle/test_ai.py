"""The Winner's Circle AI (rules/winners_circle/ai.py): its plan, and that it pays off."""

from __future__ import annotations

from dataclasses import replace
from random import Random
from statistics import mean

from rules.core import Action
from rules.winners_circle import ENGINE
from rules.winners_circle.actions import Verb, move_action
from rules.winners_circle.ai import prospects
from rules.winners_circle.cards import HORSES
from rules.winners_circle.state import Bet, Phase, WinnersCircleState
from tests.rules.winners_circle.scenario import (
    ANA,
    BOB,
    CAP,
    HEAD,
    RNG,
    SHOE,
    card_with,
    lap,
    new_game,
    racing,
    random_game,
)


def ai(state: WinnersCircleState, player: int = ANA) -> Action:
    action = ENGINE.choose(state, player, Random(0))
    assert action in ENGINE.legal_actions(state, player)
    return action


def rolled(state: WinnersCircleState, symbol) -> WinnersCircleState:
    return ENGINE.resolve_roll(state, symbol, RNG).state


# --- betting ---------------------------------------------------------------------------------


def test_the_ai_puts_its_2_chip_on_the_horse_with_the_best_prospects_first() -> None:
    state = replace(new_game((ANA, BOB)), current=0, first_bettor=0)
    best = max(HORSES, key=lambda h: (prospects(state, h), -h))
    assert ai(state) == Action(Verb.BET, f"{best},2")


def test_prospects_favour_the_front_of_the_field_and_a_big_card_value() -> None:
    state = racing(cards={1: 1, 7: 1})  # the same steady card on gate 1 (space 36) and 7 (30)
    assert prospects(state, 1) > prospects(state, 7)
    wild = racing(cards={1: 1, 2: card_with(CAP, 22)})  # 1/22/3/2 one space behind
    assert prospects(wild, 2) > prospects(wild, 1)


def test_the_ai_backs_three_different_horses_with_1_1_2() -> None:
    state = replace(new_game((ANA, BOB)), current=0, first_bettor=0)
    while state.phase is Phase.BETTING:
        player = state.players[state.current]
        state = ENGINE.apply(state, player, ai(state, player), RNG).state
    mine = state.bets_of(ANA)
    assert sorted(b.chip for b in mine) == [1, 1, 2]
    assert len({b.horse for b in mine}) == 3


def test_with_hidden_bets_the_ai_bluffs_with_its_0_chip_last() -> None:
    state = replace(new_game((ANA, BOB), hidden_bets=True), current=0, first_bettor=0)
    chips = []
    while state.phase is Phase.BETTING:
        player = state.players[state.current]
        action = ai(state, player)
        assert action.verb == "bet_hidden"
        if player == ANA:
            chips.append(int(action.arg.split(",")[1]))
        state = ENGINE.apply(state, player, action, RNG).state
    assert chips == [2, 1, 1, 0]


# --- moving ----------------------------------------------------------------------------------

# Ana backs horse 1; Bob backs horse 2. Everyone else is unbacked.
BETS = (Bet(ANA, 1, 2), Bet(BOB, 2, 2))


def test_the_ai_pushes_its_own_horse_with_a_big_roll() -> None:
    state = racing({1: lap(2), 2: lap(10)}, cards={1: card_with(CAP, 22)}, bets=BETS)
    assert ai(rolled(state, CAP)) == move_action(1)


def test_the_ai_spends_a_small_roll_on_a_rivals_horse() -> None:
    # Shoe is a 1 for Bob's horse 2: its card is used up for a single space.
    state = racing({1: lap(2), 2: lap(10)}, cards={2: card_with(SHOE, 1)}, bets=BETS)
    assert ai(rolled(state, SHOE)) == move_action(2)


def test_the_ai_keeps_a_small_roll_off_its_own_horse() -> None:
    state = racing({1: lap(2), 2: lap(10)}, cards={1: card_with(HEAD, 1)}, bets=BETS)
    assert ai(rolled(state, HEAD)) != move_action(1)


def test_the_ai_takes_a_finishing_place_for_its_horse() -> None:
    state = racing({1: lap(33), 3: lap(20)}, bets=BETS)
    assert ai(rolled(state, HEAD)) == move_action(1)  # 5 spaces take it across the line


def test_the_ai_parks_a_horse_in_front_of_a_rivals_horse() -> None:
    # Head is 5 for every horse. Unbacked horse 5 from space 8 would stop on 13, just in
    # front of Bob's horse 2 on 11; unbacked horse 4 from 25 would go to 30, blocking nothing.
    state = racing(
        {1: lap(2), 2: lap(11), 3: lap(20), 4: lap(25), 5: lap(8), 6: lap(16), 7: lap(4)},
        face_down=(1, 2, 3, 6, 7),
        bets=BETS,
    )
    assert ai(rolled(state, HEAD)) == move_action(5)


# --- it pays off -----------------------------------------------------------------------------


def test_the_ai_clearly_beats_random_players() -> None:
    """30 seeded 3-player games, one AI seat (rotating) against two random-legal players.
    Measured: the AI ends with 3,720 on average against 1,122 for a random player, and
    is richest in every game; the thresholds leave a wide margin."""
    ai_money, random_money, ai_first = [], [], 0
    for i in range(30):
        players = (101, 102, 103)
        bot = players[i % 3]
        final = random_game(players, f"ai-vs-random-{i}", ai_seats=(bot,))[-1][0]
        seat = final.seat_of(bot)
        ai_money.append(final.money[seat])
        random_money.extend(m for s, m in enumerate(final.money) if s != seat)
        outcome = ENGINE.outcome(final)
        assert outcome is not None
        ai_first += outcome.places[bot] == 1
    assert mean(ai_money) > 2.5 * mean(random_money)
    assert ai_first >= 24  # richest in at least 80% of the games
