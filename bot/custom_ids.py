"""Versioned custom ids for every Parlour button: built and parsed only here.

`v1:<game>:<game_id>:<step>:<verb>[:<arg>]`, at most 100 characters (Discord's limit). The
id carries everything a click needs, so a board keeps working across restarts. `step` is
the game step the button belongs to (a click on an older board is refused), or `-` for
buttons that are not tied to a step (the lobby, "My cards").

A select menu is `v1:<game>:<game_id>:<step>:menu:<n>` (n tells a board's menus apart); each
of its options has the value `<verb>[:<arg>]`, so a choice decodes to the same ButtonId.
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
    `GameSelect`); any other click is from an older version, or not ours."""
    return bool(_PATTERN.fullmatch(custom_id) or _MENU_PATTERN.fullmatch(custom_id))


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
