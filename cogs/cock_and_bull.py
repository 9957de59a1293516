"""Cock & Bull in Discord: `/cock-and-bull new`, `/cock-and-bull rules`, and its wording."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import discord
from typing_extensions import override

from bot.language.i18n import N_, _, ngettext
from bot.language.wording import agree, bold_name, count, listing, mention
from bot.table.presenter import ButtonLook, Presenter
from cogs.game_cog import GameCog, GameSpec
from cogs.options import house_rules
from images.cock_and_bull import render_png
from rules.cock_and_bull import ENGINE
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
    EMPTY,
    ChipPlaced,
    ChipRemoved,
    CockAndBullState,
    Colour,
    ColourChosen,
    DiceRolled,
    Face,
    FirstTurnWon,
    GameWon,
    Group,
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

FACE_ICON = {Face.COCK: "🐓", Face.BULL: "🐂", Face.MONKEY: "🐒"}
GROUP_NAME = {"bend": N_("the Bend"), "field": N_("the Field"), "crown": N_("the Crown")}
FACE_NAME = {Face.COCK: N_("Cock"), Face.BULL: N_("Bull"), Face.MONKEY: N_("Monkey")}
COLOUR_NAME = {Colour.RED: N_("red"), Colour.BLACK: N_("black")}

RULES_SUMMARY = (
    N_(
        "**Aim:** cover all six spots of the Arms with your colour (**Chip-In**) or peg "
        "your way to hole 36 on your Mantle (**Peg-Out**)."
    ),
    N_(
        "**Start:** both roll one die; Monkey beats Bull beats Cock (equal: roll again). "
        "The winner picks red or black and rolls first."
    ),
    N_("**Your turn:** roll both dice and keep rolling until you lose the turn."),
    N_(
        "• 🐓🐓 put a chip on the **Bend** (3 spots), or flip one of your opponent's there. "
        "All 3 yours already: **+2**."
    ),
    N_("• 🐂🐂 the same on the **Field** (2 spots); both yours: **+3**."),
    N_("• 🐒🐒 the same on the **Crown**; yours: **+6**."),
    N_("• 🐓🐂 remove an opponent's chip (Bend first, then Field, Crown last) **or +1**."),
    N_("• 🐓🐒 or 🐂🐒: you lose the turn."),
    N_(
        "**Scoring:** Chip-In = 18 + your Mantle (**54**, a *Flying Monkey*, if your peg "
        "was never placed); the loser scores their Mantle. Peg-Out: both score Mantle + "
        "own chips (Crown 6, Bull 3, Cock 2). Losing with 0 is a *Le Pew*."
    ),
)


def _dice(dice: Sequence[Face]) -> str:
    return " + ".join(_face(f) for f in dice)


def _face(face: Face) -> str:
    return f"{FACE_ICON[face]} {_(FACE_NAME[face])}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _group(spot: int | None) -> str:
    return _(GROUP_NAME[group_of(spot or 0).value])


def _run(
    state: CockAndBullState,
    events: Sequence[Event],
    player: PlayerId,
    names: Mapping[PlayerId, str],
) -> str:
    """What `player`'s rolls among `events` did, in one clause, and the groups now theirs."""
    mine = [e for e in events if getattr(e, "player", None) == player]
    rolls = sum(isinstance(e, DiceRolled) for e in mine)
    placed = sum(isinstance(e, ChipPlaced) and not e.flipped for e in mine)
    flipped = sum(isinstance(e, ChipPlaced) and e.flipped for e in mine)
    removed = sum(isinstance(e, ChipRemoved) for e in mine)
    pegged = sum(e.points for e in mine if isinstance(e, MantleScored))
    did = [
        text.format(n=n)
        for n, text in (
            (placed, ngettext("placed {n} chip", "placed {n} chips", placed)),
            (flipped, ngettext("flipped {n} chip", "flipped {n} chips", flipped)),
            (removed, ngettext("removed {n} chip", "removed {n} chips", removed)),
            (pegged, ngettext("pegged {n} point", "pegged {n} points", pegged)),
        )
        if n
    ]
    who = names.get(player, _("Someone"))
    times = ngettext("{n} time", "{n} times", rolls).format(n=rolls)
    line = _("{player} rolled {times}, {did}") if did else _("{player} rolled {times}")
    text = line.format(player=who, times=times, did=listing(did))
    if player in state.players:
        seat = state.seat_of(player)
        held = [
            _(GROUP_NAME[g.value])
            for g in (Group.BEND, Group.FIELD, Group.CROWN)
            if all(state.spots[i] == seat for i in g.spots)
        ]
        if held:
            text += "; " + _("{player} holds {groups}").format(player=who, groups=listing(held))
    return text


class CockAndBullPresenter(Presenter[CockAndBullState]):
    """Cock & Bull's wording and board: a game of public information played with buttons,
    the kind `Presenter`'s defaults are made for."""

    engine = ENGINE
    colour = 0xB8322F
    stat_columns: ClassVar[dict[str, str]] = {
        "flying_monkeys": N_("Flying Monkeys"),
        "le_pews": N_("Le Pews"),
    }

    @override
    def render_png(self, state: CockAndBullState, names: Mapping[PlayerId, str]) -> bytes:
        return render_png(state, names)

    @override
    def prompt(self, state: CockAndBullState, names: Mapping[PlayerId, str]) -> str:
        if state.phase is Phase.START_ROLL:
            waiting = [
                names[p] for p, r in zip(state.players, state.start_rolls, strict=True) if r is None
            ]
            line = _("{players}: roll one die for the first turn")
            return line.format(players=listing(waiting))
        who = names[state.players[state.current]]
        group = _(GROUP_NAME[(state.pending_group or group_of(0)).value])
        points = state.pending_points
        return {
            Phase.CHOOSE_COLOUR: _("{player}: choose your colour"),
            Phase.ROLL: _("{player} to roll"),
            Phase.PLACE_OR_FLIP: _("{player}: place a new chip or flip one on {group}?"),
            Phase.REMOVE_OR_POINT: _("{player}: remove an opponent's chip, or take 1 point?"),
            Phase.TAKE_OR_DECLINE: _("{player}: take {points} Mantle {noun}, or decline?"),
            Phase.OVER: _("The match is over"),
        }[state.phase].format(
            player=who, group=group, points=points, noun=agree(points, "point", "points")
        )

    @override
    def standings(self, state: CockAndBullState, names: Mapping[PlayerId, str]) -> list[str]:
        """Each player's colour, Mantle and chips on the Arms (and games won in a match),
        then the last roll: what the picture shows."""
        lines = []
        for seat, player in enumerate(state.players):
            colour = state.colour_of(seat)
            who = names.get(player, _("Someone"))
            if colour is not None:
                who += f" ({_(COLOUR_NAME[colour])})"
            chips = count(len(state.chips_of(seat)), "chip", "chips")
            line = _("{player}: Mantle {mantle} of 36, {chips} on the Arms")
            text = line.format(player=who, mantle=state.mantle[seat], chips=chips)
            if len(state.results) or state.rules.best_of > 1 or state.rules.point_limit:
                won = count(state.wins[seat], "game", "games")
                text += _(", {games} won").format(games=won)
            lines.append(text)
        if state.last_roll is not None:
            lines.append(_("Last roll: {dice}").format(dice=_dice(state.last_roll)))
        return lines

    @override
    def text_board(
        self, state: CockAndBullState, names: Mapping[PlayerId, str], viewer: PlayerId | None = None
    ) -> list[str]:
        """Both players' standing, then the Arms spot by spot, group by group."""
        lines = self.standings(state, names)
        for group in (Group.BEND, Group.FIELD, Group.CROWN):
            spots = [
                names.get(state.players[state.spots[i]], _("Someone"))
                if state.spots[i] != EMPTY
                else _("empty")
                for i in group.spots
            ]
            line = _("{group} ({points} points a chip): {spots}")
            lines.append(
                _capital(
                    line.format(
                        group=_(GROUP_NAME[group.value]),
                        points=group.points,
                        spots=", ".join(spots),
                    )
                )
            )
        return lines

    @override
    def summary(
        self, state: CockAndBullState, events: Sequence[Event], names: Mapping[PlayerId, str]
    ) -> str:
        """Each roller's run: "Leo rolled 4 times and placed 3 chips; Leo holds the Bend"."""
        rollers = [e.player for e in events if isinstance(e, DiceRolled)]
        if len(rollers) < 2:
            return ""
        # A player's single roll before the others' run is told by its own line.
        runs = [p for p in dict.fromkeys(rollers) if rollers.count(p) > 1] or rollers[:1]
        return "; ".join(_run(state, events, p, names) for p in runs)

    @override
    def narrate(self, events: Sequence[Event], names: Mapping[PlayerId, str]) -> list[str]:
        lines: list[str] = []
        for e in events:
            match e:
                case StartDieRolled(player=p, face=f):
                    line = _("{player} rolled {face}.")
                    lines.append(line.format(player=bold_name(p, names), face=_face(f)))
                case StartRollTied():
                    lines.append(_("Equal faces: both roll again."))
                case FirstTurnWon(player=p):
                    lines.append(
                        _("{player} wins the first turn.").format(player=bold_name(p, names))
                    )
                case ColourChosen(player=p, colour=c):
                    line = _("{player} plays **{colour}**.")
                    lines.append(line.format(player=bold_name(p, names), colour=_(COLOUR_NAME[c])))
                case DiceRolled(player=p, dice=d):
                    line = _("{player} rolled {dice}.")
                    lines.append(line.format(player=bold_name(p, names), dice=_dice(d)))
                case ChipPlaced(player=p, spot=s, flipped=flipped):
                    line = (
                        _("{player} flipped a chip on {group}.")
                        if flipped
                        else _("{player} placed a chip on {group}.")
                    )
                    lines.append(line.format(player=bold_name(p, names), group=_group(s)))
                case ChipRemoved(player=p, spot=s):
                    line = _("{player} removed a chip from {group}.")
                    lines.append(line.format(player=bold_name(p, names), group=_group(s)))
                case MantleScored(player=p, points=n, total=t):
                    line = _("{player} pegs +{points} → {total}/36.")
                    lines.append(line.format(player=bold_name(p, names), points=n, total=t))
                case PointsDeclined(player=p, points=n):
                    line = _("{player} declined {points}.")
                    points = count(n, "point", "points")
                    lines.append(line.format(player=bold_name(p, names), points=points))
                case TurnLost(player=p, next_player=q):
                    line = _("{player} loses the turn; dice to {next}.")
                    lines.append(line.format(player=bold_name(p, names), next=bold_name(q, names)))
                case GameWon(winner=w, result=r):
                    line = (
                        _("🏆 {player} chips in and wins game {game} ({score})")
                        if r.kind is WinKind.CHIP_IN
                        else _("🏆 {player} pegs out and wins game {game} ({score})")
                    )
                    # The line's own sentence ends before the Le Pew's: "!" or ".".
                    extra = _(" — a **Flying Monkey**!") if r.flying_monkey else "."
                    extra += _(" The loser scores 0: a **Le Pew**.") if r.le_pew else ""
                    score = f"{max(r.scores)}–{min(r.scores)}"
                    lines.append(
                        line.format(player=bold_name(w, names), game=r.game_no, score=score) + extra
                    )
                case NextGameStarted(game_no=n):
                    lines.append(_("Game {game} begins: roll for the first turn.").format(game=n))
                case MatchWon():
                    pass  # the result line says it
        return lines

    @override
    def button(self, action: Action, state: CockAndBullState) -> ButtonLook:
        if action.verb == Verb.COLOUR:
            red = parse_colour(action) is Colour.RED
            style = discord.ButtonStyle.danger if red else discord.ButtonStyle.secondary
            colour = _(COLOUR_NAME[parse_colour(action)])
            return ButtonLook(
                _("Play {colour}").format(colour=colour), style, "🔴" if red else "⚫"
            )
        if action == ROLL:
            single = state.phase is Phase.START_ROLL
            return ButtonLook(_("Roll one die") if single else _("Roll"), emoji="🎲")
        take = _("Take {points}").format(points=state.pending_points)
        return {
            PLACE: ButtonLook(_("Place a new chip"), emoji="➕"),
            FLIP: ButtonLook(_("Flip their chip"), emoji="🔄"),
            REMOVE: ButtonLook(_("Remove their chip"), discord.ButtonStyle.danger, "✂️"),
            POINT: ButtonLook(_("Take 1 point"), discord.ButtonStyle.success, "📍"),
            TAKE: ButtonLook(take, discord.ButtonStyle.success, "📍"),
            DECLINE: ButtonLook(_("Decline"), discord.ButtonStyle.secondary),
        }[action]

    @override
    def describe_options(self, options: Mapping[str, Any]) -> list[str]:
        return house_rules(OPTIONS, options)

    @override
    def result(
        self, state: CockAndBullState, outcome: Outcome, names: Mapping[PlayerId, str]
    ) -> str:
        (winner,) = outcome.winners
        loser = next(p for p in state.players if p != winner)
        score = f"{outcome.scores[winner]}–{outcome.scores[loser]}"
        who = mention(winner, names)
        if state.seating.resigned:
            line = _("{player} wins: {quitter} resigned ({score} points)")
            return line.format(player=who, quitter=mention(loser, names), score=score)
        if len(state.results) > 1:
            w, lo = (state.wins[state.seat_of(p)] for p in (winner, loser))
            line = _("{player} wins the match {games} ({score} points)")
            return line.format(player=who, games=f"{w}–{lo}", score=score)
        last = state.results[-1]
        line = (
            _("{player} wins by Chip-In, {score}")
            if last.kind is WinKind.CHIP_IN
            else _("{player} wins by Peg-Out, {score}")
        )
        return line.format(player=who, score=score)


class CockAndBullCog(GameCog, group_name="cock-and-bull"):
    """Cock & Bull: the two-player dice duel of Cocks, Bulls and Monkeys."""

    presenter = CockAndBullPresenter
    lobby = "Open a Cock & Bull lobby in this channel."
    summary = RULES_SUMMARY


SPEC = GameSpec(ENGINE, CockAndBullPresenter, CockAndBullCog)
