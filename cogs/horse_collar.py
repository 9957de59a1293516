"""Horse Collar in Discord: `/horse-collar new`, `/horse-collar rules`, its wording and controls.

Players join a side in the lobby (Red, Blue, Green, Gold). The shooter sets up a shot with
three select menus — where to release, the angle, and the distance, which shoots at once — or
clicks "Same again". A shot is answered with the animated replay of the weight sliding down
the table (its last frame is the board at rest); a setting change with the still board. One
board message per side's turn keeps the thread readable: each turn's board stays behind it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import Interaction, ParlourBot
from bot.presenter import ButtonLook, Picture, Presenter
from bot.wording import agree, count, listing, mention
from cogs.options import house_rules, new_command, rules_text, send_rules
from images.horse_collar import render_png
from images.horse_collar_replay import render_replay
from rules.core import Action, Event, Outcome, PlayerId
from rules.horse_collar.actions import Verb, parse_angle, parse_line_up
from rules.horse_collar.geometry import MIL_PER_INCH, Zone, zone_of, zone_value
from rules.horse_collar.options import OPTIONS
from rules.horse_collar.shots import LANE_BY_NAME, TARGET_BY_NAME
from rules.horse_collar.state import (
    WEIGHTS_PER_TURN,
    Aim,
    AimSet,
    Colour,
    GameWon,
    HickeyPaid,
    HorseCollarState,
    TargetReached,
    TieFrame,
    TurnScored,
    TurnStarted,
    VoidReason,
    WeightShot,
    colour_of,
    weight_label,
)

GAME = "horse_collar"
SIDES = ("Red", "Blue", "Green", "Gold")
# The lobby words these values its own way: a table's length, and the Hickey stake.
LOBBY_WORDS = {
    "table": lambda feet: f"{feet} ft",
    "hickey": lambda stake: f"stake {stake}" if stake else "off",
}
RELEASE_MENU = "Where to release"
ANGLE_MENU = "Angle"
SHOOT_MENU = "Shoot: how far? (picking a distance shoots)"
CURRENT = "✓ current setting"
WEIGHT_EMOJI = {Colour.RED: "🔴", Colour.BLUE: "🔵"}

RULES_SUMMARY = """\
**Aim:** slide your side's weights down the table into the scoring end; first side to **51** \
(after the whole frame) wins.
**A turn:** each side in turn shoots all 8 weights (4 red, 4 blue) on a cleared board — \
singles one player shoots all 8, pairs 4 each, fours 2 each. Weights knock each other on.
**Values:** wholly past the trey line **3**, past the deuce line **2**, past the foul line \
**1**; overhanging the end a **hanger, 13**; overhanging the end and a side a **corner \
hanger, 26**. Touching a line counts for the lower zone. A weight whose centre leaves the \
board falls in the alley.
**A turn counts only** with a weight worth 3 or more, and with no **short** weight (touching \
or short of the foul line) left on the board — knock it off before the turn ends.
**Winning:** when a side reaches the target the frame is still finished; the last side (the \
**hammer**) wins at once if it gets there first. Sides tied for the lead play a tie frame.
**Shooting:** pick where to release (or line up with a weight to tap or knock it), a small \
angle, then a distance — that shoots. **Same again** repeats your last shot. A little \
execution noise means no two shots are quite alike."""


# --- wording helpers ---------------------------------------------------------------------------


def side_name(side: int) -> str:
    return SIDES[side] if side < len(SIDES) else f"Side {side + 1}"


def _side_with_players(
    side: int, players: Sequence[PlayerId], names: Mapping[PlayerId, str]
) -> str:
    who = " & ".join(names.get(p, "Someone") for p in players)
    return f"**{side_name(side)}** ({who})"


def lane_label(lane: str) -> str:
    """A release setting: a lane's label, or lining up with a weight ("in line with R2")."""
    return LANE_BY_NAME[lane].label if lane in LANE_BY_NAME else f"In line with {lane.upper()}"


def angle_label(angle: int) -> str:
    """Hundredths of a degree, positive toward the shooter's right."""
    if angle == 0:
        return "Straight"
    return f"{abs(angle) / 100:g}° {'right' if angle > 0 else 'left'}"


def aim_text(aim: Aim) -> str:
    return f"{lane_label(aim.lane)}, {angle_label(aim.angle).lower()}, {_target(aim.target)}"


def _target(name: str) -> str:
    label = TARGET_BY_NAME[name].label
    return label[0].lower() + label[1:]


def distance(d: int) -> str:
    """A weight centre's distance from the target end, the way a player reads it."""
    inches = d / MIL_PER_INCH
    if inches < 24:
        return f"{inches:.1f} in from the end"
    feet, rest = divmod(round(inches), 12)
    return f"{feet} ft {rest} in from the end"


ZONE_WORDS = {
    Zone.CORNER: "a **corner hanger**",
    Zone.HANGER: "a **hanger**, 13",
    Zone.THREE: "worth **3**",
    Zone.TWO: "worth **2**",
    Zone.ONE: "worth **1**",
    Zone.SHORT: "**short** of the foul line, 0",
}


def _shot_line(shot: WeightShot, names: Mapping[PlayerId, str]) -> str:
    """Who shot which weight, where it stopped and its value, what it knocked on and off."""
    rest = {w.index: (w, z) for w, z in zip(shot.after, shot.zones, strict=True)}
    weight, zone = rest[shot.index]
    if shot.index in shot.fell:
        stopped = "slid off the end into the alley" if weight.d < 0 else "fell into the alley"
    else:
        stopped = f"stopped {distance(weight.d)}, {ZONE_WORDS[zone]}"
    who = names.get(shot.player, "Someone")
    line = f"**{who}** shot {weight_label(shot.index)} ({aim_text(shot.aim)}): {stopped}"
    moved = [p.index for p in shot.paths if p.index != shot.index]
    knocked = [f"{weight_label(i)} ({ZONE_WORDS[rest[i][1]]})" for i in moved if i not in shot.fell]
    fell = [weight_label(i) for i in moved if i in shot.fell]
    if knocked:
        line += "; knocked on " + ", ".join(knocked)
    if fell:
        line += f"; knocked {' and '.join(fell)} into the alley"
    return line + "."


def _turn_line(e: TurnScored, names: Mapping[PlayerId, str]) -> str:
    result = e.result
    who = _side_with_players(result.side, e.players, names)
    if result.void is VoidReason.NO_THREE:
        return f"{who}: no 3 or better, nothing counts. Total {e.total}."
    if result.void is VoidReason.SHORT_WEIGHT:
        return f"{who}: a short weight is left on the board, the turn is void. Total {e.total}."
    counted = " + ".join(str(v) for v in sorted(result.values, reverse=True) if v)
    return f"{who} scored **{result.points}** ({counted}). Total **{e.total}**."


# --- the presenter -------------------------------------------------------------------------------


class HorseCollarPresenter(Presenter):
    game = GAME
    title = "Horse Collar"
    colour = 0x8D6E63
    stat_columns: ClassVar[Mapping[str, str]] = {
        "hangers": "Hangers",
        "corner_hangers": "Corner hangers",
        "hickeys": "Hickeys",
    }
    sides: ClassVar[Sequence[str]] = SIDES

    def render_png(self, state: HorseCollarState, names: Mapping[PlayerId, str]) -> bytes:
        return render_png(state, names)

    def picture(
        self, state: HorseCollarState, names: Mapping[PlayerId, str], events: Sequence[Event]
    ) -> Picture:
        # A shot is shown as its replay: the slide, then the board at rest on the last frame.
        shots = [e for e in events if isinstance(e, WeightShot)]
        if shots:
            return Picture(render_replay(state.rules, shots[-1]), "replay.gif")
        return Picture(render_png(state, names))

    def slow_action(self, action: Action) -> bool:
        return action.verb == Verb.SHOOT  # physics and a replay to draw

    chapter_name = "turn"

    def chapter(self, state: HorseCollarState) -> int:
        return len(state.history)  # a new board message for every side's turn

    def prompt(self, state: HorseCollarState, names: Mapping[PlayerId, str]) -> str:
        hammer = " (hammer)" if state.side == state.hammer else ""
        tie = " (tie frame)" if len(state.contenders) < len(state.sides) else ""
        text = (
            f"Frame {state.frame}{tie}, {side_name(state.side)}{hammer}: "
            f"{mention(state.shooter, names)} to shoot {weight_label(state.shot)} "
            f"({state.shot + 1} of {WEIGHTS_PER_TURN})"
        )
        if state.shot == 0 and state.turn == 0 and state.history:
            text = f"{self.frame_scores(state)} · {text}"
        return text

    @staticmethod
    def frame_scores(state: HorseCollarState) -> str:
        """The last complete frame, side by side, and the totals after it."""
        frame = state.history[-1].frame
        points = {t.side: t.points for t in state.history if t.frame == frame}
        parts = ", ".join(f"{side_name(s)} +{p}" for s, p in points.items())
        totals = ", ".join(f"{side_name(s)} {v}" for s, v in enumerate(state.scores))
        return f"Frame {frame}: {parts} → {totals}"

    def narrate(self, events: Sequence[Event], names: Mapping[PlayerId, str]) -> list[str]:
        lines: list[str] = []
        game_won = any(isinstance(e, GameWon) for e in events)
        for e in events:
            match e:
                case AimSet(player=p, aim=aim):
                    lines.append(f"{names.get(p, 'Someone')} sets up: {aim_text(aim)}.")
                case WeightShot():
                    lines.append(_shot_line(e, names))
                case TurnScored():
                    lines.append(_turn_line(e, names))
                case HickeyPaid(players=players, amount=amount, jar=jar):
                    each = amount // len(players)
                    who = " & ".join(names.get(p, "Someone") for p in players)
                    lines.append(f"🫙 Hickey: {who} put {each} each in the jar (jar {jar}).")
                case TargetReached(side=side, total=total, target=target):
                    rest = "" if game_won else " The frame is still finished."
                    lines.append(
                        f"🎯 **{side_name(side)}** reached the target of {target} with {total}!"
                        + rest
                    )
                case TieFrame(sides=tied, frame=frame, score=score):
                    who = listing([f"**{side_name(s)}**" for s in tied])
                    lines.append(f"⚖️ {who} are tied at {score}: tie frame {frame}, among them.")
                case TurnStarted(side=side, frame=frame, shooter=shooter, hammer=hammer):
                    last = " with the hammer" if hammer else ""
                    lines.append(
                        f"Frame {frame}: **{side_name(side)}**'s turn{last}, "
                        f"{names.get(shooter, 'Someone')} shoots first."
                    )
                case GameWon():
                    pass  # the result line says it
        return lines

    def button(self, action: Action, state: HorseCollarState) -> ButtonLook:
        aim = state.aims[state.seat_of(state.shooter)]
        match action.verb:
            case Verb.RELEASE:
                rail = "Hangs half a weight over the side" if "rail" in action.arg else None
                return ButtonLook(
                    LANE_BY_NAME[action.arg].label,
                    menu=RELEASE_MENU,
                    description=CURRENT if aim.lane == action.arg else rail,
                )
            case Verb.LINE_UP:
                return self._line_up(action, state, aim)
            case Verb.ANGLE:
                angle = parse_angle(action)
                return ButtonLook(
                    angle_label(angle),
                    menu=ANGLE_MENU,
                    description=CURRENT if aim.angle == angle else None,
                )
            case _ if action.arg:  # shoot:<target>
                return ButtonLook(
                    TARGET_BY_NAME[action.arg].label,
                    menu=SHOOT_MENU,
                    description=CURRENT if aim.target == action.arg else None,
                )
        return ButtonLook("Same again", style=discord.ButtonStyle.success, emoji="🔁")

    @staticmethod
    def _line_up(action: Action, state: HorseCollarState, aim: Aim) -> ButtonLook:
        """Release straight in line with a weight on the board: to tap it on or knock it off."""
        index = parse_line_up(action)
        weight = next(w for w in state.weights if w.index == index)
        zone = zone_of(weight.d, weight.y, state.rules.table, fallen=weight.fallen)
        where = f"Lies {distance(weight.d)}, worth {zone_value(zone, state.rules.corner_hanger)}"
        current = aim.lane == action.arg and aim.angle == 0
        return ButtonLook(
            f"In line with {weight_label(weight.index)}",
            emoji=WEIGHT_EMOJI[colour_of(weight.index)],
            menu=RELEASE_MENU,
            description=f"{CURRENT} · {where}" if current else where,
        )

    def describe_options(self, options: Mapping[str, Any]) -> list[str]:
        return house_rules(OPTIONS, options, LOBBY_WORDS)

    def result(
        self, state: HorseCollarState, outcome: Outcome, names: Mapping[PlayerId, str]
    ) -> str:
        def side(s: int) -> str:
            who = " & ".join(mention(p, names) for p in state.sides[s])
            return f"{side_name(s)} ({who})"

        winners = listing([side(s) for s in state.winners])
        verb = agree(len(state.winners), "wins", "share the win")
        score = state.scores[state.winners[0]]
        others = ", ".join(
            f"{side_name(s)} {v}" for s, v in enumerate(state.scores) if s not in state.winners
        )
        text = f"{winners} {verb} with {score}" + (f" ({others})" if others else "")
        text += f" after {count(state.frame, 'frame', 'frames')}"
        if state.rules.hickey:
            text += f", and the Hickey jar of {state.jar}"
        return text


# --- the cog ----------------------------------------------------------------------------------


@app_commands.guild_only()
class HorseCollarCog(commands.GroupCog, group_name="horse-collar"):
    """Horse Collar: table shuffleboard, a physics simulation of aimed shots."""

    def __init__(self, bot: ParlourBot) -> None:
        self.bot = bot
        bot.presenters.register(HorseCollarPresenter())
        super().__init__()

    new = new_command(
        GAME,
        OPTIONS,
        "Open a Horse Collar lobby in this channel: 2 to 4 sides of 1, 2 or 4 players.",
    )

    @app_commands.command(name="rules")
    async def rules(self, interaction: Interaction) -> None:
        """How to play Horse Collar, in short."""
        presenter = HorseCollarPresenter
        text = rules_text(RULES_SUMMARY, OPTIONS, "/horse-collar new")
        await send_rules(interaction, presenter.title, text, presenter.colour)


async def setup(bot: ParlourBot) -> None:
    await bot.add_cog(HorseCollarCog(bot))
