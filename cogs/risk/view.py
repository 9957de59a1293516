"""What a Risk board shows and reads out: the map's view, each continent in lines for a
screen reader, a player's plans (their borders, the continents they are close to), and a
turn summed up."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.language.i18n import _, ngettext
from bot.language.wording import listing
from cogs.risk.words import PHASE_WORDS, continent_name, name_of
from images.risk import NEUTRAL as NEUTRAL_COLOUR
from images.risk import LegendRow, MapView
from rules.core import Event, PlayerId
from rules.risk.map import CONTINENTS, neighbours
from rules.risk.queries import (
    army_count,
    card_counts,
    territory_count,
)
from rules.risk.state import (
    NEUTRAL,
    SLUGS,
    ArmiesPlaced,
    BattleRolled,
    Fortified,
    Phase,
    PlayerEliminated,
    RiskState,
    TerritoryCaptured,
)


def continent_holder(state: RiskState, slug: str) -> PlayerId | None:
    """Who holds every territory of continent `slug`, if anyone does."""
    owners = {state.owner(t) for t in CONTINENTS[slug].territories if state.armies_on(t)}
    held = len(owners) == 1 and all(state.armies_on(t) for t in CONTINENTS[slug].territories)
    return owners.pop() if held else None


def continent_lines(state: RiskState, names: Mapping[PlayerId, str], slug: str) -> list[str]:
    """A continent as a screen reader hears it: its name, bonus and holder, then a short
    line per territory with its owner and armies."""
    continent = CONTINENTS[slug]
    holder = continent_holder(state, slug)
    head = _("{continent}, bonus {bonus}").format(
        continent=continent_name(slug), bonus=continent.bonus
    )
    if holder is not None:
        head += _(", held by {player}").format(player=_owner_name(holder, names))
    lines = [f"**{head}**"]
    for t in continent.territories:
        if not state.armies_on(t):
            lines.append(_("{territory}: unclaimed").format(territory=name_of(t)))
            continue
        line = _("{territory}: {player}, {armies}")
        lines.append(
            line.format(
                territory=name_of(t),
                player=_owner_name(state.owner(t), names),
                armies=state.armies_on(t),
            )
        )
    return lines


TOOK_NAMED = 3  # a turn's captures named in its summary; more are counted
CLOSE = 3  # a continent is worth a line while the viewer lacks at most this many territories
CONTINENT_LINES = 2  # the continents closest to being held
PLAN_WORDS = 110  # the plan's words: with the prompt and six standings, under a minute at 175 wpm


def _held_by(state: RiskState, slug: str, names: Mapping[PlayerId, str]) -> str:
    """An enemy territory with its owner and armies: "Ukraine (Mia, 4)"."""
    if not state.armies_on(slug):
        return _("{territory} (unclaimed)").format(territory=name_of(slug))
    line = _("{territory} ({player}, {armies})")
    return line.format(
        territory=name_of(slug),
        player=_owner_name(state.owner(slug), names),
        armies=state.armies_on(slug),
    )


def _words(line: str) -> int:
    return len(line.split())


def plan_lines(state: RiskState, names: Mapping[PlayerId, str], viewer: PlayerId) -> list[str]:
    """What `viewer` plans from, in at most `PLAN_WORDS` words: each of their territories
    that touches an enemy, with the enemies beside it (the strongest first; those that do
    not fit are counted), then the continents they are closest to holding and what each
    lacks."""
    continents = []
    for slug in sorted(CONTINENTS, key=lambda c: _lacking(state, c, viewer))[:CONTINENT_LINES]:
        lacking = [t for t in CONTINENTS[slug].territories if state.owner(t) != viewer]
        if 0 < len(lacking) <= min(CLOSE, len(CONTINENTS[slug].territories) - 1):
            line = _("{continent}: you lack {territories}")
            continents.append(
                line.format(
                    continent=continent_name(slug),
                    territories=listing([_held_by(state, t, names) for t in lacking]),
                )
            )
    fronts: list[tuple[int, str]] = []
    for slug in SLUGS:
        if state.owner(slug) != viewer or not state.armies_on(slug):
            continue
        enemies = sorted(
            (n for n in neighbours(slug) if state.armies_on(n) and state.owner(n) != viewer),
            key=SLUGS.index,
        )
        if enemies:
            line = _("{territory} ({armies}) faces {enemies}")
            text = line.format(
                territory=name_of(slug),
                armies=state.armies_on(slug),
                enemies=listing([_held_by(state, n, names) for n in enemies]),
            )
            fronts.append((state.armies_on(slug), text))
    heading = _("Your borders")
    room = PLAN_WORDS - sum(map(_words, continents)) - _words(heading) - 6  # 6: the count
    borders = []
    for _armies, text in sorted(fronts, key=lambda f: -f[0]):
        if _words(text) > room:
            break
        borders.append(text)
        room -= _words(text)
    if len(borders) < len(fronts):
        rest = len(fronts) - len(borders)
        more = ngettext(
            "and {count} more territory on the border", "and {count} more on the border", rest
        )
        borders.append(more.format(count=rest))
    return ([f"**{heading}**", *borders] if fronts else []) + continents


def turn_summary(events: Sequence[Event], player: PlayerId, names: Mapping[PlayerId, str]) -> str:
    """What `player` did among `events`, in one clause."""
    placed = sum(e.count for e in events if isinstance(e, ArmiesPlaced) and e.player == player)
    battles = [e for e in events if isinstance(e, BattleRolled) and e.attacker == player]
    attacked = len({e.target for e in battles})
    lost = sum(e.attacker_losses for e in battles)
    took = [
        name_of(e.target) for e in events if isinstance(e, TerritoryCaptured) and e.player == player
    ]
    out = [
        _owner_name(e.victim, names)
        for e in events
        if isinstance(e, PlayerEliminated) and e.victor == player
    ]
    moved = [e for e in events if isinstance(e, Fortified) and e.player == player]
    did = [
        text.format(n=n)
        for n, text in (
            (placed, ngettext("placed {n} army", "placed {n} armies", placed)),
            (attacked, ngettext("attacked {n} territory", "attacked {n} territories", attacked)),
        )
        if n
    ]
    if len(took) > TOOK_NAMED:
        line = ngettext("took {n} territory", "took {n} territories", len(took))
        did.append(line.format(n=len(took)))
    elif took:
        did.append(_("took {territories}").format(territories=listing(took)))
    if out:
        did.append(_("eliminated {players}").format(players=listing(out)))
    if battles:
        did.append(ngettext("lost {n} army", "lost {n} armies", lost).format(n=lost))
    did += [_("fortified {territory}").format(territory=name_of(e.target)) for e in moved]
    who = _owner_name(player, names)
    if not did:
        return _("{player} ended the turn").format(player=who)
    return _("{player} {did}").format(player=who, did=listing(did))


def _lacking(state: RiskState, continent: str, viewer: PlayerId) -> int:
    return sum(state.owner(t) != viewer for t in CONTINENTS[continent].territories)


def _owner_name(player: PlayerId, names: Mapping[PlayerId, str]) -> str:
    return _("Neutral") if player == NEUTRAL else names.get(player, _("Someone"))


def map_view(state: RiskState, names: Mapping[PlayerId, str]) -> MapView:
    """What the map shows: owners as colours by seat, the legend, the last battle."""
    colour = {p: seat for seat, p in enumerate(state.players)} | {NEUTRAL: NEUTRAL_COLOUR}
    held = card_counts(state)
    acting = state.players[state.current] if state.phase is not Phase.OVER else None
    legend = [
        LegendRow(
            name=names.get(p, "?"),
            colour=seat,
            armies=army_count(state, p),
            territories=territory_count(state, p),
            cards=held.get(p, 0),
            out=state.is_out(p),
            to_act=p == acting,
        )
        for seat, p in enumerate(state.players)
    ]
    if territory_count(state, NEUTRAL):  # two players, or a player resigned to it
        neutral = LegendRow(
            name=_("Neutral"),
            colour=NEUTRAL_COLOUR,
            armies=army_count(state, NEUTRAL),
            territories=territory_count(state, NEUTRAL),
            cards=0,
        )
        legend.append(neutral)
    owners = {s: colour[o] for s, o, a in zip(SLUGS, state.owners, state.armies, strict=True) if a}
    caption = _("Turn {turn}").format(turn=state.turn) if state.turn else _("Set-up")
    if acting is not None:
        caption += f" · {names.get(acting, '?')}: {_(PHASE_WORDS[state.phase])}"
    return MapView(
        owners=owners,
        armies=dict(zip(SLUGS, state.armies, strict=True)),
        legend=legend,
        caption=caption,
        attack=state.last_battle,
        selected=state.target or state.source or None,
    )
