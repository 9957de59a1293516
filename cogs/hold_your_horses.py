"""Hold Your Horses in Discord: `/hold-your-horses new`, `/hold-your-horses rules`, its wording.

One board message per race (a race is the presenter's chapter); the hand stays private
behind the "My cards" button; under `autoplay` the table rolls for everyone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from typing_extensions import override

from bot.language.i18n import N_, NP_, _, ngettext
from bot.language.wording import bold_name, count, listing, mention, winners_phrase
from bot.table.presenter import ButtonLook, Picture, Presenter
from cogs.game_cog import GameCog, GameSpec
from cogs.options import house_rules
from images.hold_your_horses import render_finished_png, render_png
from rules.core import Action, Event, Outcome, PlayerId
from rules.hold_your_horses import ENGINE
from rules.hold_your_horses.options import OPTIONS
from rules.hold_your_horses.state import (
    HORSES,
    SCRATCHES,
    CardsDealt,
    GameWon,
    HandDealt,
    HoldYourHorsesState,
    HorseMoved,
    HorseScratched,
    Payment,
    Phase,
    RaceStarted,
    RaceWon,
    Rolled,
    ScratchFinePaid,
    ScratchRerolled,
    TokensDivided,
    hand_of,
)

DIE_FACES = "⚀⚁⚂⚃⚄⚅"
CARD_NAMES = {11: "J", 12: "Q"}  # Jack = horse 11, Queen = horse 12
ORDINALS = {1: N_("1st"), 2: N_("2nd"), 3: N_("3rd")}

RULES_SUMMARY = (
    N_("**Aim:** win the most tokens over five races by holding the cards of the winning horses."),
    N_(
        "**Deal:** the 44 cards (2–10, Jack = 11, Queen = 12, four of each) are dealt out; "
        "your hand is private — click **My cards** to see it."
    ),
    N_(
        "**Scratches:** each roll of two dice scratches that horse. Everyone pays 1 token "
        "into the pot per card of it they hold, and discards them. Four horses are "
        "scratched. A number already scratched: the same player rolls again, **free** — "
        "with escalating scratches too (only the race charges for rolling a scratched "
        "horse)."
    ),
    N_(
        "**The race:** each roll moves that horse one step; rolling a scratched horse "
        "costs the roller 1 token (escalating scratches: that horse's price). Horses 2 and "
        "12 need 3 steps, horse 7 needs 17 (classic track)."
    ),
    N_(
        "**Payout:** the first horse home wins; each of its four cards earns ⌊pot ÷ 4⌋, "
        "the rest stays in the pot. Tokens are then divided evenly again for the next race."
    ),
)


def card(horse: int) -> str:
    """A horse's card as a hand shows it: its number, or J and Q for horses 11 and 12."""
    return CARD_NAMES.get(horse, str(horse))


def _rolled(e: Rolled, names: Mapping[PlayerId, str]) -> str:
    a, b = e.dice
    line = _("{player} rolled {dice} **{total}**")
    dice = DIE_FACES[a - 1] + DIE_FACES[b - 1]
    return line.format(player=bold_name(e.roller, names), dice=dice, total=a + b)


def _payment(p: Payment, names: Mapping[PlayerId, str]) -> str:
    short = _(" (of {owed}: out of tokens)").format(owed=p.owed) if p.paid < p.owed else ""
    line = _("{player} pays {paid}")
    return line.format(player=names.get(p.player, _("Someone")), paid=p.paid) + short


class HoldYourHorsesPresenter(Presenter[HoldYourHorsesState]):
    """Hold Your Horses' wording and board: hands of horse cards in the private panel, one
    board message per race, closed with the finish when a horse wins."""

    engine = ENGINE
    colour = 0x2E7D32
    stat_columns: ClassVar[Mapping[str, str]] = {
        "races_cashed": N_("Races cashed"),
        "best_race": N_("Best race"),
    }
    private_label = N_("My cards")

    @override
    def render_png(self, state: HoldYourHorsesState, names: Mapping[PlayerId, str]) -> bytes:
        return render_png(state, names)

    pictures_events = True

    @override
    def picture(
        self, state: HoldYourHorsesState, names: Mapping[PlayerId, str], events: Sequence[Event]
    ) -> Picture:
        # A won race closes its board with the finish, before the next race is dealt (the
        # state has moved on already); the last race's end shows the scoring grid instead.
        won = any(isinstance(e, RaceWon) for e in events)
        if won and state.phase is not Phase.OVER:
            return Picture(render_finished_png(state, names))
        return Picture(render_png(state, names))

    chapter_name = NP_("chapter", "race")

    @override
    def chapter(self, state: HoldYourHorsesState) -> int:
        return state.race.number

    @override
    def prompt(self, state: HoldYourHorsesState, names: Mapping[PlayerId, str]) -> str:
        who = mention(state.players[state.roller], names)
        race = _("Race {race} of {races}").format(race=state.race.number, races=state.rules.races)
        if state.phase is Phase.SCRATCH:
            done = len(state.race.scratched)
            line = _("{race}, scratches ({done} of {scratches} done): {player} to roll")
            return line.format(race=race, done=done, scratches=SCRATCHES, player=who)
        return _("{race}: {player} to roll").format(race=race, player=who)

    @override
    def standings(self, state: HoldYourHorsesState, names: Mapping[PlayerId, str]) -> list[str]:
        """The pot and everyone's tokens, the scratched horses, and the horses in front."""
        race = state.race
        tokens = " · ".join(
            f"{names.get(p, _('Someone'))} {t}"
            for p, t in zip(state.players, state.tokens, strict=True)
        )
        lines = [_("Pot {pot}. Tokens: {tokens}").format(pot=state.pot, tokens=tokens)]
        if race.scratched:
            scratched = ", ".join(map(str, race.scratched))
            lines.append(_("Scratched: {horses}").format(horses=scratched))
        if race.winner is not None:
            lines.append(_("Horse {horse} won the race").format(horse=race.winner))
        elif state.phase is Phase.RACE:
            lines.append(_nearest(state))
        return lines

    @override
    def text_board(
        self,
        state: HoldYourHorsesState,
        names: Mapping[PlayerId, str],
        viewer: PlayerId | None = None,
    ) -> list[str]:
        """The pot and tokens, then every horse on the track: where it is, or scratched."""
        lines = self.standings(state, names)
        for h in HORSES:
            order = state.race.scratch_order(h)
            if order is not None:
                line = _("Horse {horse}: scratched ({order}, {price} a card)")
                lines.append(line.format(horse=h, order=_ordinal(order), price=state.price(h)))
            else:
                lines.append(_where(state, h))
        return lines

    @override
    def summary(
        self, state: HoldYourHorsesState, events: Sequence[Event], names: Mapping[PlayerId, str]
    ) -> str:
        """Several rolls in one sentence: who rolled, how far each horse moved, what was
        scratched and how many fines were paid."""
        rolls = [e for e in events if isinstance(e, Rolled)]
        if len(rolls) < 2:
            return ""
        rollers = [names.get(p, _("Someone")) for p in dict.fromkeys(e.roller for e in rolls)]
        line = ngettext("{n} roll by {players}", "{n} rolls by {players}", len(rolls))
        head = line.format(n=len(rolls), players=listing(rollers))
        moved = Counter(e.horse for e in rolls if isinstance(e, HorseMoved))
        parts = [
            ngettext("horse {horse} moved {n} step", "horse {horse} moved {n} steps", steps).format(
                horse=h, n=steps
            )
            for h, steps in moved.most_common()
        ]
        parts += [
            _("horse {horse} scratched").format(horse=e.horse)
            for e in rolls
            if isinstance(e, HorseScratched)
        ]
        fines = sum(isinstance(e, ScratchFinePaid) for e in rolls)
        if fines:
            parts.append(ngettext("{n} fine paid", "{n} fines paid", fines).format(n=fines))
        return f"{head}: {listing(parts)}" if parts else head

    @override
    def narrate(self, events: Sequence[Event], names: Mapping[PlayerId, str]) -> list[str]:
        lines: list[str] = []
        for e in events:
            match e:
                case HorseScratched(horse=h, order=n, price=price, payments=pays, pot=pot):
                    paying = ", ".join(_payment(p, names) for p in pays if p.owed)
                    line = _(
                        "{rolled}: horse {horse} scratched ({order}, {price} a card) — "
                        "{paying}. Pot {pot}."
                    )
                    lines.append(
                        line.format(
                            rolled=_rolled(e, names),
                            horse=h,
                            order=_ordinal(n),
                            price=price,
                            paying=paying or _("nobody pays"),
                            pot=pot,
                        )
                    )
                case ScratchRerolled(horse=h):
                    line = _("{rolled}: horse {horse} is out already — roll again.")
                    lines.append(line.format(rolled=_rolled(e, names), horse=h))
                case RaceStarted(next_roller=p):
                    line = _("Four horses out. **They're off!** {player} rolls.")
                    lines.append(line.format(player=bold_name(p, names)))
                case HorseMoved(horse=h, position=pos, finish=finish):
                    line = _("{rolled}: horse {horse} moves to {position}/{finish}.")
                    lines.append(
                        line.format(rolled=_rolled(e, names), horse=h, position=pos, finish=finish)
                    )
                case ScratchFinePaid(horse=h, payment=pay, pot=pot):
                    line = _("{rolled}: horse {horse} is scratched — {payment}. Pot {pot}.")
                    lines.append(
                        line.format(
                            rolled=_rolled(e, names), horse=h, payment=_payment(pay, names), pot=pot
                        )
                    )
                case RaceWon(race=r, horse=h, pot=pot, payouts=payouts, carried=carried):
                    paid = ", ".join(
                        f"{names.get(p.player, _('Someone'))} {p.won}" for p in payouts if p.cards
                    )
                    line = _(
                        "🏆 {rolled}: **horse {horse} wins race {race}!** "
                        "Pot {pot}: {paid}; {carried} carried."
                    )
                    lines.append(
                        line.format(
                            rolled=_rolled(e, names),
                            horse=h,
                            race=r,
                            pot=pot,
                            paid=paid or _("no winning cards in hand"),
                            carried=carried,
                        )
                    )
                case TokensDivided(race=r, each=each, pot=pot):
                    line = _("Race {race}: tokens divided, {each} each; the pot starts at {pot}.")
                    lines.append(line.format(race=r, each=each, pot=pot))
                case CardsDealt(hand_sizes=sizes):
                    counts = ", ".join(f"{names.get(p, '?')} {n}" for p, n in sizes)
                    line = _("Cards dealt ({counts}). Click **{button}** to see yours.")
                    lines.append(line.format(counts=counts, button=_("My cards")))
                case GameWon():
                    pass  # the result line says it
        return lines

    @override
    def narrate_private(
        self, events: Sequence[Event], player: PlayerId, names: Mapping[PlayerId, str]
    ) -> list[str]:
        return [
            _("Your hand for race {race}: {hand}").format(race=e.race, hand=_hand_text(e.cards))
            for e in events
            if isinstance(e, HandDealt) and e.player == player
        ]

    @override
    def private(
        self, state: HoldYourHorsesState, player: PlayerId, names: Mapping[PlayerId, str]
    ) -> str:
        seat = state.players.index(player)
        hand = hand_of(state, player)
        title = _("**Your cards, race {race}:** {hand}")
        tokens = _("Tokens: {tokens} · won so far: {won}")
        won = sum(r[seat] for r in state.grid)
        return (
            title.format(race=state.race.number, hand=_hand_text(hand))
            + "\n"
            + tokens.format(tokens=state.tokens[seat], won=won)
        )

    @override
    def button(self, action: Action, state: HoldYourHorsesState) -> ButtonLook:
        label = _("Roll for a scratch") if state.phase is Phase.SCRATCH else _("Roll")
        return ButtonLook(label, emoji="🎲")

    @override
    def describe_options(self, options: Mapping[str, Any]) -> list[str]:
        return house_rules(OPTIONS, options)

    @override
    def result(
        self, state: HoldYourHorsesState, outcome: Outcome, names: Mapping[PlayerId, str]
    ) -> str:
        winners = sorted(outcome.winners, key=state.players.index)
        best = outcome.scores[winners[0]]
        races = len(state.grid)
        won, over = count(best, "token", "tokens"), count(races, "race", "races")
        line = _("{winners} with {tokens} won over {races}")
        return line.format(winners=winners_phrase(winners, names), tokens=won, races=over)


def _running(state: HoldYourHorsesState) -> list[int]:
    return [h for h in HORSES if state.race.scratch_order(h) is None]


def _left(state: HoldYourHorsesState, horse: int) -> int:
    """Steps `horse` still has to run."""
    return state.rules.track.finish(horse) - state.race.position(horse)


def _nearest(state: HoldYourHorsesState) -> str:
    """The three horses nearest the finish among those that have moved (a horse still at
    the start is not in front of anything)."""
    moved = [h for h in _running(state) if state.race.position(h)]
    if not moved:
        return _("No horse has moved yet")
    ahead = sorted(moved, key=lambda h: _left(state, h))[:3]
    return _("Nearest the finish: {horses}").format(
        horses="; ".join(
            ngettext(
                "horse {horse} ({n} step to go)", "horse {horse} ({n} steps to go)", _left(state, h)
            ).format(horse=h, n=_left(state, h))
            for h in ahead
        )
    )


def _where(state: HoldYourHorsesState, horse: int) -> str:
    line = _("Horse {horse}: {steps} of {finish} steps")
    finish = state.rules.track.finish(horse)
    return line.format(horse=horse, steps=state.race.position(horse), finish=finish)


def _hand_text(cards: Sequence[int]) -> str:
    if not cards:
        return _("no cards left (all scratched)")
    counts = Counter(cards)
    return " · ".join(card(h) + (f" ×{n}" if n > 1 else "") for h, n in sorted(counts.items()))


def _ordinal(n: int) -> str:
    if n in ORDINALS:
        return _(ORDINALS[n])
    return _("{n}th").format(n=n)


class HoldYourHorsesCog(GameCog, group_name="hold-your-horses"):
    """Hold Your Horses: the dice horse race with private hands, scratches and a pot."""

    presenter = HoldYourHorsesPresenter
    lobby = "Open a Hold Your Horses lobby in this channel (2–12 players)."
    summary = RULES_SUMMARY


SPEC = GameSpec(ENGINE, HoldYourHorsesPresenter, HoldYourHorsesCog)
