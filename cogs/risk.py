"""Risk in Discord: `/risk new`, `/risk rules`, `/risk attack from: to:` and its wording.

One board message per turn (the turn is the presenter's chapter), edited as the turn goes.
Territory choices are select menus of legal territories only, in the rules file's continent
order (a menu of more than 25 is split by the board, so the halves follow the continents).
Cards and missions stay in the 🔒 private panel, and so do the trades, until they are made.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from bot.presenter import ButtonLook, Presenter
from bot.tables import mention
from cogs.options import TURN_TIMER_CHOICES, TURN_TIMER_HELP, on_off, open_lobby, send_rules
from images.risk import NEUTRAL as NEUTRAL_COLOUR
from images.risk import LegendRow, MapView, render_png
from rules.core import Action, Event, IllegalAction, Outcome, PlayerId
from rules.risk import cards
from rules.risk.engine import attack_path
from rules.risk.map import CONTINENTS, TERRITORIES
from rules.risk.missions import describe, mission_text
from rules.risk.queries import (
    army_count,
    attack_sources,
    attack_targets,
    card_counts,
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
    MissionChanged,
    MissionCompleted,
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

RULES_SUMMARY = """\
**Aim:** conquer the world (two players: eliminate the opponent; the neutral army need not \
be beaten), or complete your secret mission in Secret Mission Risk.
**Set-up:** territories are dealt (or claimed one by one), then everyone places the rest of \
their armies in turn — several at once, or **Auto**.
**Your turn:** 1) reinforcements: max(3, territories ÷ 3) + continent bonuses + card sets \
(4, 6, 8, 10, 12, 15, then +5, counted across all players; +2 on a traded card's territory \
you hold, once a turn; trade at 5+ cards). 2) attack from a territory with 2+ armies: up to \
3 dice against 1–2, highest dice compared, **ties to the defender**; **Blitz** rolls until \
it falls or you reach your stop level; move in at least as many as you rolled. 3) one \
fortify move to a neighbour. Took a territory? Draw one card.
**Eliminate** a player and take their cards (6+: trade at once).
**House rules:** claim set-up, missions (12 or 14 cards), defender chooses dice, connected \
fortify, turn limit."""

TERRITORY_MENUS = {
    "claim": "Claim a territory…",
    "place_on": "Place armies on…",
    "neutral_on": "Neutral army on…",
    "attack_from": "Attack from…",
    "attack_to": "Attack…",
    "fortify_from": "Fortify from…",
    "fortify_to": "Move armies to…",
}
SYMBOL_ICON = {"infantry": "🪖", "cavalry": "🐎", "artillery": "💣"}
PHASE_WORDS = {
    Phase.SETUP_CLAIM: "claim a territory",
    Phase.SETUP_PLACE: "place set-up armies",
    Phase.SETUP_NEUTRAL: "place a neutral army",
    Phase.REINFORCE: "reinforce",
    Phase.ATTACK: "attack, or end attacks",
    Phase.DEFEND: "defend",
    Phase.MOVE_IN: "move armies in",
    Phase.FORTIFY: "fortify, or end the turn",
}


def name_of(slug: str) -> str:
    return TERRITORIES[slug].name


def _who(player: PlayerId, names: Mapping[PlayerId, str]) -> str:
    return "Neutral" if player == NEUTRAL else f"**{names.get(player, 'Someone')}**"


def _dice(dice: Sequence[int]) -> str:
    return "-".join(map(str, dice))


def card_text(card: int) -> str:
    symbol = cards.symbol(card)
    return f"{SYMBOL_ICON[symbol.value]} {cards.label(card)}" if symbol else "🃏 Wild"


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
    caption = f"Turn {state.turn}" if state.turn else "Set-up"
    if acting is not None:
        caption += f" · {names.get(acting, '?')}: {PHASE_WORDS[state.phase]}"
    return MapView(
        owners=owners,
        armies=dict(zip(SLUGS, state.armies, strict=True)),
        legend=legend,
        caption=caption,
        attack=state.last_battle,
        selected=state.target or state.source or None,
    )


class RiskPresenter(Presenter):
    game = "risk"
    title = "Risk"
    colour = 0x8E2424
    stat_columns: ClassVar[Mapping[str, str]] = {
        "captures": "Captures",
        "eliminations": "Eliminations",
        "sets_traded": "Sets traded",
    }
    private_label = "My cards & mission"
    batch_ai_moves = True

    def render_png(self, state: RiskState, names: Mapping[PlayerId, str]) -> bytes:
        return render_png(map_view(state, names))

    def chapter(self, state: RiskState) -> int:
        return state.turn

    def prompt(self, state: RiskState, names: Mapping[PlayerId, str]) -> str:
        if state.phase is Phase.DEFEND:
            defender = state.owner(state.target)
            return (
                f"{mention(defender, names)}: {name_of(state.target)} is attacked with "
                f"{state.attack_dice} dice — choose your defence dice"
            )
        who = mention(state.player, names)
        if state.phase is Phase.REINFORCE:
            held = len(state.hand(state.player))
            trade = " (5+ cards: trade a set first — 🔒 My cards)" if held >= 5 else ""
            return f"{who}: place {state.to_place} reinforcements{trade}"
        if state.phase is Phase.ATTACK and state.target:
            return f"{who}: attack {name_of(state.target)} from {name_of(state.source)} — dice?"
        if state.phase is Phase.MOVE_IN:
            return f"{who}: how many armies move into {name_of(state.target)}?"
        if state.phase is Phase.SETUP_PLACE:
            left = state.setup_left[state.current]
            return f"{who}: place set-up armies ({left} left)"
        return f"{who}: {PHASE_WORDS[state.phase]}"

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
                return f"{_who(p, names)} claimed {name_of(t)}."
            case ArmiesPlaced(player=p, owner=o, territory=t, count=n, total=total, left=left):
                whose = " neutral" if o == NEUTRAL else ""
                return f"{_who(p, names)} placed {n}{whose} on {name_of(t)} ({total}); {left} left."
            case SetupFinished(first=p):
                return f"Set-up done. {_who(p, names)} takes the first turn."
            case TurnStarted(player=p, turn=n, reinforcement=r):
                held = f" + {', '.join(CONTINENTS[c].name for c in r.continents)}"
                return (
                    f"Turn {n}: {_who(p, names)} gets {r.total} armies "
                    f"({r.territories} territories → {r.from_territories}"
                    f"{held if r.continents else ''})."
                )
            case CardsTraded(player=p, cards=traded, set_number=k, armies=a, bonus_territory=b):
                bonus = f"; +2 on {name_of(b)}" if b else ""
                shown = ", ".join(card_text(c) for c in traded)
                return f"{_who(p, names)} traded set #{k} ({shown}) for {a} armies{bonus}."
            case DefenceNeeded(defender=d, target=t):
                return f"{_who(d, names)} to choose dice for {name_of(t)}."
            case BattleRolled():
                return (
                    f"⚔️ {name_of(e.source)} {_dice(e.attack_dice)} vs {_dice(e.defend_dice)}: "
                    f"attacker loses {e.attacker_losses}, defender {e.defender_losses} "
                    f"({e.source_armies} v {e.target_armies})."
                )
            case AttackStopped(source=s, source_armies=a):
                return f"The blitz stops: {name_of(s)} is down to {a}."
            case TerritoryCaptured(player=p, previous_owner=o, target=t, moved=m):
                return f"🚩 {_who(p, names)} took {name_of(t)} from {_who(o, names)} ({m} in)."
            case ArmiesMovedIn(target=t, count=n, target_armies=total):
                return f"{n} more moved into {name_of(t)} ({total})." if n else ""
            case PlayerEliminated(victim=v, victor=w, cards_taken=n):
                return f"☠️ {_who(w, names)} eliminated {_who(v, names)} and took {n} cards."
            case AttacksEnded(player=p):
                return f"{_who(p, names)} ends attacks."
            case Fortified(player=p, source=s, target=t, count=n):
                return f"{_who(p, names)} moved {n} from {name_of(s)} to {name_of(t)}."
            case CardDrawn(player=p, cards_held=n):
                return f"{_who(p, names)} drew a card ({n} held)."
            case DeckReshuffled(cards=n):
                return f"The discards were shuffled into a new deck ({n} cards)."
            case TurnEnded(player=p):
                return f"{_who(p, names)} ends the turn."
            case MissionCompleted(player=p, mission=m):
                return f"🎯 {_who(p, names)} completed their mission: {describe(m)}"
        return ""

    def narrate_private(
        self, events: Sequence[Event], player: PlayerId, names: Mapping[PlayerId, str]
    ) -> list[str]:
        lines: list[str] = []
        for e in events:
            match e:
                case CardReceived(player=p, card=c) if p == player:
                    lines.append(f"You drew {card_text(c)}.")
                case CardsHandedOver(victor=w, cards=taken, must_trade=must) if w == player:
                    extra = " You hold 6 or more: trade now." if must else ""
                    lines.append(f"You took {', '.join(map(card_text, taken))}.{extra}")
                case MissionChanged(player=p, mission=m) if p == player:
                    lines.append(f"Your mission is now: {describe(m)}")
        return lines

    def private(self, state: RiskState, player: PlayerId, names: Mapping[PlayerId, str]) -> str:
        hand = state.hand(player)
        held = "\n".join(f"• {card_text(c)}" for c in hand) or "• none"
        lines = [
            f"**Your cards ({len(hand)}):**\n{held}",
            f"The next set traded is worth **{next_set_value(state)}** armies.",
        ]
        if state.missions:
            lines.append(f"**Your mission:** {mission_text(state, player, names)}")
        return "\n".join(lines)

    def is_private(self, action: Action, state: RiskState) -> bool:
        return action.verb == "trade"  # the cards are secret until traded

    def button(self, action: Action, state: RiskState) -> ButtonLook:
        verb, arg = action.verb, action.arg
        if verb in TERRITORY_MENUS:
            t = TERRITORIES[arg]
            return ButtonLook(
                f"{t.name} ({state.armies_on(arg)})",
                menu=TERRITORY_MENUS[verb],
                description=CONTINENTS[t.continent].name,
            )
        secondary = discord.ButtonStyle.secondary
        looks = {
            "place": lambda: ButtonLook(f"Place {arg}", emoji="➕"),
            "roll": lambda: ButtonLook(f"Roll {arg} {'die' if arg == '1' else 'dice'}", emoji="🎲"),
            "blitz": lambda: ButtonLook(
                "Blitz" if arg == "1" else f"Blitz, stop at {arg}", discord.ButtonStyle.danger, "⚡"
            ),
            "defend": lambda: ButtonLook(f"Defend with {arg}", emoji="🛡️"),
            "move_in": lambda: ButtonLook(f"Move in {arg}"),
            "fortify": lambda: ButtonLook(f"Move {arg}"),
            "trade": lambda: ButtonLook(
                "Trade " + " + ".join(cards.label(c) for c in cards.parse_card_arg(arg)),
                discord.ButtonStyle.success,
            ),
            "auto": lambda: ButtonLook("Auto", secondary, "🤖"),
            "back": lambda: ButtonLook("Back", secondary),
            "end_attacks": lambda: ButtonLook("End attacks", secondary),
            "end_turn": lambda: ButtonLook("End turn", secondary),
        }
        return looks[verb]()

    def describe_options(self, options: Mapping[str, Any]) -> list[str]:
        missions = int(options.get("missions", 0))
        limit = int(options.get("turn_limit", 0))
        return [
            f"Set-up: {options.get('setup', 'deal')}",
            f"Secret missions: {f'{missions} cards' if missions else 'off'}",
            f"Defender chooses dice: {on_off(options.get('defender_chooses'))}",
            f"Connected fortify: {on_off(options.get('connected_fortify'))}",
            f"Turn limit: {f'{limit} rounds' if limit else 'none'}",
        ]

    def result(self, state: RiskState, outcome: Outcome, names: Mapping[PlayerId, str]) -> str:
        who = " and ".join(mention(p, names) for p in sorted(outcome.winners))
        how = {
            WinKind.DOMINATION: "conquers the world",
            WinKind.ELIMINATION: "eliminates the opponent",
            WinKind.MISSION: "completes their secret mission",
            WinKind.TURN_LIMIT: "holds the most territories at the turn limit",
        }[state.win or WinKind.DOMINATION]
        return f"{who} {how} after {state.turn} turns"


class RiskCog(commands.GroupCog, group_name="risk"):
    """Risk: the classic game of world domination, for 2–6 players."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        bot.tables.register(RiskPresenter())  # type: ignore[attr-defined]
        super().__init__()

    @app_commands.command(name="new")
    @app_commands.describe(
        setup="Deal the territories at random (default) or claim them one by one",
        missions="Secret Mission Risk (3–6 players): 12 or 14 mission cards",
        defender_chooses="The defender picks 1 or 2 dice (otherwise rolled at the most)",
        connected_fortify="Fortify along any chain of your territories, not just next door",
        turn_limit="End after this many rounds: most territories wins (0 = play it out)",
        turn_timer=TURN_TIMER_HELP,
    )
    @app_commands.choices(
        setup=[
            app_commands.Choice(name="deal (quick)", value="deal"),
            app_commands.Choice(name="claim (classic)", value="claim"),
        ],
    )
    @app_commands.choices(
        missions=[
            app_commands.Choice(name="off (conquer the world)", value=0),
            app_commands.Choice(name="12 missions", value=12),
            app_commands.Choice(name="14 missions", value=14),
        ],
    )
    @app_commands.choices(turn_timer=TURN_TIMER_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        setup: str = "deal",
        missions: int = 0,
        defender_chooses: bool = False,
        connected_fortify: bool = False,
        turn_limit: app_commands.Range[int, 0, 200] = 0,
        turn_timer: int | None = None,
    ) -> None:
        """Open a Risk lobby in this channel (2–6 players; 2 play with a neutral army)."""
        options: dict[str, Any] = {
            "setup": setup,
            "missions": missions,
            "defender_chooses": defender_chooses,
            "connected_fortify": connected_fortify,
            "turn_limit": turn_limit,
        }
        await open_lobby(interaction, "risk", options, turn_timer)

    @app_commands.command(name="rules")
    async def rules(self, interaction: discord.Interaction) -> None:
        """How to play Risk, in short."""
        await send_rules(interaction, RiskPresenter.title, RULES_SUMMARY, RiskPresenter.colour)

    @app_commands.command(name="attack")
    @app_commands.describe(source="Your territory to attack from", target="The enemy next to it")
    @app_commands.rename(source="from", target="to")
    async def attack(self, interaction: discord.Interaction, source: str, target: str) -> None:
        """Pick an attack by name (in the game's thread); then roll or blitz on the board."""
        table = await self._my_game(interaction)
        try:
            path = attack_path(table.state, interaction.user.id, source, target)
        except IllegalAction as e:
            raise UserError(str(e)) from e
        await self.bot.tables.play_command(interaction, table.row.id, path)  # type: ignore[attr-defined]
        await interaction.followup.send(
            f"Attacking {name_of(target)} from {name_of(source)}: roll or blitz on the board.",
            ephemeral=True,
        )

    @attack.autocomplete("source")
    async def _sources(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        table = await self.bot.tables.table_in_channel(interaction.channel_id or 0)  # type: ignore[attr-defined]
        if table is None or table.row.game != "risk":
            return []
        return _choices(attack_sources(table.state, interaction.user.id), current)

    @attack.autocomplete("target")
    async def _targets(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        table = await self.bot.tables.table_in_channel(interaction.channel_id or 0)  # type: ignore[attr-defined]
        source = getattr(interaction.namespace, "from", None)
        if table is None or table.row.game != "risk" or source not in TERRITORIES:
            return []
        return _choices(attack_targets(table.state, source), current)

    async def _my_game(self, interaction: discord.Interaction) -> Any:
        table = await self.bot.tables.table_in_channel(interaction.channel_id or 0)  # type: ignore[attr-defined]
        if table is None or table.row.game != "risk":
            raise UserError("Use this in the thread of a Risk game that is being played.")
        return table


def _choices(slugs: Sequence[str], typed: str) -> list[app_commands.Choice[str]]:
    """Autocomplete: the legal territories whose name contains what was typed (25 at most)."""
    typed = typed.casefold()
    return [
        app_commands.Choice(name=name_of(s), value=s)
        for s in slugs
        if typed in name_of(s).casefold()
    ][:25]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(RiskCog(bot))
