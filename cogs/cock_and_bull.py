"""Cock & Bull in Discord: `/cock-and-bull new`, `/cock-and-bull rules`, and its wording."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import Interaction, ParlourBot
from bot.presenter import ButtonLook, Presenter
from bot.wording import agree, count, mention
from cogs.options import house_rules, new_command, rules_text, send_rules
from images.cock_and_bull import render_png
from rules.cock_and_bull.actions import (
    DECLINE,
    FLIP,
    PLACE,
    POINT,
    REMOVE,
    ROLL,
    TAKE,
    Verb,
    parse_colour,
)
from rules.cock_and_bull.options import OPTIONS
from rules.cock_and_bull.state import (
    ChipPlaced,
    ChipRemoved,
    CockAndBullState,
    Colour,
    ColourChosen,
    DiceRolled,
    Face,
    FirstTurnWon,
    GameWon,
    MantleScored,
    MatchWon,
    NextGameStarted,
    Phase,
    PointsDeclined,
    StartDieRolled,
    StartRollTied,
    TurnLost,
    WinKind,
    group_of,
)
from rules.core import Action, Event, Outcome, PlayerId

GAME = "cock_and_bull"
FACE_ICON = {Face.COCK: "🐓", Face.BULL: "🐂", Face.MONKEY: "🐒"}
GROUP_NAME = {"bend": "the Bend", "field": "the Field", "crown": "the Crown"}

RULES_SUMMARY = """\
**Aim:** cover all six spots of the Arms with your colour (**Chip-In**) or peg your way \
to hole 36 on your Mantle (**Peg-Out**).
**Start:** both roll one die; Monkey beats Bull beats Cock (equal: roll again). The winner \
picks red or black and rolls first.
**Your turn:** roll both dice and keep rolling until you lose the turn.
• 🐓🐓 put a chip on the **Bend** (3 spots), or flip one of your opponent's there. All 3 \
yours already: **+2**.
• 🐂🐂 the same on the **Field** (2 spots); both yours: **+3**.
• 🐒🐒 the same on the **Crown**; yours: **+6**.
• 🐓🐂 remove an opponent's chip (Bend first, then Field, Crown last) **or +1**.
• 🐓🐒 or 🐂🐒: you lose the turn.
**Scoring:** Chip-In = 18 + your Mantle (**54**, a *Flying Monkey*, if your peg was never \
placed); the loser scores their Mantle. Peg-Out: both score Mantle + own chips \
(Crown 6, Bull 3, Cock 2). Losing with 0 is a *Le Pew*."""


def _name(player: PlayerId, names: Mapping[PlayerId, str]) -> str:
    return f"**{names.get(player, 'Someone')}**"


def _dice(dice: Sequence[Face]) -> str:
    return " + ".join(f"{FACE_ICON[f]} {f.value.title()}" for f in dice)


class CockAndBullPresenter(Presenter):
    game = GAME
    title = "Cock & Bull"
    colour = 0xB8322F
    stat_columns: ClassVar[dict[str, str]] = {
        "flying_monkeys": "Flying Monkeys",
        "le_pews": "Le Pews",
    }

    def render_png(self, state: CockAndBullState, names: Mapping[PlayerId, str]) -> bytes:
        return render_png(state, names)

    def prompt(self, state: CockAndBullState, names: Mapping[PlayerId, str]) -> str:
        if state.phase is Phase.START_ROLL:
            waiting = [
                names[p] for p, r in zip(state.players, state.start_rolls, strict=True) if r is None
            ]
            return f"{' and '.join(waiting)}: roll one die for the first turn"
        who = names[state.players[state.current]]
        return {
            Phase.CHOOSE_COLOUR: f"{who}: choose your colour",
            Phase.ROLL: f"{who} to roll",
            Phase.PLACE_OR_FLIP: f"{who}: place a new chip or flip one on "
            f"{GROUP_NAME[(state.pending_group or group_of(0)).value]}?",
            Phase.REMOVE_OR_POINT: f"{who}: remove an opponent's chip, or take 1 point?",
            Phase.TAKE_OR_DECLINE: f"{who}: take {state.pending_points} Mantle "
            f"{agree(state.pending_points, 'point', 'points')}, or decline?",
            Phase.OVER: "The match is over",
        }[state.phase]

    def narrate(self, events: Sequence[Event], names: Mapping[PlayerId, str]) -> list[str]:
        lines: list[str] = []
        for e in events:
            match e:
                case StartDieRolled(player=p, face=f):
                    lines.append(f"{_name(p, names)} rolled {FACE_ICON[f]} {f.value.title()}.")
                case StartRollTied():
                    lines.append("Equal faces: both roll again.")
                case FirstTurnWon(player=p):
                    lines.append(f"{_name(p, names)} wins the first turn.")
                case ColourChosen(player=p, colour=c):
                    lines.append(f"{_name(p, names)} plays **{c.value}**.")
                case DiceRolled(player=p, dice=d):
                    lines.append(f"{_name(p, names)} rolled {_dice(d)}.")
                case ChipPlaced(player=p, spot=s, flipped=flipped):
                    verb = "flipped a chip on" if flipped else "placed a chip on"
                    lines.append(f"{_name(p, names)} {verb} {GROUP_NAME[group_of(s).value]}.")
                case ChipRemoved(player=p, spot=s):
                    lines.append(
                        f"{_name(p, names)} removed a chip from {GROUP_NAME[group_of(s).value]}."
                    )
                case MantleScored(player=p, points=n, total=t):
                    lines.append(f"{_name(p, names)} pegs +{n} → {t}/36.")
                case PointsDeclined(player=p, points=n):
                    lines.append(f"{_name(p, names)} declined {count(n, 'point', 'points')}.")
                case TurnLost(player=p, next_player=q):
                    lines.append(f"{_name(p, names)} loses the turn; dice to {_name(q, names)}.")
                case GameWon(winner=w, result=r):
                    how = "chips in" if r.kind is WinKind.CHIP_IN else "pegs out"
                    extra = " — a **Flying Monkey**!" if r.flying_monkey else ""
                    extra += " The loser scores 0: a **Le Pew**." if r.le_pew else ""
                    lines.append(
                        f"🏆 {_name(w, names)} {how} and wins game {r.game_no} "
                        f"({max(r.scores)}–{min(r.scores)}){extra}"
                    )
                case NextGameStarted(game_no=n):
                    lines.append(f"Game {n} begins: roll for the first turn.")
                case MatchWon():
                    pass  # the result line says it
        return lines

    def button(self, action: Action, state: CockAndBullState) -> ButtonLook:
        if action.verb == Verb.COLOUR:
            red = parse_colour(action) is Colour.RED
            style = discord.ButtonStyle.danger if red else discord.ButtonStyle.secondary
            return ButtonLook(f"Play {action.arg}", style, "🔴" if red else "⚫")
        if action == ROLL:
            single = state.phase is Phase.START_ROLL
            return ButtonLook("Roll one die" if single else "Roll", emoji="🎲")
        points = state.pending_points
        return {
            PLACE: ButtonLook("Place a new chip", emoji="➕"),
            FLIP: ButtonLook("Flip their chip", emoji="🔄"),
            REMOVE: ButtonLook("Remove their chip", discord.ButtonStyle.danger, "✂️"),
            POINT: ButtonLook("Take 1 point", discord.ButtonStyle.success, "📍"),
            TAKE: ButtonLook(f"Take {points}", discord.ButtonStyle.success, "📍"),
            DECLINE: ButtonLook("Decline", discord.ButtonStyle.secondary),
        }[action]

    def describe_options(self, options: Mapping[str, Any]) -> list[str]:
        return house_rules(OPTIONS, options)

    def result(
        self, state: CockAndBullState, outcome: Outcome, names: Mapping[PlayerId, str]
    ) -> str:
        (winner,) = outcome.winners
        loser = next(p for p in state.players if p != winner)
        score = f"{outcome.scores[winner]}–{outcome.scores[loser]}"
        if state.seating.resigned:
            return f"{mention(winner, names)} wins: {mention(loser, names)} resigned ({score})"
        if len(state.results) > 1:
            w, lo = (state.wins[state.seat_of(p)] for p in (winner, loser))
            return f"{mention(winner, names)} wins the match {w}–{lo} ({score} points)"
        last = state.results[-1]
        how = "by Chip-In" if last.kind is WinKind.CHIP_IN else "by Peg-Out"
        return f"{mention(winner, names)} wins {how}, {score}"


@app_commands.guild_only()
class CockAndBullCog(commands.GroupCog, group_name="cock-and-bull"):
    """Cock & Bull: the two-player dice duel of Cocks, Bulls and Monkeys."""

    def __init__(self, bot: ParlourBot) -> None:
        self.bot = bot
        bot.presenters.register(CockAndBullPresenter())
        super().__init__()

    new = new_command(GAME, OPTIONS, "Open a Cock & Bull lobby in this channel.")

    @app_commands.command(name="rules")
    async def rules(self, interaction: Interaction) -> None:
        """How to play Cock & Bull, in short."""
        presenter = CockAndBullPresenter
        text = rules_text(RULES_SUMMARY, OPTIONS, "/cock-and-bull new")
        await send_rules(interaction, presenter.title, text, presenter.colour)


async def setup(bot: ParlourBot) -> None:
    await bot.add_cog(CockAndBullCog(bot))
