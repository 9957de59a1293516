"""Seasons: a server's competition in chapters, as pure rules (no storage, no Discord).

- A **season rating** starts, at a player's first game of the season, from their all-time
  rating with a soft reset (`soft_reset`): μ kept, σ raised to at least `SEASON_SIGMA`, so
  everyone drops on the μ − 3σ board and climbs back within a few games without losing
  their skill. It moves with OpenSkill's τ (`SEASON_TAU`, σ never raised by it:
  `limit_sigma`), so a veteran of hundreds of games still gains and loses visibly.
- **Season points** reward play (`season_points`): among the humans of a table (an AI seat
  takes no place), the one in place p of k gets `(k − p) / (k − 1) × 10`, tied places
  sharing the average; a table of fewer than two humans gives nobody points, and at most
  `FARM_LIMIT` results a UTC day against the same set of opponents count.
- A season's **end** is an absolute UTC time (`parse_end`); a recurring season's next one
  lasts its period (`next_end`).
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Collection, Mapping, Sequence
from datetime import UTC, datetime, timedelta

from openskill.models import PlackettLuce

from bot.ratings import MODEL, Placing, Rating, update

# σ a season rating starts at, at least: half a newcomer's (25/3). A veteran's σ (about 2.5
# after a hundred games) rises to it, so their board figure μ − 3σ drops by about 5 (50 shown
# points) and comes back within a handful of games, while μ, their skill, is kept.
SEASON_SIGMA = MODEL.sigma / 2
# OpenSkill's additive dynamics factor τ, per game, for season ratings: 0.3 (the model's
# default is 25/300 ≈ 0.083) keeps a veteran's σ from sinking so low that a season's games
# no longer move them; `limit_sigma` stops τ from ever raising σ after a game.
SEASON_TAU = 0.3
SEASON_MODEL = PlackettLuce(tau=SEASON_TAU, limit_sigma=True)
MAX_POINTS = 10  # a table's winner's season points
FARM_LIMIT = 3  # results a UTC day against the same opponents that earn points
MIN_SEASON_GAMES = 3  # season games a player needs to be ranked (server setting's default)
MAX_NAME = 100
MAX_LENGTH = timedelta(days=366)
DAY = 86400

NONE, WEEKLY, MONTHLY, QUARTERLY = "none", "weekly", "monthly", "quarterly"
RECURS = (NONE, WEEKLY, MONTHLY, QUARTERLY)
_MONTHS = {MONTHLY: 1, QUARTERLY: 3}
_IN_DAYS = re.compile(r"^(\d{1,3})\s*d$")


class BadSeason(ValueError):
    """A season's option the bot cannot use; the message says which (English: the caller
    words it for the member)."""


def soft_reset(all_time: Rating) -> Rating:
    """A player's season rating at their first game of a season: their all-time skill (μ)
    with σ raised to at least `SEASON_SIGMA`, and no games played yet."""
    return Rating(mu=all_time.mu, sigma=max(all_time.sigma, SEASON_SIGMA))


def season_rate(
    placings: Sequence[Placing],
    season: Mapping[int, Rating],
    all_time: Mapping[int, Rating],
    humans: Collection[int],
) -> dict[int, Rating]:
    """The season ratings a finished game leaves: each player moves by `SEASON_MODEL` from
    their `season` rating so far or, at their first game of the season, from their
    `all_time` one before the game, softly reset. Every player the game rated, and every
    human (a game that rated nobody still puts its humans on the season's board)."""
    before = {p.player_id: soft_reset(all_time.get(p.player_id, Rating())) for p in placings}
    before |= {p: r for p, r in season.items() if p in before}
    after = update(placings, before, SEASON_MODEL)
    return {p: after.get(p, r) for p, r in before.items() if p in after or p in humans}


def season_points(places: Mapping[int, int]) -> dict[int, float]:
    """Season points of a finished table's humans, from their places (player → place, bots
    left out): with k humans, place p among them earns `(k − p) / (k − 1) × MAX_POINTS`, and
    humans sharing a place share the average of the places they span. Fewer than two
    humans: nobody earns points (an empty mapping)."""
    k = len(places)
    if k < 2:
        return {}
    ordered = sorted(set(places.values()))
    points: dict[int, float] = {}
    position = 1  # the first place among the humans that this group of ties spans
    for place in ordered:
        tied = [p for p, q in places.items() if q == place]
        spanned = range(position, position + len(tied))
        share = sum((k - p) / (k - 1) * MAX_POINTS for p in spanned) / len(tied)
        for player in tied:
            points[player] = share
        position += len(tied)
    return points


def tablemates(humans: Sequence[int]) -> str:
    """The key of a table's set of humans (who played whom, for the anti-farming rule)."""
    return ",".join(str(p) for p in sorted(set(humans)))


def day_of(moment: float) -> int:
    """The UTC day number of a unix time."""
    return int(moment // DAY)


def parse_end(text: str, now: float) -> float:
    """The end a member typed, as a unix time: a UTC date `YYYY-MM-DD` (its end: midnight
    after it) or a length `7d`, `30d`, `90d` from `now`. Raises BadSeason if unparseable,
    not in the future, or more than a year away."""
    text = text.strip().lower()
    start = datetime.fromtimestamp(now, UTC)
    days = _IN_DAYS.match(text)
    if days:
        end = start + timedelta(days=int(days.group(1)))
    else:
        try:
            day = datetime.strptime(text, "%Y-%m-%d").replace(tzinfo=UTC)
        except ValueError:
            raise BadSeason("unparseable") from None
        end = day + timedelta(days=1)
    if end <= start:
        raise BadSeason("past")
    if end - start > MAX_LENGTH:
        raise BadSeason("too far")
    return end.timestamp()


def next_end(start: float, recur: str) -> float:
    """When a recurring season opened at `start` ends: a week, or the same day of the month
    one or three months on (the month's last day when it is shorter)."""
    if recur == WEEKLY:
        return start + 7 * DAY
    months = _MONTHS[recur]
    at = datetime.fromtimestamp(start, UTC)
    month0 = at.month - 1 + months
    year, month = at.year + month0 // 12, month0 % 12 + 1
    day = min(at.day, calendar.monthrange(year, month)[1])
    return at.replace(year=year, month=month, day=day).timestamp()


def next_start(ended: float, ends_at: float, recur: str) -> float:
    """When the season after one that ended at `ended` (due at `ends_at`) starts: where it was
    due, so seasons follow one another; but now if it was ended early, or so late (the bot
    was down) that the next one would be over already."""
    if ended >= ends_at and next_end(ends_at, recur) > ended:
        return ends_at
    return ended
