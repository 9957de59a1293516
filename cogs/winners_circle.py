"""Winner's Circle in Discord: `/winners-circle new`, `/winners-circle rules`, its wording.

Bets are options of one select menu ("Horse 3 (yellow) — chip 2", the horse's card values
as the second line); with `hidden_bets` that menu is offered only in the player's private
"My chips" panel, so no chip value is ever public before the race ends. In the race the
player to act clicks Roll, then one of the move buttons, each labelled with where that horse
would end up. A race's last move closes its board with the itemised payout (picture and
text); the next board starts the next race (the presenter's chapter).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import discord
from typing_extensions import override

from bot.language.i18n import N_, NP_, _, ngettext, pgettext
from bot.language.wording import bold_name, count, listing, mention, winners_phrase
from bot.table.presenter import ButtonLook, Picture, Presenter
from cogs.game_cog import GameCog, GameSpec
from cogs.options import house_rules
from images.winners_circle import (
    HORSE_COLOUR,
    HORSE_NAMES,
    SYMBOL_NAMES,
    render_payout_png,
    render_png,
)
from rules.core import Action, Event, Outcome, PlayerId
from rules.winners_circle import ENGINE
from rules.winners_circle.actions import NEXT_RACE, Verb, chips_left, parse_bet, parse_move
from rules.winners_circle.cards import card
from rules.winners_circle.options import OPTIONS
from rules.winners_circle.payout import LAST_PENALTY, PACE_BONUS
from rules.winners_circle.state import (
    FINISH,
    NO_HORSE,
    RACES,
    Bet,
    BetPlaced,
    BetsRevealed,
    CardsTurnedUp,
    DieRolled,
    FirstBettorChosen,
    GameWon,
    HiddenBetPlaced,
    HiddenChipChosen,
    HorseFinished,
    HorseMoved,
    LineItem,
    LineKind,
    PaceHorseSet,
    PayoutMade,
    Phase,
    RaceEnded,
    RacePrepared,
    RaceSettled,
    RaceStarted,
    WinnersCircleState,
)
from rules.winners_circle.track import becomes_pace, destination

BET_MENU = N_("Bet: horse · chip")
HORSE_EMOJI = {1: "🔴", 2: "🔵", 3: "🟡", 4: "🟢", 5: "🟣", 6: "🟠", 7: "⚪"}
PLACE_NAMES = {1: N_("Win"), 2: N_("Place"), 3: N_("Show")}
PLACE_MEDALS = {LineKind.WIN: "🥇", LineKind.PLACE: "🥈", LineKind.SHOW: "🥉"}
FINISH_KINDS = (LineKind.WIN, LineKind.PLACE, LineKind.SHOW)

RULES_SUMMARY = (
    N_("**Aim:** the most money after {races} races (everyone starts with 0)."),
    N_(
        "**The horses:** seven, each driven this race by a card with a move for each die "
        "symbol: Head (on three faces), Cap, Saddle, Shoe. The cards are shown under the "
        "track and in the bet menu."
    ),
    N_(
        "**Bets:** race 1 starts with a random player, later races with the richest. In "
        "turn, each player puts one chip on a horse — chips 1, 1 and 2 (a 2 counts as two "
        "bets), three rounds, three different horses."
    ),
    N_(
        "**The start:** the horses line up behind the line, gate 1 on space 36 down to "
        "gate 7 on space 30. Those spaces count: a horse runs one full lap from where it "
        "starts, so gate 7 runs 6 spaces more than gate 1 (and reaches the pace chip on "
        "space 18 of its lap 6 spaces later). In a crowded field all start on 36."
    ),
    N_(
        "**The race:** click **Roll**, then pick a horse whose card is face up; it runs "
        "its card's value for the symbol and the card turns face down. When every card is "
        "face down, all turn up again. One horse per space: a blocked horse stops on the "
        "first free space behind (maybe where it stood). The first three across the line "
        "after a lap are **Win, Place, Show**."
    ),
    N_(
        "**Payout:** an amount per bet that falls as more bets share the horse — Win 500 → "
        "100, Place 350 → 50, Show 250 → 50. The **pace horse** (first to space 18) adds "
        "+{pace} a bet if it finishes in the top three; bets on the **last** horse pay the "
        "bank {last} each (never below 0). Race {races} pays and costs double."
    ),
    N_(
        "With **hidden bets**, bet from **My chips**: only you see your chip's value until "
        "the race ends."
    ),
)


def horse(h: int, *, capital: bool = False) -> str:
    """A horse as the text names it: "🟡 horse 3" (or "Horse 3" to open a sentence)."""
    word = _("Horse {number}") if capital else _("horse {number}")
    return f"{HORSE_EMOJI[h]} " + word.format(number=h)


def _horses(hs: Sequence[int]) -> str:
    if len(hs) == 1:
        return horse(hs[0])
    numbers = ", ".join(f"{HORSE_EMOJI[h]} {h}" for h in hs)
    return _("horses {numbers}").format(numbers=numbers)


def _ordinal(n: int) -> str:
    """A finishing place: "1st" (a horse's, in the languages that agree)."""
    if n == 1:
        return pgettext("horse", "1st")
    if n == 2:
        return pgettext("horse", "2nd")
    if n == 3:
        return pgettext("horse", "3rd")
    return pgettext("horse", "{n}th").format(n=n)


def _place_name(kind: LineKind) -> str:
    return _(PLACE_NAMES[FINISH_KINDS.index(kind) + 1])


def card_values(state: WinnersCircleState, h: int) -> str:
    """Horse `h`'s card, how far each die symbol runs it: "Head 5 · Cap 4 · Saddle 5 · Shoe 6"."""
    values = card(state.gates[h - 1]).values
    return " · ".join(
        f"{_(name)} {v}" for name, v in zip(SYMBOL_NAMES.values(), values, strict=True)
    )


def _bets_text(bets: Sequence[Bet]) -> str:
    line = _("{horse} — chip {chip}")
    return ", ".join(line.format(horse=horse(b.horse), chip=b.chip) for b in bets) or _("none yet")


@dataclass
class _Batch:
    """What one step's events say together: a move line names the place it finished in
    and the pace chip it took, a race's end itemises the payout lines that follow it, and
    the money line names the next race's first bettor (a board shows eight lines at most)."""

    places: dict[int, int] = field(default_factory=dict)  # horse -> finishing place
    pace: set[int] = field(default_factory=set)
    moved: set[int] = field(default_factory=set)
    payouts: dict[int, list[LineItem]] = field(default_factory=dict)  # by race
    revealed: dict[int, BetsRevealed] = field(default_factory=dict)
    ended: set[int] = field(default_factory=set)
    first: dict[int, FirstBettorChosen] = field(default_factory=dict)  # by the race it opens
    settled: set[int] = field(default_factory=set)

    @classmethod
    def of(cls, events: Sequence[Event]) -> _Batch:
        batch = cls()
        for e in events:
            match e:
                case HorseFinished(horse=h, place=place):
                    batch.places[h] = place
                case PaceHorseSet(horse=h):
                    batch.pace.add(h)
                case HorseMoved(horse=h):
                    batch.moved.add(h)
                case PayoutMade(race=r, line=line):
                    batch.payouts.setdefault(r, []).append(line)
                case BetsRevealed(race=r):
                    batch.revealed[r] = e
                case RaceEnded(race=r):
                    batch.ended.add(r)
                case FirstBettorChosen(race=r):
                    batch.first[r] = e
                case RaceSettled(race=r):
                    batch.settled.add(r)
        return batch


class WinnersCirclePresenter(Presenter[WinnersCircleState]):
    """Winner's Circle's wording and board: a menu of bets (hidden ones in the private
    panel), move buttons that say where each horse would end up, a board per race."""

    engine = ENGINE
    colour = 0xC62828
    stat_columns: ClassVar[Mapping[str, str]] = {
        "winners_backed": N_("Winners backed"),
        "lasts_backed": N_("Lasts backed"),
    }
    private_label = N_("My chips")
    batch_ai_moves = True  # a bot's roll and move show as one turn

    @override
    def render_png(self, state: WinnersCircleState, names: Mapping[PlayerId, str]) -> bytes:
        return render_png(state, names)

    pictures_events = True

    @override
    def picture(
        self, state: WinnersCircleState, names: Mapping[PlayerId, str], events: Sequence[Event]
    ) -> Picture:
        # A race's last move closes its board with the itemised payout.
        if any(isinstance(e, RaceEnded) for e in events) and state.phase in (
            Phase.RACE_OVER,
            Phase.OVER,
        ):
            return Picture(render_payout_png(state, names))
        return Picture(render_png(state, names))

    chapter_name = NP_("chapter", "race")

    @override
    def chapter(self, state: WinnersCircleState) -> int:
        # A race's board closes when it is paid out; the next board starts the next race.
        return state.race + (state.phase in (Phase.RACE_OVER, Phase.OVER))

    @override
    def prompt(self, state: WinnersCircleState, names: Mapping[PlayerId, str]) -> str:
        who = mention(state.players[state.current], names)
        race = _("Race {race} of {races}").format(race=state.race, races=RACES)
        if state.phase is Phase.BETTING:
            rounds = len(state.rules.chips)
            round_no = len(state.bets) // len(state.players) + 1
            where = (
                _(": open **{button}** to choose a horse and a chip").format(button=_("My chips"))
                if state.rules.hidden_bets
                else ""
            )
            line = _("{race}, bets (round {round} of {rounds}): {player} to bet{where}")
            return line.format(race=race, round=round_no, rounds=rounds, player=who, where=where)
        if state.phase is Phase.ROLL:
            return _("{race}: {player} to roll").format(race=race, player=who)
        if state.phase is Phase.MOVE:
            assert state.rolled is not None  # set with Phase.MOVE
            line = _("{race}: {player} rolled **{symbol}** — pick a horse")
            return line.format(race=race, player=who, symbol=_(SYMBOL_NAMES[state.rolled]))
        if state.phase is Phase.RACE_OVER:
            money = state.money
            tied = sum(m == max(money) for m in money) > 1
            why = _("drawn among the richest") if tied else _("the most money")
            line = _("Race {race} is over: {player} starts race {next} ({why})")
            return line.format(race=state.race, player=who, next=state.race + 1, why=why)
        return _("The game is over")

    @override
    def standings(self, state: WinnersCircleState, names: Mapping[PlayerId, str]) -> list[str]:
        """Everyone's money, the horses across the line and the leaders of the rest, and
        the pace horse: what the picture shows first."""
        lines = [
            _("Money: {standings}").format(standings=_standings(state.players, state.money, names))
        ]
        if state.finished:
            done = ", ".join(
                _("{place} {horse}").format(place=_ordinal(i), horse=horse(h))
                for i, h in enumerate(state.finished, 1)
            )
            lines.append(_("Across the line: {horses}").format(horses=done))
        if state.phase is not Phase.BETTING:
            ahead = sorted(state.running(), key=lambda h: -state.progress[h - 1])[:3]
            lines.append(
                _("In front: {horses}").format(horses="; ".join(_horse_at(state, h) for h in ahead))
            )
        if state.pace != NO_HORSE:
            lines.append(_("Pace chip: {horse}").format(horse=horse(state.pace)))
        return lines

    @override
    def text_board(
        self,
        state: WinnersCircleState,
        names: Mapping[PlayerId, str],
        viewer: PlayerId | None = None,
    ) -> list[str]:
        """Money and leaders, then each horse: where it runs, its card (face up or down,
        its values) and the chips on it (values hidden while hidden bets run)."""
        lines = self.standings(state, names)
        hidden = state.rules.hidden_bets and state.phase not in (Phase.RACE_OVER, Phase.OVER)
        for h in range(1, len(state.gates) + 1):
            up = _("card face up") if state.is_face_up(h) else _("card face down")
            line = f"{_horse_at(state, h)}; {up}: {card_values(state, h)}"
            chips = [
                f"{names.get(b.player, _('Someone'))} {'?' if hidden else b.chip}"
                for b in state.bets
                if b.horse == h
            ]
            if chips:
                line += "; " + _("chips: {chips}").format(chips=", ".join(chips))
            lines.append(line)
        return lines

    @override
    def summary(
        self, state: WinnersCircleState, events: Sequence[Event], names: Mapping[PlayerId, str]
    ) -> str:
        """Several players' moves or bets in one sentence: who moved which horses, who bet."""
        moves = [e for e in events if isinstance(e, (HorseMoved, BetPlaced, HiddenBetPlaced))]
        if len(moves) < 2:
            return ""
        parts = []
        for p in dict.fromkeys(e.player for e in moves):
            who = names.get(p, _("Someone"))
            moved = [
                _("horse {number}").format(number=e.horse)
                for e in moves
                if isinstance(e, HorseMoved) and e.player == p
            ]
            if moved:
                parts.append(_("{player} moved {horses}").format(player=who, horses=listing(moved)))
            bets = sum(isinstance(e, (BetPlaced, HiddenBetPlaced)) and e.player == p for e in moves)
            if bets:
                line = ngettext("{player} placed {n} bet", "{player} placed {n} bets", bets)
                parts.append(line.format(player=who, n=bets))
        return "; ".join(parts)

    @override
    def narrate(self, events: Sequence[Event], names: Mapping[PlayerId, str]) -> list[str]:
        batch = _Batch.of(events)
        lines: list[str] = []
        for e in events:
            match e:
                case RacePrepared(race=r, set_aside=aside):
                    cards = count(aside, "card", "cards")
                    # One English for both, but the words agree with the count elsewhere.
                    extra = ngettext(
                        " ({cards} set aside and shuffled back)",
                        " ({cards} set aside and shuffled back)",
                        aside,
                    )
                    extra = extra if aside else ""
                    line = _(
                        "🏇 **Race {race} of {races}**: the horses are at the gates{extra}; "
                        "their cards are under the track."
                    )
                    lines.append(line.format(race=r, races=RACES, extra=extra.format(cards=cards)))
                case BetPlaced(player=p, horse=h, chip=c):
                    line = _("{player} bets chip {chip} on {horse}.")
                    lines.append(line.format(player=bold_name(p, names), chip=c, horse=horse(h)))
                case HiddenBetPlaced(player=p, horse=h):
                    line = _("{player} puts a hidden chip on {horse}.")
                    lines.append(line.format(player=bold_name(p, names), horse=horse(h)))
                case RaceStarted(player=p):
                    line = _("Bets are in — **they're off!** {player} rolls first.")
                    lines.append(line.format(player=bold_name(p, names)))
                case DieRolled(player=p, symbol=s):
                    line = _("🎲 {player} rolled **{symbol}**.")
                    lines.append(line.format(player=bold_name(p, names), symbol=_(SYMBOL_NAMES[s])))
                case HorseMoved():
                    lines.append(_moved(e, batch, names))
                case PaceHorseSet(horse=h) if h not in batch.moved:
                    line = _("🚩 {horse} takes the pace chip.")
                    lines.append(line.format(horse=horse(h, capital=True)))
                case HorseFinished(horse=h, place=place) if h not in batch.moved:
                    line = _("🏁 {horse} finishes {place}.")
                    lines.append(line.format(horse=horse(h, capital=True), place=_ordinal(place)))
                case CardsTurnedUp():
                    lines.append(_("🔄 Every card was face down: all turn face up again."))
                case RaceEnded():
                    lines.extend(_race_ended(e, batch, names))
                case BetsRevealed(race=r) if r not in batch.ended:
                    lines.append(_revealed(e, names))
                case RaceSettled():
                    lines.append(_money(e, batch, names))
                case FirstBettorChosen(race=r) if r - 1 not in batch.settled:
                    lines.append(_first_bettor(e, names))
                case GameWon():
                    pass  # the result line says it
        return lines

    @override
    def narrate_private(
        self, events: Sequence[Event], player: PlayerId, names: Mapping[PlayerId, str]
    ) -> list[str]:
        return [
            _(
                "🔒 You put chip {chip} on {horse}: only you see its value until the race ends."
            ).format(chip=e.chip, horse=horse(e.horse))
            for e in events
            if isinstance(e, HiddenChipChosen)
            and e.player == player
            and e.visible_to is not None
            and player in e.visible_to
        ]

    @override
    def private(
        self, state: WinnersCircleState, player: PlayerId, names: Mapping[PlayerId, str]
    ) -> str:
        lines = [_("**Race {race} of {races} — your chips**").format(race=state.race, races=RACES)]
        if state.phase is Phase.BETTING:
            left = " · ".join(map(str, chips_left(state, player))) or pgettext("chips", "none")
            lines.append(_("Chips left: {chips}").format(chips=left))
        lines.append(_("Your bets: {bets}").format(bets=_bets_text(state.bets_of(player))))
        lines.append(_("Money: {money}").format(money=state.money[state.seat_of(player)]))
        return "\n".join(lines)

    @override
    def button(self, action: Action, state: WinnersCircleState) -> ButtonLook:
        if action.verb in (Verb.BET, Verb.HIDDEN_BET):
            h, chip = parse_bet(action)
            bluff = _(" (bluff)") if chip == 0 else ""
            label = _("Horse {number} ({colour}) — chip {chip}{bluff}")
            return ButtonLook(
                label.format(
                    number=h, colour=pgettext(HORSE_COLOUR, HORSE_NAMES[h]), chip=chip, bluff=bluff
                ),
                emoji=HORSE_EMOJI[h],
                menu=_(BET_MENU),
                description=card_values(state, h),
            )
        if action.verb == Verb.MOVE:
            return _move_look(state, parse_move(action))
        if action == NEXT_RACE:
            return ButtonLook(_("Start race {race}").format(race=state.race + 1), emoji="🏁")
        return ButtonLook(_("Roll"), emoji="🎲")

    @override
    def is_private(self, action: Action, state: WinnersCircleState) -> bool:
        return action.verb == Verb.HIDDEN_BET  # its option value and label carry the chip

    @override
    def describe_options(self, options: Mapping[str, Any]) -> list[str]:
        return house_rules(OPTIONS, options)

    @override
    def result(
        self, state: WinnersCircleState, outcome: Outcome, names: Mapping[PlayerId, str]
    ) -> str:
        winners = sorted(outcome.winners, key=state.players.index)
        best = outcome.scores[winners[0]]
        line = ngettext(
            "{winners} with {money} after {races} races · {standings}",
            "{winners} with {money} each after {races} races · {standings}",
            len(winners),
        )
        return line.format(
            winners=winners_phrase(winners, names),
            money=best,
            races=RACES,
            standings=_standings(state.players, state.money, names),
        )


def _standings(
    players: Sequence[PlayerId], money: Sequence[int], names: Mapping[PlayerId, str]
) -> str:
    """Everyone's money, richest first."""
    ranked = sorted(zip(players, money, strict=True), key=lambda pm: -pm[1])
    return " · ".join(f"{names.get(p, _('Someone'))} {m}" for p, m in ranked)


def _horse_at(state: WinnersCircleState, h: int) -> str:
    """Where horse `h` is, "🟡 Horse 3: space 14, 20 to the line", or where it finished."""
    if h in state.finished:
        place = state.finished.index(h) + 1
        return _("{horse}: finished {place}").format(
            horse=horse(h, capital=True), place=_ordinal(place)
        )
    left = FINISH + 1 - state.progress[h - 1]
    line = _("{horse}: space {space}, {left} to the line")
    return line.format(horse=horse(h, capital=True), space=state.space(h), left=left)


def _move_look(state: WinnersCircleState, h: int) -> ButtonLook:
    move = destination(state, h)
    if move.finishes:
        place = len(state.finished) + 1
        return ButtonLook(
            _("Horse {number} finishes {place}").format(number=h, place=_ordinal(place)),
            style=discord.ButtonStyle.success,
            emoji=HORSE_EMOJI[h],
        )
    if move.moved == 0:
        label = _("Horse {number} can't move ({space})").format(number=h, space=state.space(h))
    else:
        label = _("Horse {number} → {space}").format(number=h, space=move.space)
        if move.moved < move.wanted:
            label += _(" (blocked)")
        if becomes_pace(state, move):
            label += _(" · pace")
    return ButtonLook(label, emoji=HORSE_EMOJI[h])


def _moved(e: HorseMoved, batch: _Batch, names: Mapping[PlayerId, str]) -> str:
    who = bold_name(e.player, names)
    forced = _(" (the only card face up)") if e.forced else ""
    run = f"{_(SYMBOL_NAMES[e.symbol])} {e.wanted}"
    it = horse(e.horse)
    if e.finished:
        place = batch.places.get(e.horse)
        where = (
            _("crosses the line — **{place} ({name})**").format(
                place=_ordinal(place), name=_(PLACE_NAMES[place])
            )
            if place
            else _("crosses the line")
        )
        line = _("{player} runs {horse}{forced} ({run}) from {start}: {where}")
        text = line.format(
            player=who, horse=it, forced=forced, run=run, start=e.from_space, where=where
        )
    elif e.moved == 0:
        line = _("{player} picks {horse}{forced} ({run}): blocked, it stays on {start}")
        text = line.format(player=who, horse=it, forced=forced, run=run, start=e.from_space)
    else:
        blocked = _(", blocked after {moved}").format(moved=e.moved) if e.moved < e.wanted else ""
        line = _("{player} moves {horse}{forced} ({run}{blocked}): {start} → {end}")
        text = line.format(
            player=who,
            horse=it,
            forced=forced,
            run=run,
            blocked=blocked,
            start=e.from_space,
            end=e.to_space,
        )
    if e.horse in batch.pace:
        text += _(" and takes the pace chip 🚩")
    return text + "."


def _paid(items: Sequence[LineItem], names: Mapping[PlayerId, str]) -> str:
    parts = []
    for item in items:
        short = _(", short {unpaid}").format(unpaid=item.unpaid) if item.unpaid else ""
        line = _("{player} {amount} (chip {chip}{short})")
        parts.append(
            line.format(
                player=names.get(item.player, _("Someone")),
                amount=f"{item.amount:+d}",
                chip=item.chip,
                short=short,
            )
        )
    return ", ".join(parts)


def _race_ended(e: RaceEnded, batch: _Batch, names: Mapping[PlayerId, str]) -> list[str]:
    """The itemised payout: Win, Place, Show, the pace bonus and last place, each chip paid
    or paying (race 3 doubled); hidden chips are revealed first."""
    lines: list[str] = []
    if e.race in batch.revealed:
        lines.append(_revealed(batch.revealed[e.race], names))
    paid = batch.payouts.get(e.race, [])
    doubled = _(", doubled") if e.race == RACES else ""
    no_bets = _(" — no bets on it")
    for kind, h in zip(FINISH_KINDS, e.finish, strict=True):
        items = [i for i in paid if i.kind is kind]
        head = f"{PLACE_MEDALS[kind]} **{_place_name(kind)}** {horse(h)}"
        if items:
            bets = count(items[0].bets, "bet", "bets")
            rate = _("{bets}, {amount} a bet{doubled}").format(
                bets=bets, amount=items[0].per_bet, doubled=doubled
            )
            lines.append(f"{head} — {rate}: {_paid(items, names)}")
        else:
            lines.append(head + no_bets)
    pace = [i for i in paid if i.kind is LineKind.PACE]
    if not e.pace:
        pass  # no horse reached space 18 (a finisher always does, so never in play)
    elif e.pace not in e.finish:
        line = _("🚩 Pace {horse} did not finish in the top three: no bonus")
        lines.append(line.format(horse=horse(e.pace)))
    elif pace:
        line = _("🚩 **Pace bonus** {horse} — {amount} a bet{doubled}: {paid}")
        lines.append(
            line.format(
                horse=horse(e.pace), amount=PACE_BONUS, doubled=doubled, paid=_paid(pace, names)
            )
        )
    else:
        lines.append(_("🚩 **Pace bonus** {horse}").format(horse=horse(e.pace)) + no_bets)
    last = [i for i in paid if i.kind is LineKind.LAST]
    head = _("🐌 **Last** {horses}").format(horses=_horses(e.last))
    if last:
        line = _("{head} — pays {amount} a bet{doubled}: {paid}")
        lines.append(
            line.format(head=head, amount=LAST_PENALTY, doubled=doubled, paid=_paid(last, names))
        )
    else:
        lines.append(head + no_bets)
    return lines


def _revealed(e: BetsRevealed, names: Mapping[PlayerId, str]) -> str:
    players = list(dict.fromkeys(b.player for b in e.bets))
    on = _("{chip} on {horse}")
    shown = "; ".join(
        f"{bold_name(p, names)} "
        + ", ".join(
            on.format(chip=b.chip, horse=f"{HORSE_EMOJI[b.horse]}{b.horse}")
            for b in e.bets
            if b.player == p
        )
        for p in players
    )
    return _("🔓 Chips revealed: {shown}").format(shown=shown)


def _money(e: RaceSettled, batch: _Batch, names: Mapping[PlayerId, str]) -> str:
    # `names` lists the players in seat order (the table's seats), as `money` is.
    standings = (
        _standings(list(names), e.money, names)
        if len(names) == len(e.money)
        else " · ".join(map(str, e.money))
    )
    text = _("💰 Money after race {race}: {standings}").format(race=e.race, standings=standings)
    first = batch.first.get(e.race + 1)
    return text + (f" — {_first_bettor(first, names)}" if first else "")


def _first_bettor(e: FirstBettorChosen, names: Mapping[PlayerId, str]) -> str:
    why = _("drawn among the richest") if len(e.candidates) > 1 else _("the most money")
    line = _("{player} bets first in race {race} ({why}).")
    return line.format(player=bold_name(e.player, names), race=e.race, why=why)


class WinnersCircleCog(GameCog, group_name="winners-circle"):
    """Winner's Circle: bet on seven horses, then race them with a shared die."""

    presenter = WinnersCirclePresenter
    lobby = "Open a Winner's Circle lobby in this channel (2–6 players)."
    summary = RULES_SUMMARY
    summary_values: ClassVar[Mapping[str, int | str]] = {
        "races": RACES,
        "pace": PACE_BONUS,
        "last": LAST_PENALTY,
    }


SPEC = GameSpec(ENGINE, WinnersCirclePresenter, WinnersCircleCog)
