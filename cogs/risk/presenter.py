"""Risk's presenter: the prompt, the map and its zooms, the standings and text board,
the narration, the private panel (cards and mission) and every button's look."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import discord
from typing_extensions import override

from bot.language.i18n import N_, NP_, _, ngettext, pgettext
from bot.language.wording import agree, count, mention, who
from bot.table.presenter import ButtonLook, NumberBox, Presenter, Zoom
from cogs.options import house_rules
from cogs.risk.numbers import QUESTION, layout_of, number_look
from cogs.risk.view import continent_holder, continent_lines, map_view, plan_lines, turn_summary
from cogs.risk.words import (
    LOBBY_WORDS,
    PHASE_WORDS,
    TERRITORY_MENUS,
    assault_look,
    card_text,
    continent_name,
    event_line,
    mission_words,
    my_mission,
    name_of,
    place_at_look,
    trade_look,
)
from images.risk import render_png
from images.risk_zoom import render_zoom_png
from rules.core import Action, Event, Outcome, PlayerId
from rules.risk import ENGINE
from rules.risk.actions import (
    PRIVATE_VERBS,
    Verb,
    parse_number,
    parse_territory,
    parse_trade,
)
from rules.risk.map import CONTINENTS, TERRITORIES
from rules.risk.options import OPTIONS
from rules.risk.queries import (
    army_count,
    card_counts,
    how_many,
    must_trade,
    next_set_value,
    territory_count,
)
from rules.risk.state import (
    NEUTRAL,
    ArmiesPlaced,
    BattleRolled,
    CardReceived,
    CardsHandedOver,
    Fortified,
    MissionChanged,
    Phase,
    RiskState,
    TurnEnded,
    WinKind,
)


class RiskPresenter(Presenter[RiskState]):
    """Risk's wording, map and menus: territories and numbers to pick, cards and missions in
    the private panel, continents to zoom on, one board message per turn."""

    engine = ENGINE
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
        """The legend: each player's territories, armies and cards, the neutral army's
        territories and armies; the continents held; the last attack's arrow."""
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
        if territory_count(state, NEUTRAL):
            line = _("Neutral: {territories}, {armies}")
            lines.append(
                line.format(
                    territories=count(territory_count(state, NEUTRAL), "territory", "territories"),
                    armies=count(army_count(state, NEUTRAL), "army", "armies"),
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
        return "; ".join(turn_summary(events, p, names) for p in players)

    @override
    def narrate(self, events: Sequence[Event], names: Mapping[PlayerId, str]) -> list[str]:
        lines: list[str] = []
        for e in events:
            line = event_line(e, names)
            if line:
                lines.append(line)
        return lines

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
