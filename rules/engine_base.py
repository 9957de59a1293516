"""What every engine does alike, declared rather than written: the gate that keeps illegal
moves out, the options it checks, how its state is stored, who chooses for the AI.

A game's engine subclasses `EngineBase[ItsState]`, sets the class attributes below and writes
only its rules (`initial_state`, `to_act`, `legal_actions`, `play`, `outcome`):

    class CockAndBull(EngineBase[CockAndBullState]):
        name = "cock_and_bull"
        ...
        options = OPTIONS
        state_type = CockAndBullState
        state_version = STATE_VERSION
        ai_choice = staticmethod(ai.choose)
        resign_rule = staticmethod(opponent_wins)

`apply` is the gate, the same for every game (`EngineBase.apply`): a seat action goes to
`rules.seats`; anyone else is refused unless they are seated, the game goes on, it is their
turn and the action is legal; only then does the game's `play` run. The refusals are worded
by class attributes (`not_your_turn`, `unavailable`) or, where the words depend on the state,
by overriding `out_of_turn` or `refusal`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from random import Random
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from rules.codec import Upgrade, dump_state, load_state
from rules.core import N_, Action, IllegalAction, Options, PlayerId, Step
from rules.options import OptionSet
from rules.seats import ResignRule, Seated, ai_plays_on, apply_seat_action, is_seat_action

S = TypeVar("S", bound=Seated)
S_contra = TypeVar("S_contra", bound=Seated, contravariant=True)


class AIChoice(Protocol[S_contra]):
    """A game's AI: the action it takes for `player` now (always legal)."""

    def __call__(self, state: S_contra, player: PlayerId, rng: Random, /) -> Action:
        """The action, every random pick from `rng`."""
        ...


class EngineBase(ABC, Generic[S]):
    """The `rules.core.Engine` methods every game shares, driven by its class attributes."""

    name: ClassVar[str]
    """The game's name everywhere (`Engine.name`)."""
    title: ClassVar[str]
    """The game's name as players read it (`Engine.title`)."""
    min_players: ClassVar[int]
    """The smallest table (`Engine.min_players`)."""
    max_players: ClassVar[int]
    """The largest table (`Engine.max_players`)."""
    options: ClassVar[OptionSet]
    """The house rules (`rules/<game>/options.py`)."""
    state_type: type[S]
    """The state's class, a frozen dataclass `rules.codec` stores."""
    state_version: ClassVar[int]
    """The version stored states carry: bump it, with an upgrade, when the state's shape
    changes."""
    upgrades: ClassVar[Mapping[int, Upgrade]] = {}
    """How a stored state of an older version becomes the next (`rules.codec.load_state`)."""
    ai_choice: AIChoice[S]
    """The AI (`rules/<game>/ai.py`'s `choose`), set as a `staticmethod`."""
    resign_rule: ResignRule[S] = staticmethod(ai_plays_on)
    """What a resignation does to the game (`rules.seats.ResignRule`), set as a
    `staticmethod`: by default the AI plays the resigner's seat out."""
    not_your_turn: ClassVar[str] = N_("It is not your turn.")
    """The refusal for a seated player who is not to act (`out_of_turn`)."""
    unavailable: ClassVar[str] = N_("That move is not available right now.")
    """The refusal for an action the player to act may not take now (`refusal`)."""

    def apply(self, state: S, player: PlayerId, action: Action, rng: Random) -> Step[S]:
        """`player` does `action` (see `Engine.apply`): a seat action whoever is to act,
        else the game's `play` once the player may act and the action is legal.

        Raises:
            IllegalAction: In this order: for someone not seated, a game over, a player not
                to act (`out_of_turn`), an action not legal now (`refusal`).
        """
        acting = self.to_act(state)
        over = not acting  # `to_act` is empty exactly when the game is over
        if is_seat_action(action):
            return apply_seat_action(
                state, player, action, seats=state.players, over=over, resign=self.resign_rule
            )
        if player not in acting:
            if player not in state.players:
                raise IllegalAction("You are not playing in this game.")
            if over:
                raise IllegalAction("The game is over.")
            raise self.out_of_turn(state)
        if not self.is_legal(state, player, action):
            raise self.refusal(state, action)
        return self.play(state, player, action, rng)

    @abstractmethod
    def to_act(self, state: S) -> frozenset[PlayerId]:
        """Players who may act now (`Engine.to_act`)."""

    @abstractmethod
    def legal_actions(self, state: S, player: PlayerId) -> Sequence[Action]:
        """Everything `player` may do now (`Engine.legal_actions`)."""

    @abstractmethod
    def play(self, state: S, player: PlayerId, action: Action, rng: Random) -> Step[S]:
        """The game's rules for `action`, which `apply` has let through: `player` is to act
        and the action is legal (so no check is needed here)."""

    def out_of_turn(self, state: S) -> IllegalAction:
        """Why a seated player who is not to act is refused (`not_your_turn`)."""
        return IllegalAction(self.not_your_turn)

    def is_legal(self, state: S, player: PlayerId, action: Action) -> bool:
        """Whether `player`, who is to act, may take `action` now: it is among their
        `legal_actions`. A game may answer faster, never differently."""
        return action in self.legal_actions(state, player)

    def refusal(self, state: S, action: Action) -> IllegalAction:
        """Why an action the player to act may not take now is refused (`unavailable`)."""
        return IllegalAction(self.unavailable)

    def validate_options(self, options: Options, players: int | None = None) -> None:
        """Refuse options no table (or no table of `players`) could play (see
        `Engine.validate_options`)."""
        sizes = range(self.min_players, self.max_players + 1)
        self.options.resolve(options, sizes if players is None else players)

    def dump(self, state: S) -> dict[str, Any]:
        """The state as JSON (see `Engine.dump`)."""
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> S:
        """The state `dump` stored, an older version upgraded (see `Engine.load`)."""
        return load_state(self.state_type, data, self.state_version, self.title, self.upgrades)

    def choose(self, state: S, player: PlayerId, rng: Random) -> Action:
        """The AI's action (`ai_choice`)."""
        return self.ai_choice(state, player, rng)

    def ai_seats(self, state: S) -> frozenset[PlayerId]:
        """Seats the AI plays now: resigners' it plays out and those handed to it (see
        `Engine.ai_seats`)."""
        return state.seating.ai_seats
