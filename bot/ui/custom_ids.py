"""Versioned custom ids for every Parlour button: built and parsed only here.

`v1:<game>:<game_id>:<step>:<verb>[:<arg>]`, at most 100 characters (Discord's limit). The
id carries everything a click needs, so a board keeps working across restarts. `step` is
the game step the button belongs to (a click on an older board is refused), or `-` for
buttons that are not tied to a step (the lobby, "My cards").

A select menu is `v1:<game>:<game_id>:<step>:menu:<n>` (n tells a board's menus apart); each
of its options has the value `<verb>[:<arg>]`, so a choice decodes to the same ButtonId; of
the table's verbs, only those `MENU_TABLE_VERBS` names may be chosen in a menu.

Private viewers (ephemeral messages) have buttons of their own, each naming the member the
viewer belongs to: the replay viewer's `rv1:<owner>:<game_id>:<step>:<tag>` (the step the
click shows), `/history`'s `hp1:<owner>:<page>:<game>:<user>:<tag>` (`-` for no filter) and
`/forget-me`'s confirm, `fm1:<owner>:<yes|no>`, and `/my-games`' `mg1:<owner>:<page>:<tag>`.
A tournament's sign-up card has public buttons, `tn1:<tournament>:<join|leave|checkin>`.
The tag tells apart buttons of one message that lead to the same place.

Each kind of id is a class here that names its `TEMPLATE` (the pattern a clicked custom id
is matched against) and `parse`s it; `bot.ui.components.ParlourItem` reads both.

The table's own verbs (the lobby's, a board's, the table menu's) are `TableVerb`: a click
with one of them goes to the table, never to the game, so no game's verb may be one of them
(tests/bot/test_table_verbs.py holds it).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from rules.seats import Verb as SeatVerb


class TableVerb(enum.StrEnum):
    """Every verb the table answers itself, before a game's: posted on Discord messages, so
    a value is never changed."""

    # The lobby (`bot.table.lobby`), and the final board's Rematch.
    JOIN = "join"
    LEAVE = "leave"
    ADD_BOT = "add_bot"
    START = "start"
    CANCEL = "cancel"
    REMATCH = "rematch"
    # A live board (`bot.table.board`): the private panel, a number box, reading it.
    PEEK = "peek"
    ASK = "ask"  # a "Type a number…" button (its arg the number's verb); its box has its id
    TEXT = "text"  # 📝: the board as text, privately (`bot.table.text_board`)
    TEXT_DEFAULT = "text_default"  # the text board's own button: show it after each move
    ZOOM = "zoom"  # 🔍: a part of the board at full size; its arg (in its menu) the part
    # The table menu (`bot.table.table_menu`): resign, end, hand a seat over.
    SEATS = "seats"  # the board's "Resign or end…": opens the menu
    RESIGN_ASK = "resign_ask"
    END_ASK = "end_ask"
    END = "end"
    VOTE_END = "vote_end"
    KEEP = "keep"
    # The seat actions every engine applies (`rules.seats`): the table menu sends them.
    RESIGN = SeatVerb.RESIGN
    HAND_TO_AI = SeatVerb.HAND_TO_AI
    TAKE_SEAT = SeatVerb.TAKE_SEAT
    # A select menu's id (`<head>:menu:<n>`): never a button's verb.
    MENU = "menu"


VERSION = "v1"
MAX_LENGTH = 100
_HEAD = r"v1:(?P<game>[a-z_]+):(?P<game_id>[0-9]+):(?P<step>[0-9]+|-):"
_ACTION = r"(?P<verb>[a-z_]+)(?::(?P<arg>[A-Za-z0-9_.,-]*))?"
# A button's verb is never "menu", so a select's id can't be mistaken for a button's.
TEMPLATE = _HEAD + rf"(?!{TableVerb.MENU}(?::|$)){_ACTION}"
MENU_TEMPLATE = _HEAD + rf"{TableVerb.MENU}:(?P<menu>[0-9]+)"
_PATTERN = re.compile(TEMPLATE)
_MENU_PATTERN = re.compile(MENU_TEMPLATE)
_VALUE_PATTERN = re.compile(_ACTION)
_TAG = r"(?P<tag>[a-z_]+)"
VIEWER_TEMPLATE = rf"rv1:(?P<owner>[0-9]+):(?P<game_id>[0-9]+):(?P<step>[0-9]+):{_TAG}"
# A list filtered by season ends in `:s<number>`; a list of all seasons' games (every id of
# earlier versions) has no such end.
PAGE_TEMPLATE = (
    rf"hp1:(?P<owner>[0-9]+):(?P<page>[0-9]+):(?P<game>[a-z_]+|-):(?P<user>[0-9]+|-):{_TAG}"
    r"(?::s(?P<season>[0-9]+))?"
)
# `/forget-me`'s confirm: the member asking, and their answer.
FORGET_TEMPLATE = r"fm1:(?P<owner>[0-9]+):(?P<choice>yes|no)"
# `/my-games`: the member whose list it is, and the page.
MY_GAMES_TEMPLATE = rf"mg1:(?P<owner>[0-9]+):(?P<page>[0-9]{{1,6}}):{_TAG}"
# `/season end`'s confirm: the admin asking, the season, and their answer.
SEASON_END_TEMPLATE = r"se1:(?P<owner>[0-9]+):(?P<number>[0-9]+):(?P<choice>yes|no)"
# A tournament's sign-up card: the event, and what the click does.
TOURNAMENT_TEMPLATE = r"tn1:(?P<tournament>[0-9]{1,19}):(?P<verb>join|leave|checkin)"
_VIEWER_PATTERN = re.compile(VIEWER_TEMPLATE)
_TOURNAMENT_PATTERN = re.compile(TOURNAMENT_TEMPLATE)
_MY_GAMES_PATTERN = re.compile(MY_GAMES_TEMPLATE)
_PAGE_PATTERN = re.compile(PAGE_TEMPLATE)
_FORGET_PATTERN = re.compile(FORGET_TEMPLATE)
_SEASON_END_PATTERN = re.compile(SEASON_END_TEMPLATE)


@dataclass(frozen=True)
class ButtonId:
    """A board's or a lobby's button: `verb` (a `TableVerb`, or the game's) with its `arg`,
    in game `game_id` at `step` (None: any step)."""

    TEMPLATE: ClassVar[str] = TEMPLATE

    game: str
    game_id: int
    step: int | None
    verb: str
    arg: str = ""

    def encode(self) -> str:
        """The custom id, checked against `TEMPLATE` and Discord's length limit."""
        return _checked(f"{self._head()}:{self.value()}", _PATTERN)

    @classmethod
    def parse(cls, custom_id: str) -> ButtonId:
        """The id a button's `custom_id` encodes (ValueError if it is not one)."""
        match = _fullmatch(_PATTERN, custom_id)
        return _button_id(match, match)

    def value(self) -> str:
        """The action part, `<verb>[:<arg>]`: also a select option's value."""
        return f"{self.verb}:{self.arg}" if self.arg else self.verb

    def menu_id(self, n: int) -> str:
        """The custom id of the board's n-th select menu, at this id's step."""
        return f"{self._head()}:{TableVerb.MENU}:{n}"

    def _head(self) -> str:
        step = "-" if self.step is None else str(self.step)
        return f"{VERSION}:{self.game}:{self.game_id}:{step}"


@dataclass(frozen=True)
class ViewerId:
    """A replay viewer's button: show `game_id` at `step` to `owner`."""

    TEMPLATE: ClassVar[str] = VIEWER_TEMPLATE

    owner: int
    game_id: int
    step: int
    tag: str

    def encode(self) -> str:
        """The custom id, checked against `TEMPLATE` and Discord's length limit."""
        return _checked(f"rv1:{self.owner}:{self.game_id}:{self.step}:{self.tag}", _VIEWER_PATTERN)

    @classmethod
    def parse(cls, custom_id: str) -> ViewerId:
        """The id a viewer button's `custom_id` encodes (ValueError if it is not one)."""
        m = _fullmatch(_VIEWER_PATTERN, custom_id)
        return cls(int(m["owner"]), int(m["game_id"]), int(m["step"]), m["tag"])


@dataclass(frozen=True)
class PageId:
    """A `/history` button: show `owner` page `page` of the list, filtered as it was."""

    TEMPLATE: ClassVar[str] = PAGE_TEMPLATE

    owner: int
    page: int
    game: str | None
    user: int | None
    tag: str
    season: int | None = None  # only the games of this season of the server

    def encode(self) -> str:
        """The custom id, checked against `TEMPLATE` and Discord's length limit."""
        user = "-" if self.user is None else str(self.user)
        text = f"hp1:{self.owner}:{self.page}:{self.game or '-'}:{user}:{self.tag}"
        if self.season is not None:
            text += f":s{self.season}"
        return _checked(text, _PAGE_PATTERN)

    @classmethod
    def parse(cls, custom_id: str) -> PageId:
        """The id a `/history` button's `custom_id` encodes (ValueError if it is not one)."""
        m = _fullmatch(_PAGE_PATTERN, custom_id)
        game, user = m["game"], m["user"]
        return cls(
            int(m["owner"]),
            int(m["page"]),
            None if game == "-" else game,
            None if user == "-" else int(user),
            m["tag"],
            None if m["season"] is None else int(m["season"]),
        )


@dataclass(frozen=True)
class ForgetId:
    """A `/forget-me` button: `owner`'s answer, `yes` (forget me) or `no`."""

    TEMPLATE: ClassVar[str] = FORGET_TEMPLATE

    owner: int
    choice: str

    def encode(self) -> str:
        """The custom id, checked against `TEMPLATE` and Discord's length limit."""
        return _checked(f"fm1:{self.owner}:{self.choice}", _FORGET_PATTERN)

    @classmethod
    def parse(cls, custom_id: str) -> ForgetId:
        """The id a `/forget-me` button's `custom_id` encodes (ValueError if it is not one)."""
        m = _fullmatch(_FORGET_PATTERN, custom_id)
        return cls(int(m["owner"]), m["choice"])


@dataclass(frozen=True)
class MyGamesId:
    """A `/my-games` button: show `owner` page `page` of their games."""

    TEMPLATE: ClassVar[str] = MY_GAMES_TEMPLATE

    owner: int
    page: int
    tag: str

    def encode(self) -> str:
        """The custom id, checked against `TEMPLATE` and Discord's length limit."""
        return _checked(f"mg1:{self.owner}:{self.page}:{self.tag}", _MY_GAMES_PATTERN)

    @classmethod
    def parse(cls, custom_id: str) -> MyGamesId:
        """The id a `/my-games` button's `custom_id` encodes (ValueError if it is not one)."""
        m = _fullmatch(_MY_GAMES_PATTERN, custom_id)
        return cls(int(m["owner"]), int(m["page"]), m["tag"])


@dataclass(frozen=True)
class SeasonEndId:
    """A `/season end` button: `owner`'s answer about ending season `number`, `yes` or `no`."""

    TEMPLATE: ClassVar[str] = SEASON_END_TEMPLATE

    owner: int
    number: int
    choice: str

    def encode(self) -> str:
        """The custom id, checked against `TEMPLATE` and Discord's length limit."""
        return _checked(f"se1:{self.owner}:{self.number}:{self.choice}", _SEASON_END_PATTERN)

    @classmethod
    def parse(cls, custom_id: str) -> SeasonEndId:
        """The id a `/season end` button's `custom_id` encodes (ValueError if not one)."""
        m = _fullmatch(_SEASON_END_PATTERN, custom_id)
        return cls(int(m["owner"]), int(m["number"]), m["choice"])


@dataclass(frozen=True)
class TournamentId:
    """A tournament card's button: `verb` (`join`, `leave` or `checkin`) in event
    `tournament`."""

    TEMPLATE: ClassVar[str] = TOURNAMENT_TEMPLATE

    tournament: int
    verb: str

    def encode(self) -> str:
        """The custom id, checked against `TEMPLATE` and Discord's length limit."""
        return _checked(f"tn1:{self.tournament}:{self.verb}", _TOURNAMENT_PATTERN)

    @classmethod
    def parse(cls, custom_id: str) -> TournamentId:
        """The id a tournament card's button encodes (ValueError if not one)."""
        m = _fullmatch(_TOURNAMENT_PATTERN, custom_id)
        return cls(int(m["tournament"]), m["verb"])


def _checked(text: str, pattern: re.Pattern[str]) -> str:
    if len(text) > MAX_LENGTH or not pattern.fullmatch(text):
        raise ValueError(f"not a valid custom id: {text!r}")
    return text


def _fullmatch(pattern: re.Pattern[str], custom_id: str) -> re.Match[str]:
    match = pattern.fullmatch(custom_id)
    if match is None:
        raise ValueError(f"not a Parlour custom id: {custom_id!r}")
    return match


# The table's verbs a select menu offers (the seat handed to the AI, the part zoomed into);
# every other table verb is a button's alone: resigning and ending only after their confirm.
MENU_TABLE_VERBS = frozenset({TableVerb.HAND_TO_AI, TableVerb.ZOOM})
_BUTTON_VERBS = frozenset(TableVerb) - MENU_TABLE_VERBS


def parse_choice(menu_custom_id: str, value: str) -> ButtonId:
    """The ButtonId of the option `value` chosen in the select menu `menu_custom_id`: a
    game's action, or one of `MENU_TABLE_VERBS` (ValueError for anything else)."""
    menu = _MENU_PATTERN.fullmatch(menu_custom_id)
    action = _VALUE_PATTERN.fullmatch(value)
    if menu is None or action is None:
        raise ValueError(f"not a Parlour menu choice: {menu_custom_id!r} {value!r}")
    if action["verb"] in _BUTTON_VERBS:
        raise ValueError(f"a button's verb, not a menu's: {value!r}")
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
    """True for a custom id this version's buttons and menus answer (every
    `bot.ui.components.ParlourItem`); any other click is from an older version, or not
    ours."""
    return any(
        re.fullmatch(p, custom_id)
        for p in (
            _PATTERN,
            _MENU_PATTERN,
            _VIEWER_PATTERN,
            _PAGE_PATTERN,
            _FORGET_PATTERN,
            _MY_GAMES_PATTERN,
            _SEASON_END_PATTERN,
            _TOURNAMENT_PATTERN,
        )
    )


def is_box_id(custom_id: str) -> bool:
    """True for the custom id of a number box (the "Type a number…" button's own id)."""
    match = _PATTERN.fullmatch(custom_id)
    return match is not None and match["verb"] == TableVerb.ASK


def typed_value(data: Mapping[str, Any]) -> str:
    """The text typed in a submitted number box (a modal's only text input)."""
    for row in data.get("components", []):
        for component in row.get("components", [row.get("component", {})]):
            if isinstance(component, Mapping) and "value" in component:
                return str(component["value"])
    return ""
