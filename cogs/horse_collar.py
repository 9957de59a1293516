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
from typing_extensions import override

from bot.language.i18n import N_, NP_, _, ngettext
from bot.language.wording import agree, count, decimal, listing, mention
from bot.table.presenter import ButtonLook, Picture, Presenter
from cogs.game_cog import GameCog, GameSpec
from cogs.options import house_rules
from images.horse_collar import render_png, weight_name
from images.horse_collar_replay import render_replay
from rules.core import Action, Event, Outcome, PlayerId
from rules.horse_collar import ENGINE
from rules.horse_collar.actions import Verb, lined_up_weight, parse_angle, parse_line_up
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
    Weight,
    WeightShot,
    colour_of,
)

SIDES = (N_("Red"), N_("Blue"), N_("Green"), N_("Gold"))
# The lobby words these values its own way: a table's length, and the Hickey stake.
LOBBY_WORDS = {
    "table": lambda feet: _("{feet} ft").format(feet=feet),
    "hickey": lambda stake: _("stake {stake}").format(stake=stake) if stake else _("off"),
}
RELEASE_MENU = N_("Where to release")
ANGLE_MENU = N_("Angle")
SHOOT_MENU = N_("Shoot: how far? (picking a distance shoots)")
CURRENT = N_("✓ current setting")
WEIGHT_EMOJI = {Colour.RED: "🔴", Colour.BLUE: "🔵"}

RULES_SUMMARY = (
    N_(
        "**Aim:** slide your side's weights down the table into the scoring end; first "
        "side to **51** (after the whole frame) wins."
    ),
    N_(
        "**A turn:** each side in turn shoots all 8 weights (4 red, 4 blue) on a cleared "
        "board — singles one player shoots all 8, pairs 4 each, fours 2 each. Weights "
        "knock each other on."
    ),
    N_(
        "**Values:** wholly past the trey line **3**, past the deuce line **2**, past the "
        "foul line **1**; overhanging the end a **hanger, 13**; overhanging the end and a "
        "side a **corner hanger, 26**. Touching a line counts for the lower zone. A weight "
        "whose centre leaves the board falls in the alley."
    ),
    N_(
        "**A turn counts only** with a weight worth 3 or more, and with no **short** "
        "weight (touching or short of the foul line) left on the board — knock it off "
        "before the turn ends."
    ),
    N_(
        "**Winning:** when a side reaches the target the frame is still finished; the last "
        "side (the **hammer**) wins at once if it gets there first. Sides tied for the "
        "lead play a tie frame."
    ),
    N_(
        "**Shooting:** pick where to release (or line up with a weight to tap or knock "
        "it), a small angle, then a distance — that shoots. **Same again** repeats your "
        "last shot. A little execution noise means no two shots are quite alike."
    ),
)


# --- wording helpers ---------------------------------------------------------------------------


def side_name(side: int) -> str:
    """A side's colour name ("Red"), or its number past the four colours."""
    return _(SIDES[side]) if side < len(SIDES) else _("Side {number}").format(number=side + 1)


def _side_with_players(
    side: int, players: Sequence[PlayerId], names: Mapping[PlayerId, str]
) -> str:
    who = listing([names.get(p, _("Someone")) for p in players])
    return f"**{side_name(side)}** ({who})"


def lane_label(lane: str) -> str:
    """A release setting: a lane's label, or lining up with a weight ("in line with R2")."""
    if lane in LANE_BY_NAME:
        return _(LANE_BY_NAME[lane].label)
    return _("In line with {weight}").format(weight=weight_name(lined_up_weight(lane)))


def angle_label(angle: int) -> str:
    """Hundredths of a degree, positive toward the shooter's right."""
    if angle == 0:
        return _("Straight")
    line = _("{degrees}° right") if angle > 0 else _("{degrees}° left")
    return line.format(degrees=decimal(abs(angle) / 100))


def aim_text(aim: Aim) -> str:
    """A shot's three settings in one line: release, angle, distance."""
    return f"{lane_label(aim.lane)}, {angle_label(aim.angle).lower()}, {_target(aim.target)}"


def _target(name: str) -> str:
    label = _(TARGET_BY_NAME[name].label)
    return label[0].lower() + label[1:]


def distance(d: int) -> str:
    """A weight centre's distance from the target end, the way a player reads it."""
    inches = d / MIL_PER_INCH
    if inches < 24:
        return _("{inches} in from the end").format(inches=decimal(inches, "0.0"))
    feet, rest = divmod(round(inches), 12)
    return _("{feet} ft {inches} in from the end").format(feet=feet, inches=rest)


ZONE_WORDS = {
    Zone.CORNER: N_("a **corner hanger**"),
    Zone.HANGER: N_("a **hanger**, 13"),
    Zone.THREE: N_("worth **3**"),
    Zone.TWO: N_("worth **2**"),
    Zone.ONE: N_("worth **1**"),
    Zone.SHORT: N_("**short** of the foul line, 0"),
}


def _shot_line(shot: WeightShot, names: Mapping[PlayerId, str]) -> str:
    """Who shot which weight, where it stopped and its value, what it knocked on and off."""
    rest = {w.index: (w, z) for w, z in zip(shot.after, shot.zones, strict=True)}
    weight, zone = rest[shot.index]
    if shot.index in shot.fell:
        stopped = _("slid off the end into the alley") if weight.d < 0 else _("fell into the alley")
    else:
        stopped = _("stopped {distance}, {zone}").format(
            distance=distance(weight.d), zone=_(ZONE_WORDS[zone])
        )
    who = names.get(shot.player, _("Someone"))
    line = _("**{player}** shot {weight} ({aim}): {stopped}").format(
        player=who, weight=weight_name(shot.index), aim=aim_text(shot.aim), stopped=stopped
    )
    moved = [p.index for p in shot.paths if p.index != shot.index]
    knocked = [
        f"{weight_name(i)} ({_(ZONE_WORDS[rest[i][1]])})" for i in moved if i not in shot.fell
    ]
    fell = [weight_name(i) for i in moved if i in shot.fell]
    if knocked:
        line += _("; knocked on {weights}").format(weights=", ".join(knocked))
    if fell:
        line += _("; knocked {weights} into the alley").format(weights=listing(fell))
    return line + "."


def _turn_line(e: TurnScored, names: Mapping[PlayerId, str]) -> str:
    result = e.result
    who = _side_with_players(result.side, e.players, names)
    if result.void is VoidReason.NO_THREE:
        line = _("{side}: no 3 or better, nothing counts. Total {total}.")
        return line.format(side=who, total=e.total)
    if result.void is VoidReason.SHORT_WEIGHT:
        line = _("{side}: a short weight is left on the board, the turn is void. Total {total}.")
        return line.format(side=who, total=e.total)
    counted = " + ".join(str(v) for v in sorted(result.values, reverse=True) if v)
    line = _("{side} scored **{points}** ({counted}). Total **{total}**.")
    return line.format(side=who, points=result.points, counted=counted, total=e.total)


# --- the presenter -------------------------------------------------------------------------------


class HorseCollarPresenter(Presenter[HorseCollarState]):
    """Horse Collar's wording, board and controls: sides, three select menus to set up a
    shot, and a shot answered with its replay."""

    engine = ENGINE
    colour = 0x8D6E63
    stat_columns: ClassVar[Mapping[str, str]] = {
        "hangers": N_("Hangers"),
        "corner_hangers": N_("Corner hangers"),
        "hickeys": N_("Hickeys"),
    }
    sides: ClassVar[Sequence[str]] = SIDES

    @override
    def render_png(self, state: HorseCollarState, names: Mapping[PlayerId, str]) -> bytes:
        return render_png(state, names)

    pictures_events = True

    @override
    def picture(
        self, state: HorseCollarState, names: Mapping[PlayerId, str], events: Sequence[Event]
    ) -> Picture:
        # A shot is shown as its replay: the slide, then the board at rest on the last frame.
        shots = [e for e in events if isinstance(e, WeightShot)]
        if shots:
            return Picture(render_replay(state.rules, shots[-1]), "replay.gif")
        return Picture(render_png(state, names))

    @override
    def slow_action(self, action: Action) -> bool:
        return action.verb == Verb.SHOOT  # physics and a replay to draw

    chapter_name = NP_("chapter", "turn")

    @override
    def chapter(self, state: HorseCollarState) -> int:
        return len(state.history)  # a new board message for every side's turn

    @override
    def prompt(self, state: HorseCollarState, names: Mapping[PlayerId, str]) -> str:
        hammer = _(" (hammer)") if state.side == state.hammer else ""
        tie = _(" (tie frame)") if len(state.contenders) < len(state.sides) else ""
        line = _(
            "Frame {frame}{tie}, {side}{hammer}: {player} to shoot {weight} ({shot} of {shots})"
        )
        text = line.format(
            frame=state.frame,
            tie=tie,
            side=side_name(state.side),
            hammer=hammer,
            player=mention(state.shooter, names),
            weight=weight_name(state.shot),
            shot=state.shot + 1,
            shots=WEIGHTS_PER_TURN,
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
        return _("Frame {frame}: {points} → {totals}").format(
            frame=frame, points=parts, totals=totals
        )

    @override
    def standings(self, state: HorseCollarState, names: Mapping[PlayerId, str]) -> list[str]:
        """The sides' scores against the target, and what this turn's weights are worth."""
        scores = ", ".join(f"{side_name(s)} {v}" for s, v in enumerate(state.scores))
        line = _("Frame {frame}. Scores: {scores} (target {target})")
        lines = [line.format(frame=state.frame, scores=scores, target=state.rules.target)]
        if state.weights:
            values = [self._value(state, w) for w in state.weights if not w.fallen]
            fell = sum(w.fallen for w in state.weights)
            line = ngettext(  # one weight is on the board after a frame's first shot
                "On the board: {weights} weight worth {values}; {fallen} in the alley",
                "On the board: {weights} weights worth {values}; {fallen} in the alley",
                len(values),
            )
            shown = " + ".join(str(v) for v in sorted(values, reverse=True)) or "0"
            lines.append(line.format(weights=len(values), values=shown, fallen=fell))
        return lines

    @override
    def text_board(
        self, state: HorseCollarState, names: Mapping[PlayerId, str], viewer: PlayerId | None = None
    ) -> list[str]:
        """Scores, then every weight shot this turn: where it lies and what it is worth."""
        lines = self.standings(state, names)
        for w in state.weights:
            if w.fallen:
                where = _("in the alley")
            else:
                where = _("{distance}, worth {value}").format(
                    distance=distance(w.d), value=self._value(state, w)
                )
            lines.append(f"{weight_name(w.index)}: {where}")
        return lines

    @staticmethod
    def _value(state: HorseCollarState, weight: Weight) -> int:
        zone = zone_of(weight.d, weight.y, state.rules.table, fallen=weight.fallen)
        return zone_value(zone, state.rules.corner_hanger)

    @override
    def summary(
        self, state: HorseCollarState, events: Sequence[Event], names: Mapping[PlayerId, str]
    ) -> str:
        """Several shots in one sentence: who shot how many weights, and how many of them
        fell into the alley."""
        shots = [e for e in events if isinstance(e, WeightShot)]
        if len(shots) < 2:
            return ""
        shooters = dict.fromkeys(e.player for e in shots)
        parts = []
        for p in shooters:
            n = sum(e.player == p for e in shots)
            line = ngettext("{player} shot {n} weight", "{player} shot {n} weights", n)
            parts.append(line.format(player=names.get(p, _("Someone")), n=n))
        fell = sum(e.index in e.fell for e in shots)
        if fell:
            line = ngettext("{n} fell into the alley", "{n} fell into the alley", fell)
            parts.append(line.format(n=fell))
        return listing(parts)

    @override
    def narrate(self, events: Sequence[Event], names: Mapping[PlayerId, str]) -> list[str]:
        lines: list[str] = []
        game_won = any(isinstance(e, GameWon) for e in events)
        for e in events:
            match e:
                case AimSet(player=p, aim=aim):
                    line = _("{player} sets up: {aim}.")
                    lines.append(line.format(player=names.get(p, _("Someone")), aim=aim_text(aim)))
                case WeightShot():
                    lines.append(_shot_line(e, names))
                case TurnScored():
                    lines.append(_turn_line(e, names))
                case HickeyPaid(players=players, amount=amount, jar=jar):
                    each = amount // len(players)
                    who = listing([names.get(p, _("Someone")) for p in players])
                    line = ngettext(
                        "🫙 Hickey: {players} puts {each} in the jar (jar {jar}).",
                        "🫙 Hickey: {players} put {each} each in the jar (jar {jar}).",
                        len(players),
                    )
                    lines.append(line.format(players=who, each=each, jar=jar))
                case TargetReached(side=side, total=total, target=target):
                    rest = "" if game_won else _(" The frame is still finished.")
                    line = _("🎯 **{side}** reached the target of {target} with {total}!")
                    lines.append(
                        line.format(side=side_name(side), target=target, total=total) + rest
                    )
                case TieFrame(sides=tied, frame=frame, score=score):
                    who = listing([f"**{side_name(s)}**" for s in tied])
                    line = _("⚖️ {sides} are tied at {score}: tie frame {frame}, among them.")
                    lines.append(line.format(sides=who, score=score, frame=frame))
                case TurnStarted(side=side, frame=frame, shooter=shooter, hammer=hammer):
                    line = (
                        _(
                            "Frame {frame}: **{side}**'s turn with the hammer, "
                            "{player} shoots first."
                        )
                        if hammer
                        else _("Frame {frame}: **{side}**'s turn, {player} shoots first.")
                    )
                    lines.append(
                        line.format(
                            frame=frame,
                            side=side_name(side),
                            player=names.get(shooter, _("Someone")),
                        )
                    )
                case GameWon():
                    pass  # the result line says it
        return lines

    @override
    def button(self, action: Action, state: HorseCollarState) -> ButtonLook:
        aim = state.aims[state.seat_of(state.shooter)]
        match action.verb:
            case Verb.RELEASE:
                rail = _("Hangs half a weight over the side") if "rail" in action.arg else None
                return ButtonLook(
                    _(LANE_BY_NAME[action.arg].label),
                    menu=_(RELEASE_MENU),
                    description=_(CURRENT) if aim.lane == action.arg else rail,
                )
            case Verb.LINE_UP:
                return self._line_up(action, state, aim)
            case Verb.ANGLE:
                angle = parse_angle(action)
                return ButtonLook(
                    angle_label(angle),
                    menu=_(ANGLE_MENU),
                    description=_(CURRENT) if aim.angle == angle else None,
                )
            case _ if action.arg:  # shoot:<target>
                return ButtonLook(
                    _(TARGET_BY_NAME[action.arg].label),
                    menu=_(SHOOT_MENU),
                    description=_(CURRENT) if aim.target == action.arg else None,
                )
        return ButtonLook(_("Same again"), style=discord.ButtonStyle.success, emoji="🔁")

    @staticmethod
    def _line_up(action: Action, state: HorseCollarState, aim: Aim) -> ButtonLook:
        """Release straight in line with a weight on the board: to tap it on or knock it off."""
        index = parse_line_up(action)
        weight = next(w for w in state.weights if w.index == index)
        zone = zone_of(weight.d, weight.y, state.rules.table, fallen=weight.fallen)
        where = _("Lies {distance}, worth {value}").format(
            distance=distance(weight.d), value=zone_value(zone, state.rules.corner_hanger)
        )
        current = aim.lane == action.arg and aim.angle == 0
        return ButtonLook(
            _("In line with {weight}").format(weight=weight_name(weight.index)),
            emoji=WEIGHT_EMOJI[colour_of(weight.index)],
            menu=_(RELEASE_MENU),
            description=f"{_(CURRENT)} · {where}" if current else where,
        )

    @override
    def describe_options(self, options: Mapping[str, Any]) -> list[str]:
        return house_rules(OPTIONS, options, LOBBY_WORDS)

    @override
    def result(
        self, state: HorseCollarState, outcome: Outcome, names: Mapping[PlayerId, str]
    ) -> str:
        def side(s: int) -> str:
            return f"{side_name(s)} ({listing([mention(p, names) for p in state.sides[s]])})"

        winners = listing([side(s) for s in state.winners])
        line = agree(
            len(state.winners),
            "{winners} wins with {score}{others} after {frames}",
            "{winners} share the win with {score}{others} after {frames}",
        )
        others = ", ".join(
            f"{side_name(s)} {v}" for s, v in enumerate(state.scores) if s not in state.winners
        )
        text = line.format(
            winners=winners,
            score=state.scores[state.winners[0]],
            others=f" ({others})" if others else "",
            frames=count(state.frame, "frame", "frames"),
        )
        if state.rules.hickey:
            text += _(", and the Hickey jar of {tokens}").format(tokens=state.jar)
        return text


# --- the cog ----------------------------------------------------------------------------------


class HorseCollarCog(GameCog, group_name="horse-collar"):
    """Horse Collar: table shuffleboard, a physics simulation of aimed shots."""

    presenter = HorseCollarPresenter
    lobby = "Open a Horse Collar lobby in this channel: 2 to 4 sides of 1, 2 or 4 players."
    summary = RULES_SUMMARY


SPEC = GameSpec(ENGINE, HorseCollarPresenter, HorseCollarCog)
