"""Words every table uses, whatever the game: mentions, lists of players, counts that agree
with their nouns, result subjects, durations.

Lists and plural forms follow the language's rules through Babel (CLDR data), so another
language needs its words, not new code.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from babel.lists import format_list
from babel.numbers import format_decimal

from bot.language.i18n import N_, _, babel_locale, ngettext
from bot.ratings import RatingChange
from rules.core import Action, Event, PlayerId
from rules.seats import Resigned, SeatHandedToAI, SeatTakenBack, Verb

_MENTION = re.compile(r"<@(-?\d+)>")


# The ids that stand in for forgotten members (`bot.ops.forget`): below every Discord id (ids
# of 2015 on are above 10**16) and above the bot seats' small negative ones.
STAND_INS = range(10**15, 2 * 10**15)
FORMER_PLAYER = N_("Former player")  # a forgotten member, in the games they played


def mention(player: PlayerId, names: Mapping[PlayerId, str]) -> str:
    """A human as a mention (shown as their name, pinging no one inside embeds); a bot by
    name; a forgotten member as a former player."""
    if player in STAND_INS:
        return _(FORMER_PLAYER)
    if player > 0:
        return f"<@{player}>"
    return "🤖 " + names.get(player, _("Bot"))


def bold_name(player: PlayerId, names: Mapping[PlayerId, str]) -> str:
    """A player's name in bold, for a line read in the thread that must ping no one."""
    return "**" + names.get(player, _("Someone")) + "**"


def without_mentions(text: str, names: Mapping[PlayerId, str]) -> str:
    """`text` with every mention written as the bold name, for a message whose own mentions
    are its first words: nobody is mentioned twice."""
    someone = _("someone")
    return _MENTION.sub(lambda m: f"**{names.get(int(m[1]), someone)}**", text)


def listing(items: Sequence[str], *, either: bool = False) -> str:
    """Items as a sentence lists them in the current language: "Ana", "Ana and Leo",
    "Ana, Leo and Mia" (British English: no serial comma; Spanish: "Ana, Leo y Mia");
    with `either`, alternatives: "1, 2 or 3"."""
    if not items:
        return ""
    return format_list(list(items), style="or" if either else "standard", locale=babel_locale())


def agree(n: int, one: str, other: str) -> str:
    """The form of a word that agrees with a count of `n`, in the current language:
    `agree(2, "holds", "hold")` (the catalog takes both forms as one plural message)."""
    return ngettext(one, other, n)


def count(n: int, one: str, other: str) -> str:
    """A count and its noun, agreeing: "1 reinforcement", "3 reinforcements"."""
    return f"{n} {agree(n, one, other)}"


def who(players: Sequence[PlayerId], names: Mapping[PlayerId, str]) -> str:
    """Players as a sentence lists them, each mentioned once: "<@1>, <@2> and 🤖 Bot 1"."""
    return listing([mention(p, names) for p in players])


def winners_phrase(winners: Sequence[PlayerId], names: Mapping[PlayerId, str]) -> str:
    """A result line's subject: `<@1> wins`, or `<@1> and <@2> share the win`."""
    line = agree(len(winners), "{players} wins", "{players} share the win")
    return line.format(players=who(winners, names))


def number(n: int) -> str:
    """A whole number as the current language writes it ("1,234"; Spanish "12.345")."""
    return format_decimal(n, locale=babel_locale())


def decimal(value: float, pattern: str = "0.##") -> str:
    """A number with a fraction as the current language writes it (CLDR `pattern`):
    "4.5", Spanish "4,5"."""
    return format_decimal(value, format=pattern, locale=babel_locale())


def rating(points: int) -> str:
    """A rating as shown, negatives with a true minus sign like the changes: "−41"."""
    return f"−{number(-points)}" if points < 0 else number(points)


def rating_changes(changes: Sequence[RatingChange], names: Mapping[PlayerId, str]) -> str:
    """A finished game's rating changes, seat by seat: "<@1> +24 · <@2> −11 · 🤖 AI +3" (the
    AI once, however many bot seats it played)."""
    parts: dict[str, str] = {}
    for change in changes:
        who = "🤖 " + _("AI") if change.is_bot else mention(change.player_id, names)
        delta = change.shown
        parts[who] = f"+{delta}" if delta > 0 else f"−{-delta}" if delta < 0 else "±0"
    return " · ".join(f"{who} {delta}" for who, delta in parts.items())


def format_duration(seconds: int) -> str:
    """A turn timer's length in its largest whole unit ("2 days", "90 seconds"); "off" for none."""
    if seconds <= 0:
        return _("off")
    if seconds % 86400 == 0:
        return count(seconds // 86400, "day", "days")
    if seconds % 3600 == 0:
        return count(seconds // 3600, "hour", "hours")
    if seconds % 60 == 0:
        return count(seconds // 60, "minute", "minutes")
    return count(seconds, "second", "seconds")


def seat_line(event: Event, names: Mapping[PlayerId, str]) -> str | None:
    """The board's line for a seat event (`rules.seats`), the same in every game; None for
    any other event (its game's presenter words it)."""
    match event:
        case Resigned(player=p, winners=winners) if winners:
            line = _("🏳️ {player} resigned: {winners}.")
            return line.format(player=mention(p, names), winners=winners_phrase(winners, names))
        case Resigned(player=p):
            return _("🏳️ {player} resigned and finishes last.").format(player=mention(p, names))
        case SeatHandedToAI(player=p):
            line = _("🤖 The AI plays for {player} until they take their seat back.")
            return line.format(player=mention(p, names))
        case SeatTakenBack(player=p):
            return _("🪑 {player} took their seat back.").format(player=mention(p, names))
    return None


def split_seat_events(
    events: Sequence[Event], names: Mapping[PlayerId, str]
) -> tuple[list[str], list[Event]]:
    """The lines of the seat events among `events` (worded here, the same in every game),
    and the other events, left to the game's presenter."""
    lines = [line for e in events if (line := seat_line(e, names))]
    return lines, [e for e in events if seat_line(e, names) is None]


SEAT_MOVES: dict[str, str] = {
    Verb.RESIGN: N_("Resign"),
    Verb.HAND_TO_AI: N_("Seat handed to the AI"),
    Verb.TAKE_SEAT: N_("Took their seat back"),
}


def seat_move(action: Action) -> str | None:
    """A seat action's name in a move list; None for a game's own action."""
    move = SEAT_MOVES.get(action.verb)
    return None if move is None else _(move)
