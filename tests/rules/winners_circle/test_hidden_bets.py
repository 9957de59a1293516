"""The `hidden_bets` variant: chips 0, 1, 1, 2, four rounds, values secret until the end."""

from __future__ import annotations

import dataclasses
from dataclasses import replace

import pytest

from rules.core import Action, Event, IllegalAction
from rules.winners_circle import ENGINE
from rules.winners_circle.actions import Verb, chips_left, move_action
from rules.winners_circle.cards import HORSES
from rules.winners_circle.state import (
    FINISH,
    Bet,
    BetPlaced,
    BetsRevealed,
    HiddenBetPlaced,
    HiddenChipChosen,
    PayoutMade,
    Phase,
    RaceEnded,
)
from tests.rules.winners_circle.scenario import (
    ANA,
    BOB,
    CAT,
    HEAD,
    RNG,
    lap,
    new_game,
    of_type,
    racing,
    random_game,
    the,
)


def test_each_player_has_chips_0_1_1_2_and_bets_four_rounds() -> None:
    state = replace(new_game((ANA, BOB), hidden_bets=True), current=0, first_bettor=0)
    assert chips_left(state, ANA) == (0, 1, 1, 2)
    legal = ENGINE.legal_actions(state, ANA)
    assert set(legal) == {Action(Verb.HIDDEN_BET, f"{h},{c}") for h in HORSES for c in (0, 1, 2)}
    assert len(legal) == 21  # one select menu, in Ana's own panel
    for n, (horse, chip) in enumerate(
        [(1, 0), (1, 2), (2, 1), (2, 0), (3, 2), (3, 1), (4, 1), (4, 1)]
    ):
        assert state.phase is Phase.BETTING, n
        player = state.players[state.current]
        state = ENGINE.apply(state, player, Action(Verb.HIDDEN_BET, f"{horse},{chip}"), RNG).state
    assert state.phase is Phase.ROLL and len(state.bets) == 8


def test_the_open_bet_verb_is_refused_with_hidden_bets() -> None:
    state = replace(new_game((ANA, BOB), hidden_bets=True), current=0, first_bettor=0)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, ANA, Action(Verb.BET, "1,1"), RNG)


def test_everyone_sees_the_horse_only_the_owner_sees_the_chip() -> None:
    state = replace(new_game((ANA, BOB), hidden_bets=True), current=0, first_bettor=0)
    events = ENGINE.apply(state, ANA, Action(Verb.HIDDEN_BET, "5,2"), RNG).events
    public = the(events, HiddenBetPlaced)
    assert public == HiddenBetPlaced(ANA, 5) and public.visible_to is None
    private = the(events, HiddenChipChosen)
    assert (private.horse, private.chip) == (5, 2)
    assert private.visible_to == {ANA}
    assert not of_type(events, BetPlaced)


def test_the_values_are_revealed_when_the_race_ends() -> None:
    bets = (Bet(ANA, 1, 0), Bet(BOB, 1, 2), Bet(ANA, 2, 1))
    state = racing(
        {1: FINISH + 2, 2: FINISH + 1, 3: lap(34)},
        finished=(1, 2),
        players=(ANA, BOB),
        bets=bets,
        hidden_bets=True,
    )
    state = ENGINE.resolve_roll(replace(state, pace=1), HEAD, RNG).state
    events = ENGINE.apply(state, ANA, move_action(3), RNG).events
    revealed = the(events, BetsRevealed)
    assert revealed.bets == bets and revealed.visible_to is None
    # Ana's 0-chip on the winner is a bluff: only Bob's 2-chip (2 bets) is paid.
    paid = [(p.line.player, p.line.kind.value, p.line.amount) for p in of_type(events, PayoutMade)]
    assert paid == [(BOB, "win", 700), (ANA, "place", 350), (BOB, "pace", 200)]


def chip_values_in(event: Event) -> bool:
    """Does this event carry a chip value (a `chip` field, or bets with theirs)?"""
    fields = {f.name: getattr(event, f.name) for f in dataclasses.fields(event)}
    return "chip" in fields or "line" in fields or "bets" in fields


@pytest.mark.parametrize("seed", range(4))
def test_no_public_event_carries_a_chip_value_before_its_race_ends(seed: int) -> None:
    game = random_game((ANA, BOB, CAT), f"hidden-{seed}", hidden_bets=True, ai_seats=(CAT,))
    racing_now = True
    secrets = 0
    for _, events in game:
        for event in events:
            if isinstance(event, RaceEnded):
                racing_now = False
            elif isinstance(event, HiddenBetPlaced):
                racing_now = True
            if racing_now and chip_values_in(event):
                assert event.visible_to is not None and len(event.visible_to) == 1, event
                secrets += 1
    assert secrets == 3 * 3 * 4  # three races, three players, four chips each
