"""When an event starts, as its organiser types it: minutes from now, or a UTC time."""

from __future__ import annotations

import re
from datetime import UTC, datetime

_MINUTES = re.compile(r"^(\d{1,5})\s*(?:m|min|minutes?)?$")
_TIME = re.compile(r"^(?:(\d{4}-\d{2}-\d{2})[ t])?(\d{1,2}):(\d{2})(?:\s*utc)?$")


class BadStart(ValueError):
    """A start the bot cannot use: `unparseable` or `past` (the caller words it)."""


def parse_start(text: str, now: float) -> float:
    """The start a member typed, as a unix time: minutes from `now` (`30`, `90m`), or a UTC
    time today (`18:30`) or on a day (`2026-12-05 18:30`). Raises BadStart if unparseable
    or not in the future."""
    text = text.strip().lower()
    if minutes := _MINUTES.match(text):
        start = now + int(minutes.group(1)) * 60
    elif at := _TIME.match(text):
        day = at.group(1) or datetime.fromtimestamp(now, UTC).strftime("%Y-%m-%d")
        try:
            moment = datetime.strptime(f"{day} {at.group(2)}:{at.group(3)}", "%Y-%m-%d %H:%M")
        except ValueError:
            raise BadStart("unparseable") from None
        start = moment.replace(tzinfo=UTC).timestamp()
    else:
        raise BadStart("unparseable")
    if start <= now:
        raise BadStart("past")
    return start
