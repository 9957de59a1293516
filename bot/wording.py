"""Words every table uses, whatever the game: mentions, lists of players, counts that agree
with their nouns, result subjects, durations.

Lists and plural forms follow the language's rules through Babel (CLDR data), so another
language needs its words, not new code.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from babel import Locale
from babel.lists import format_list

from bot.ratings import RatingChange
from rules.core import Action, Event, PlayerId
from rules.seats import Resigned, SeatHandedToAI, SeatTakenBack, Verb

# British English lists have no serial comma: "Ana, Leo and Mia".
LOCALE = "en_GB"

_MENTION = re.compile(r"<@(-?\d+)>")


def mention(player: PlayerId, names: Mapping[PlayerId, str]) -> str:
    """A human as a mention (shown as their name, pinging no one inside embeds); a bot by name."""
    return f"<@{player}>" if player > 0 else f"🤖 {names.get(player, 'Bot')}"


def without_mentions(text: str, names: Mapping[PlayerId, str]) -> str:
    """`text` with every mention written as the bold name, for a message whose own mentions
    are its first words: nobody is mentioned twice."""
    return _MENTION.sub(lambda m: f"**{names.get(int(m[1]), 'someone')}**", text)


def listing(items: Sequence[str]) -> str:
    """Items as a sentence lists them: "Ana", "Ana and Leo", "Ana, Leo and Mia"."""
    return format_list(list(items), locale=LOCALE) if items else ""


def agree(n: int, one: str, other: str) -> str:
    """The form of a word that agrees with a count of `n`: `agree(2, "holds", "hold")`."""
    return one if Locale.parse(LOCALE).plural_form(n) == "one" else other


def count(n: int, one: str, other: str) -> str:
    """A count and its noun, agreeing: "1 reinforcement", "3 reinforcements"."""
    return f"{n} {agree(n, one, other)}"


def who(players: Sequence[PlayerId], names: Mapping[PlayerId, str]) -> str:
    """Players as a sentence lists them, each mentioned once: "<@1>, <@2> and 🤖 Bot 1"."""
    return listing([mention(p, names) for p in players])


def winners_phrase(winners: Sequence[PlayerId], names: Mapping[PlayerId, str]) -> str:
    """A result line's subject: `<@1> wins`, or `<@1> and <@2> share the win`."""
    return f"{who(winners, names)} {agree(len(winners), 'wins', 'share the win')}"


def rating_changes(changes: Sequence[RatingChange], names: Mapping[PlayerId, str]) -> str:
    """A finished game's rating changes, seat by seat: "<@1> +24 · <@2> −11 · 🤖 AI +3" (the
    AI once, however many bot seats it played)."""
    parts: dict[str, str] = {}
    for change in changes:
        who = "🤖 AI" if change.is_bot else mention(change.player_id, names)
        delta = change.shown
        parts[who] = f"+{delta}" if delta > 0 else f"−{-delta}" if delta < 0 else "±0"
    return " · ".join(f"{who} {delta}" for who, delta in parts.items())


def format_duration(seconds: int) -> str:
    if seconds <= 0:
        return "off"
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            return count(seconds // size, unit, f"{unit}s")
    return count(seconds, "second", "seconds")


def seat_line(event: Event, names: Mapping[PlayerId, str]) -> str | None:
    """The board's line for a seat event (`rules.seats`), the same in every game; None for
    any other event (its game's presenter words it)."""
    match event:
        case Resigned(player=p, winners=winners) if winners:
            return f"🏳️ {mention(p, names)} resigned: {winners_phrase(winners, names)}."
        case Resigned(player=p):
            return f"🏳️ {mention(p, names)} resigned and finishes last."
        case SeatHandedToAI(player=p):
            return f"🤖 The AI plays for {mention(p, names)} until they take their seat back."
        case SeatTakenBack(player=p):
            return f"🪑 {mention(p, names)} took their seat back."
    return None


def split_seat_events(
    events: Sequence[Event], names: Mapping[PlayerId, str]
) -> tuple[list[str], list[Event]]:
    """The lines of the seat events among `events` (worded here, the same in every game),
    and the other events, left to the game's presenter."""
    lines = [line for e in events if (line := seat_line(e, names))]
    return lines, [e for e in events if seat_line(e, names) is None]


SEAT_MOVES: dict[str, str] = {
    Verb.RESIGN: "Resign",
    Verb.HAND_TO_AI: "Seat handed to the AI",
    Verb.TAKE_SEAT: "Took their seat back",
}


def seat_move(action: Action) -> str | None:
    """A seat action's name in a move list; None for a game's own action."""
    return SEAT_MOVES.get(action.verb)
