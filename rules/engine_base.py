"""What every engine does alike, declared rather than written: the options it checks, how
its state is stored, who chooses for the AI.

A game's engine subclasses `EngineBase[ItsState]`, sets the class attributes below and writes
only its rules (`initial_state`, `to_act`, `legal_actions`, `apply`, `outcome`):

    class CockAndBull(EngineBase[CockAndBullState]):
        name = "cock_and_bull"
        ...
        options = OPTIONS
        state_type = CockAndBullState
        state_version = STATE_VERSION
        ai_choice = staticmethod(ai.choose)
"""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from rules.codec import Upgrade, dump_state, load_state
from rules.core import Action, Options, PlayerId
from rules.options import OptionSet
from rules.seats import Seated

S = TypeVar("S", bound=Seated)
S_contra = TypeVar("S_contra", bound=Seated, contravariant=True)


class AIChoice(Protocol[S_contra]):
    """A game's AI: the action it takes for `player` now (always legal)."""

    def __call__(self, state: S_contra, player: PlayerId, rng: Random, /) -> Action:
        """The action, every random pick from `rng`."""
        ...


class EngineBase(Generic[S]):
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
