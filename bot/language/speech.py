"""Text as a screen reader should hear it, in the language being spoken: one place for every
text that is read out rather than looked at (a picture's alt text, the 📝 text board, the 🔍
zoom's text, a board's embed title).

Boards write for the eye: an emoji before the word it pictures ("🐂 Bull"), symbols that
say a word ("8 ×2", "13 → 16", "Risk · #42") and abbreviations ("n.º 3", "2.ª", "4 pulg.").
Read out they are doubled ("ox Bull"), lost ("eight two") or misread ("hash", "eneo",
"dos punto a"). `spoken` writes each as the word it stands for, from the catalog, so a
Spanish game hears Spanish. Pictures, buttons and the chat lines keep their symbols.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.language.i18n import NP_, _, ngettext, pgettext

# Emoji and pictographs: each pictures the word beside it or decorates (a screen reader
# reads its name: "rooster Cock", "play button"). Dice faces (⚀–⚅) too: the total is said.
_PICTURES = re.compile(
    "[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\u23e9-\u23fa\u25b6\u25c0\ufe0f\u200d]+ ?"
)
# Ordinals by their gender, written out: "2.ª" is heard "dos punto a".
FEMININE = (
    NP_("ordinal, feminine", "first"),
    NP_("ordinal, feminine", "second"),
    NP_("ordinal, feminine", "third"),
    NP_("ordinal, feminine", "fourth"),
    NP_("ordinal, feminine", "fifth"),
    NP_("ordinal, feminine", "sixth"),
    NP_("ordinal, feminine", "seventh"),
)
MASCULINE = (
    NP_("ordinal, masculine", "first"),
    NP_("ordinal, masculine", "second"),
    NP_("ordinal, masculine", "third"),
    NP_("ordinal, masculine", "fourth"),
    NP_("ordinal, masculine", "fifth"),
    NP_("ordinal, masculine", "sixth"),
    NP_("ordinal, masculine", "seventh"),
)


def _ordinal(match: re.Match[str]) -> str:
    n, mark = int(match[1]), match[2]
    words, context = (
        (FEMININE, "ordinal, feminine") if mark == "ª" else (MASCULINE, "ordinal, masculine")
    )
    return pgettext(context, words[n - 1]) if 0 < n <= len(words) else f"{n}{mark}"


def _game(match: re.Match[str]) -> str:
    # "set #2" numbers a thing; "Risk #42" or "Risk · #42" is the game's number.
    if match[1]:
        return match[1] + _("number {number}").format(number=match[2])
    return _("game {number}").format(number=match[2])


def _copies(match: re.Match[str]) -> str:
    n = int(match[2])
    return match[1] + " " + ngettext("({n} card)", "({n} cards)", n).format(n=n)


# In order: each is (pattern, what it is heard as). Markdown and mentions are `plain`'s.
_RULES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (_PICTURES, lambda m: ""),
    (re.compile(r"^[•\-] ", re.MULTILINE), lambda m: ""),  # a list's bullet: "bullet"
    (re.compile(r" · "), lambda m: ", "),  # "punto medio": a comma, paused at
    (re.compile(r"(\S+) ×(\d+)"), _copies),  # a hand's "8 ×2": two cards of horse 8
    (re.compile(r"\b([A-Z]\w*) #(?=\d)"), lambda m: m[1] + ", #"),  # "Risk #42": a pause
    (re.compile(r"(\b[a-z]+ )?#(\d+)"), _game),
    (re.compile(r"\bn\.º ?"), lambda m: _("number") + " "),
    (re.compile(r"(\d+)\.?([ºª])"), _ordinal),
    (
        re.compile(r"(?<![+\d])(\d+) → (\d+)(?!/)"),
        lambda m: _("from {start} to {end}").format(start=m[1], end=m[2]),
    ),
    (re.compile(r" → "), lambda m: " " + _("to") + " "),
    (re.compile(r"(\d+)/(\d+)"), lambda m: _("{part} of {whole}").format(part=m[1], whole=m[2])),
    (re.compile(r"(\d)-(?=\d)"), lambda m: m[1] + ", "),  # dice "4-2-1": "four dash two"
    (re.compile(r"(\d)–(?=\d)"), lambda m: m[1] + " " + _("to") + " "),  # a score "18–5"
    (re.compile(r" vs | v (?=\d)"), lambda m: " " + _("against") + " "),
    (re.compile(r"(?<=[\w)]) \?(?=[\s,;.)]|$)"), lambda m: " " + _("(hidden)")),  # a hidden chip
    # "pulg." or a bare "pulg", never the start of a word already written out ("pulgadas").
    (re.compile(r"(?<=[\d½]) pulg(?:\.|\b)"), lambda m: " " + _("inches")),
    (re.compile(r"(?<=[\d½]) in(?= from the end)"), lambda m: " " + _("inches")),
    (re.compile(r"(\bzone\b[^.;:]*?[\d½]) in\b"), lambda m: m[1] + " " + _("inches")),
    (re.compile(r"(?<=\d) ft\b"), lambda m: " " + _("feet")),
    (re.compile(r"(\d)½"), lambda m: _("{whole} and a half").format(whole=m[1])),
    (re.compile(r" & |(?<=[^\d\s]) \+ (?=[^\d\s+])"), lambda m: " " + _("and") + " "),  # faces
)


def spoken(text: str) -> str:
    """`text` as a screen reader should hear it, in the language being spoken: no emoji,
    symbols and abbreviations in words, "·" as a pause. Line breaks are kept."""
    for pattern, heard in _RULES:
        text = pattern.sub(heard, text)
    return "\n".join(" ".join(line.split()) for line in text.split("\n"))
