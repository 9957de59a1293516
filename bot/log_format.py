"""How log lines are written: for people (discord.py's format, the default) or, with
`LOG_FORMAT=json`, one JSON object per line for log collectors.

A JSON line carries the time (UTC, ISO 8601), level, logger and message, the traceback when
there is one, and the game and server it concerns when there is one: the game the task last
loaded (`GameService.table` calls `about_game`).
"""

from __future__ import annotations

import contextvars
import json
import logging
from datetime import UTC, datetime

import discord

FORMATS = ("text", "json")

# (game id, server id) of the game the current task is working on, if any.
_game: contextvars.ContextVar[tuple[int, int] | None] = contextvars.ContextVar(
    "log_game", default=None
)


def about_game(game_id: int, guild_id: int) -> None:
    """Log lines of this task from now on concern this game (of this server)."""
    _game.set((game_id, guild_id))


class JsonFormatter(logging.Formatter):
    """Log records as one JSON object per line (`LOG_FORMAT=json`), naming the game they concern."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as a JSON line: time, level, logger, message, traceback, and the ids of the
        game and server the task is working on."""
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        game = _game.get()
        if game is not None:
            line["game_id"], line["guild_id"] = game
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def setup_logging(level: str, form: str) -> None:
    """Log to stderr at `level`, in `form` ("text" or "json")."""
    number = getattr(logging, level, logging.INFO)
    if form == "json":
        discord.utils.setup_logging(level=number, formatter=JsonFormatter())
    else:  # discord.py's own formatter (coloured on a terminal)
        discord.utils.setup_logging(level=number)
