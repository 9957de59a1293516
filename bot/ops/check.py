"""`python -m bot check`: what the bot would run with, and every problem that would stop it or
lose data, found without changing anything (beside a running bot, too).

It shows the settings file and the settings as resolved (secrets hidden), then looks for:
keys of the settings file the bot does not read (a typo is otherwise silently ignored); a
missing token; on SQLite, a database that is not where the settings say, a folder or
file (the database, its lock, `-wal` and `-shm`) this user can't write, and a write-ahead
log left beside a database no bot is running on (`bot.ops.wal`); a metrics port another
program holds; an unreachable database, pending migrations and games this version can't load.
"""

from __future__ import annotations

import difflib
import errno
import os
import socket
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import dotenv_values

from bot.errors import GameUnreadable
from bot.instance_lock import InstanceLock
from bot.ops.database import no_database
from bot.ops.wal import stray_wal
from bot.service import GameService
from bot.settings import NAMES, Settings
from bot.storage import ACTIVE, DatabaseUnavailable, Storage, migrations, open_storage
from bot.storage.url import redacted
from rules.registry import ENGINES

Access = Callable[[str, int], bool]  # os.access: whether this user may read/write a path


@dataclass
class Findings:
    """What `check` found: one line per problem, and whether the database is missing."""

    problems: list[str] = field(default_factory=list)
    no_database: bool = False


async def check(
    settings: Settings,
    settings_file: Path,
    note: Callable[[str], object] = print,
    access: Access = os.access,
) -> Findings:
    """Every problem found in the settings, the files and the database. What is worth
    knowing but no problem (the settings as resolved, a running bot) goes to `note`."""
    found = Findings()
    _show_settings(settings, settings_file, note)
    found.problems += unknown_keys(settings_file)
    if not settings.token:
        found.problems.append("DISCORD_TOKEN is not set: the bot can't log in to Discord.")
    path = settings.sqlite_path
    running: str | None = None
    blocked = [] if path is None else unwritable(path, access)
    found.problems += blocked
    if path is not None:
        try:
            running = InstanceLock.holder(path)
        except OSError:
            running = None  # an unreadable lock file: `unwritable` named it
        if running is not None:
            note(f"A bot is running on this database (pid {running or 'unknown'}).")
    found.problems += port_in_use(settings, running)
    missing = no_database(settings.database_url)
    if missing is not None:
        found.no_database = True
        found.problems.append(missing)
        note("On a machine where the bot never ran, its first start creates the database.")
        return found
    if blocked:
        return found  # SQLite can't read it either: it needs its -shm beside the file
    found.problems += await _database(settings, note)
    if path is not None and running is None:
        stray = stray_wal(path)
        if stray is not None:
            found.problems.append(stray)
    return found


def _show_settings(settings: Settings, settings_file: Path, note: Callable[[str], object]) -> None:
    where = os.path.abspath(settings_file)
    read = "" if settings_file.is_file() else " (not there: the environment only)"
    note(f"Settings file: {where}{read}")
    for line in settings.shown():
        note(f"  {line}")


def unknown_keys(settings_file: Path) -> list[str]:
    """A line for each key of the settings file that no setting has (a typo, or a setting
    of another program), naming the nearest real one."""
    if not settings_file.is_file():
        return []
    problems = []
    for key in dotenv_values(settings_file):
        if key not in NAMES:
            near = difflib.get_close_matches(key.upper(), NAMES, n=1)
            hint = f" (did you mean {near[0]}?)" if near else ""
            problems.append(
                f"{os.path.abspath(settings_file)} sets {key}, which is not a setting of "
                f"Parlour{hint}: it has no effect."
            )
    return problems


def unwritable(database: str, access: Access = os.access) -> list[str]:
    """A line for each thing on the way to the SQLite file this user can't write: the
    folder (where SQLite and the lock make their files), the database, its lock, `-wal`
    and `-shm`."""
    folder = os.path.dirname(os.path.abspath(database))
    who = _user()
    if not os.path.isdir(folder):
        return [f"The database's folder {folder} does not exist."]
    if not access(folder, os.W_OK | os.X_OK):
        return [
            f"The database's folder {folder} is not writable by {who}: the bot makes its "
            "files there (the database, its lock, -wal and -shm). Run the bot as the "
            "folder's owner, or give it the folder."
        ]
    # The folder's owner, when not root, is the user the bot runs as (it makes its files
    # there): root passes every access check, so a file a chore run as root left behind,
    # which the bot can't open, is found by its owner and mode instead.
    bots = os.stat(folder).st_uid
    problems = []
    for suffix in ("", ".lock", "-wal", "-shm"):
        path = os.path.abspath(database + suffix)
        if not os.path.exists(path):
            continue
        if not access(path, os.R_OK | os.W_OK):
            problems.append(
                f"{path} is not writable by {who} (it belongs to {_owner(path)}): the bot "
                "can't start. Run the bot as its owner, or give it the file "
                f"(chown {who} {path})."
            )
        elif bots not in (0, os.geteuid()) and not _writable_by(bots, os.stat(path)):
            bot = _name(bots)
            problems.append(
                f"{path} belongs to {_owner(path)}, and the folder's owner, {bot}, can't "
                f"write it: a bot run as {bot} can't start. Give it the file (chown {bot} "
                f"{path})."
            )
    return problems


def _writable_by(uid: int, file: os.stat_result) -> bool:
    """Whether the user `uid` (not root) may read and write a file with this owner and mode."""
    import pwd

    if file.st_uid == uid:
        return file.st_mode & 0o600 == 0o600
    try:
        user = pwd.getpwuid(uid)
        groups = os.getgrouplist(user.pw_name, user.pw_gid)
    except KeyError:
        groups = []
    if file.st_gid in groups:
        return file.st_mode & 0o060 == 0o060
    return file.st_mode & 0o006 == 0o006


def port_in_use(settings: Settings, running: str | None) -> list[str]:
    """A line when `METRICS_HOST`:`METRICS_PORT` can't be listened on (none while a bot runs
    on this database: the port is its own, presumably)."""
    port = settings.metrics_port
    if port is None or running is not None:
        return []
    where = f"{settings.metrics_host}:{port}"
    try:
        family = socket.AF_INET6 if ":" in settings.metrics_host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the bot's server
            probe.bind((settings.metrics_host, port))
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            return [
                f"METRICS_PORT {where} is in use by another program: the bot would stop at "
                "start. Pick a free port, or stop what holds it."
            ]
        reason = e.strerror or str(e)
        return [f"METRICS_HOST:METRICS_PORT {where} can't be listened on: {reason}."]
    return []


async def _database(settings: Settings, note: Callable[[str], object]) -> list[str]:
    """Problems in the database: unreachable, a schema this version does not know, pending
    migrations, games it can't load."""
    try:
        storage = await open_storage(settings.database_url, inspect=True)
    except DatabaseUnavailable as e:
        return [str(e)]
    try:
        return await _schema_and_games(storage, note)
    except sqlite3.Error as e:  # opened, but unreadable: damaged, or not a database
        return [f"DATABASE_URL={redacted(settings.database_url)!r} can't be read: {e}."]
    finally:
        await storage.close()


async def _schema_and_games(storage: Storage, note: Callable[[str], object]) -> list[str]:
    version = await storage.schema_version()
    latest = migrations(storage.backend)[-1][0]
    if version == 0:  # an empty database made for the bot: a fresh machine too
        note("The database has no tables yet: the bot creates them at its first start.")
        return []
    if version > latest:
        return [
            f"The database is at schema {version}, newer than this version of Parlour "
            f"knows ({latest}): upgrade Parlour before starting it on this database."
        ]
    if version < latest:
        # The games' rows have an older shape: the bot reads them once migrated.
        return [
            f"The database is at schema {version}; migrations {version + 1} to {latest} "
            "are pending (the bot applies them when it starts; back up first)."
        ]
    problems = await _unreadable_games(storage)
    problems += await _season_problems(storage, note)
    return problems + await _tournament_notes(storage, note)


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


async def _tournament_notes(storage: Storage, note: Callable[[str], object]) -> list[str]:
    """The tournament work the next start does (notes): events past their start, final
    standings not posted; and events of a game this version does not offer (problems)."""
    tended = await storage.tournaments_to_tend()
    problems = [
        f"Tournament {event.id} of server {event.guild_id} plays {event.game!r},"
        " a game this version does not offer."
        for event in tended
        if event.open and event.game not in ENGINES
    ]
    now = time.time()
    if due := [e for e in tended if e.state == "signup" and e.starts_at <= now]:
        note(f"{len(due)} tournament(s) are past their start: the bot starts them at its start.")
    if finals := [e for e in tended if e.state == "finished" and not e.final_done]:
        note(f"{len(finals)} finished tournament(s) wait for their final post: the bot posts it.")
    return problems


async def _unreadable_games(storage: Storage) -> list[str]:
    service = GameService(storage, ENGINES)  # to load each game as the bot would
    problems = []
    for row in await storage.games(status=ACTIVE):
        try:
            await service.table(row.id)
        except GameUnreadable as e:
            problems.append(f"Game {row.id} ({row.game}) can't be loaded: {e.reason}")
    return problems


def _user() -> str:
    return _name(os.geteuid())


def _owner(path: str) -> str:
    return _name(os.stat(path).st_uid)


def _name(uid: int) -> str:
    import pwd  # Unix's, as the instance lock's flock

    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"
