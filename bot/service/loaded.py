"""A game as the service loaded it: its row, its seats and its engine state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from bot.storage import GameRow, SeatRow
from rules.core import PlayerId
from rules.seats import Seated


@dataclass(frozen=True)
class LoadedGame:
    """A game as loaded: its row, seats and (once started) engine state."""

    row: GameRow
    seats: list[SeatRow]
    state: Any
    ai_seats: frozenset[PlayerId] = frozenset()  # the engine's `ai_seats` for `state`

    @property
    def names(self) -> dict[PlayerId, str]:
        """Each seat's player's name, by player id."""
        return {s.player_id: s.name for s in self.seats}

    @property
    def bots(self) -> frozenset[PlayerId]:
        """The bot seats' player ids (negative numbers)."""
        return frozenset(s.player_id for s in self.seats if s.is_bot)

    @property
    def autoplayed(self) -> frozenset[PlayerId]:
        """The seats the table plays itself: bots and the seats the AI took over (a
        resigner's, an absent player's), or everyone under the `autoplay` option (a game
        without decisions that the table prefers to watch)."""
        if self.row.options.get("autoplay"):
            return frozenset(s.player_id for s in self.seats)
        return self.bots | self.ai_seats

    @property
    def resigned(self) -> tuple[PlayerId, ...]:
        """Players who resigned (every game state keeps a `rules.seats.Seating`)."""
        return () if self.state is None else cast(Seated, self.state).seating.resigned

    @property
    def away(self) -> frozenset[PlayerId]:
        """Players whose seat the host handed to the AI, until they take it back."""
        return self.ai_seats - frozenset(self.resigned)

    @property
    def voters(self) -> list[PlayerId]:
        """Who a vote to end the game needs: every human still playing their own seat."""
        return [
            s.player_id
            for s in self.seats
            if not s.is_bot and s.player_id not in self.ai_seats | frozenset(self.resigned)
        ]

    @property
    def side_count(self) -> int:
        """How many sides players join (the `sides` option); 1 for a game of single seats."""
        return int(self.row.options.get("sides", 1))

    def in_play_order(self) -> list[PlayerId]:
        """Seats grouped by side (side 0 first), each side in joining order."""
        return [s.player_id for s in sorted(self.seats, key=lambda s: (s.side, s.seat))]
