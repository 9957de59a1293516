"""Skill ratings with OpenSkill's Plackett–Luce model: one rating per player, per game, per
server, updated from each finished game's places. Pure: no storage, no Discord.

A rating is a skill estimate `mu` and its uncertainty `sigma`. Players are ranked by the
conservative figure μ − 3σ (the model's `ordinal`: a newcomer's is 0), shown × `SCALE` as a
whole number so a game's change reads `+24`, not `+2.4`. Bot seats are rated together as one
player, the AI (`AI_PLAYER`), so a server sees how its members compare with it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
AI_PLAYER = 0  # the AI's id in ratings: no Discord user is 0, bot seats are -1, -2...
SCALE = 10  # shown rating = round(SCALE × (μ − 3σ))
MIN_GAMES = 3  # rated games a player needs before a leaderboard ranks them


@dataclass(frozen=True)
class Rating:
    """A player's rating in one game in one server, and the rated games behind it."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    played: int = 0
    wins: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative skill, μ − 3σ: what leaderboards rank by."""
        return self.mu - 3 * self.sigma

    @property
    def points(self) -> int:
        """The rating as shown."""
        return shown(self.ordinal)

    @property
    def ranked(self) -> bool:
        """True once the player has played enough rated games for a leaderboard to rank."""
        return self.played >= MIN_GAMES


def shown(ordinal: float) -> int:
    """A conservative skill (μ − 3σ) as shown: × `SCALE`, rounded."""
    return round(SCALE * ordinal)


@dataclass(frozen=True)
class Placing:
    """One seat of a finished game as rating sees it: who (the AI for a bot seat), on which
    team (a side, or the seat alone), in which place (shared on a tie; a resigner's is last)."""

    player_id: int
    team: int
    place: int
    won: bool


@dataclass(frozen=True)
class RatingChange:
    """How a finished game moved one seat's player's conservative rating (μ − 3σ)."""

    player_id: int  # the seat's: a bot seat's is negative, its rating the AI's
    is_bot: bool
    before: float
    after: float

    @property
    def shown(self) -> int:
        """The change as shown: the difference of the shown ratings, so changes add up."""
        return shown(self.after) - shown(self.before)


def rated_id(player_id: int, is_bot: bool) -> int:
    """Who a seat's result rates: its player, or the AI for any bot seat."""
    return AI_PLAYER if is_bot else player_id


def update(
    placings: Sequence[Placing], ratings: Mapping[int, Rating], model: PlackettLuce = MODEL
) -> dict[int, Rating]:
    """The new rating of everyone in a finished game, from their ratings before it (a player
    missing from `ratings` is new), by `model` (the all-time one unless told). A team's rank
    is its best place; a game of one team changes nobody. The AI in several seats gets the
    mean of its seats' new ratings."""
    teams: dict[int, list[Placing]] = {}
    # In one canonical order, so that the figures never depend on the order rows were read.
    for placing in sorted(placings, key=lambda p: (p.team, p.player_id)):
        teams.setdefault(placing.team, []).append(placing)
    if len(teams) < 2:
        return {}
    before = [[ratings.get(p.player_id, Rating()) for p in team] for team in teams.values()]
    rated = model.rate(
        [[model.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in before],
        ranks=[min(p.place for p in team) for team in teams.values()],
    )
    seats: dict[int, list[tuple[float, float]]] = {}
    for team, new_team in zip(teams.values(), rated, strict=True):
        for placing, new in zip(team, new_team, strict=True):
            seats.setdefault(placing.player_id, []).append((new.mu, new.sigma))
    won = {p.player_id for p in placings if p.won}
    after = {}
    for player, values in seats.items():
        old = ratings.get(player, Rating())
        after[player] = Rating(
            mu=sum(mu for mu, _ in values) / len(values),
            sigma=sum(sigma for _, sigma in values) / len(values),
            played=old.played + 1,
            wins=old.wins + (player in won),
        )
    return after
