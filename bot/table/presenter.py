"""What a game's cog supplies so the shared table plumbing can show it in Discord.

A game subclasses `Presenter` and fills in its wording and pictures; the defaults suit a game
of public information played with buttons (Cock & Bull), and each hook says what a game with
more (menus, private hands, chapters, replays, sides) overrides.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

import discord

from bot.language.i18n import NP_, pgettext
from rules.core import Action, Engine, Event, Outcome, PlayerId

S = TypeVar("S")


@dataclass(frozen=True)
class ButtonLook:
    """How an action is offered. With `menu` set it is an option of the select menu of that
    name (placeholder) instead of a button; `description` is the option's second line."""

    label: str
    style: discord.ButtonStyle = discord.ButtonStyle.primary
    emoji: str | None = None
    menu: str | None = None
    description: str | None = None


@dataclass(frozen=True)
class NumberBox:
    """A number the player types instead of picking it from a list too long for the board:
    a "Type a number…" button opens a box (a Discord modal) asking for `verb`'s number from
    `low` to `high`. The engine validates whatever is typed."""

    verb: str
    low: int
    high: int
    title: str  # the box's title, a question: "How many armies move into Ural?"


@dataclass(frozen=True)
class Picture:
    """The board's image attachment: a still PNG, or an animated replay (GIF/WebP)."""

    data: bytes
    filename: str = "board.png"


@dataclass(frozen=True)
class Zoom:
    """A part of a board shown at full size (a Risk continent): the menu's choice of it."""

    key: str  # a custom id's argument: letters, digits and _ only
    label: str


class Presenter(ABC, Generic[S]):
    """Wording and pictures for one game; the only game-specific part of a table.

    `S` is the game's state (its engine's): `class RiskPresenter(Presenter[RiskState])`,
    and `engine` the game's rules, from which its `game` and `title` are taken.
    """

    engine: ClassVar[Engine[Any]]
    game: ClassVar[str]  # the engine's name
    title: ClassVar[str]  # the engine's title, as players read it
    colour: ClassVar[int]
    stat_columns: ClassVar[Mapping[str, str]] = {}  # Outcome.stats key -> title (N_)
    # The label of the button that opens a player's private panel ("My cards"); None when
    # the game has no hidden information and no private choices.
    private_label: ClassVar[str | None] = None
    # Side names for a lobby where players join a side; empty when seats are just in order.
    sides: ClassVar[Sequence[str]] = ()
    # True when a turn is many small actions (Risk: place, attack, move in...): the AI then
    # plays a bot's or an absent player's whole turn before the board is edited once.
    batch_ai_moves: ClassVar[bool] = False
    # What a chapter is called in this game ("race", "turn"), for the replay viewer's jumps:
    # a catalog message in the context "chapter" (`chapter_word` translates it), apart from
    # the same English elsewhere ("turn" as counted in a result line).
    chapter_name: ClassVar[str] = NP_("chapter", "chapter")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Name the game as its engine does (a subclass of a game's presenter keeps its game)."""
        super().__init_subclass__(**kwargs)
        if "engine" in vars(cls):
            cls.game, cls.title = cls.engine.name, cls.engine.title

    def chapter_word(self) -> str:
        """`chapter_name` in the current language."""
        return pgettext("chapter", self.chapter_name)

    @abstractmethod
    def render_png(self, state: S, names: Mapping[PlayerId, str]) -> bytes:
        """The still board of `state` as a PNG, drawn in the current language."""
        ...

    # True when a picture after some events is not the still board of the state (a shot's
    # replay, a race's payout): a chapter's closing board and the next then differ.
    pictures_events: ClassVar[bool] = False

    def picture(self, state: S, names: Mapping[PlayerId, str], events: Sequence[Event]) -> Picture:
        """The board's picture after `events` (a game with replays animates them here;
        one that overrides this sets `pictures_events`)."""
        return Picture(self.render_png(state, names))

    def slow_action(self, action: Action) -> bool:
        """True when applying `action` and drawing its picture (a shot's physics and replay)
        may take long enough that the click must be deferred first."""
        return False

    @abstractmethod
    def prompt(self, state: S, names: Mapping[PlayerId, str]) -> str:
        """Whose turn and what they are to do, e.g. "Ana to roll"."""
        ...

    @abstractmethod
    def narrate(self, events: Sequence[Event], names: Mapping[PlayerId, str]) -> list[str]:
        """One short line per public thing that happened (private events are worded by
        `narrate_private`)."""
        ...

    def summary(self, state: S, events: Sequence[Event], names: Mapping[PlayerId, str]) -> str:
        """One sentence for a turn of several moves that `events` (public) tell, as the alt
        text says it before the move-by-move lines ("Leo rolled 4 times and placed 3 chips"):
        empty when they are one move, which its own line says."""
        return ""

    def narrate_private(
        self, events: Sequence[Event], player: PlayerId, names: Mapping[PlayerId, str]
    ) -> list[str]:
        """Lines for `player` alone about the events only they may see."""
        return []

    @abstractmethod
    def button(self, action: Action, state: S) -> ButtonLook:
        """How `action` is offered: a button, or an option of a select menu."""
        ...

    def is_private(self, action: Action, state: S) -> bool:
        """True for an action whose label would reveal a secret (a hidden chip, a card): it is
        offered only in the player's private panel, never on the public board."""
        return False

    def number_box(self, state: S, player: PlayerId) -> NumberBox | None:
        """A number `player` may type now; when there is one, the board offers only the
        buttons of that verb (the quick choices) and the box, not its menu options."""
        return None

    def private(self, state: S, player: PlayerId, names: Mapping[PlayerId, str]) -> str:
        """The text of `player`'s private panel: their hand, mission, hidden chips."""
        return ""

    def standings(self, state: S, names: Mapping[PlayerId, str]) -> list[str]:
        """Short lines of what the picture shows at a glance, after whose turn it is: the
        score or standings, where things stand. Public information only: it is the
        picture's alt text, which everyone's screen reader reads."""
        return []

    def text_board(
        self, state: S, names: Mapping[PlayerId, str], viewer: PlayerId | None = None
    ) -> list[str]:
        """The whole position as short lines for a screen reader (no tables drawn in
        characters), public information only, seen from `viewer`'s side when they play
        (Risk: their borders): the clicker's own secrets are added from `private`."""
        return self.standings(state, names)

    # Parts of the board a member may see at full size (🔍), e.g. Risk's continents.
    zoomable: ClassVar[bool] = False

    def zooms(self, state: S) -> list[Zoom]:
        """The parts of the board `zoom` can show, in the menu's order."""
        return []

    def zoom_default(self, state: S) -> str:
        """The part shown first: where the action is."""
        return ""

    def zoom(self, state: S, names: Mapping[PlayerId, str], key: str) -> tuple[bytes, list[str]]:
        """The picture of part `key` of the board, and its text (what it shows, which is
        also its alt text)."""
        raise NotImplementedError

    def chapter(self, state: S) -> int:
        """A new board message is posted when this changes (a race, a turn), so the thread
        reads as a history instead of one message edited for hours."""
        return 0

    @abstractmethod
    def describe_options(self, options: Mapping[str, Any]) -> list[str]:
        """The lobby card's "House rules" lines for the game's stored `options`."""
        ...

    @abstractmethod
    def result(self, state: S, outcome: Outcome, names: Mapping[PlayerId, str]) -> str:
        """The board's last line once the game is over: who won, and how."""
        ...
