"""What the storage hands back: a game's statuses and the rows of its tables, as values.

Plain frozen dataclasses, free of SQL and of either backend; the query mixins build them
from the database's rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.ratings import Placing, Rating, rated_id
from rules.core import Action

LOBBY, ACTIVE, FINISHED, CANCELLED, ABANDONED = (
    "lobby",
    "active",
    "finished",
    "cancelled",
    "abandoned",
)

MAX_ID = 2**63 - 1  # SQLite's INTEGER range, PostgreSQL's BIGINT
# A game's option (not a house rule: no game declares it) that keeps its result from moving
# ratings, all-time or season: an unrated tournament's tables.
UNRATED = "unrated"


@dataclass(frozen=True)
class GameRow:
    """A game as saved: its table, status, options and seed, the state after `step` and the
    messages that show it."""

    id: int
    game: str
    guild_id: int
    channel_id: int
    host_id: int
    status: str
    options: dict[str, Any]
    seed: str
    step: int
    state: dict[str, Any] | None
    lobby_message_id: int | None
    thread_id: int | None
    board_message_id: int | None
    ping_message_id: int | None
    deadline: float | None
    reminded: bool
    # The step and chapter the board message shows: None before the first board, -1 for a
    # game of an earlier version (not known). Behind `step` means the board must catch up.
    shown_step: int | None = None
    shown_chapter: int | None = None
    broken: str | None = None  # why the game can't be loaded or shown; None when healthy
    ended_by: int | None = None  # who ended an abandoned game (None: by vote, or no thread)
    end_votes: tuple[int, ...] = ()  # players who voted to end the game, in order
    rematch_of: int | None = None  # the finished game whose Rematch button opened this lobby
    # Rewrites of the saved game outside its action log (forgetting a member): a copy of
    # the game kept at the same step but another revision is out of date.
    revision: int = 0

    @property
    def behind(self) -> bool:
        """True when the board does not show the latest saved step."""
        return self.shown_step is None or self.shown_step < self.step


@dataclass(frozen=True)
class SeatRow:
    """A seat at a game's table: who sits there, by what name, and on which side."""

    seat: int
    player_id: int
    name: str
    is_bot: bool
    side: int = 0


@dataclass(frozen=True)
class NewGame:
    """A lobby to store: its game, where it is played, its host (seat 0), its options and
    seed, when it opens, and the game whose Rematch button opened it, if any."""

    game: str
    guild_id: int
    channel_id: int
    host: SeatRow
    options: Mapping[str, Any]
    seed: str
    now: float
    rematch_of: int | None = None


@dataclass(frozen=True)
class LoggedAction:
    """One entry of a game's action log: the action taken at `step`, and by whom."""

    step: int
    player_id: int
    action: Action
    by_ai: bool


@dataclass(frozen=True)
class ResultRow:
    """How one seat ended a finished game."""

    player_id: int
    is_bot: bool
    place: int
    score: int
    won: bool
    stats: Mapping[str, int]
    team: int  # who it played with: a side in a game played by sides, else its own seat

    @property
    def placing(self) -> Placing:
        """The result as the ratings update reads it (every bot seat rated as the AI)."""
        return Placing(rated_id(self.player_id, self.is_bot), self.team, self.place, self.won)


@dataclass(frozen=True)
class RatingRow:
    """A player's rating in one game of a server (player `AI_PLAYER`: the AI)."""

    player_id: int
    rating: Rating


@dataclass(frozen=True)
class StandingRow:
    """A player's record in one game of a server: games played, won and lost, points, and
    their stats summed."""

    player_id: int
    is_bot: bool
    played: int
    wins: int
    losses: int
    points: int
    stats: dict[str, int]


@dataclass(frozen=True)
class SeasonRow:
    """A server's season: its number (1, 2, ... per server), name, times (unix, UTC), the
    one game it counts (None: every game), how it recurs, where it was started, and its end
    (`status` 'running' or 'ended'; the card posted about it, if any)."""

    guild_id: int
    number: int
    name: str
    starts_at: float
    ends_at: float
    games: str | None
    recur: str
    channel_id: int
    status: str
    ended_at: float | None = None
    card_message_id: int | None = None
    card_done: bool = False
    card_claimed_at: float | None = None  # when a process last set out to post the card

    @property
    def running(self) -> bool:
        """True until the season has ended."""
        return self.status == "running"

    @property
    def window(self) -> tuple[float, float]:
        """When its games finished: from its start until before its end (or the moment it
        was ended, if earlier)."""
        end = self.ends_at if self.ended_at is None else min(self.ends_at, self.ended_at)
        return self.starts_at, end

    def counts(self, game: str) -> bool:
        """Whether the season counts games of `game`."""
        return self.games is None or self.games == game


@dataclass(frozen=True)
class SeasonStanding:
    """A player's line on a season's board: live from the season's ratings, or frozen at its
    end. `player_id` is None for a forgotten member ("Former player"), whose line keeps its
    place; `name` is the name they last played under in the server (frozen lines only)."""

    player_id: int | None
    name: str | None
    rating: int  # as shown: round(SCALE × (μ − 3σ))
    points: float
    played: int
    wins: int
    ranked: bool
