"""Versioned custom ids for every Parlour button: built and parsed only here.

`v1:<game>:<game_id>:<step>:<verb>[:<arg>]`, at most 100 characters (Discord's limit). The
id carries everything a click needs, so a board keeps working across restarts. `step` is
the game step the button belongs to (a click on an older board is refused), or `-` for
buttons that are not tied to a step (the lobby, "My cards").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

VERSION = "v1"
MAX_LENGTH = 100
TEMPLATE = (
    r"v1:(?P<game>[a-z_]+):(?P<game_id>[0-9]+):(?P<step>[0-9]+|-):(?P<verb>[a-z_]+)"
    r"(?::(?P<arg>[A-Za-z0-9_.,-]*))?"
)
_PATTERN = re.compile(TEMPLATE)


@dataclass(frozen=True)
class ButtonId:
    game: str
    game_id: int
    step: int | None
    verb: str
    arg: str = ""

    def encode(self) -> str:
        step = "-" if self.step is None else str(self.step)
        text = f"{VERSION}:{self.game}:{self.game_id}:{step}:{self.verb}"
        if self.arg:
            text += f":{self.arg}"
        if len(text) > MAX_LENGTH or not _PATTERN.fullmatch(text):
            raise ValueError(f"not a valid custom id: {text!r}")
        return text


def parse(custom_id: str) -> ButtonId:
    match = _PATTERN.fullmatch(custom_id)
    if match is None:
        raise ValueError(f"not a Parlour custom id: {custom_id!r}")
    step = match["step"]
    return ButtonId(
        game=match["game"],
        game_id=int(match["game_id"]),
        step=None if step == "-" else int(step),
        verb=match["verb"],
        arg=match["arg"] or "",
    )
