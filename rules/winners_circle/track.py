"""The track: where a move ends (blocking), the pace horse, the hindmost horse."""

from __future__ import annotations

from dataclasses import dataclass

from rules.winners_circle.cards import Symbol, card
from rules.winners_circle.state import (
    FINISH,
    NO_HORSE,
    PACE_PROGRESS,
    WinnersCircleState,
    space_of,
)


@dataclass(frozen=True)
class Landing:
    """Where `horse` would go: from progress `start` to `end` (`end == start`: it cannot
    move at all; `end > FINISH`: it crosses the finish line)."""

    horse: int
    wanted: int  # the card's value for the symbol
    start: int
    end: int

    @property
    def finishes(self) -> bool:
        """Whether the move crosses the finish line."""
        return self.end > FINISH

    @property
    def moved(self) -> int:
        """Spaces actually run."""
        return self.end - self.start

    @property
    def space(self) -> int:
        """The space it ends on (a finisher: the space past the line, for the picture)."""
        return space_of(self.end)


def landing(state: WinnersCircleState, horse: int, symbol: Symbol) -> Landing:
    """Move `horse` by its card's value for `symbol`: one horse per space, so a move that
    would end on an occupied space ends on the first free space behind it, possibly where it
    started; crossing the finish line is never blocked. A crowded field never blocks."""
    start = state.progress[horse - 1]
    wanted = card(state.gates[horse - 1]).move(symbol)
    end = start + wanted
    if end > FINISH or state.rules.crowded_field:
        return Landing(horse, wanted, start, end)
    taken = {state.space(h) for h in state.running() if h != horse}
    while end > start and space_of(end) in taken:
        end -= 1
    return Landing(horse, wanted, start, end)


def destination(state: WinnersCircleState, horse: int) -> Landing:
    """Where `horse` would go with the symbol just rolled (for labelling move buttons:
    "Horse 3 → space 14")."""
    if state.rolled is None:
        raise ValueError("no symbol has been rolled")
    return landing(state, horse, state.rolled)


def becomes_pace(state: WinnersCircleState, move: Landing) -> bool:
    """The first horse to reach or pass space 18 of its lap takes the pace chip."""
    return state.pace == NO_HORSE and move.end >= PACE_PROGRESS


def hindmost(state: WinnersCircleState) -> tuple[int, ...]:
    """The last horse: the one furthest behind on the track (in a crowded field, every horse
    sharing that space)."""
    running = state.running()
    back = min(state.progress[h - 1] for h in running)
    return tuple(h for h in running if state.progress[h - 1] == back)
