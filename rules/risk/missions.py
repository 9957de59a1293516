"""Secret Mission Risk (docs/rules/risk.md): the mission cards, their wording and when one
is complete."""

from __future__ import annotations

from collections.abc import Mapping

from rules.core import PlayerId
from rules.risk.map import CONTINENTS
from rules.risk.queries import continents_held, territory_count
from rules.risk.state import OCCUPY_24, Mission, MissionKind, RiskState

# The US deck's first six cards; the destroy cards (one per colour played) are added per game.
BASE_MISSIONS: tuple[Mission, ...] = (
    Mission(MissionKind.CONQUER, ("asia", "south_america")),
    Mission(MissionKind.CONQUER, ("asia", "africa")),
    Mission(MissionKind.CONQUER, ("north_america", "africa")),
    Mission(MissionKind.CONQUER, ("north_america", "australia")),
    Mission(MissionKind.OCCUPY, territories=18, min_armies=2),
    OCCUPY_24,
)
# House option `missions: 14`.
EXTRA_MISSIONS: tuple[Mission, ...] = (
    Mission(MissionKind.CONQUER, ("europe", "south_america"), one_more_continent=True),
    Mission(MissionKind.CONQUER, ("europe", "australia"), one_more_continent=True),
)


def mission_deck(seats: int, size: int) -> tuple[Mission, ...]:
    """The deck for `seats` players: the destroy cards of colours nobody plays are removed."""
    extra = EXTRA_MISSIONS if size == 14 else ()
    destroy = tuple(Mission(MissionKind.DESTROY, target=seat) for seat in range(seats))
    return BASE_MISSIONS + extra + destroy


def effective_mission(state: RiskState, seat: int) -> Mission | None:
    """The mission `seat` plays for: a destroy card whose colour is the holder's own, or that
    another player eliminated first, counts as "occupy 24 territories"."""
    if not state.missions:
        return None
    mission = state.missions[seat]
    if mission.kind is not MissionKind.DESTROY:
        return mission
    if mission.target == seat:
        return OCCUPY_24
    target = state.players[mission.target]
    for e in state.eliminated:
        if e.victim == target and e.victor != state.players[seat]:
            return OCCUPY_24
    return mission


def is_complete(state: RiskState, seat: int) -> bool:
    """Whether `seat`'s mission (as it counts now: `effective_mission`) is accomplished."""
    mission = effective_mission(state, seat)
    if mission is None:
        return False
    player = state.players[seat]
    if mission.kind is MissionKind.DESTROY:
        target = state.players[mission.target]
        return any(e.victim == target and e.victor == player for e in state.eliminated)
    if mission.kind is MissionKind.OCCUPY:
        held = sum(
            1
            for o, a in zip(state.owners, state.armies, strict=True)
            if o == player and a >= mission.min_armies
        )
        return held >= mission.territories
    held_continents = continents_held(state, player)
    if not all(c in held_continents for c in mission.continents):
        return False
    return not mission.one_more_continent or len(held_continents) > len(mission.continents)


def describe(mission: Mission, names: Mapping[int, str] | None = None) -> str:
    """The card's text. `names` maps seats (colours) to what to call them."""
    if mission.kind is MissionKind.CONQUER:
        parts = [CONTINENTS[c].name for c in mission.continents]
        if mission.one_more_continent:
            parts.append("one more continent")
        return f"Conquer {' and '.join(parts)}."
    if mission.kind is MissionKind.OCCUPY:
        if mission.min_armies > 1:
            return (
                f"Occupy {mission.territories} territories with at least "
                f"{mission.min_armies} armies in each."
            )
        return f"Occupy {mission.territories} territories."
    who = (names or {}).get(mission.target, f"seat {mission.target + 1}")
    return f"Destroy all armies of {who}."


def mission_text(state: RiskState, player: PlayerId, names: Mapping[PlayerId, str]) -> str:
    """Private: "My mission" for `player`, with the fallback to 24 territories spelt out."""
    seat = state.seat_of(player)
    if not state.missions:
        return "No secret missions in this game: conquer the world."
    dealt = state.missions[seat]
    seat_names = {s: names.get(p, str(p)) for s, p in enumerate(state.players)}
    text = describe(dealt, seat_names)
    effective = effective_mission(state, seat)
    if effective != dealt:
        why = "your own colour" if dealt.target == seat else "another player destroyed them"
        text += f" ({why}: so occupy 24 territories instead.)"
    progress = territory_count(state, player)
    return f"{text} You hold {progress} {'territory' if progress == 1 else 'territories'}."
