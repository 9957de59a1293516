"""A server admin's chores: `backup` and `check` beside a running bot, `forget-user` and
`forget-server` for a deletion request.

`backup` and `check` read the database without its instance lock (the bot may be running
on it) and never migrate it: they report what is there. The forgetting chores write, as the
bot does (on SQLite, with the bot stopped: one process per file).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

from bot.errors import GameUnreadable
from bot.ops.forget import Forgotten, forget_member
from bot.service import GameService
from bot.settings import Settings
from bot.storage import ACTIVE, DatabaseUnavailable, Storage, migrations, open_storage
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
    if not Path(source).is_file():
        raise BackupRefused(f"There is no database at {source!r} to back up.")
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


async def check(settings: Settings, note: Callable[[str], object] = print) -> list[str]:
    """One line per problem found in the settings and the database; empty if none. What
    is worth knowing but no problem (a database not created yet) goes to `note`."""
    problems = []
    if not settings.token:
        problems.append("DISCORD_TOKEN is not set: the bot can't log in to Discord.")
    path = settings.sqlite_path
    if path is not None and not Path(path).exists():  # a fresh machine
        folder = Path(path).resolve().parent
        if not folder.is_dir():
            return [*problems, f"The database's folder {str(folder)!r} does not exist."]
        note(f"There is no database at {path!r} yet: the bot creates it at its first start.")
        return problems
    try:
        storage = await open_storage(settings.database_url, inspect=True)
    except DatabaseUnavailable as e:
        return [*problems, str(e)]
    try:
        version = await storage.schema_version()
        latest = migrations(storage.backend)[-1][0]
        if version == 0:  # an empty database made for the bot: a fresh machine too
            note("The database has no tables yet: the bot creates them at its first start.")
        elif version > latest:
            problems.append(
                f"The database is at schema {version}, newer than this version of Parlour "
                f"knows ({latest}): upgrade Parlour before starting it on this database."
            )
        elif version < latest:
            # The games' rows have an older shape: the bot reads them once migrated.
            problems.append(
                f"The database is at schema {version}; migrations {version + 1} to {latest} "
                "are pending (the bot applies them when it starts; back up first)."
            )
        else:
            problems += await _unreadable_games(GameService(storage, ENGINES))
            problems += await _season_problems(storage, note)
    finally:
        await storage.close()
    return problems


async def _unreadable_games(service: GameService) -> list[str]:
    problems = []
    for row in await service.storage.games(status=ACTIVE):
        try:
            await service.table(row.id)
        except GameUnreadable as e:
            problems.append(f"Game {row.id} ({row.game}) can't be loaded: {e.reason}")
    return problems


async def _season_problems(storage: Storage, note: Callable[[str], object]) -> list[str]:
    """Seasons that count a game this version does not offer (a problem), and the work the
    next start does: seasons past their end, cards not posted (notes)."""
    problems = []
    for season in await storage.seasons_due(float("inf")):
        if season.games is not None and season.games not in ENGINES:
            problems.append(
                f"Season {season.number} of server {season.guild_id} counts {season.games!r},"
                " a game this version does not offer."
            )
    if due := await storage.seasons_due(time.time()):
        note(f"{len(due)} season(s) are past their end: the bot ends them at its next start.")
    if cards := await storage.cards_to_post():
        note(f"{len(cards)} ended season(s) wait for their card: the bot posts it at its start.")
    return problems


async def forget_user(settings: Settings, player_id: int) -> Forgotten:
    """Remove a member's personal data, as their `/forget-me` does (`bot.ops.forget`)."""
    storage = await open_storage(settings.database_url)
    try:
        return await forget_member(GameService(storage, ENGINES), player_id)
    finally:
        await storage.close()


async def forget_server(settings: Settings, guild_id: int) -> int:
    """Delete everything kept about a server; the number of its games deleted."""
    storage = await open_storage(settings.database_url)
    try:
        return await storage.forget_guild(guild_id)
    finally:
        await storage.close()
