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

from bot.language.wording import without_mentions
from bot.table.presenter import Presenter
from rules.core import PlayerId

ALT_MAX = 1024  # Discord's limit for an attachment's description


def plain(text: str, names: Mapping[PlayerId, str]) -> str:
    """`text` as a screen reader should hear it: names, not mention ids, and no markdown
    marks (read out as "asterisk asterisk")."""
    text = spoken(without_mentions(text, names)).replace("**", "").replace("`", "")
    return " ".join(text.split())


def spoken(text: str) -> str:
    """Separators a screen reader reads out ("punto medio") as commas, which it pauses at."""
    return text.replace(" · ", ", ")


def sentence(text: str) -> str:
    """`text` ending as a sentence, so lines read one after another don't run together."""
    return text if not text or text[-1] in ".!?…:" else text + "."


def joined(first: Sequence[str], rest: Sequence[str] = ()) -> str:
    """`first` whole (shortened with "…" if even it is too long), then as many of the
    newest lines of `rest` as fit, in their order: at most `ALT_MAX` characters."""
    text = " ".join(sentence(line) for line in first if line)
    if len(text) > ALT_MAX:
        return text[: ALT_MAX - 1].rstrip() + "…"
    kept: list[str] = []
    room = ALT_MAX - len(text)
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
) -> str:
    """A board picture's alt text, in the language spoken: the heading (the game and its
    move), whose turn (or how it ended), the standings, then what the last move did (`said`:
    the public narration of its events)."""
    first = [heading, *([prompt] if prompt else []), *presenter.standings(state, names)]
    return joined([plain(line, names) for line in first], [plain(line, names) for line in said])
