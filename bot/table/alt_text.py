"""The alt text of every picture Parlour sends: what a screen reader reads out for it.

Discord reads an attachment's `description` (at most 1,024 characters) to members who can't
see the picture. It says what a sighted player takes from the picture first — whose turn,
the standings, the last move's result — worded from the same state and events the picture
is drawn from, by the game's presenter, so it never disagrees with the picture. No picture
is looked at and nothing is drawn: it costs a few string joins per move.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.language.speech import spoken
from bot.language.wording import without_mentions
from bot.table.presenter import Presenter
from rules.core import Event, PlayerId

ALT_MAX = 1024  # Discord's limit for an attachment's description
SUMMED_MAX = 400  # a turn summed up in a sentence: its details add at most this far


def plain(text: str, names: Mapping[PlayerId, str]) -> str:
    """`text` as a screen reader should hear it (`spoken`), on one line: names, not mention
    ids, and no markdown marks (read out as "asterisk asterisk")."""
    text = spoken(without_mentions(text, names)).replace("**", "").replace("`", "")
    return " ".join(text.split())


def sentence(text: str) -> str:
    """`text` ending as a sentence, so lines read one after another don't run together."""
    return text if not text or text[-1] in ".!?…:" else text + "."


def joined(first: Sequence[str], rest: Sequence[str] = (), limit: int = ALT_MAX) -> str:
    """`first` whole (shortened with "…" if even it is longer than `ALT_MAX`), then as
    many of the newest lines of `rest` as fit, in their order, within `limit` characters."""
    text = " ".join(sentence(line) for line in first if line)
    if len(text) > ALT_MAX:
        return text[: ALT_MAX - 1].rstrip() + "…"
    kept: list[str] = []
    room = min(limit, ALT_MAX) - len(text)
    for line in reversed([sentence(line) for line in rest if line]):
        if len(line) + 1 > room:
            break
        kept.insert(0, line)
        room -= len(line) + 1
    return " ".join([text, *kept]) if text else " ".join(kept)


def board_alt(
    presenter: Presenter[Any],
    state: object,
    names: Mapping[PlayerId, str],
    heading: str,
    prompt: str | None,
    said: Sequence[str],
    events: Sequence[Event] = (),
) -> str:
    """A board picture's alt text, in the language spoken: the heading (the game and its
    move), the turn just played in a sentence when `events` (the game's public events
    since the last board) are several moves, whose turn (or how it ended), the standings,
    then what the moves did (`said`: the public narration of `events`), all of it within
    `SUMMED_MAX` characters once summed up."""
    summary = presenter.summary(state, events, names) if events else ""
    first = [heading, summary, *([prompt] if prompt else []), *presenter.standings(state, names)]
    limit = SUMMED_MAX if summary else ALT_MAX
    return joined(
        [plain(line, names) for line in first], [plain(line, names) for line in said], limit
    )
