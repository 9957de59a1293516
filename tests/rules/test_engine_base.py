"""The gate `EngineBase.apply` keeps for every game: an engine that writes only its rules
(`to_act`, `legal_actions`, `play`) has seat actions handled and every player or action the
rules do not allow refused, in order, with the base's words; its `play` sees legal moves only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from random import Random

import pytest

from rules.core import Action, IllegalAction, Options, Outcome, PlayerId, Step
from rules.engine_base import EngineBase
from rules.registry import ENGINES
from rules.seats import RESIGN, Resigned, Seating, seating_field
from rules.winners_circle.options import OPTIONS

GO = Action("go")
STAY = Action("stay")
ANA, LEO, EVE = 1, 2, 3


@dataclass(frozen=True)
class CountState:
    """Two players take turns counting to three."""

    players: tuple[PlayerId, ...]
    count: int = 0
    seating: Seating = seating_field()


class CountEngine(EngineBase[CountState]):
    """A game without a gate of its own: `go` counts one, on your turn; nothing else."""

    name = "count"
    title = "Count"
    min_players = 2
    max_players = 2
    options = OPTIONS
    state_type = CountState
    state_version = 1

    def initial_state(self, seats: Sequence[PlayerId], options: Options, rng: Random) -> CountState:
        return CountState(tuple(seats))

    def to_act(self, state: CountState) -> frozenset[PlayerId]:
        if state.count >= 3:
            return frozenset()
        return frozenset({state.players[state.count % 2]})

    def legal_actions(self, state: CountState, player: PlayerId) -> Sequence[Action]:
        return (GO,) if player in self.to_act(state) else ()

    def play(
        self, state: CountState, player: PlayerId, action: Action, rng: Random
    ) -> Step[CountState]:
        assert player in self.to_act(state) and action == GO  # the gate let only this through
        return Step(replace(state, count=state.count + 1), ())

    def outcome(self, state: CountState) -> Outcome | None:
        return None


ENGINE = CountEngine()
START = CountState((ANA, LEO))
OVER = replace(START, count=3)


@pytest.mark.parametrize(
    ("state", "player", "action", "refusal"),
    [
        (START, EVE, GO, "You are not playing in this game."),
        (OVER, EVE, GO, "You are not playing in this game."),
        (OVER, ANA, GO, "The game is over."),
        (START, LEO, GO, "It is not your turn."),
        (START, ANA, STAY, "That move is not available right now."),
        (START, EVE, RESIGN, "You are not playing in this game."),
        (OVER, LEO, RESIGN, "The game is over."),
    ],
)
def test_the_base_refuses_what_the_rules_do_not_allow(
    state: CountState, player: PlayerId, action: Action, refusal: str
) -> None:
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, player, action, Random(1))
    assert refused.value.message == refusal


def test_a_legal_move_is_the_games_to_play() -> None:
    assert ENGINE.apply(START, ANA, GO, Random(1)).state.count == 1


def test_a_seat_action_is_taken_out_of_turn_by_the_default_resign_rule() -> None:
    step = ENGINE.apply(START, LEO, RESIGN, Random(1))
    assert step.events == (Resigned(LEO),)  # the AI plays the seat out
    assert step.state.seating.resigned == (LEO,)


class Worded(CountEngine):
    """The same game with its own words for the refusals."""

    not_your_turn = "It is not your count."
    unavailable = "The only move is to count."


@pytest.mark.parametrize(
    ("player", "action", "refusal"),
    [(LEO, GO, "It is not your count."), (ANA, STAY, "The only move is to count.")],
)
def test_a_game_words_its_refusals_by_class_attributes(
    player: PlayerId, action: Action, refusal: str
) -> None:
    with pytest.raises(IllegalAction) as refused:
        Worded().apply(START, player, action, Random(1))
    assert refused.value.message == refusal


@pytest.mark.parametrize("game", [name for name, e in ENGINES.items() if e.max_players > 2])
def test_every_game_refuses_a_player_in_two_seats_in_the_same_words(game: str) -> None:
    with pytest.raises(IllegalAction) as refused:
        ENGINES[game].initial_state([ANA, ANA, LEO], {}, Random(1))
    assert refused.value.message == "A player can take only one seat."
