"""Hold Your Horses, rule by rule (docs/rules/hold_your_horses.md), with dice and deals
passed in. The table is the payout example's (docs/rules/hold_your_horses.md, "Payout"): Greg,
Lois, Max and Sherre, in seat order."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from rules.core import Action, IllegalAction, step_rng
from rules.hold_your_horses.actions import ROLL, Verb
from rules.hold_your_horses.engine import parse_rules, roll_dice, shuffled_deck
from rules.hold_your_horses.state import (
    DECK,
    HORSES,
    CardsDealt,
    GameWon,
    HandDealt,
    HoldYourHorsesState,
    HorseMoved,
    HorseScratched,
    Payment,
    Payout,
    Phase,
    RaceStarted,
    RaceWon,
    Roll,
    RollResult,
    Rules,
    ScratchFinePaid,
    ScratchRerolled,
    TokensDivided,
    Track,
    hand_of,
    leaders,
    totals,
)
from tests.rules.hold_your_horses.helpers import (
    DICE,
    ENGINE,
    GREG,
    LOIS,
    MAX,
    SHERRE,
    TABLE,
    deck_giving,
    new_game,
    of_type,
    roll,
    rolls,
    the,
    tokens_in_play,
)

G, L, M, S = range(4)  # their seats


def racing(
    wanted: dict[int, list[int]] | None = None,
    scratched: tuple[int, int, int, int] = (2, 3, 11, 12),
    **options: Any,
) -> HoldYourHorsesState:
    """Race 1 after the scratches: each scratch rolled by the next player to the left."""
    state = rolls(new_game(TABLE, wanted, **options), *scratched)
    assert state.phase is Phase.RACE
    return state


def near_finish(state: HoldYourHorsesState, horse: int) -> HoldYourHorsesState:
    """`horse` one step from its finish line."""
    index = horse - HORSES[0]
    positions = tuple(
        state.rules.track.finish(horse) - 1 if i == index else p
        for i, p in enumerate(state.race.positions)
    )
    return replace(state, race=replace(state.race, positions=positions))


# --- components ----------------------------------------------------------------------------


def test_the_deck_is_44_cards_four_of_each_horse_2_to_12() -> None:
    assert len(DECK) == 44
    assert Counter(DECK) == dict.fromkeys(range(2, 13), 4)


@pytest.mark.parametrize(
    ("track", "lengths"),
    [
        ("classic", (3, 6, 8, 11, 14, 17, 14, 11, 8, 6, 3)),
        ("even", (3, 6, 9, 12, 15, 18, 15, 12, 9, 6, 3)),
        ("short", (2, 4, 6, 8, 10, 12, 10, 8, 6, 4, 2)),
    ],
)
def test_each_horse_has_its_own_finish_line_per_track_preset(
    track: str, lengths: tuple[int, ...]
) -> None:
    rules = parse_rules({"track": track})
    assert tuple(rules.track.finish(h) for h in HORSES) == lengths


# --- set-up of each race -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "tokens", "each", "pot"),
    [(4, 60, 15, 0), (7, 60, 8, 4), (12, 60, 5, 0), (11, 60, 5, 5), (3, 100, 33, 1)],
)
def test_tokens_are_divided_evenly_and_the_rest_goes_into_the_pot(
    players: int, tokens: int, each: int, pot: int
) -> None:
    state = new_game(tuple(range(1, players + 1)), tokens=tokens)
    assert state.tokens == (each,) * players
    assert state.pot == pot


def test_all_44_cards_are_dealt_one_at_a_time_from_the_first_roller_hands_may_be_uneven() -> None:
    deck = list(DECK)  # unshuffled: 2, 2, 2, 2, 3, ...
    state = ENGINE.start((1, 2, 3), {}, deck)
    assert [len(h) for h in state.hands] == [15, 15, 14]  # the first two get the extra cards
    assert state.hands[0] == tuple(sorted(deck[0::3]))
    assert state.hands[1] == tuple(sorted(deck[1::3]))
    assert state.hands[2] == tuple(sorted(deck[2::3]))
    assert Counter(c for h in state.hands for c in h) == Counter(DECK)


def test_a_hand_is_private_and_its_holder_can_read_it() -> None:
    state = new_game(wanted={L: [7, 7, 12]})
    hand = Counter(hand_of(state, LOIS))
    assert hand[7] == 2 and hand[12] == 1
    assert hand.total() == 11


def test_the_host_rolls_first_in_race_1() -> None:
    state = new_game()
    assert state.phase is Phase.SCRATCH and state.race.number == 1
    assert ENGINE.to_act(state) == {GREG}
    assert ENGINE.legal_actions(state, GREG) == (ROLL,)
    for other in (LOIS, MAX, SHERRE, 999):
        assert ENGINE.legal_actions(state, other) == ()
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, other, ROLL, step_rng("t", 0))


def test_a_deal_must_be_the_whole_deck() -> None:
    with pytest.raises(ValueError, match="44"):
        ENGINE.start(TABLE, {}, DECK[:-1])


# --- scratches ------------------------------------------------------------------------------


def test_a_scratch_makes_every_holder_pay_one_token_per_card_and_discard_them() -> None:
    """The rules' example: a 5 is rolled, and a player holding two 5s pays 2 tokens."""
    state = new_game(wanted={G: [5], L: [5, 5], S: [5]})
    step = roll(state, 5)
    scratched = the(step.events, HorseScratched)
    assert (scratched.roller, scratched.dice, scratched.horse) == (GREG, DICE[5], 5)
    assert scratched.order == 1 and scratched.price == 1
    assert scratched.payments == (
        Payment(GREG, 1, 1, 1),
        Payment(LOIS, 2, 2, 2),
        Payment(SHERRE, 1, 1, 1),
    )
    after = step.state
    assert after.tokens == (14, 13, 15, 14)
    assert after.pot == scratched.pot == 4
    assert after.race.scratched == (5,)
    assert all(5 not in hand for hand in after.hands)
    assert after.discards == (5, 5, 5, 5)
    assert [len(h) for h in after.hands] == [10, 9, 11, 10]


def test_the_dice_pass_left_after_each_scratch() -> None:
    state = new_game()
    seen = []
    for horse in (5, 6, 8):
        seen.append(state.players[state.roller])
        state = roll(state, horse).state
    assert seen == [GREG, LOIS, MAX]
    assert ENGINE.to_act(state) == {SHERRE}


def test_a_scratched_number_is_rolled_again_by_the_same_player_for_free() -> None:
    state = roll(new_game(wanted={M: [5]}), 5).state  # Greg scratches 5; Lois to roll
    step = roll(state, 5)
    assert step.events == (ScratchRerolled(LOIS, DICE[5], horse=5),)
    assert ENGINE.to_act(step.state) == {LOIS}
    assert step.state.tokens == state.tokens and step.state.pot == state.pot
    assert step.state.race.scratched == (5,)


def test_the_scratches_take_the_four_places_in_order_then_the_race_starts() -> None:
    state = new_game()
    state = rolls(state, 9, 4, 4, 10)  # Greg 9, Lois 4, Max 4 again (rolls again), 10
    assert state.race.scratched == (9, 4, 10)
    assert ENGINE.to_act(state) == {SHERRE}  # Max's re-roll scratched 10: Sherre's turn
    step = roll(state, 6)
    assert the(step.events, HorseScratched).order == 4
    assert the(step.events, RaceStarted) == RaceStarted(SHERRE, DICE[6], race=1, next_roller=GREG)
    assert step.state.race.scratched == (9, 4, 10, 6)
    assert step.state.phase is Phase.RACE
    assert ENGINE.to_act(step.state) == {GREG}  # the dice go back to the first roller


def test_after_the_fourth_scratch_there_are_no_more_discards() -> None:
    state = racing(wanted={M: [2, 7]}, scratched=(3, 4, 5, 6))
    assert 7 in hand_of(state, MAX)
    after = rolls(state, 7, 8)  # an unscratched horse and ...
    assert after.hands == state.hands
    after = roll(after, 3).state  # ... a scratched one: a fine, no discards
    assert after.hands == state.hands and after.discards == state.discards


# --- the race -------------------------------------------------------------------------------


def test_a_roll_moves_that_horse_one_step_and_play_passes_left() -> None:
    state = racing()
    step = roll(state, 7)
    assert step.events == (HorseMoved(GREG, DICE[7], horse=7, position=1, finish=17),)
    assert step.state.race.position(7) == 1
    assert ENGINE.to_act(step.state) == {LOIS}
    assert step.state.pot == state.pot and step.state.tokens == state.tokens
    step = roll(step.state, 7)
    assert the(step.events, HorseMoved).position == 2
    assert ENGINE.to_act(step.state) == {MAX}


def test_rolling_a_scratched_number_costs_the_roller_one_token() -> None:
    state = racing()  # 2, 3, 11 and 12 scratched
    step = roll(state, 11)
    fine = the(step.events, ScratchFinePaid)
    assert (fine.roller, fine.horse) == (GREG, 11)
    assert fine.payment == Payment(GREG, 0, 1, 1) and fine.payment.short == 0
    assert step.state.tokens[G] == state.tokens[G] - 1
    assert step.state.pot == fine.pot == state.pot + 1
    assert step.state.race.positions == state.race.positions
    assert ENGINE.to_act(step.state) == {LOIS}  # play passes left


def test_a_player_who_cannot_pay_pays_what_they_have_and_never_goes_below_zero() -> None:
    state = racing()
    state = replace(state, tokens=(0, 15, 15, 15), pot=state.pot + 15)
    step = roll(state, 12)
    fine = the(step.events, ScratchFinePaid)
    assert fine.payment == Payment(GREG, 0, 1, 0) and fine.payment.short == 1
    assert step.state.tokens[G] == 0 and step.state.pot == state.pot


def test_a_scratch_holder_who_cannot_pay_in_full_pays_what_they_have() -> None:
    state = new_game(wanted={G: [10] * 4 + [11] * 4, L: [9] * 4}, escalating_scratches=True)
    state = rolls(state, 10, 11)  # scratches 1 and 2: only Greg pays (4 + 8)
    assert state.tokens == (3, 15, 15, 15)
    state = replace(state, tokens=(3, 5, 15, 15), pot=state.pot + 10)  # Lois is down to 5
    step = roll(state, 9)  # the third scratch costs 3 a card: Lois owes 12
    assert the(step.events, HorseScratched).payments == (Payment(LOIS, 4, 12, 5),)
    assert step.state.tokens == (3, 0, 15, 15)
    assert tokens_in_play(step.state) == 60


def test_escalating_scratches_cost_1_2_3_4_per_card() -> None:
    holders = {G: [5, 6, 6, 6, 6], L: [5, 5, 5], M: [8] * 4, S: [9] * 4}
    state = new_game(wanted=holders, escalating_scratches=True)
    events = []
    for horse in (5, 6, 8, 9):
        step = roll(state, horse)
        events.append(the(step.events, HorseScratched))
        state = step.state
    assert [e.order for e in events] == [1, 2, 3, 4]
    assert [e.price for e in events] == [1, 2, 3, 4]
    assert [e.payments for e in events] == [
        (Payment(GREG, 1, 1, 1), Payment(LOIS, 3, 3, 3)),
        (Payment(GREG, 4, 8, 8),),
        (Payment(MAX, 4, 12, 12),),
        (Payment(SHERRE, 4, 16, 15),),  # Sherre has only 15
    ]
    assert state.tokens == (6, 12, 3, 0)
    assert state.pot == 39


def test_escalating_scratches_fine_the_roller_the_horses_price_in_the_race() -> None:
    state = racing(scratched=(2, 3, 11, 12), escalating_scratches=True)
    state = replace(state, tokens=(10, 10, 10, 10), pot=20)
    fines = []
    for horse in (2, 3, 11, 12):
        step = roll(state, horse)
        fines.append(the(step.events, ScratchFinePaid).payment)
        state = step.state
    assert fines == [
        Payment(GREG, 0, 1, 1),
        Payment(LOIS, 0, 2, 2),
        Payment(MAX, 0, 3, 3),
        Payment(SHERRE, 0, 4, 4),
    ]
    assert state.tokens == (9, 8, 7, 6) and state.pot == 30


def test_escalating_scratches_keep_re_rolls_in_the_scratch_phase_free() -> None:
    state = roll(new_game(escalating_scratches=True), 5).state
    step = roll(state, 5)
    assert of_type(step.events, ScratchRerolled)
    assert step.state.tokens == state.tokens


@pytest.mark.parametrize(
    ("track", "horse", "steps"),
    [("classic", 4, 8), ("classic", 7, 17), ("even", 7, 18), ("short", 10, 6)],
)
def test_the_first_horse_to_reach_its_finish_line_wins(track: str, horse: int, steps: int) -> None:
    state = racing(track=track)
    for _ in range(steps - 1):
        step = roll(state, horse)
        assert not of_type(step.events, RaceWon)
        state = step.state
    step = roll(state, horse)
    assert the(step.events, HorseMoved).position == steps == the(step.events, HorseMoved).finish
    assert the(step.events, RaceWon).horse == horse
    assert step.state.last_finished is not None
    assert step.state.last_finished.winner == horse
    assert step.state.last_finished.position(horse) == steps


# --- payout ---------------------------------------------------------------------------------


def the_seed_example() -> HoldYourHorsesState:
    """Horse 7 is one step from home with 22 tokens in the pot; Lois and Sherre hold one 7
    each, Greg two, Max none; Greg is to roll."""
    state = racing(wanted={G: [7, 7], L: [7], S: [7]})
    return replace(near_finish(state, 7), tokens=(10, 10, 9, 9), pot=22)


def test_the_seed_example_pot_22_pays_5_5_10_and_carries_2() -> None:
    step = roll(the_seed_example(), 7)
    won = the(step.events, RaceWon)
    assert (won.roller, won.dice, won.race, won.horse, won.pot) == (GREG, DICE[7], 1, 7, 22)
    assert won.payouts == (Payout(GREG, 2, 10), Payout(LOIS, 1, 5), Payout(SHERRE, 1, 5))
    assert won.carried == 2
    assert step.state.grid == ((10, 5, 0, 5),)  # the payout example's scoring grid, race 1


def test_each_card_earns_the_pot_divided_by_the_winning_cards_in_hands() -> None:
    """The general rule, for a table where fewer than four winning cards are held."""
    state = racing(wanted={G: [7, 7], L: [7], S: [7]})
    hands = tuple(tuple(c for c in h if c != 7 or s == G) for s, h in enumerate(state.hands))
    state = replace(near_finish(state, 7), hands=hands, tokens=(10, 10, 10, 7), pot=23)
    won = the(roll(state, 7).events, RaceWon)
    assert won.payouts == (Payout(GREG, 2, 22),) and won.carried == 1


def test_after_a_race_all_tokens_are_divided_again_and_the_carry_stays_in_the_pot() -> None:
    step = roll(the_seed_example(), 7)
    # Winnings are recorded, then everything but the 2 carried is shared out again:
    # 58 tokens among 4 players is 14 each, with 2 more into the pot.
    assert the(step.events, TokensDivided) == TokensDivided(2, 14, 4)
    assert step.state.tokens == (14, 14, 14, 14) and step.state.pot == 4


def test_the_next_race_is_dealt_with_the_first_roller_one_seat_left() -> None:
    state = the_seed_example()
    deck = deck_giving(4, {L: [12, 12, 12, 12]}, first=L)
    step = roll(state, 7, deck)
    new = step.state
    assert new.race.number == 2 and new.phase is Phase.SCRATCH
    assert new.race.first_roller == L and ENGINE.to_act(new) == {LOIS}
    assert new.race.scratched == () and new.race.positions == (0,) * 11
    assert new.race.last_roll is None and new.discards == ()
    assert hand_of(new, LOIS)[-4:] == (12, 12, 12, 12)
    assert [len(h) for h in new.hands] == [11, 11, 11, 11]
    dealt = the(step.events, CardsDealt)
    assert dealt == CardsDealt(2, LOIS, ((GREG, 11), (LOIS, 11), (MAX, 11), (SHERRE, 11)))
    assert dealt.visible_to is None


def test_each_new_hand_is_sent_only_to_its_holder() -> None:
    state = the_seed_example()
    step = roll(state, 7, deck_giving(4, first=L))
    hands = of_type(step.events, HandDealt)
    assert [h.player for h in hands] == list(TABLE)
    for h in hands:
        assert h.visible_to == frozenset({h.player})
        assert h.cards == hand_of(step.state, h.player)
    public = [e for e in step.events if e.visible_to is None]
    assert not any(isinstance(e, HandDealt) for e in public)


def test_the_first_roller_moves_left_every_race_and_wraps_round() -> None:
    state = new_game(races=6)
    firsts = []
    for _ in range(5):
        firsts.append(state.players[state.race.first_roller])
        state = rolls(near_finish(rolls(state, 2, 3, 11, 12), 7), 7)
    assert firsts == [GREG, LOIS, MAX, SHERRE, GREG]


# --- scoring and the end ----------------------------------------------------------------------


def run_race(state: HoldYourHorsesState, winner: int) -> HoldYourHorsesState:
    """Scratch 2, 3, 11 and 12, then `winner` runs all the way."""
    number = state.race.number
    state = rolls(state, 2, 3, 11, 12)
    while state.race.number == number and state.phase is Phase.RACE:
        state = roll(state, winner, deck_giving(len(state.players))).state
    return state


def test_the_grid_records_what_each_player_won_in_each_race() -> None:
    state = new_game(wanted={G: [7, 7, 7, 7], L: [8, 8, 8, 8]}, races=2)
    state = run_race(state, 7)  # Greg holds every 7
    assert state.grid[0][G] > 0 and state.grid[0][1:] == (0, 0, 0)
    assert state.race.number == 2


def test_after_the_last_race_the_highest_total_wins() -> None:
    state = new_game(wanted={G: [7, 7, 7, 7]}, races=1)
    state = rolls(state, 2, 3, 11, 12)
    state = replace(near_finish(state, 7), tokens=(10, 10, 10, 10), pot=20)
    step = roll(state, 7)
    assert the(step.events, GameWon) == GameWon(
        (GREG,), ((GREG, 20), (LOIS, 0), (MAX, 0), (SHERRE, 0))
    )
    over = step.state
    assert over.phase is Phase.OVER and ENGINE.to_act(over) == frozenset()
    assert not of_type(step.events, CardsDealt)  # no next race
    outcome = ENGINE.outcome(over)
    assert outcome is not None
    assert outcome.places == {GREG: 1, LOIS: 2, MAX: 2, SHERRE: 2}
    assert outcome.scores == {GREG: 20, LOIS: 0, MAX: 0, SHERRE: 0}
    assert outcome.stats[GREG] == {"races_cashed": 1, "best_race": 20}
    with pytest.raises(IllegalAction, match="over"):
        ENGINE.apply(over, GREG, ROLL, step_rng("t", 0))


def test_equal_totals_share_the_win() -> None:
    state = new_game(wanted={G: [7, 7], S: [7, 7]}, races=1)
    state = replace(near_finish(rolls(state, 2, 3, 11, 12), 7), pot=20, tokens=(10,) * 4)
    step = roll(state, 7)
    assert the(step.events, GameWon).winners == (GREG, SHERRE)
    outcome = ENGINE.outcome(step.state)
    assert outcome is not None
    assert outcome.places == {GREG: 1, LOIS: 3, MAX: 3, SHERRE: 1}
    assert outcome.winners == {GREG, SHERRE}
    assert leaders(step.state) == (GREG, SHERRE)  # what the final picture names


def test_five_races_by_default_and_the_totals_add_up() -> None:
    state = new_game()
    for race in range(1, 6):
        assert state.race.number == race
        state = run_race(state, 7)
    assert state.phase is Phase.OVER and len(state.grid) == 5
    assert totals(state) == tuple(sum(r[s] for r in state.grid) for s in range(4))
    assert ENGINE.outcome(state) is not None


def test_a_finished_race_waits_in_last_finished_for_its_final_picture() -> None:
    step = roll(the_seed_example(), 7)
    finished = step.state.last_finished
    assert finished is not None and finished.number == 1
    assert finished.winner == 7 and finished.payouts == (10, 5, 0, 5) and finished.carried == 2
    assert finished.scratched == (2, 3, 11, 12)
    assert finished.last_roll is not None and finished.last_roll.player == GREG
    assert step.state.race.number == 2


def test_the_race_keeps_the_last_roll_and_what_came_of_it() -> None:
    state = new_game(wanted={G: [5, 5], L: [5, 5]})
    state = roll(state, 5).state
    assert state.race.last_roll == Roll(GREG, DICE[5], RollResult.SCRATCHED, paid=4)
    state = roll(state, 5).state
    assert state.race.last_roll == Roll(LOIS, DICE[5], RollResult.REROLLED)
    state = rolls(state, 6, 8, 9)  # the fourth scratch starts the race
    assert state.race.last_roll is not None
    assert state.race.last_roll.result is RollResult.SCRATCHED
    state = roll(state, 7).state
    assert state.race.last_roll == Roll(GREG, DICE[7], RollResult.MOVED)
    state = roll(state, 9).state
    assert state.race.last_roll == Roll(LOIS, DICE[9], RollResult.FINED, paid=1)
    finished = roll(near_finish(state, 10), 10).state.last_finished
    assert finished is not None
    assert finished.last_roll == Roll(MAX, DICE[10], RollResult.WON)


# --- options ---------------------------------------------------------------------------------


def test_the_default_options() -> None:
    assert parse_rules({}) == Rules(
        track=Track.CLASSIC, escalating_scratches=False, races=5, tokens=60, autoplay=False
    )


def test_every_option_is_kept() -> None:
    rules = parse_rules(
        {
            "track": "short",
            "escalating_scratches": True,
            "races": 10,
            "tokens": 600,
            "autoplay": True,
            "turn_timer": 60,  # not ours: ignored
        }
    )
    assert rules == Rules(Track.SHORT, True, 10, 600, True)


@pytest.mark.parametrize(
    "options",
    [
        {"track": "long"},
        {"track": 1},
        {"escalating_scratches": "yes"},
        {"races": 0},
        {"races": 11},
        {"races": True},
        {"races": "5"},
        {"tokens": 11},
        {"tokens": 601},
        {"tokens": 60.0},
        {"autoplay": 1},
    ],
)
def test_a_bad_option_is_refused_with_a_message(options: dict[str, Any]) -> None:
    with pytest.raises(IllegalAction) as refused:
        ENGINE.initial_state(TABLE, options, step_rng("t", 0))
    assert str(refused.value)


def test_tokens_cover_one_each_at_the_largest_table() -> None:
    state = new_game(tuple(range(1, 13)), tokens=12)
    assert state.tokens == (1,) * 12 and state.pot == 0


@pytest.mark.parametrize("count", [1, 13])
def test_two_to_twelve_players(count: int) -> None:
    with pytest.raises(IllegalAction, match="2 to 12"):
        ENGINE.initial_state(tuple(range(1, count + 1)), {}, step_rng("t", 0))


# --- actions ---------------------------------------------------------------------------------


def test_rolling_through_apply_resolves_the_dice_it_announces() -> None:
    state = ENGINE.initial_state(TABLE, {}, step_rng("t", 0))
    races_won = 0
    for n in range(200):
        player = state.players[state.roller]
        step = ENGINE.apply(state, player, ROLL, step_rng("announce", n))
        rng = step_rng("announce", n)  # the same dice, then the same shuffle
        dice = roll_dice(rng)
        assert step.events[0].dice == dice and step.events[0].roller == player
        assert step == ENGINE.resolve_roll(state, dice, lambda: shuffled_deck(rng))  # noqa: B023
        races_won += len(of_type(step.events, RaceWon))
        state = step.state
    assert races_won >= 2


def test_only_the_roll_is_accepted() -> None:
    state = new_game()
    for action in (Action(Verb.ROLL, "7"), Action("scratch")):
        with pytest.raises(IllegalAction, match="roll"):
            ENGINE.apply(state, GREG, action, step_rng("t", 0))


def test_the_ai_rolls() -> None:
    state = new_game()
    assert ENGINE.choose(state, GREG, step_rng("t", 0)) == ROLL
