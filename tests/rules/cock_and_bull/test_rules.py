"""Cock & Bull, rule by rule (docs/rules/cock_and_bull.md), with the dice passed in.

Boards are written group by group — Bend (3 Cock spots), Field (2 Bull spots), Crown — with
`A` for Ana's chips (seat 0), `B` for Bob's (seat 1) and `.` for an empty spot:
`board("AB. A. B")`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from fractions import Fraction
from itertools import product
from random import Random
from typing import Any

import pytest

from rules.cock_and_bull import CockAndBull
from rules.cock_and_bull.actions import (
    COLOUR_ACTIONS,
    DECLINE,
    FLIP,
    PLACE,
    POINT,
    REMOVE,
    ROLL,
    TAKE,
    choose_colour,
)
from rules.cock_and_bull.engine import UNIFORM_DIE, WEIGHTED_DIE, parse_rules
from rules.cock_and_bull.state import (
    EMPTY,
    ChipPlaced,
    ChipRemoved,
    ChoiceNeeded,
    CockAndBullState,
    Colour,
    ColourChosen,
    DiceRolled,
    Face,
    FirstTurnWon,
    GameResult,
    GameWon,
    MantleScored,
    MatchWon,
    NextGameStarted,
    Phase,
    PointsDeclined,
    RollKind,
    Rules,
    StartDieRolled,
    StartRollTied,
    TurnLost,
    WinKind,
    roll_kind,
)
from rules.core import Action, Event, IllegalAction, Step, setup_rng, step_rng

ENGINE = CockAndBull()
ANA, BOB = 1001, 1002  # seats 0 and 1
C, B, M = Face.COCK, Face.BULL, Face.MONKEY
CC, BB, MM, CB, BC = (C, C), (B, B), (M, M), (C, B), (B, C)
CM, MC, BM, MB = (C, M), (M, C), (B, M), (M, B)
BEND, FIELD, CROWN = (0, 1, 2), (3, 4), (5,)


# --- helpers ---------------------------------------------------------------------------------


def board(text: str) -> tuple[int, ...]:
    """`"AB. A. B"` -> the six spots (Bend 0-2, Field 3-4, Crown 5)."""
    cells = text.replace(" ", "")
    assert len(cells) == 6, text
    return tuple({"A": 0, "B": 1, ".": EMPTY}[c] for c in cells)


def new_game(**options: Any) -> CockAndBullState:
    return ENGINE.initial_state((ANA, BOB), options, setup_rng("rules"))


def playing(
    spots: str = "... .. .",
    mantle: tuple[int, int] = (0, 0),
    current: int = 0,
    state: CockAndBullState | None = None,
    **options: Any,
) -> CockAndBullState:
    """A game under way: Ana is red, `current` is to roll."""
    base = state if state is not None else new_game(**options)
    return replace(
        base, phase=Phase.ROLL, current=current, red=0, spots=board(spots), mantle=mantle
    )


def roll(state: CockAndBullState, dice: tuple[Face, Face]) -> Step[CockAndBullState]:
    return ENGINE.resolve_roll(state, dice)


def act(
    state: CockAndBullState, player: int, action: Action, seed: str = "rules"
) -> Step[CockAndBullState]:
    return ENGINE.apply(state, player, action, step_rng(seed, 0))


def of_type(events: tuple[Event, ...], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def the(events: tuple[Event, ...], kind: type) -> Any:
    (found,) = of_type(events, kind)
    return found


def start_roll(ana: Face, bob: Face) -> Step[CockAndBullState]:
    state = ENGINE.resolve_start_die(new_game(), 0, ana).state
    return ENGINE.resolve_start_die(state, 1, bob)


# --- who starts ------------------------------------------------------------------------------


def test_both_players_roll_one_die_each_for_the_first_turn() -> None:
    state = new_game()
    assert state.phase is Phase.START_ROLL
    assert ENGINE.to_act(state) == {ANA, BOB}
    assert ENGINE.legal_actions(state, ANA) == (ROLL,)
    assert ENGINE.legal_actions(state, BOB) == (ROLL,)

    step = act(state, ANA, ROLL)
    assert the(step.events, StartDieRolled).player == ANA
    assert the(step.events, StartDieRolled).face in UNIFORM_DIE
    assert ENGINE.to_act(step.state) == {BOB}  # Ana has rolled once and waits
    with pytest.raises(IllegalAction):
        act(step.state, ANA, ROLL)


@pytest.mark.parametrize(
    ("ana", "bob", "first"),
    [
        (B, C, ANA),  # Bull beats Cock
        (C, B, BOB),
        (M, B, ANA),  # Monkey beats Bull
        (B, M, BOB),
        (M, C, ANA),  # Decision: Monkey also beats Cock
        (C, M, BOB),
    ],
)
def test_the_higher_face_wins_the_first_turn(ana: Face, bob: Face, first: int) -> None:
    step = start_roll(ana, bob)
    assert the(step.events, FirstTurnWon).player == first
    assert step.state.phase is Phase.CHOOSE_COLOUR
    assert ENGINE.to_act(step.state) == {first}
    assert set(ENGINE.legal_actions(step.state, first)) == set(COLOUR_ACTIONS)


@pytest.mark.parametrize("face", list(Face))
def test_equal_faces_both_roll_again(face: Face) -> None:
    step = start_roll(face, face)
    assert the(step.events, StartRollTied).face is face
    assert not of_type(step.events, FirstTurnWon)
    assert step.state.phase is Phase.START_ROLL
    assert step.state.start_rolls == (None, None)
    assert ENGINE.to_act(step.state) == {ANA, BOB}


@pytest.mark.parametrize("colour", list(Colour))
def test_the_winner_chooses_a_colour_and_takes_the_first_turn(colour: Colour) -> None:
    won = start_roll(C, M).state  # Bob wins
    with pytest.raises(IllegalAction):
        act(won, ANA, choose_colour(Colour.RED))  # not Ana's choice
    step = act(won, BOB, choose_colour(colour))
    assert the(step.events, ColourChosen) == ColourChosen(BOB, colour)
    assert step.state.colour_of(1) is colour
    assert step.state.colour_of(0) is not colour and step.state.colour_of(0) is not None
    assert step.state.phase is Phase.ROLL
    assert ENGINE.to_act(step.state) == {BOB}
    assert ENGINE.legal_actions(step.state, BOB) == (ROLL,)


# --- placing: Cock + Cock, Bull + Bull, Monkey + Monkey ----------------------------------------


@pytest.mark.parametrize(("dice", "group"), [(CC, BEND), (BB, FIELD), (MM, CROWN)])
def test_a_pair_puts_a_chip_on_an_empty_spot_of_its_group(
    dice: tuple[Face, Face], group: tuple[int, ...]
) -> None:
    step = roll(playing(), dice)
    assert the(step.events, DiceRolled) == DiceRolled(ANA, dice)
    placed = the(step.events, ChipPlaced)
    assert placed.player == ANA and placed.spot in group and placed.flipped is False
    assert step.state.spots[placed.spot] == 0
    assert step.state.chips_of(0) == (placed.spot,)
    assert step.state.phase is Phase.ROLL and step.state.current == 0  # roll again


@pytest.mark.parametrize(
    ("dice", "spots", "spot"),
    [(CC, "BBB .. .", 0), (BB, "... BB .", 3), (MM, "... .. B", 5), (CC, "ABB .. .", 1)],
)
def test_a_pair_flips_an_opponents_chip_when_no_spot_is_empty(
    dice: tuple[Face, Face], spots: str, spot: int
) -> None:
    step = roll(playing(spots), dice)
    assert not of_type(step.events, ChoiceNeeded)  # only one thing possible: no question
    assert the(step.events, ChipPlaced) == ChipPlaced(ANA, spot, flipped=True)
    assert step.state.spots[spot] == 0
    assert step.state.phase is Phase.ROLL and step.state.current == 0


def test_a_pair_places_without_asking_when_no_opponent_chip_is_in_the_group() -> None:
    step = roll(playing("A.. BB B"), CC)
    assert not of_type(step.events, ChoiceNeeded)
    assert the(step.events, ChipPlaced).flipped is False
    assert step.state.spots == board("AA. BB B")


@pytest.mark.parametrize(("dice", "spots"), [(CC, "B.. .. ."), (BB, "... B. .")])
def test_the_player_chooses_when_both_placing_and_flipping_are_possible(
    dice: tuple[Face, Face], spots: str
) -> None:
    step = roll(playing(spots), dice)
    assert the(step.events, ChoiceNeeded) == ChoiceNeeded(ANA, Phase.PLACE_OR_FLIP)
    assert not of_type(step.events, ChipPlaced)
    asking = step.state
    assert asking.phase is Phase.PLACE_OR_FLIP
    assert ENGINE.to_act(asking) == {ANA}
    assert set(ENGINE.legal_actions(asking, ANA)) == {PLACE, FLIP}
    assert ENGINE.legal_actions(asking, BOB) == ()

    placed = act(asking, ANA, PLACE)
    chip = the(placed.events, ChipPlaced)
    assert not chip.flipped and asking.spots[chip.spot] == EMPTY
    assert placed.state.chips_of(1) == asking.chips_of(1)  # Bob's chip stays

    flipped = act(asking, ANA, FLIP)
    chip = the(flipped.events, ChipPlaced)
    assert chip.flipped and asking.spots[chip.spot] == 1
    assert flipped.state.chips_of(1) == ()
    for after in (placed.state, flipped.state):
        assert after.phase is Phase.ROLL and after.current == 0  # and rolls again


def test_place_or_flip_is_not_offered_outside_that_choice() -> None:
    with pytest.raises(IllegalAction):
        act(playing("B.. .. ."), ANA, FLIP)


@pytest.mark.parametrize(
    ("dice", "spots", "points"),
    [(CC, "AAA .. .", 2), (BB, "... AA .", 3), (MM, "... .. A", 6), (MM, "BBB BB A", 6)],
)
def test_a_pair_on_a_group_already_yours_scores_mantle_points(
    dice: tuple[Face, Face], spots: str, points: int
) -> None:
    state = playing(spots, mantle=(5, 0))
    step = roll(state, dice)
    assert the(step.events, MantleScored) == MantleScored(ANA, points, 5 + points)
    assert not of_type(step.events, ChipPlaced)
    assert step.state.spots == state.spots
    assert step.state.mantle == (5 + points, 0)
    assert step.state.phase is Phase.ROLL and step.state.current == 0


def test_a_group_only_partly_yours_scores_nothing() -> None:
    step = roll(playing("AA. .. ."), CC)
    assert not of_type(step.events, MantleScored)
    assert step.state.spots == board("AAA .. .")


# --- Cock + Bull -----------------------------------------------------------------------------


@pytest.mark.parametrize("dice", [CB, BC])
def test_cock_and_bull_offers_remove_or_a_point(dice: tuple[Face, Face]) -> None:
    state = playing("B.. .. .", mantle=(3, 0))
    step = roll(state, dice)
    assert the(step.events, ChoiceNeeded) == ChoiceNeeded(ANA, Phase.REMOVE_OR_POINT)
    asking = step.state
    assert set(ENGINE.legal_actions(asking, ANA)) == {REMOVE, POINT}

    removed = act(asking, ANA, REMOVE)
    assert the(removed.events, ChipRemoved) == ChipRemoved(ANA, 0)
    assert removed.state.spots == board("... .. .")
    assert removed.state.mantle == (3, 0)

    pointed = act(asking, ANA, POINT)
    assert the(pointed.events, MantleScored) == MantleScored(ANA, 1, 4)
    assert pointed.state.spots == state.spots
    for after in (removed.state, pointed.state):
        assert after.phase is Phase.ROLL and after.current == 0


@pytest.mark.parametrize("dice", [CB, BC])
def test_cock_and_bull_is_plus_one_when_the_opponent_has_no_chip_on_the_arms(
    dice: tuple[Face, Face],
) -> None:
    step = roll(playing("AA. A. ."), dice)
    assert not of_type(step.events, ChoiceNeeded)
    assert the(step.events, MantleScored) == MantleScored(ANA, 1, 1)
    assert step.state.phase is Phase.ROLL and step.state.current == 0


# --- losing the turn -------------------------------------------------------------------------


@pytest.mark.parametrize("dice", [CM, MC, BM, MB])
def test_cock_monkey_and_bull_monkey_lose_the_turn(dice: tuple[Face, Face]) -> None:
    state = playing("AB. A. B", mantle=(4, 7))
    step = roll(state, dice)
    assert [type(e) for e in step.events] == [DiceRolled, TurnLost]
    assert the(step.events, TurnLost) == TurnLost(ANA, BOB)
    assert step.state.current == 1 and step.state.phase is Phase.ROLL
    assert ENGINE.to_act(step.state) == {BOB}
    assert step.state.spots == state.spots and step.state.mantle == state.mantle
    with pytest.raises(IllegalAction):
        act(step.state, ANA, ROLL)
    back = roll(step.state, dice)  # and Bob's losing roll passes the dice back
    assert the(back.events, TurnLost) == TurnLost(BOB, ANA)
    assert back.state.current == 0


@pytest.mark.parametrize("dice", [CC, BB, MM, CB, BC])
def test_every_other_roll_keeps_the_turn(dice: tuple[Face, Face]) -> None:
    step = roll(playing("B.. B. .", current=0), dice)
    state = step.state
    if state.phase is Phase.PLACE_OR_FLIP:
        state = act(state, ANA, PLACE).state
    if state.phase is Phase.REMOVE_OR_POINT:
        state = act(state, ANA, REMOVE).state
    assert not of_type(step.events, TurnLost)
    assert state.phase is Phase.ROLL and state.current == 0
    assert ENGINE.to_act(state) == {ANA}


def test_rolling_through_apply_resolves_the_dice_it_announces() -> None:
    state = playing("B.A .B A")
    for n in range(30):
        step = ENGINE.apply(state, ANA, ROLL, step_rng("announce", n))
        dice = the(step.events, DiceRolled).dice
        assert step == roll(state, dice)


# --- removing --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spots", "removed"),
    [
        ("A.B BB B", 2),  # the Bend goes first...
        ("AAA BA B", 3),  # ...then the Field...
        ("AAA AA B", 5),  # ...and the Crown last
        ("... .B B", 4),
    ],
)
def test_chips_are_removed_bend_first_then_field_then_crown(spots: str, removed: int) -> None:
    state = roll(playing(spots), CB).state
    step = act(state, ANA, REMOVE)
    assert the(step.events, ChipRemoved) == ChipRemoved(ANA, removed)
    assert step.state.spots[removed] == EMPTY  # the spot is left empty, not Ana's


def test_removing_again_and_again_follows_the_protection_order() -> None:
    state = playing("BBB BB B", current=0)
    order = []
    for _ in range(6):
        state = roll(state, CB).state
        step = act(state, ANA, REMOVE)
        order.append(the(step.events, ChipRemoved).spot)
        state = step.state
    assert set(order[:3]) == set(BEND)
    assert set(order[3:5]) == set(FIELD) and order[5] == 5
    assert state.spots == board("... .. .")
    assert not of_type(roll(state, CB).events, ChoiceNeeded)  # nothing left: +1


# --- the mantle ------------------------------------------------------------------------------


def test_the_peg_is_off_the_board_until_the_first_points() -> None:
    assert new_game().mantle == (0, 0)


def test_the_peg_stops_at_36_and_no_exact_count_is_needed() -> None:
    step = roll(playing("... .. A", mantle=(34, 0)), MM)  # +6 from 34
    assert the(step.events, MantleScored) == MantleScored(ANA, 2, 36)  # moved only 2 holes
    won = the(step.events, GameWon)
    assert won.result.kind is WinKind.PEG_OUT
    assert step.state.mantle == (36, 0)


# --- winning ---------------------------------------------------------------------------------


def test_chip_in_all_six_chips_in_your_colour_ends_the_game_at_once() -> None:
    step = roll(playing("AAA AA B", mantle=(3, 2)), MM)
    assert [type(e) for e in step.events] == [DiceRolled, ChipPlaced, GameWon, MatchWon]
    won = the(step.events, GameWon)
    assert (won.winner, won.loser) == (ANA, BOB)
    assert won.result.kind is WinKind.CHIP_IN
    assert step.state.phase is Phase.OVER
    assert ENGINE.to_act(step.state) == frozenset()
    with pytest.raises(IllegalAction, match="over"):
        act(step.state, ANA, ROLL)


def test_five_chips_and_an_empty_spot_is_not_a_chip_in() -> None:
    step = roll(playing("AA. AA A"), BB)  # Field already Ana's: +3, the Bend still has a gap
    assert not of_type(step.events, GameWon)
    assert step.state.phase is Phase.ROLL


def test_peg_out_ends_the_game_at_once() -> None:
    step = roll(playing("B.. .. .", mantle=(35, 10)), CB)
    step = act(step.state, ANA, POINT)
    assert the(step.events, MantleScored) == MantleScored(ANA, 1, 36)
    won = the(step.events, GameWon)
    assert won.winner == ANA and won.result.kind is WinKind.PEG_OUT
    assert ENGINE.to_act(step.state) == frozenset()


def test_bob_can_win_too() -> None:
    step = roll(playing("BBB BB A", current=1, mantle=(0, 4)), MM)
    won = the(step.events, GameWon)
    assert (won.winner, won.loser) == (BOB, ANA)
    assert won.result.scores == (0, 22)


# --- scoring ---------------------------------------------------------------------------------


def result_of(step: Step[CockAndBullState]) -> GameResult:
    result: GameResult = the(step.events, GameWon).result
    return result


def test_chip_in_scores_18_plus_mantle_and_the_loser_only_their_mantle() -> None:
    result = result_of(roll(playing("AAA AA B", mantle=(10, 7)), MM))
    assert result.scores == (28, 7)
    assert not result.flying_monkey and not result.le_pew


def test_a_chip_in_with_the_peg_never_placed_is_the_flying_monkey_54() -> None:
    step = roll(playing("AAA AA B", mantle=(0, 7)), MM)
    result = result_of(step)
    assert result.scores == (54, 7)
    assert result.flying_monkey
    outcome = ENGINE.outcome(step.state)
    assert outcome is not None
    assert outcome.stats[ANA]["flying_monkeys"] == 1
    assert outcome.stats[BOB]["flying_monkeys"] == 0


def test_one_point_on_the_mantle_is_no_flying_monkey() -> None:
    result = result_of(roll(playing("AAA AA B", mantle=(1, 0)), MM))
    assert result.scores == (19, 0)
    assert not result.flying_monkey


def test_peg_out_both_score_mantle_plus_their_own_chips() -> None:
    # Ana: 2 Cocks (2 each) + 1 Bull (3) = 7; Bob: 1 Cock (2) + 1 Bull (3) + Crown (6) = 11.
    state = playing("AAB AB B", mantle=(35, 20))
    step = act(roll(state, CB).state, ANA, POINT)
    result = result_of(step)
    assert result.kind is WinKind.PEG_OUT
    assert result.scores == (36 + 7, 20 + 11)


def test_the_highest_peg_out_score_is_36_plus_16_is_52() -> None:
    # Every chip but one Cock: 2 + 2 + 3 + 3 + 6 = 16; Bull + Bull on a Field already hers.
    result = result_of(roll(playing("AA. AA A", mantle=(34, 0)), BB))
    assert result.scores == (52, 0)


def test_losing_with_0_points_is_a_le_pew() -> None:
    step = roll(playing("AAA AA B", mantle=(4, 0)), MM)
    result = result_of(step)
    assert result.scores == (22, 0) and result.le_pew
    outcome = ENGINE.outcome(step.state)
    assert outcome is not None
    assert outcome.stats[BOB]["le_pews"] == 1 and outcome.stats[ANA]["le_pews"] == 0


def test_a_peg_out_loser_with_a_chip_on_the_arms_is_no_le_pew() -> None:
    result = result_of(roll(playing("B.. AA .", mantle=(33, 0)), BB))
    assert result.scores == (36 + 6, 2)
    assert not result.le_pew


# --- dice ------------------------------------------------------------------------------------


def letters(dice: tuple[Face, Face]) -> str:
    """CC, BB, MM, CB, CM or BM, whichever order the dice fell in."""
    order = "CBM"
    letters = sorted((d.name[0] for d in dice), key=order.index)
    return "".join(letters)


def distribution(die: tuple[Face, ...]) -> dict[str, Fraction]:
    counts = Counter(letters(pair) for pair in product(die, die))
    return {kind: Fraction(n, len(die) ** 2) for kind, n in counts.items()}


@pytest.mark.parametrize("dice", list(product(Face, Face)))
def test_every_roll_is_a_row_of_the_table_of_rolls(dice: tuple[Face, Face]) -> None:
    kind = {
        "CC": RollKind.PAIR,
        "BB": RollKind.PAIR,
        "MM": RollKind.PAIR,
        "CB": RollKind.COCK_AND_BULL,
        "CM": RollKind.TURN_LOST,
        "BM": RollKind.TURN_LOST,
    }[letters(dice)]
    assert roll_kind(dice) is kind


def test_the_last_roller_is_who_threw_even_once_the_dice_have_passed() -> None:
    state = playing("... .. .", current=0)
    assert state.last_roller is None
    kept = roll(state, CB).state
    assert kept.current == 0 and kept.last_roller == 0
    lost = roll(state, CM).state
    assert lost.current == 1 and lost.last_roller == 0


def test_uniform_dice_have_two_of_each_face() -> None:
    assert Counter(UNIFORM_DIE) == {C: 2, B: 2, M: 2}


def test_weighted_dice_have_3_cocks_2_bulls_1_monkey() -> None:
    assert Counter(WEIGHTED_DIE) == {C: 3, B: 2, M: 1}


def test_the_rulebook_probabilities_follow_from_the_uniform_die() -> None:
    odds = distribution(UNIFORM_DIE)
    assert odds == {
        "CC": Fraction(1, 9),
        "BB": Fraction(1, 9),
        "MM": Fraction(1, 9),
        "CB": Fraction(2, 9),
        "CM": Fraction(2, 9),
        "BM": Fraction(2, 9),
    }
    assert odds["CM"] + odds["BM"] == Fraction(4, 9)  # a turn is lost with probability 4/9


def test_the_rulebook_probabilities_follow_from_the_weighted_die() -> None:
    assert distribution(WEIGHTED_DIE) == {
        "CC": Fraction(1, 4),
        "BB": Fraction(1, 9),
        "MM": Fraction(1, 36),
        "CB": Fraction(1, 3),
        "CM": Fraction(1, 6),
        "BM": Fraction(1, 9),
    }


def faces_rolled(state: CockAndBullState, rolls: int) -> Counter[Face]:
    faces: Counter[Face] = Counter()
    for n in range(rolls):
        step = ENGINE.apply(state, ANA, ROLL, step_rng("dice", n))
        faces.update(the(step.events, DiceRolled).dice)
    return faces


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({}, {C: 1 / 3, B: 1 / 3, M: 1 / 3}),
        ({"dice": "uniform"}, {C: 1 / 3, B: 1 / 3, M: 1 / 3}),
        ({"dice": "weighted"}, {C: 1 / 2, B: 1 / 3, M: 1 / 6}),
    ],
)
def test_the_dice_rolled_in_play_match_the_option(
    options: dict[str, Any], expected: dict[Face, float]
) -> None:
    faces = faces_rolled(playing(**options), 3000)  # 6000 faces, a fixed seed
    total = sum(faces.values())
    for face, share in expected.items():
        assert faces[face] / total == pytest.approx(share, abs=0.025), faces


def test_the_start_roll_uses_the_weighted_die_too() -> None:
    state = new_game(dice="weighted")
    faces = Counter(
        the(act(state, ANA, ROLL, seed=f"start-{n}").events, StartDieRolled).face
        for n in range(3000)
    )
    assert faces[C] / 3000 == pytest.approx(1 / 2, abs=0.03)
    assert faces[M] / 3000 == pytest.approx(1 / 6, abs=0.03)


# --- optional points -------------------------------------------------------------------------


def test_with_optional_points_mantle_points_are_offered() -> None:
    step = roll(playing("AAA .. .", mantle=(6, 0), optional_points=True), CC)
    assert the(step.events, ChoiceNeeded) == ChoiceNeeded(ANA, Phase.TAKE_OR_DECLINE)
    assert not of_type(step.events, MantleScored)
    offer = step.state
    assert offer.pending_points == 2
    assert set(ENGINE.legal_actions(offer, ANA)) == {TAKE, DECLINE}

    taken = act(offer, ANA, TAKE)
    assert the(taken.events, MantleScored) == MantleScored(ANA, 2, 8)

    declined = act(offer, ANA, DECLINE)
    assert the(declined.events, PointsDeclined) == PointsDeclined(ANA, 2)
    assert declined.state.mantle == (6, 0)
    for after in (taken.state, declined.state):
        assert after.phase is Phase.ROLL and after.current == 0


def test_with_optional_points_cock_and_bull_points_are_offered_too() -> None:
    automatic = roll(playing("A.. .. .", optional_points=True), CB)  # nothing to remove
    assert automatic.state.phase is Phase.TAKE_OR_DECLINE
    assert automatic.state.pending_points == 1
    chosen = act(roll(playing("B.. .. .", optional_points=True), CB).state, ANA, POINT)
    assert chosen.state.phase is Phase.TAKE_OR_DECLINE
    assert chosen.state.pending_points == 1


def test_declining_keeps_the_peg_off_and_a_flying_monkey_possible() -> None:
    state = playing("AAA AA B", optional_points=True)
    state = act(roll(state, CC).state, ANA, DECLINE).state  # +2 declined
    assert state.mantle == (0, 0)
    result = result_of(roll(state, MM))
    assert result.flying_monkey and result.scores == (54, 0)


def test_taking_points_with_the_option_can_peg_out() -> None:
    state = playing("AAA .. .", mantle=(35, 0), optional_points=True)
    step = act(roll(state, CC).state, ANA, TAKE)
    assert the(step.events, MantleScored).total == 36
    assert result_of(step).kind is WinKind.PEG_OUT


def test_without_the_option_points_are_scored_without_asking() -> None:
    state = playing("AAA .. .")
    step = roll(state, CC)
    assert not of_type(step.events, ChoiceNeeded)
    assert step.state.mantle == (2, 0)
    with pytest.raises(IllegalAction):
        act(step.state, ANA, DECLINE)


# --- matches ---------------------------------------------------------------------------------


def chip_in(
    state: CockAndBullState, seat: int, mantle: tuple[int, int] = (0, 0)
) -> Step[CockAndBullState]:
    """`seat` flips the last chip: a chip-in (a Flying Monkey when their mantle is 0)."""
    spots = "AAA AA B" if seat == 0 else "BBB BB A"
    return roll(playing(spots, mantle=mantle, current=seat, state=state), MM)


def test_a_single_game_is_the_default_match() -> None:
    step = chip_in(new_game(), 0)
    assert the(step.events, MatchWon).winner == ANA
    assert step.state.phase is Phase.OVER


def test_best_of_3_resets_the_board_between_games_and_ends_at_two_wins() -> None:
    step = chip_in(new_game(best_of=3), 0, mantle=(5, 3))  # Ana 23, Bob 3
    assert not of_type(step.events, MatchWon)
    assert the(step.events, NextGameStarted) == NextGameStarted(2)
    game2 = step.state
    assert game2.phase is Phase.START_ROLL  # the start roll happens again
    assert ENGINE.to_act(game2) == {ANA, BOB}
    assert game2.spots == board("... .. .") and game2.mantle == (0, 0)
    assert game2.red == EMPTY and game2.game_no == 2
    assert game2.start_rolls == (None, None) and game2.last_roll is None
    assert game2.wins == (1, 0) and game2.match_points == (23, 3)
    assert ENGINE.outcome(game2) is None

    step = chip_in(game2, 1, mantle=(2, 0))  # Bob's Flying Monkey: Bob 54, Ana 2
    assert the(step.events, NextGameStarted) == NextGameStarted(3)
    assert step.state.wins == (1, 1) and step.state.match_points == (25, 57)

    step = chip_in(step.state, 0, mantle=(10, 0))  # Ana 28, Bob 0 (a Le Pew)
    assert the(step.events, MatchWon) == MatchWon(ANA, (2, 1), (53, 57))
    assert step.state.phase is Phase.OVER
    outcome = ENGINE.outcome(step.state)
    assert outcome is not None
    assert outcome.places == {ANA: 1, BOB: 2}  # winning first, points second
    assert outcome.scores == {ANA: 53, BOB: 57}
    assert outcome.stats == {
        ANA: {"flying_monkeys": 0, "le_pews": 0, "games_won": 2},
        BOB: {"flying_monkeys": 1, "le_pews": 1, "games_won": 1},
    }
    assert [r.game_no for r in step.state.results] == [1, 2, 3]


def test_best_of_3_is_over_after_two_straight_wins() -> None:
    step = chip_in(chip_in(new_game(best_of=3), 1).state, 1)
    assert the(step.events, MatchWon).winner == BOB
    assert step.state.wins == (0, 2)


def test_best_of_5_needs_three_wins() -> None:
    state = new_game(best_of=5)
    for seat in (0, 1, 0, 1):
        step = chip_in(state, seat)
        assert not of_type(step.events, MatchWon)
        state = step.state
    step = chip_in(state, 1)
    assert the(step.events, MatchWon).wins == (2, 3)
    outcome = ENGINE.outcome(step.state)
    assert outcome is not None and outcome.winners == {BOB}


def test_a_point_limit_match_ends_after_the_game_in_which_someone_reaches_it() -> None:
    step = chip_in(new_game(point_limit=60), 0)  # Ana 54
    assert not of_type(step.events, MatchWon)
    assert step.state.match_points == (54, 0)
    step = chip_in(step.state, 1, mantle=(7, 10))  # Bob wins 28 to 7: Ana reaches 61
    assert the(step.events, MatchWon) == MatchWon(ANA, (1, 1), (61, 28))
    outcome = ENGINE.outcome(step.state)
    assert outcome is not None
    assert outcome.places == {ANA: 1, BOB: 2}
    assert outcome.scores == {ANA: 61, BOB: 28}


def test_reaching_the_point_limit_exactly_is_enough() -> None:
    step = chip_in(new_game(point_limit=54), 0)  # a Flying Monkey: exactly 54
    assert the(step.events, MatchWon) == MatchWon(ANA, (1, 0), (54, 0))
    assert ENGINE.to_act(step.state) == frozenset()


def test_a_point_limit_overrides_the_number_of_games() -> None:
    state = new_game(best_of=1, point_limit=100)
    step = chip_in(state, 0)
    assert the(step.events, NextGameStarted).game_no == 2


@pytest.mark.parametrize(
    "options",
    [{"best_of": 4}, {"best_of": 2}, {"best_of": 0}, {"best_of": 7}, {"point_limit": -1}],
)
def test_invalid_options_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(IllegalAction):
        new_game(**options)


@pytest.mark.parametrize("best_of", [1, 3, 5])
def test_valid_options_are_kept(best_of: int) -> None:
    rules = new_game(best_of=best_of, point_limit=40, optional_points=True, dice="weighted").rules
    assert (rules.best_of, rules.point_limit) == (best_of, 40)
    assert rules.optional_points and rules.weighted_dice
    assert new_game().rules == Rules(  # the rulebook defaults
        weighted_dice=False, optional_points=False, best_of=1, point_limit=0
    )


@pytest.mark.parametrize("seats", [(ANA,), (ANA, BOB, 1003), (ANA, ANA)])
def test_cock_and_bull_is_for_exactly_two_players(seats: tuple[int, ...]) -> None:
    with pytest.raises(IllegalAction):
        ENGINE.initial_state(seats, {}, setup_rng("seats"))


# --- whole games with every house option -----------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {"dice": "weighted"},
        {"optional_points": True},
        {"best_of": 3},
        {"best_of": 5, "dice": "weighted", "optional_points": True},
        {"point_limit": 80},
    ],
)
def test_random_matches_with_house_options_finish_consistently(options: dict[str, Any]) -> None:
    for i in range(10):
        seed = f"house-{i}"
        state = new_game(**options)
        picker = Random(seed)
        games: list[GameResult] = []
        for n in range(20_000):
            acting = ENGINE.to_act(state)
            if not acting:
                break
            player = sorted(acting)[0]
            step = ENGINE.apply(
                state,
                player,
                picker.choice(list(ENGINE.legal_actions(state, player))),
                step_rng(seed, n),
            )
            games += [e.result for e in of_type(step.events, GameWon)]
            state = step.state
        outcome = ENGINE.outcome(state)
        assert outcome is not None
        assert list(state.results) == games
        assert state.match_points == tuple(sum(g.scores[s] for g in games) for s in (0, 1))
        assert state.wins == tuple(sum(g.winner == s for g in games) for s in (0, 1))
        for g in games:
            assert max(g.scores) <= 54
            assert g.flying_monkey == (g.kind is WinKind.CHIP_IN and g.scores[g.winner] == 54)
            assert g.le_pew == (g.scores[1 - g.winner] == 0)
        if state.rules.point_limit:
            assert max(state.match_points) >= state.rules.point_limit
            assert max(sum(g.scores[s] for g in games[:-1]) for s in (0, 1)) < (
                state.rules.point_limit
            )
        else:
            assert max(state.wins) == state.rules.best_of // 2 + 1


@pytest.mark.parametrize(
    "options",
    [
        {"dice": "loaded"},
        {"optional_points": "false"},
        {"best_of": "3"},
        {"best_of": True},
        {"point_limit": "ten"},
        {"point_limit": -1},
        {"point_limit": 501},
    ],
)
def test_malformed_options_are_refused_not_guessed(options: dict[str, object]) -> None:
    with pytest.raises(IllegalAction):
        parse_rules(options)
