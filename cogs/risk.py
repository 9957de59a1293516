"""Risk in Discord: `/risk new`, `/risk rules`, `/risk attack from: to:` and its wording.

One board message per turn (the turn is the presenter's chapter), edited as the turn goes.
Territory choices are select menus of legal territories only, in the rules file's continent
order (a menu of more than 25 is split by the board, so the halves follow the continents).
Cards and missions stay in the 🔒 private panel, and so do the trades (a menu of every set) and
the choice of the +2 territory, until they are made. Every number a "how many" may take is
offered (`NumberLayout`): the least, half and all as buttons, the numbers between in menus.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands
from typing_extensions import override

from bot.client import Interaction, ParlourBot
from bot.errors import UserError, refused
from bot.language.i18n import N_, NP_, _, ngettext, pgettext
from bot.language.wording import agree, count, listing, mention, who
from bot.service import LoadedGame
from bot.table.board import OPTIONS_PER_MENU
from bot.table.presenter import ButtonLook, NumberBox, Presenter, Zoom
from bot.ui.replies import Reply
from cogs.options import house_rules, new_command, rules_text, send_rules
from images.risk import NEUTRAL as NEUTRAL_COLOUR
from images.risk import LegendRow, MapView, render_png, render_zoom_png
from rules.core import Action, Event, IllegalAction, Outcome, PlayerId
from rules.risk import ENGINE, cards
from rules.risk.actions import (
    PRIVATE_VERBS,
    Verb,
    parse_assault,
    parse_number,
    parse_place_at,
    parse_territory,
    parse_trade,
)
from rules.risk.engine import attack_path
from rules.risk.map import CONTINENTS, TERRITORIES, neighbours
from rules.risk.missions import effective_mission
from rules.risk.options import OPTIONS
from rules.risk.queries import (
    HowMany,
    army_count,
    attack_sources,
    attack_targets,
    bonus_territory,
    card_counts,
    how_many,
    must_trade,
    next_set_value,
    territory_count,
)
from rules.risk.state import (
    NEUTRAL,
    SLUGS,
    ArmiesMovedIn,
    ArmiesPlaced,
    AttacksEnded,
    AttackStopped,
    BattleRolled,
    CardDrawn,
    CardReceived,
    CardsHandedOver,
    CardsTraded,
    DeckReshuffled,
    DefenceNeeded,
    Fortified,
    Mission,
    MissionChanged,
    MissionCompleted,
    MissionKind,
    Phase,
    PlayerEliminated,
    RiskState,
    SetupFinished,
    TerritoryCaptured,
    TerritoryClaimed,
    TurnEnded,
    TurnStarted,
    WinKind,
)

GAME = "risk"
# The lobby words a turn limit in rounds (a bare number could be turns).
LOBBY_WORDS = {
    "turn_limit": lambda rounds: (
        ngettext("{rounds} rounds", "{rounds} rounds", rounds).format(rounds=rounds)
        if rounds
        else _("none")
    )
}

RULES_SUMMARY = (
    N_(
        "**Aim:** conquer the world (two players: eliminate the opponent; the neutral army "
        "need not be beaten), or complete your secret mission in Secret Mission Risk."
    ),
    N_(
        "**Set-up:** territories are dealt (or claimed one by one), then everyone places "
        "the rest of their armies in turn, or **Auto**. **Decision:** a set-up turn puts "
        "any number of your armies on one territory, in the claim set-up too (the classic "
        "rules place one army at a time there), so a set-up takes a few clicks each "
        "instead of twenty."
    ),
    N_(
        "**Your turn:** 1) reinforcements: max(3, territories ÷ 3) + continent bonuses + "
        "card sets (any set you hold; 4, 6, 8, 10, 12, 15, then +5, counted across all "
        "players; +2 on a traded card's territory you hold, once a turn — you choose which "
        "when a set shows several; trade at 5+ cards), placed in any numbers. 2) attack "
        "from a territory with 2+ armies: up to 3 dice against 1–2, highest dice compared, "
        "**ties to the defender**; **Blitz** rolls until it falls or you reach your stop "
        "level; move in at least as many as you rolled, or any number more (leaving 1). 3) "
        "one fortify move of any number of armies to a neighbour (leaving 1). Took a "
        "territory? Draw one card."
    ),
    N_("**Eliminate** a player and take their cards (6+: trade at once)."),
    N_(
        "**Secret missions:** complete yours during your turn — even by its last move — "
        "and you win at once."
    ),
)

TERRITORY_MENUS = {
    Verb.CLAIM: N_("Claim a territory…"),
    Verb.PLACE_ON: N_("Place armies on…"),
    Verb.NEUTRAL_ON: N_("Neutral army on…"),
    Verb.ATTACK_FROM: N_("Attack from…"),
    Verb.ATTACK_TO: N_("Attack…"),
    Verb.FORTIFY_FROM: N_("Fortify from…"),
    Verb.FORTIFY_TO: N_("Move armies to…"),
}
SYMBOL_ICON = {"infantry": "🪖", "cavalry": "🐎", "artillery": "💣"}
SYMBOL_WORDS = {"infantry": N_("infantry"), "cavalry": N_("cavalry"), "artillery": N_("artillery")}
PHASE_WORDS = {
    Phase.SETUP_CLAIM: N_("claim a territory"),
    Phase.SETUP_PLACE: N_("place set-up armies"),
    Phase.SETUP_NEUTRAL: N_("place a neutral army"),
    Phase.REINFORCE: N_("reinforce"),
    Phase.ATTACK: N_("attack, or end attacks"),
    Phase.DEFEND: N_("defend"),
    Phase.MOVE_IN: N_("move armies in"),
    Phase.FORTIFY: N_("fortify, or end the turn"),
}


# --- "how many": every legal number offered --------------------------------------------------

QUICK_ONLY = 5  # up to this many legal numbers: a button each
# In the context "armies": Winner's Circle's "Place" is a finishing place.
DOING = {
    Verb.PLACE: NP_("armies", "Place"),
    Verb.MOVE_IN: NP_("armies", "Move in"),
    Verb.FORTIFY: NP_("armies", "Move"),
}


def doing(verb: Verb) -> str:
    """What choosing `verb`'s number does, in the current language: "Place", "Move in"."""
    return pgettext("armies", DOING[verb])


ALL_OF_IT = {Verb.PLACE: N_("all"), Verb.MOVE_IN: N_("all"), Verb.FORTIFY: N_("all but one")}
QUESTION = {
    Verb.PLACE: N_("How many armies go on {}?"),
    Verb.MOVE_IN: N_("How many armies move into {}?"),
    Verb.FORTIFY: N_("How many armies move to {}?"),
}


@dataclass(frozen=True)
class NumberLayout:
    """Where each legal number of a "how many" is offered: a button for the quick choices
    (the least, half and all), and the numbers between as options of one menu when they fit
    in one (25), else typed in a number box ("Type a number…")."""

    quick: frozenset[int]
    menu: str  # the placeholder of the menu of the other numbers
    typed: bool  # too many for one menu: the other numbers are typed


@cache
def number_layout(verb: Verb, lo: int, hi: int) -> NumberLayout:
    """The layout for choosing `verb`'s number from `lo` to `hi`."""
    menu = f"{DOING[verb]} another number…"
    if hi - lo + 1 <= QUICK_ONLY:
        return NumberLayout(frozenset(range(lo, hi + 1)), menu, typed=False)
    quick = frozenset({lo, max(lo, hi // 2), hi})
    return NumberLayout(quick, menu, typed=hi - lo + 1 - len(quick) > OPTIONS_PER_MENU)


def layout_of(asked: HowMany) -> NumberLayout:
    """The layout for the number `asked` for, from its least to its most."""
    return number_layout(asked.verb, asked.numbers[0], asked.numbers[-1])


def number_look(asked: HowMany, n: int, state: RiskState) -> ButtonLook:
    """A number's button or menu option: "Move in 39 (all)", "Ukraine keeps 1"."""
    lo, hi = asked.numbers[0], asked.numbers[-1]
    layout = layout_of(asked)
    note = ""
    if n == hi:
        note = f" ({_(ALL_OF_IT[asked.verb])})"
    elif n == lo and asked.verb == Verb.MOVE_IN:
        note = _(" (least)")
    elif n == max(lo, hi // 2) and len(layout.quick) < hi - lo + 1:
        note = _(" (half)")
    label = f"{doing(asked.verb)} {n}{note}"
    if n in layout.quick:
        return ButtonLook(label, emoji="➕" if asked.verb == Verb.PLACE else None)
    # The layout's menu is worded in English (it is cached): the board shows this one.
    menu = _("{doing} another number…").format(doing=doing(asked.verb))
    here = state.armies_on(state.source)
    kept = here - (n - lo) if asked.verb == Verb.MOVE_IN else here - n
    after = (
        _("{territory} would have {armies}").format(
            territory=name_of(state.source), armies=here + n
        )
        if asked.verb == Verb.PLACE
        else _("{territory} keeps {armies}").format(territory=name_of(state.source), armies=kept)
    )
    return ButtonLook(label, menu=menu, description=after)


def card_short(card: int) -> str:
    """A card as a trade's menu option names it, "🪖 Alaska" or "🃏 Wild": short enough
    for three in one option."""
    symbol = cards.symbol(card)
    if symbol:
        return f"{SYMBOL_ICON[symbol.value]} {name_of(cards.territory(card))}"
    return "🃏 " + _("Wild")


def trade_look(traded: tuple[int, ...], state: RiskState) -> ButtonLook:
    """A set's option in the trade menu: its cards, and where its +2 armies would go."""
    bonus = bonus_territory(state, traded)
    if bonus:
        why = _("+2 on {territory}").format(territory=name_of(bonus))
    elif state.bonus_used:
        why = _("the +2 was had this turn")
    else:
        why = _("no +2: none of these territories is yours")
    label = " + ".join(card_short(c) for c in traded)
    menu = _("Trade a set…")
    return ButtonLook(label, discord.ButtonStyle.success, menu=menu, description=why)


def place_at_look(action: Action) -> ButtonLook:
    """A coarse placement (never offered; named in a replay's list of moves)."""
    territory, armies = parse_place_at(action)
    line = _("Place {armies} on {territory}")
    return ButtonLook(line.format(armies=armies, territory=name_of(territory)), emoji="➕")


def assault_look(action: Action) -> ButtonLook:
    """A whole attack in one action (never offered; named in a replay's list of moves)."""
    planned = parse_assault(action)
    line = _("Attack {target} from {source}: blitz to {stop}, keep {keep}")
    label = line.format(
        target=name_of(planned.target),
        source=name_of(planned.source),
        stop=planned.stop,
        keep=planned.keep,
    )
    return ButtonLook(label, discord.ButtonStyle.danger, "⚡")


def name_of(slug: str) -> str:
    """A territory's name in the language spoken (the map draws the same)."""
    return _(TERRITORIES[slug].name)


def continent_name(slug: str) -> str:
    """A continent's name in the language spoken (the map draws the same)."""
    return _(CONTINENTS[slug].name)


def mission_words(mission: Mission, names: Mapping[int, str] | None = None) -> str:
    """A mission card's text; `names` maps seats (colours) to what to call them."""
    if mission.kind is MissionKind.CONQUER:
        parts = [continent_name(c) for c in mission.continents]
        if mission.one_more_continent:
            parts.append(_("one more continent"))
        return _("Conquer {continents}.").format(continents=listing(parts))
    if mission.kind is MissionKind.OCCUPY:
        line = (
            _("Occupy {territories} territories with at least {armies} armies in each.")
            if mission.min_armies > 1
            else _("Occupy {territories} territories.")
        )
        return line.format(territories=mission.territories, armies=mission.min_armies)
    seat = _("seat {seat}").format(seat=mission.target + 1)
    player = (names or {}).get(mission.target, seat)
    return _("Destroy all armies of {player}.").format(player=player)


def my_mission(state: RiskState, player: PlayerId, names: Mapping[PlayerId, str]) -> str:
    """Private: "My mission" for `player`, with the fallback to 24 territories spelt out."""
    seat = state.seat_of(player)
    dealt = state.missions[seat]
    seat_names = {s: names.get(p, str(p)) for s, p in enumerate(state.players)}
    text = mission_words(dealt, seat_names)
    if effective_mission(state, seat) != dealt:
        why = (
            _("your own colour: so occupy 24 territories instead.")
            if dealt.target == seat
            else _("another player destroyed them: so occupy 24 territories instead.")
        )
        text += f" ({why})"
    held_count = territory_count(state, player)
    held = ngettext("You hold {n} territory.", "You hold {n} territories.", held_count).format(
        n=held_count
    )
    return f"{text} {held}"


def _who(player: PlayerId, names: Mapping[PlayerId, str]) -> str:
    return _("Neutral") if player == NEUTRAL else "**" + names.get(player, _("Someone")) + "**"


def _dice(dice: Sequence[int]) -> str:
    return "-".join(map(str, dice))


def card_text(card: int) -> str:
    """A card in full, as the hand and the narration name it: "🪖 Alaska (infantry)"."""
    symbol = cards.symbol(card)
    if symbol is None:
        return "🃏 " + _("Wild")
    territory = name_of(cards.territory(card))
    return f"{SYMBOL_ICON[symbol.value]} {territory} ({_(SYMBOL_WORDS[symbol.value])})"


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


def _turn_summary(events: Sequence[Event], player: PlayerId, names: Mapping[PlayerId, str]) -> str:
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


class RiskPresenter(Presenter[RiskState]):
    """Risk's wording, map and menus: territories and numbers to pick, cards and missions in
    the private panel, continents to zoom on, one board message per turn."""

    game = GAME
    title = "Risk"
    colour = 0x8E2424
    stat_columns: ClassVar[Mapping[str, str]] = {
        "captures": N_("Captures"),
        "eliminations": N_("Eliminations"),
        "sets_traded": N_("Sets traded"),
    }
    private_label = N_("My cards & mission")
    batch_ai_moves = True

    @override
    def render_png(self, state: RiskState, names: Mapping[PlayerId, str]) -> bytes:
        return render_png(map_view(state, names))

    chapter_name = NP_("chapter", "turn")

    @override
    def chapter(self, state: RiskState) -> int:
        return state.turn

    @override
    def prompt(self, state: RiskState, names: Mapping[PlayerId, str]) -> str:
        if state.phase is Phase.DEFEND:
            defender = state.owner(state.target)
            line = ngettext(
                "{player}: {territory} is attacked with {dice} dice — choose your defence dice",
                "{player}: {territory} is attacked with {dice} dice — choose your defence dice",
                state.attack_dice,
            )
            return line.format(
                player=mention(defender, names),
                territory=name_of(state.target),
                dice=state.attack_dice,
            )
        who = mention(state.player, names)
        if state.phase is Phase.REINFORCE:
            trade = _(" (5+ cards: trade a set first — 🔒 My cards)") if must_trade(state) else ""
            more = self._more_numbers(state)
            place = count(state.to_place, "reinforcement", "reinforcements")
            line = _("{player}: place {reinforcements}{trade}{more}")
            text = line.format(player=who, reinforcements=place, trade=trade, more=more)
            return text + self._where(state)
        if state.phase is Phase.ATTACK and state.target:
            line = _("{player}: attack {target} from {source} — dice?")
            return line.format(
                player=who, target=name_of(state.target), source=name_of(state.source)
            )
        return f"{who}: {self._doing(state)}{self._more_numbers(state)}"

    @staticmethod
    def _doing(state: RiskState) -> str:
        if state.phase is Phase.MOVE_IN:
            line = _("how many armies move into {territory}?")
            return line.format(territory=name_of(state.target))
        if state.phase is Phase.FORTIFY and state.target:
            line = _("how many armies move from {source} to {target}?")
            return line.format(source=name_of(state.source), target=name_of(state.target))
        if state.phase is Phase.SETUP_PLACE:
            line = _("place set-up armies ({left} left)")
            return line.format(left=state.setup_left[state.current]) + RiskPresenter._where(state)
        if state.phase is Phase.ATTACK and state.source:
            line = _("attack from {source} ({armies}): which territory?")
            return line.format(source=name_of(state.source), armies=state.armies_on(state.source))
        if state.phase is Phase.FORTIFY and state.source:
            line = _("fortify from {source} ({armies}): to which territory?")
            return line.format(source=name_of(state.source), armies=state.armies_on(state.source))
        return _(PHASE_WORDS[state.phase])

    @staticmethod
    def _where(state: RiskState) -> str:
        """Where the armies being placed go, once the territory is picked: the turn's key
        fact in words, not only the picture's white rim."""
        if not state.source:
            return ""
        line = _(" — how many on {territory} ({armies})?")
        return line.format(territory=name_of(state.source), armies=state.armies_on(state.source))

    @staticmethod
    def _more_numbers(state: RiskState) -> str:
        asked = how_many(state)
        if asked is None or not layout_of(asked).typed:
            return ""
        line = _(" (or **{button}** from {low} to {high})")
        return line.format(button=_("Type a number…"), low=asked.numbers[0], high=asked.numbers[-1])

    zoomable = True

    @override
    def zooms(self, state: RiskState) -> list[Zoom]:
        return [Zoom(slug, continent_name(slug)) for slug in CONTINENTS]

    @override
    def zoom_default(self, state: RiskState) -> str:
        """Where the action is: the territory picked or attacked, else the continent where
        the player to act holds the most."""
        where = state.target or state.source or (state.last_battle or ("", ""))[1]
        if where:
            return TERRITORIES[where].continent
        player = state.players[state.current]
        return max(
            CONTINENTS,
            key=lambda c: sum(
                state.owner(t) == player and state.armies_on(t) > 0
                for t in CONTINENTS[c].territories
            ),
        )

    @override
    def zoom(
        self, state: RiskState, names: Mapping[PlayerId, str], key: str
    ) -> tuple[bytes, list[str]]:
        lines = continent_lines(state, names, key)
        caption = f"{continent_name(key)} +{CONTINENTS[key].bonus}"
        return render_zoom_png(map_view(state, names), key, caption), lines

    @override
    def standings(self, state: RiskState, names: Mapping[PlayerId, str]) -> list[str]:
        """The legend: each player's territories, armies and cards; the continents held;
        the last attack's arrow."""
        held = card_counts(state)
        lines = []
        for p in state.players:
            name = names.get(p, _("Someone"))
            if state.is_out(p):
                lines.append(_("{player}: out").format(player=name))
                continue
            line = _("{player}: {territories}, {armies}, {cards}")
            lines.append(
                line.format(
                    player=name,
                    territories=count(territory_count(state, p), "territory", "territories"),
                    armies=count(army_count(state, p), "army", "armies"),
                    cards=count(held.get(p, 0), "card", "cards"),
                )
            )
        for slug in CONTINENTS:
            holder = continent_holder(state, slug)
            if holder is not None and holder != NEUTRAL:
                line = _("{player} holds {continent}")
                lines.append(
                    line.format(
                        player=names.get(holder, _("Someone")), continent=continent_name(slug)
                    )
                )
        if state.last_battle is not None:
            source, target = state.last_battle
            line = _("Last attack: from {source} on {target}")
            lines.append(line.format(source=name_of(source), target=name_of(target)))
        return lines

    @override
    def text_board(
        self, state: RiskState, names: Mapping[PlayerId, str], viewer: PlayerId | None = None
    ) -> list[str]:
        """The standings, then `viewer`'s plans (their borders, the continents they are
        close to), then every continent's territories with owner and armies."""
        lines = self.standings(state, names)
        if viewer is not None and viewer in state.players and not state.is_out(viewer):
            lines += plan_lines(state, names, viewer)
        for slug in CONTINENTS:
            lines += continent_lines(state, names, slug)
        return lines

    @override
    def summary(
        self, state: RiskState, events: Sequence[Event], names: Mapping[PlayerId, str]
    ) -> str:
        """A turn (or the set-up moves) of several moves, per player: "Leo placed 5
        armies, attacked 2 territories, took Ural and lost 3 armies"."""
        kinds = (ArmiesPlaced, BattleRolled, Fortified, TurnEnded)
        moves = [e for e in events if isinstance(e, kinds)]
        if len(moves) < 2:
            return ""
        movers = [e.attacker if isinstance(e, BattleRolled) else e.player for e in moves]
        # A player's single move before the others' turns is told by its own line.
        players = [p for p in dict.fromkeys(movers) if movers.count(p) > 1] or movers[:1]
        return "; ".join(_turn_summary(events, p, names) for p in players)

    @override
    def narrate(self, events: Sequence[Event], names: Mapping[PlayerId, str]) -> list[str]:
        lines: list[str] = []
        for e in events:
            line = self._line(e, names)
            if line:
                lines.append(line)
        return lines

    def _line(self, e: Event, names: Mapping[PlayerId, str]) -> str:
        match e:
            case TerritoryClaimed(player=p, territory=t):
                line = _("{player} claimed {territory}.")
                return line.format(player=_who(p, names), territory=name_of(t))
            case ArmiesPlaced(player=p, owner=o, territory=t, count=n, total=total, left=left):
                line = (
                    _("{player} placed {armies} neutral on {territory} ({total}); {left} left.")
                    if o == NEUTRAL
                    else _("{player} placed {armies} on {territory} ({total}); {left} left.")
                )
                return line.format(
                    player=_who(p, names), armies=n, territory=name_of(t), total=total, left=left
                )
            case SetupFinished(first=p):
                line = _("Set-up done. {player} takes the first turn.")
                return line.format(player=_who(p, names))
            case TurnStarted(player=p, turn=n, reinforcement=r):
                held = f" + {', '.join(continent_name(c) for c in r.continents)}"
                line = _("Turn {turn}: {player} gets {armies} ({territories} → {base}{held}).")
                return line.format(
                    turn=n,
                    player=_who(p, names),
                    armies=count(r.total, "army", "armies"),
                    territories=count(r.territories, "territory", "territories"),
                    base=r.from_territories,
                    held=held if r.continents else "",
                )
            case CardsTraded(player=p, cards=traded, set_number=k, armies=a, bonus_territory=b):
                bonus = _("; +2 on {territory}").format(territory=name_of(b)) if b else ""
                shown = ", ".join(card_text(c) for c in traded)
                armies = count(a, "army", "armies")
                line = _("{player} traded set #{set} ({cards}) for {armies}{bonus}.")
                return line.format(
                    player=_who(p, names), set=k, cards=shown, armies=armies, bonus=bonus
                )
            case DefenceNeeded(defender=d, target=t):
                line = _("{player} to choose dice for {territory}.")
                return line.format(player=_who(d, names), territory=name_of(t))
            case BattleRolled():
                line = _(
                    "⚔️ {source} {attack} vs {defence}: attacker loses {attacker_losses}, "
                    "defender {defender_losses} ({source_armies} v {target_armies})."
                )
                return line.format(
                    source=name_of(e.source),
                    attack=_dice(e.attack_dice),
                    defence=_dice(e.defend_dice),
                    attacker_losses=e.attacker_losses,
                    defender_losses=e.defender_losses,
                    source_armies=e.source_armies,
                    target_armies=e.target_armies,
                )
            case AttackStopped(source=s, source_armies=a):
                line = _("The blitz stops: {territory} is down to {armies}.")
                return line.format(territory=name_of(s), armies=a)
            case TerritoryCaptured(player=p, previous_owner=o, target=t, moved=m):
                line = _("🚩 {player} took {territory} from {previous} ({armies} in).")
                return line.format(
                    player=_who(p, names), territory=name_of(t), previous=_who(o, names), armies=m
                )
            case ArmiesMovedIn(target=t, count=n, target_armies=total):
                line = _("{armies} more moved into {territory} ({total}).")
                return line.format(armies=n, territory=name_of(t), total=total) if n else ""
            case PlayerEliminated(victim=v, victor=w, cards_taken=n):
                took = count(n, "card", "cards")
                line = _("☠️ {player} eliminated {victim} and took {cards}.")
                return line.format(player=_who(w, names), victim=_who(v, names), cards=took)
            case AttacksEnded(player=p):
                return _("{player} ends attacks.").format(player=_who(p, names))
            case Fortified(player=p, source=s, target=t, count=n):
                line = _("{player} moved {armies} from {source} to {target}.")
                return line.format(
                    player=_who(p, names), armies=n, source=name_of(s), target=name_of(t)
                )
            case CardDrawn(player=p, cards_held=n):
                line = _("{player} drew a card ({cards} held).")
                return line.format(player=_who(p, names), cards=n)
            case DeckReshuffled(cards=n):
                line = _("The discards were shuffled into a new deck ({cards} cards).")
                return line.format(cards=n)
            case TurnEnded(player=p):
                return _("{player} ends the turn.").format(player=_who(p, names))
            case MissionCompleted(player=p, mission=m):
                line = _("🎯 {player} completed their mission: {mission}")
                return line.format(player=_who(p, names), mission=mission_words(m))
        return ""

    @override
    def narrate_private(
        self, events: Sequence[Event], player: PlayerId, names: Mapping[PlayerId, str]
    ) -> list[str]:
        lines: list[str] = []
        for e in events:
            match e:
                case CardReceived(player=p, card=c) if p == player:
                    lines.append(_("You drew {card}.").format(card=card_text(c)))
                case CardsHandedOver(victor=w, cards=taken, must_trade=must) if w == player:
                    extra = _(" You hold 6 or more: trade now.") if must else ""
                    took = _("You took {cards}.").format(cards=", ".join(map(card_text, taken)))
                    lines.append(took + extra)
                case MissionChanged(player=p, mission=m) if p == player:
                    lines.append(
                        _("Your mission is now: {mission}").format(mission=mission_words(m))
                    )
        return lines

    @override
    def private(self, state: RiskState, player: PlayerId, names: Mapping[PlayerId, str]) -> str:
        hand = state.hand(player)
        held = "\n".join(f"• {card_text(c)}" for c in hand) or "• " + pgettext("cards", "none")
        worth = _("The next set traded is worth **{armies}** armies.")
        lines = [
            _("**Your cards ({count}):**").format(count=len(hand)) + "\n" + held,
            worth.format(armies=next_set_value(state)),
        ]
        if state.missions:
            mission = my_mission(state, player, names)
            lines.append(_("**Your mission:** {mission}").format(mission=mission))
        if state.phase is not Phase.OVER and state.player == player:
            lines += self._private_choices(state)
        return "\n".join(lines)

    @staticmethod
    def _private_choices(state: RiskState) -> list[str]:
        """What the menus below the panel's text are for, when they are there."""
        lines = []
        if any(a.verb == Verb.BONUS for a in ENGINE.legal_actions(state, state.player)):
            now = name_of(state.bonus_pick) if state.bonus_pick else _("the first card showing one")
            line = _(
                "**+2 armies:** a traded card showing a territory you hold puts 2 armies there, "
                "once a turn. A set of yours shows several: choose which with “{menu}” "
                "before trading (now: {now})."
            )
            lines.append(line.format(menu=_("+2 armies on…"), now=now))
        return lines

    @override
    def is_private(self, action: Action, state: RiskState) -> bool:
        return action.verb in PRIVATE_VERBS  # the cards are secret until traded

    @override
    def number_box(self, state: RiskState, player: PlayerId) -> NumberBox | None:
        asked = how_many(state)
        if asked is None or player != state.player or not layout_of(asked).typed:
            return None
        where = state.target if asked.verb != Verb.PLACE else state.source
        return NumberBox(
            asked.verb,
            asked.numbers[0],
            asked.numbers[-1],
            _(QUESTION[asked.verb]).format(name_of(where)),
        )

    @override
    def button(self, action: Action, state: RiskState) -> ButtonLook:
        verb, arg = Verb(action.verb), action.arg
        asked = how_many(state)
        if asked is not None and verb == asked.verb:
            return number_look(asked, parse_number(action), state)
        if verb in TERRITORY_MENUS:
            t = TERRITORIES[parse_territory(action)]
            return ButtonLook(
                f"{name_of(t.slug)} ({state.armies_on(t.slug)})",
                menu=_(TERRITORY_MENUS[verb]),
                description=continent_name(t.continent),
            )
        secondary = discord.ButtonStyle.secondary
        looks = {
            Verb.ROLL: lambda: ButtonLook(
                ngettext("Roll {dice} die", "Roll {dice} dice", int(arg)).format(dice=arg),
                emoji="🎲",
            ),
            Verb.BLITZ: lambda: ButtonLook(
                _("Blitz") if arg == "1" else _("Blitz, stop at {armies}").format(armies=arg),
                discord.ButtonStyle.danger,
                "⚡",
            ),
            Verb.DEFEND: lambda: ButtonLook(_("Defend with {dice}").format(dice=arg), emoji="🛡️"),
            Verb.TRADE: lambda: trade_look(parse_trade(action), state),
            Verb.BONUS: lambda: ButtonLook(
                name_of(parse_territory(action)),
                menu=_("+2 armies on…"),
                description=_("a territory of yours that a set shows"),
            ),
            Verb.PLACE_AT: lambda: place_at_look(action),
            Verb.ASSAULT: lambda: assault_look(action),
            Verb.AUTO: lambda: ButtonLook(_("Auto"), secondary, "🤖"),
            Verb.BACK: lambda: ButtonLook(_("Back"), secondary),
            Verb.END_ATTACKS: lambda: ButtonLook(_("End attacks"), secondary),
            Verb.END_TURN: lambda: ButtonLook(_("End turn"), secondary),
        }
        return looks[verb]()

    @override
    def describe_options(self, options: Mapping[str, Any]) -> list[str]:
        return house_rules(OPTIONS, options, LOBBY_WORDS)

    @override
    def result(self, state: RiskState, outcome: Outcome, names: Mapping[PlayerId, str]) -> str:
        winners = sorted(outcome.winners)
        n = len(winners)
        line = {
            WinKind.DOMINATION: agree(
                n,
                "{players} conquers the world after {turns}",
                "{players} conquer the world after {turns}",
            ),
            WinKind.ELIMINATION: agree(
                n,
                "{players} eliminates the opponent after {turns}",
                "{players} eliminate the opponent after {turns}",
            ),
            WinKind.MISSION: agree(
                n,
                "{players} completes their secret mission after {turns}",
                "{players} complete their secret mission after {turns}",
            ),
            WinKind.TURN_LIMIT: agree(
                n,
                "{players} holds the most territories at the turn limit after {turns}",
                "{players} hold the most territories at the turn limit after {turns}",
            ),
            WinKind.RESIGNATION: agree(
                n,
                "{players} is the last in the game after {turns}",
                "{players} are the last in the game after {turns}",
            ),
        }[state.win or WinKind.DOMINATION]
        return line.format(players=who(winners, names), turns=count(state.turn, "turn", "turns"))


@app_commands.guild_only()
class RiskCog(commands.GroupCog, group_name="risk"):
    """Risk: the classic game of world domination, for 2–6 players."""

    def __init__(self, bot: ParlourBot) -> None:
        """The cog of `bot`."""
        self.bot = bot
        super().__init__()

    new = new_command(
        GAME,
        OPTIONS,
        "Open a Risk lobby in this channel (2–6 players; 2 play with a neutral army).",
    )

    @app_commands.command(name="rules")
    async def rules(self, interaction: Interaction) -> None:
        """How to play Risk, in short."""
        text = rules_text(RULES_SUMMARY, OPTIONS, "/risk new")
        await send_rules(interaction, RiskPresenter.title, text, RiskPresenter.colour)

    @app_commands.command(name="attack")
    @app_commands.describe(source="Your territory to attack from", target="The enemy next to it")
    @app_commands.rename(source="from", target="to")
    async def attack(self, interaction: Interaction, source: str, target: str) -> None:
        """Pick an attack by name (in the game's thread); then roll or blitz on the board."""
        table = await self._my_game(interaction)
        try:
            path = attack_path(table.state, interaction.user.id, source, target)
        except IllegalAction as e:
            raise refused(e) from e
        reply = Reply.of(interaction)
        await self.bot.play.command(reply, table.row.id, path)
        line = _("Attacking {target} from {source}: roll or blitz on the board.")
        await reply.private(line.format(target=name_of(target), source=name_of(source)))

    @attack.autocomplete("source")
    async def _sources(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        table = await self.bot.service.game_in_thread(interaction.channel_id or 0)
        if table is None or table.row.game != GAME:
            return []
        return _choices(attack_sources(table.state, interaction.user.id), current)

    @attack.autocomplete("target")
    async def _targets(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        table = await self.bot.service.game_in_thread(interaction.channel_id or 0)
        source = getattr(interaction.namespace, "from", None)
        if table is None or table.row.game != GAME or source not in TERRITORIES:
            return []
        return _choices(attack_targets(table.state, source), current)

    async def _my_game(self, interaction: Interaction) -> LoadedGame:
        table = await self.bot.service.game_in_thread(interaction.channel_id or 0)
        if table is None or table.row.game != GAME:
            raise UserError(_("Use this in the thread of a Risk game that is being played."))
        return table


def _choices(slugs: Sequence[str], typed: str) -> list[app_commands.Choice[str]]:
    """Autocomplete: the legal territories whose name contains what was typed (25 at most)."""
    typed = typed.casefold()
    return [
        app_commands.Choice(name=name_of(s), value=s)
        for s in slugs
        if typed in name_of(s).casefold()
    ][:25]
