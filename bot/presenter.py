"""What a game's cog supplies so the shared table plumbing can show it in Discord."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import discord

from rules.core import Action, Event, Outcome, PlayerId


@dataclass(frozen=True)
class ButtonLook:
    label: str
    style: discord.ButtonStyle = discord.ButtonStyle.primary
    emoji: str | None = None


class Presenter(Protocol):
    """Wording and pictures for one game; the only game-specific part of a table."""

    game: str
    title: str
    colour: int
    stat_columns: Mapping[str, str]  # Outcome.stats key -> scoreboard column title

    def render_png(self, state: Any, names: Mapping[PlayerId, str]) -> bytes: ...

    def prompt(self, state: Any, names: Mapping[PlayerId, str]) -> str:
        """Whose turn and what they are to do, e.g. "Ana to roll"."""
        ...

    def narrate(self, events: Sequence[Event], names: Mapping[PlayerId, str]) -> list[str]:
        """One short line per thing that happened."""
        ...

    def button(self, action: Action, state: Any) -> ButtonLook: ...

    def describe_options(self, options: Mapping[str, Any]) -> list[str]: ...

    def result(self, state: Any, outcome: Outcome, names: Mapping[PlayerId, str]) -> str: ...
