"""Winner's Circle, rule by rule (docs/rules/winners_circle.md), with chance passed in:
cards in draw order to `line_up`/`prepare_race`, symbols to `resolve_roll`."""

from __future__ import annotations

from dataclasses import replace
from random import Random

import pytest

from rules.core import Action, Event, IllegalAction, setup_rng, step_rng
from rules.winners_circle import ENGINE
from rules.winners_circle.actions import (
    NEXT_RACE,
    ROLL,
    Verb,
    bet_action,
    chips_left,
    move_action,
)
from rules.winners_circle.cards import HORSE_CARDS, HORSES, ROYAL_TURF_CARDS, Symbol, card
from rules.winners_circle.engine import line_up, parse_rules
from rules.winners_circle.options import OPTIONS
from rules.winners_circle.state import (
    FINISH,
    Bet,
    BetPlaced,
    CardsTurnedUp,
    DieRolled,
    FirstBettorChosen,
    GameWon,
    HorseFinished,
    HorseMoved,
    PaceHorseSet,
    PayoutMade,
    Phase,
    RaceEnded,
    RacePrepared,
    RaceResult,
    RaceSettled,
    RaceStarted,
    Rules,
    WinnersCircleState,
)
from rules.winners_circle.track import destination, landing
from tests.rules.winners_circle.scenario import (
    ANA,
    BOB,
    CAP,
    CAT,
    DAN,
    HEAD,
    RNG,
    SADDLE,
    SHOE,
    card_with,
    lap,
    new_game,
    of_type,
    racing,
    the,
)

BASE_IDS = tuple(c.id for c in HORSE_CARDS)
ROYAL_IDS = tuple(c.id for c in ROYAL_TURF_CARDS)


def bet(state: WinnersCircleState, horse: int, chip: int) -> WinnersCircleState:
    player = state.players[state.current]
    return ENGINE.apply(state, player, bet_action(state, horse, chip), RNG).state


def move(state: WinnersCircleState, horse: int) -> tuple[WinnersCircleState, tuple[Event, ...]]:
    step = ENGINE.apply(state, state.players[state.current], move_action(horse), RNG)
    return step.state, step.events


def rolled(state: WinnersCircleState, symbol: Symbol) -> WinnersCircleState:
    return ENGINE.resolve_roll(state, symbol, RNG).state


# --- options ---------------------------------------------------------------------------------


def test_house_options_default_off_and_unknown_keys_are_ignored() -> None:
    assert parse_rules({}) == Rules(False, False, False, False)
    assert parse_rules({"turn_timer": 60}) == parse_rules({})
    assert parse_rules(
        {
            "royal_turf": True,
            "hidden_bets": True,
            "crowded_field": True,
            "alternative_payouts": True,
        }
    ) == Rules(True, True, True, True)


@pytest.mark.parametrize(
    "name", ["royal_turf", "hidden_bets", "crowded_field", "alternative_payouts"]
)
@pytest.mark.parametrize("value", ["yes", 1, None])
def test_a_bad_option_value_is_refused_not_guessed(name: str, value: object) -> None:
    with pytest.raises(IllegalAction, match=OPTIONS[name].title):
        parse_rules({name: value})


def test_two_to_six_players() -> None:
    for n in (2, 6):
        assert len(new_game(tuple(range(1, n + 1))).players) == n
    for n in (1, 7):
        with pytest.raises(IllegalAction):
            new_game(tuple(range(1, n + 1)))


# --- 1. preparation --------------------------------------------------------------------------


def test_cards_go_to_gates_one_to_seven_and_the_horses_line_up_on_36_to_30() -> None:
    drawn = (9, 3, 27, 1, 14, 20, 5, *[c for c in BASE_IDS if c not in (9, 3, 27, 1, 14, 20, 5)])
    gates, starts, deck, set_aside = line_up(parse_rules({}), drawn)
    assert gates == (9, 3, 27, 1, 14, 20, 5)
    assert starts == (36, 35, 34, 33, 32, 31, 30)  # gate 1 on 36 … gate 7 on 30
    assert deck == drawn[7:] and set_aside == 0


def test_three_races_use_21_different_horse_cards() -> None:
    state = new_game()
    used = set(state.gates)
    for _ in range(2):
        state = ENGINE.prepare_race(state, state.deck).state
        assert not used & set(state.gates)
        used |= set(state.gates)
    assert len(used) == 21 and len(state.deck) == 7


def test_royal_turf_a_card_goes_to_its_own_horse_and_that_horse_to_the_next_start_space() -> None:
    # Draw: horse 4's card, horse 2's, horse 4's again (set aside), then one for each other.
    order = [141, 121, 142, 111, 131, 151, 161, 171]
    rest = [c for c in ROYAL_IDS if c not in order]
    gates, starts, deck, set_aside = line_up(parse_rules({"royal_turf": True}), (*order, *rest))
    assert gates == (111, 121, 131, 141, 151, 161, 171)
    assert starts[4 - 1] == 36 and starts[2 - 1] == 35  # in draw order
    assert (starts[0], starts[2], starts[4], starts[5], starts[6]) == (34, 33, 32, 31, 30)
    assert set_aside == 1
    assert set(deck) == {142, *rest}  # the set-aside card is shuffled back


def test_royal_turf_races_use_one_card_per_horse_each_time() -> None:
    state = new_game(royal_turf=True)
    for _ in range(3):
        assert sorted(card(c).horse for c in state.gates) == list(HORSES)
        if state.race < 3:
            state = ENGINE.prepare_race(state, state.deck).state
    assert state.deck == ()


def test_crowded_field_every_horse_starts_on_space_36() -> None:
    _, starts, _, _ = line_up(parse_rules({"crowded_field": True}), BASE_IDS)
    assert set(starts) == {36}


def test_race_preparation_announces_the_cards_with_their_values() -> None:
    state = replace(new_game(), phase=Phase.RACE_OVER)
    step = ENGINE.prepare_race(state, state.deck)
    prepared = the(step.events, RacePrepared)
    assert prepared.race == 2
    assert prepared.cards == tuple(card(c) for c in step.state.gates)
    assert prepared.starts == (36, 35, 34, 33, 32, 31, 30)
    assert step.state.phase is Phase.BETTING and step.state.bets == ()
    assert all(step.state.face_up)


# --- 2. bets ---------------------------------------------------------------------------------


def test_race_one_a_random_player_bets_first() -> None:
    firsts = {
        ENGINE.initial_state((ANA, BOB, CAT), {}, setup_rng(str(i))).first_bettor for i in range(30)
    }
    assert firsts == {0, 1, 2}


def test_a_bet_is_a_horse_and_a_chip_one_one_two() -> None:
    state = replace(new_game(), current=0, first_bettor=0)
    assert chips_left(state, ANA) == (1, 1, 2)
    legal = ENGINE.legal_actions(state, ANA)
    assert set(legal) == {Action(Verb.BET, f"{h},{c}") for h in HORSES for c in (1, 2)}
    assert len(legal) <= 25  # one select menu
    step = ENGINE.apply(state, ANA, Action(Verb.BET, "3,2"), RNG)
    assert the(step.events, BetPlaced) == BetPlaced(ANA, 3, 2)
    assert chips_left(step.state, ANA) == (1, 1)


def test_players_bet_clockwise_three_rounds_on_three_different_horses() -> None:
    state = replace(new_game(), current=1, first_bettor=1)  # Bob bets first
    order = []
    for horse, chip in [(1, 2), (1, 1), (2, 2), (2, 1), (3, 2), (1, 1), (3, 1), (4, 1), (5, 1)]:
        order.append(state.players[state.current])
        state = bet(state, horse, chip)
    assert order == [BOB, CAT, ANA] * 3
    assert sorted((b.horse, b.chip) for b in state.bets_of(BOB)) == [(1, 2), (2, 1), (3, 1)]
    assert len(state.bets_on(1)) == 3  # several players may back the same horse


def test_a_player_may_not_bet_twice_on_a_horse_or_with_a_chip_spent() -> None:
    state = replace(new_game((ANA, BOB)), current=0, first_bettor=0)
    state = bet(bet(state, 4, 2), 4, 1)  # Ana 2 on horse 4, Bob 1 on horse 4
    assert all(not a.arg.startswith("4,") for a in ENGINE.legal_actions(state, ANA))
    assert all(not a.arg.endswith(",2") for a in ENGINE.legal_actions(state, ANA))
    for wrong in ("4,1", "5,2", "5,3", "8,1"):
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, ANA, Action(Verb.BET, wrong), RNG)
    with pytest.raises(IllegalAction, match="not your turn"):
        ENGINE.apply(state, BOB, Action(Verb.BET, "5,1"), RNG)


def test_when_the_bets_are_in_the_first_bettor_rolls_first() -> None:
    state = replace(new_game((ANA, BOB)), current=1, first_bettor=1)
    for horse, chip in [(1, 2), (2, 2), (2, 1), (1, 1), (3, 1), (3, 1)]:
        state = bet(state, horse, chip)
    assert state.phase is Phase.ROLL
    assert ENGINE.to_act(state) == {BOB}
    assert ENGINE.legal_actions(state, BOB) == (ROLL,)


def test_the_last_bet_announces_the_race_start() -> None:
    state = replace(new_game((ANA, BOB)), current=0, first_bettor=0)
    for horse, chip in [(1, 2), (2, 2), (2, 1), (1, 1), (3, 1)]:
        state = bet(state, horse, chip)
    step = ENGINE.apply(state, BOB, Action(Verb.BET, "3,1"), RNG)
    assert the(step.events, RaceStarted) == RaceStarted(1, ANA)


# --- 3. the race: roll, choose a face-up horse -----------------------------------------------


def test_roll_then_choose_a_horse_whose_card_is_face_up() -> None:
    state = racing(face_down=(2, 5))
    step = ENGINE.resolve_roll(state, CAP, RNG)
    assert the(step.events, DieRolled) == DieRolled(ANA, CAP, (1, 3, 4, 6, 7))
    assert step.state.phase is Phase.MOVE
    assert ENGINE.legal_actions(step.state, ANA) == tuple(move_action(h) for h in (1, 3, 4, 6, 7))
    with pytest.raises(IllegalAction, match="face up"):
        ENGINE.apply(step.state, ANA, move_action(2), RNG)


def test_a_roll_action_rolls_the_special_die() -> None:
    symbols = {
        the(ENGINE.apply(racing(), ANA, ROLL, step_rng("die", i)).events, DieRolled).symbol
        for i in range(40)
    }
    assert symbols == {HEAD, CAP, SADDLE, SHOE}


def test_the_horse_moves_by_its_cards_value_for_the_symbol_and_its_card_turns_face_down() -> None:
    state = rolled(racing({3: lap(5)}, cards={3: card_with(SADDLE, 15)}), SADDLE)
    state, events = move(state, 3)
    moved = the(events, HorseMoved)
    assert (moved.horse, moved.wanted, moved.moved) == (3, 15, 15)
    assert (moved.from_space, moved.to_space) == (5, 20)
    assert state.space(3) == 20
    assert not state.is_face_up(3)
    assert state.phase is Phase.ROLL and state.current == 1  # clockwise: Bob's turn


def test_destination_labels_each_choice_with_where_the_horse_would_end() -> None:
    state = rolled(racing({1: lap(10), 2: lap(14)}, cards={1: card_with(CAP, 4)}), CAP)
    assert destination(state, 1).space == 13  # 14 is taken: the first free space behind
    assert destination(state, 2).space == 19  # steady card: 5
    with pytest.raises(ValueError):
        destination(racing(), 1)  # nothing rolled yet


def test_with_one_face_up_card_left_the_roll_moves_that_horse() -> None:
    state = racing(face_down=(1, 2, 3, 4, 5, 7))
    step = ENGINE.resolve_roll(state, HEAD, RNG)
    moved = the(step.events, HorseMoved)
    assert moved.horse == 6 and moved.forced
    assert step.state.phase is Phase.ROLL and step.state.current == 1


def test_a_move_must_be_chosen_there_is_no_passing() -> None:
    state = rolled(racing(), HEAD)
    assert {a.verb for a in ENGINE.legal_actions(state, ANA)} == {Verb.MOVE}


# --- blocking ---------------------------------------------------------------------------------


def test_example_2_a_six_space_move_blocked_on_17_and_16_ends_on_15() -> None:
    """Seed 004, Example 2: horse A moves 6 from space 11; 17 and 16 are taken."""
    state = racing({1: lap(11), 2: lap(16), 3: lap(17)}, cards={1: card_with(CAP, 6)})
    state, events = move(rolled(state, CAP), 1)
    moved = the(events, HorseMoved)
    assert (moved.wanted, moved.moved, moved.to_space) == (6, 4, 15)
    assert state.space(1) == 15


def test_blocking_at_the_start_the_back_horse_may_not_move_at_all_but_uses_its_card() -> None:
    # Horse 7 stands on 30 behind the six others on 31–36: a 3 would end on 33, and 32 and
    # 31 are taken too.
    state = rolled(racing(cards={7: card_with(SADDLE, 3)}), SADDLE)
    assert landing(state, 7, SADDLE).moved == 0
    state, events = move(state, 7)
    moved = the(events, HorseMoved)
    assert (moved.wanted, moved.moved, moved.from_space, moved.to_space) == (3, 0, 30, 30)
    assert not state.is_face_up(7)  # it has had its turn


def test_a_horse_may_not_end_on_a_space_taken_across_the_start_line() -> None:
    # Horse 1 has come round to space 28; horse 7 still waits on space 30 at the start.
    state = racing({1: lap(28)}, cards={1: card_with(SADDLE, 2)})
    assert state.space(7) == 30
    assert landing(state, 1, SADDLE).space == 29


def test_crossing_the_finish_line_is_never_blocked() -> None:
    state = racing({1: lap(34), 2: lap(35), 3: lap(36)}, cards={1: card_with(CAP, 3)})
    assert landing(state, 1, CAP).finishes


def test_crowded_field_horses_share_spaces() -> None:
    state = racing(
        {1: lap(11), 2: lap(16), 3: lap(17)}, cards={1: card_with(CAP, 6)}, crowded_field=True
    )
    state, _ = move(rolled(state, CAP), 1)
    assert state.space(1) == state.space(3) == 17
    start = new_game(crowded_field=True)
    assert {start.space(h) for h in HORSES} == {36}


# --- cycles of cards --------------------------------------------------------------------------


def test_when_every_card_in_play_is_face_down_they_all_turn_face_up() -> None:
    state = racing(face_down=(1, 2, 3, 5, 6, 7))
    step = ENGINE.resolve_roll(state, HEAD, RNG)  # horse 4, the last face-up card
    assert the(step.events, CardsTurnedUp).horses == HORSES
    assert all(step.state.face_up)


def test_a_finished_horses_card_has_left_play() -> None:
    state = racing({1: FINISH + 3}, finished=(1,), face_down=(2, 3, 5, 6, 7))
    step = ENGINE.resolve_roll(state, HEAD, RNG)
    assert the(step.events, CardsTurnedUp).horses == (2, 3, 4, 5, 6, 7)
    assert not step.state.is_face_up(1)
    step = ENGINE.resolve_roll(replace(step.state, phase=Phase.ROLL), CAP, RNG)
    assert 1 not in the(step.events, DieRolled).choices


# --- the pace horse ---------------------------------------------------------------------------


def test_the_first_horse_to_reach_or_pass_space_18_is_the_pace_horse() -> None:
    state = racing({2: lap(12), 5: lap(15)}, cards={2: card_with(SHOE, 6), 5: card_with(SHOE, 8)})
    state, events = move(rolled(state, SHOE), 2)  # 12 + 6 = 18: reaches it
    assert the(events, PaceHorseSet).horse == 2
    assert state.pace == 2
    state, events = move(rolled(state, SHOE), 5)  # passes 18 later: no change
    assert not of_type(events, PaceHorseSet)
    assert state.pace == 2


def test_one_space_short_of_18_is_not_the_pace_mark() -> None:
    state = racing({1: lap(16)}, cards={1: card_with(CAP, 1)})
    state, events = move(rolled(state, CAP), 1)
    assert state.space(1) == 17
    assert not of_type(events, PaceHorseSet) and state.pace == 0


# --- finish and last place --------------------------------------------------------------------


def test_win_place_show_and_the_race_ends_when_the_third_horse_crosses() -> None:
    state = racing(
        {1: FINISH + 2, 2: FINISH + 1, 3: lap(34), 4: lap(20), 5: lap(3), 6: lap(9), 7: lap(2)},
        finished=(2, 1),
        cards={3: card_with(HEAD, 5)},
    )
    state = replace(state, pace=2)
    step = ENGINE.resolve_roll(state, HEAD, Random(0))
    assert step.state.phase is Phase.MOVE
    state, events = move(step.state, 3)
    assert the(events, HorseFinished) == HorseFinished(3, 3)
    assert the(events, RaceEnded) == RaceEnded(1, (2, 1, 3), (7,), 2)
    assert state.phase is Phase.RACE_OVER
    assert state.results[-1].finish == (2, 1, 3)


def test_the_last_horse_is_the_hindmost_on_the_track_counting_the_lap() -> None:
    # Horse 7 still stands at the start (space 30 before the line) behind horse 5 on space 3.
    state = racing(
        {1: FINISH + 1, 2: FINISH + 2, 3: lap(35), 4: lap(20), 5: lap(3), 6: lap(9)},
        finished=(2, 1),
    )
    state, events = move(rolled(state, HEAD), 3)
    assert the(events, RaceEnded).last == (7,)


def test_in_a_crowded_field_horses_sharing_the_back_space_are_all_last() -> None:
    state = racing(
        {1: FINISH + 1, 2: FINISH + 2, 3: lap(35), 4: lap(20)}, finished=(2, 1), crowded_field=True
    )
    state = replace(state, progress=(*state.progress[:4], 40, 40, 40))
    state, events = move(rolled(state, HEAD), 3)
    assert the(events, RaceEnded).last == (5, 6, 7)


# --- 4. paying out (through the engine; the table itself in test_payout.py) --------------------


def example_3_bets(win: int, place: int, show: int, last: int) -> tuple[Bet, ...]:
    A, B, C, D = ANA, BOB, CAT, DAN
    return (
        Bet(A, win, 2),
        Bet(B, place, 2),
        Bet(A, place, 1),
        Bet(C, place, 1),
        Bet(C, show, 1),
        Bet(C, last, 2),
        Bet(D, last, 1),
    )


def the_final_move(
    race: int, money: tuple[int, ...]
) -> tuple[WinnersCircleState, tuple[Event, ...]]:
    """Horses 1 (Win) and 2 (Place, the pace horse) are in; horse 3 is about to cross for
    Show; horse 7 is hindmost. Bets as in seed 004's Example 3."""
    state = racing(
        {1: FINISH + 2, 2: FINISH + 1, 3: lap(34), 4: lap(20), 5: lap(8), 6: lap(9), 7: lap(2)},
        finished=(1, 2),
        players=(ANA, BOB, CAT, DAN),
        bets=example_3_bets(1, 2, 3, 7),
        race=race,
        money=money,
    )
    earlier = tuple(RaceResult(r, (1, 2, 3), (7,), 2, money) for r in range(1, race))
    return move(rolled(replace(state, pace=2, results=earlier), HEAD), 3)


def test_example_3_the_full_payout() -> None:
    """Seed 004, Example 3: Win 700; Place 300/150/150; Show 250; pace +200/+100/+100;
    last −200/−100."""
    state, events = the_final_move(1, (1000, 1000, 1000, 1000))
    paid = [(p.line.player, p.line.kind.value, p.line.amount) for p in of_type(events, PayoutMade)]
    assert paid == [
        (ANA, "win", 700),
        (BOB, "place", 300),
        (ANA, "place", 150),
        (CAT, "place", 150),
        (CAT, "show", 250),
        (BOB, "pace", 200),
        (ANA, "pace", 100),
        (CAT, "pace", 100),
        (CAT, "last", -200),
        (DAN, "last", -100),
    ]
    assert state.money == (1950, 1500, 1300, 900)
    assert the(events, RaceSettled) == RaceSettled(1, (1950, 1500, 1300, 900))


def test_race_3_doubles_every_payment() -> None:
    state, events = the_final_move(3, (1000, 1000, 1000, 1000))
    assert state.money == (1000 + 1900, 1000 + 1000, 1000 + 600, 1000 - 200)
    assert all(p.doubled for p in of_type(events, PayoutMade))
    assert state.phase is Phase.OVER


def test_a_player_who_cannot_pay_pays_all_they_have() -> None:
    state, events = the_final_move(1, (0, 0, 0, 60))
    assert state.money[3] == 0  # Dan owed 100, had 60
    dan = [p.line for p in of_type(events, PayoutMade) if p.line.player == DAN]
    assert [(line.amount, line.unpaid) for line in dan] == [(-60, 40)]
    assert min(state.money) >= 0


# --- races 2 and 3, the end -------------------------------------------------------------------


def test_after_a_race_the_richest_player_bets_first_in_the_next() -> None:
    state, events = the_final_move(1, (0, 0, 0, 0))
    chosen = the(events, FirstBettorChosen)
    assert chosen == FirstBettorChosen(2, ANA, (ANA,))  # Ana: 950
    assert ENGINE.to_act(state) == {ANA}
    assert ENGINE.legal_actions(state, ANA) == (NEXT_RACE,)
    step = ENGINE.apply(state, ANA, NEXT_RACE, step_rng("next", 0))
    assert the(step.events, RacePrepared).race == 2
    assert step.state.phase is Phase.BETTING and step.state.current == 0
    assert step.state.money == state.money


def test_a_tie_for_the_most_money_is_broken_at_random() -> None:
    bets = (Bet(ANA, 1, 1), Bet(BOB, 1, 1))  # both paid the same
    firsts = set()
    for seed in range(20):
        state = racing(
            {1: FINISH + 2, 2: FINISH + 1, 3: lap(34)},
            finished=(1, 2),
            players=(ANA, BOB, CAT),
            bets=bets,
        )
        state = replace(rolled(replace(state, pace=1), HEAD), current=2)
        events = ENGINE.resolve_move(state, 3, Random(seed)).events
        chosen = the(events, FirstBettorChosen)
        assert chosen.candidates == (ANA, BOB)
        firsts.add(chosen.player)
    assert firsts == {ANA, BOB}


def test_after_race_3_the_richest_player_wins_and_ties_share_the_win() -> None:
    state, events = the_final_move(3, (0, 950, 0, 0))
    # Ana 1900; Bob 950 + 1000 = 1950; Cat 1000 - 400 = 600; Dan has nothing to pay with.
    assert state.money == (1900, 1950, 600, 0)
    assert the(events, GameWon) == GameWon((BOB,), (1900, 1950, 600, 0))
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.places == {BOB: 1, ANA: 2, CAT: 3, DAN: 4}
    assert outcome.scores[BOB] == 1950
    assert outcome.stats[ANA]["winners_backed"] == 1
    assert outcome.stats[CAT]["lasts_backed"] == 1
    assert ENGINE.to_act(state) == frozenset()

    tied, _ = the_final_move(3, (0, 900, 0, 0))  # Ana 1900 = Bob 1900
    outcome = ENGINE.outcome(tied)
    assert outcome is not None and outcome.winners == {ANA, BOB}
