"""A server admin's chores: `backup` beside a running bot, `forget-user` and
`forget-server` for a deletion request, `export-user` for a request of access (`check` and
`restore` have their own modules).

`backup` reads the database without its instance lock (the bot may be running on it) and
never migrates it. The forgetting chores write, as the bot does (on SQLite, with the bot
stopped: one process per file).
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

from bot.ops.export import member_data
from bot.ops.forget import Forgotten, forget_member
from bot.service import GameService
from bot.settings import Settings
from bot.storage import open_storage
from bot.storage.url import redacted
from rules.registry import ENGINES


class BackupRefused(Exception):
    """The backup can't be made; the message says why and what to do."""


def backup(settings: Settings, destination: Path) -> int:
    """Copy the SQLite database to `destination` with SQLite's online backup API: a
    consistent snapshot even while the bot writes. Returns the number of games copied."""
    source = settings.sqlite_path
    if source is None:
        raise BackupRefused(
            f"DATABASE_URL={redacted(settings.database_url)!r} is PostgreSQL: back it up with "
            "PostgreSQL's own tool, e.g. `pg_dump --format=custom --file=parlour.dump <url>`."
        )
    if destination.exists():
        raise BackupRefused(f"{str(destination)!r} exists already: give a new file name.")
    with (
        closing(sqlite3.connect(f"{Path(source).resolve().as_uri()}?mode=ro", uri=True)) as db,
        closing(sqlite3.connect(destination)) as copy,
    ):
        db.backup(copy)  # one step: the whole database as of one moment
        (ok,) = copy.execute("PRAGMA integrity_check").fetchone()
        if ok != "ok":
            raise BackupRefused(f"The copy at {str(destination)!r} is damaged: {ok}.")
        (games,) = copy.execute("SELECT COUNT(*) FROM games").fetchone()
    return int(games)


async def forget_user(settings: Settings, player_id: int) -> Forgotten:
    """Remove a member's personal data, as their `/forget-me` does (`bot.ops.forget`)."""
    storage = await open_storage(settings.database_url)
    try:
        return await forget_member(GameService(storage, ENGINES), storage, player_id)
    finally:
        await storage.close()


async def export_user(settings: Settings, player_id: int) -> dict[str, Any]:
    """A member's copy of their data, as their `/my-data` gives it (`bot.ops.export`): read
    as the database is, beside a running bot, creating nothing."""
    storage = await open_storage(settings.database_url, inspect=True)
    try:
        return await member_data(storage, player_id)
    finally:
        await storage.close()


async def forget_server(settings: Settings, guild_id: int) -> int:
    """Delete everything kept about a server; the number of its games deleted."""
    storage = await open_storage(settings.database_url)
    try:
        return await storage.forget_guild(guild_id)
    finally:
        await storage.close()
