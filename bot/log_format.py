"""How log lines are written: for people (discord.py's format, the default) or, with
`LOG_FORMAT=json`, one JSON object per line for log collectors.

A JSON line carries the time (UTC, ISO 8601), level, logger and message, the traceback when
there is one, and the game and server it concerns when there is one: the game the task last
loaded (`GameService.table` calls `about_game`). In JSON mode everything else the process
writes on stderr is a JSON line too: the last line of a failed start (`report`, with its exit
status), an uncaught exception (`sys.excepthook`, a thread's), a Python warning.

No level logs members' names: discord.py's gateway and HTTP payloads and the database
driver's statements, which carry them at DEBUG, are kept at INFO (`QUIET`).
"""

from __future__ import annotations

import contextvars
import json
import logging
import sys
import threading
import traceback
from datetime import UTC, datetime

FORMATS = ("text", "json")
# Loggers whose DEBUG lines carry members' names and messages (gateway events, HTTP bodies,
# SQL parameters and rows): never below INFO.
QUIET = ("discord.gateway", "discord.http", "discord.webhook", "aiosqlite")

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
        status = getattr(record, "exit_status", None)
        if status is not None:
            line["exit_status"] = status
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def report(message: str, form: str, *, status: int, error: BaseException | None = None) -> int:
    """The last line of a failed start, on stderr: as it is ("text", after the traceback of
    `error` if given), or one JSON record with the exit status and the traceback ("json").
    Returns `status`, for the caller to exit with."""
    if form != "json":
        if error is not None:
            traceback.print_exception(error)
        print(message, file=sys.stderr)
        return status
    exc_info = None if error is None else (type(error), error, error.__traceback__)
    record = logging.LogRecord("bot", logging.CRITICAL, __file__, 0, message, None, exc_info)
    record.exit_status = status
    print(JsonFormatter().format(record), file=sys.stderr)
    return status


def setup_logging(level: str, form: str) -> None:
    """Log to stderr at `level`, in `form` ("text" or "json")."""
    # Here: a chore that reads this module (for `report`) never waits on discord.py's import.
    import discord

    number = getattr(logging, level, logging.INFO)
    for name in QUIET:
        logging.getLogger(name).setLevel(max(number, logging.INFO))
    if form == "json":
        discord.utils.setup_logging(level=number, formatter=JsonFormatter())
        # Whatever else would write to stderr goes through the formatter too.
        logging.captureWarnings(True)
        sys.excepthook = _log_uncaught
        threading.excepthook = _log_uncaught_in_thread
    else:  # discord.py's own formatter (coloured on a terminal)
        discord.utils.setup_logging(level=number)


def _log_uncaught(kind: type[BaseException], error: BaseException, tb: object) -> None:
    logging.getLogger("bot").critical("uncaught exception", exc_info=error)


def _log_uncaught_in_thread(args: threading.ExceptHookArgs) -> None:
    if args.exc_value is not None:
        name = args.thread.name if args.thread is not None else "?"
        log = logging.getLogger("bot")
        log.error("uncaught exception in thread %s", name, exc_info=args.exc_value)
