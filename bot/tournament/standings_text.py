"""A tournament's standings in words, in the language being spoken (the caller speaks the
event's): the text that goes with the picture (`images/tournament_standings.py`) and the
picture's alt text, from the same rows, so they never disagree with it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from discord.utils import escape_markdown

from bot.language.i18n import _, ngettext
from bot.language.speech import spoken
from bot.language.wording import FORMER_PLAYER, decimal
from bot.table.alt_text import ALT_MAX
from bot.tournament.scoring import Standing

TEXT_TOP = 20  # lines of the text form: within an embed's 4,096 characters with long names
Row = tuple[Standing, str]  # a standing and the entrant's display name


def named(standings: Sequence[Standing], names: Mapping[int, str | None]) -> list[Row]:
    """Each standing with its entrant's display name: "Former player" for a member forgotten
    or without a name."""
    return [(s, names.get(s.member_id) or _(FORMER_PLAYER)) for s in standings]


def figures(standing: Standing) -> str:
    """An entrant's points, Buchholz and rounds played: "12.5 points · Buchholz 35 · 3
    rounds"."""
    words = ngettext(
        "{points} points · Buchholz {buchholz} · {played} round",
        "{points} points · Buchholz {buchholz} · {played} rounds",
        standing.played,
    )
    return words.format(
        points=decimal(standing.points, "0.#"),
        buchholz=decimal(standing.buchholz, "0.#"),
        played=standing.played,
    )


def more(count: int) -> str:
    """The line under the standings shown: how many entrants there are below."""
    return ngettext("and {count} more entrant", "and {count} more entrants", count).format(
        count=count
    )


def standings_text(rows: Sequence[Row], *, top: int = TEXT_TOP) -> str:
    """The standings as lines of text (markdown), the first `top` entrants then how many
    more there are."""
    if not rows:
        return _("No entrants yet.")
    lines = [f"**{s.rank}.** {escape_markdown(name)} — {figures(s)}" for s, name in rows[:top]]
    if len(rows) > top:
        lines.append(f"…{more(len(rows) - top)}")
    return "\n".join(lines)


def standings_alt(title: str, rows: Sequence[Row]) -> str:
    """The picture's alt text: the title, then as many entrants as fit in Discord's 1,024
    characters from the leader down, then how many more there are."""
    if not rows:
        return spoken(f"{title}. {_('No entrants yet.')}")
    heard = [spoken(f"{s.rank}. {name}: {figures(s)}") for s, name in rows]
    text = spoken(title) + "."
    for n, line in enumerate(heard):
        left = len(heard) - n - 1
        tail = f" {more(left)}." if left else ""
        if len(text) + len(line) + 2 + len(tail) > ALT_MAX:
            rest = more(left + 1)
            return f"{text} {rest[:1].upper()}{rest[1:]}."[:ALT_MAX]
        text += f" {line}."
    return text[:ALT_MAX]
