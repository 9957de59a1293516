"""Versioned custom ids for every Parlour button: built and parsed only here.

`v1:<game>:<game_id>:<step>:<verb>[:<arg>]`, at most 100 characters (Discord's limit). The
id carries everything a click needs, so a board keeps working across restarts. `step` is
the game step the button belongs to (a click on an older board is refused), or `-` for
buttons that are not tied to a step (the lobby, "My cards").

A select menu is `v1:<game>:<game_id>:<step>:menu:<n>` (n tells a board's menus apart); each
of its options has the value `<verb>[:<arg>]`, so a choice decodes to the same ButtonId.

Private viewers (ephemeral messages) have buttons of their own, each naming the member the
viewer belongs to: the replay viewer's `rv1:<owner>:<game_id>:<step>:<tag>` (the step the
click shows), `/history`'s `hp1:<owner>:<page>:<game>:<user>:<tag>` (`-` for no filter) and
`/forget-me`'s confirm, `fm1:<owner>:<yes|no>`.
The tag tells apart buttons of one message that lead to the same place.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

VERSION = "v1"
MAX_LENGTH = 100
_HEAD = r"v1:(?P<game>[a-z_]+):(?P<game_id>[0-9]+):(?P<step>[0-9]+|-):"
_ACTION = r"(?P<verb>[a-z_]+)(?::(?P<arg>[A-Za-z0-9_.,-]*))?"
MENU_VERB = "menu"
BOX_VERB = "ask"  # a "Type a number…" button; the box it opens has the same custom id
# A button's verb is never "menu", so a select's id can't be mistaken for a button's.
TEMPLATE = _HEAD + rf"(?!{MENU_VERB}(?::|$)){_ACTION}"
MENU_TEMPLATE = _HEAD + rf"{MENU_VERB}:(?P<menu>[0-9]+)"
_PATTERN = re.compile(TEMPLATE)
_MENU_PATTERN = re.compile(MENU_TEMPLATE)
_VALUE_PATTERN = re.compile(_ACTION)
_TAG = r"(?P<tag>[a-z_]+)"
VIEWER_TEMPLATE = rf"rv1:(?P<owner>[0-9]+):(?P<game_id>[0-9]+):(?P<step>[0-9]+):{_TAG}"
PAGE_TEMPLATE = (
    rf"hp1:(?P<owner>[0-9]+):(?P<page>[0-9]+):(?P<game>[a-z_]+|-):(?P<user>[0-9]+|-):{_TAG}"
)
# `/forget-me`'s confirm: the member asking, and their answer.
FORGET_TEMPLATE = r"fm1:(?P<owner>[0-9]+):(?P<choice>yes|no)"
_VIEWER_PATTERN = re.compile(VIEWER_TEMPLATE)
_PAGE_PATTERN = re.compile(PAGE_TEMPLATE)


@dataclass(frozen=True)
class ButtonId:
    game: str
    game_id: int
    step: int | None
    verb: str
    arg: str = ""

    def encode(self) -> str:
        text = f"{self._head()}:{self.value()}"
        if len(text) > MAX_LENGTH or not _PATTERN.fullmatch(text):
            raise ValueError(f"not a valid custom id: {text!r}")
        return text

    def value(self) -> str:
        """The action part, `<verb>[:<arg>]`: also a select option's value."""
        return f"{self.verb}:{self.arg}" if self.arg else self.verb

    def menu_id(self, n: int) -> str:
        """The custom id of the board's n-th select menu, at this id's step."""
        return f"{self._head()}:{MENU_VERB}:{n}"

    def _head(self) -> str:
        step = "-" if self.step is None else str(self.step)
        return f"{VERSION}:{self.game}:{self.game_id}:{step}"


@dataclass(frozen=True)
class ViewerId:
    """A replay viewer's button: show `game_id` at `step` to `owner`."""

    owner: int
    game_id: int
    step: int
    tag: str

    def encode(self) -> str:
        return _checked(f"rv1:{self.owner}:{self.game_id}:{self.step}:{self.tag}", _VIEWER_PATTERN)

    @classmethod
    def parse(cls, custom_id: str) -> ViewerId:
        m = _fullmatch(_VIEWER_PATTERN, custom_id)
        return cls(int(m["owner"]), int(m["game_id"]), int(m["step"]), m["tag"])


@dataclass(frozen=True)
class PageId:
    """A `/history` button: show `owner` page `page` of the list, filtered as it was."""

    owner: int
    page: int
    game: str | None
    user: int | None
    tag: str

    def encode(self) -> str:
        user = "-" if self.user is None else str(self.user)
        text = f"hp1:{self.owner}:{self.page}:{self.game or '-'}:{user}:{self.tag}"
        return _checked(text, _PAGE_PATTERN)

    @classmethod
    def parse(cls, custom_id: str) -> PageId:
        m = _fullmatch(_PAGE_PATTERN, custom_id)
        game, user = m["game"], m["user"]
        return cls(
            int(m["owner"]),
            int(m["page"]),
            None if game == "-" else game,
            None if user == "-" else int(user),
            m["tag"],
        )


def _checked(text: str, pattern: re.Pattern[str]) -> str:
    if len(text) > MAX_LENGTH or not pattern.fullmatch(text):
        raise ValueError(f"not a valid custom id: {text!r}")
    return text


def _fullmatch(pattern: re.Pattern[str], custom_id: str) -> re.Match[str]:
    match = pattern.fullmatch(custom_id)
    if match is None:
        raise ValueError(f"not a Parlour custom id: {custom_id!r}")
    return match


def parse(custom_id: str) -> ButtonId:
    match = _PATTERN.fullmatch(custom_id)
    if match is None:
        raise ValueError(f"not a Parlour custom id: {custom_id!r}")
    return _button_id(match, match)


def parse_choice(menu_custom_id: str, value: str) -> ButtonId:
    """The ButtonId of the option `value` chosen in the select menu `menu_custom_id`."""
    menu = _MENU_PATTERN.fullmatch(menu_custom_id)
    action = _VALUE_PATTERN.fullmatch(value)
    if menu is None or action is None:
        raise ValueError(f"not a Parlour menu choice: {menu_custom_id!r} {value!r}")
    return _button_id(menu, action)


def _button_id(head: re.Match[str], action: re.Match[str]) -> ButtonId:
    step = head["step"]
    return ButtonId(
        game=head["game"],
        game_id=int(head["game_id"]),
        step=None if step == "-" else int(step),
        verb=action["verb"],
        arg=action["arg"] or "",
    )


def is_parlour_id(custom_id: str) -> bool:
    """True for a custom id this version's buttons and menus answer (`GameButton`,
    `GameSelect`, the viewers' buttons); any other click is from an older version, or not
    ours."""
    return any(
        re.fullmatch(p, custom_id)
        for p in (_PATTERN, _MENU_PATTERN, _VIEWER_PATTERN, _PAGE_PATTERN, FORGET_TEMPLATE)
    )


def is_box_id(custom_id: str) -> bool:
    """True for the custom id of a number box (the "Type a number…" button's own id)."""
    match = _PATTERN.fullmatch(custom_id)
    return match is not None and match["verb"] == BOX_VERB


def typed_value(data: Mapping[str, Any]) -> str:
    """The text typed in a submitted number box (a modal's only text input)."""
    for row in data.get("components", []):
        for component in row.get("components", [row.get("component", {})]):
            if isinstance(component, Mapping) and "value" in component:
                return str(component["value"])
    return ""
