"""`python -m bot`: start Parlour with the settings from the environment and `.env` (or
the file `ENV_FILE` names); `python -m bot sync-commands`, `copy-db --to …`, `backup PATH`,
`restore BACKUP`, `check`, `forget-user ID`, `export-user ID` and `forget-server ID` for the
admin's chores.

Exit status, for a person or a service manager to act on (`deploy/parlour.service`):

- 0: stopped normally (SIGTERM, Ctrl-C), or a chore done.
- 2: a bad setting or an unusable database or metrics port: not worth restarting until the
  admin fixes it.
- 3: Discord could not be reached at start after `CONNECT_RETRIES` more tries, or any other
  failure (a crash): worth restarting. The last line on stderr says why in one line (in
  `LOG_FORMAT=json`, a JSON record with the traceback as a field).
- 4: Discord refused `DISCORD_TOKEN`: not worth restarting until the admin fixes it.
- 1 is never the bot's own (Python exits 1 on an uncaught exception, which `main` turns
  into 3): only a chore's, that found problems (`check`) or refused (`copy-db`).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import re
import sqlite3
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from dotenv import load_dotenv

from bot import __version__
from bot.errors import UserError
from bot.instance_lock import DatabaseInUse, InstanceLock
from bot.log_format import report, setup_logging
from bot.ops.admin import BackupRefused, backup, export_user, forget_server, forget_user
from bot.ops.check import check
from bot.ops.copy_db import CopyRefused, copy_db
from bot.ops.database import on_database
from bot.ops.export import as_json
from bot.ops.restore import RestoreRefused, restore
from bot.ops.retention import dated, prune
from bot.settings import Settings, SettingsError, settings_file
from bot.storage import DatabaseUnavailable
from bot.storage.url import ALLOWED, sqlite_path

if TYPE_CHECKING:
    from bot.client import ParlourBot

NO_TOKEN = (
    "DISCORD_TOKEN is not set: put your bot's token in a .env file "
    "(copy .env.example) or in the environment, then run `python -m bot` again."
)
BAD_TOKEN = (
    "Discord refused DISCORD_TOKEN: check the token in the settings (.env, or the file "
    "ENV_FILE names)."
)
NOT_ON_WINDOWS = (
    "Parlour runs on Linux or macOS, not on Windows: run it in WSL (see the README, Run the bot)."
)
# Exit statuses (the module's docstring says what each means to a service manager).
BAD_SETTING = 2
UNREACHABLE = 3  # Discord can't be reached at start
FAILED = UNREACHABLE  # any other failure: restarted as an outage is
TOKEN_REFUSED = 4
RETRY_DELAYS = (2, 5, 15, 30, 60)  # seconds before each try again (then 60 s each)

log = logging.getLogger("bot")


def run(settings: Settings, args: argparse.Namespace) -> int:
    """`python -m bot`: run the bot until it stops, trying again while Discord can't be reached at
    start. Returns the exit status; an unexpected error is raised (`main` reports it)."""
    # discord.py and the bot's runtime are imported by the commands that connect, so that
    # `--help` and the chores start without them.
    import discord

    from bot.client import make_bot
    from bot.metrics import MetricsUnavailable
    from bot.startup import FirstConnectLog, unreached

    form = settings.log_format
    if not settings.token:
        return report(NO_TOKEN, form, status=BAD_SETTING)
    lock = None
    path = settings.sqlite_path
    if path is not None:  # PostgreSQL is shared by design: no lock
        try:
            lock = InstanceLock.acquire(path)  # before anything else happens
        except DatabaseInUse as e:
            return report(str(e), form, status=BAD_SETTING)
        except OSError as e:
            line = f"DATABASE_URL={settings.database_url!r} can't be used: {e.strerror}."
            return report(line, form, status=BAD_SETTING)
    setup_logging(settings.log_level, form)
    log.info("Parlour %s starting", __version__)
    attempt = 0
    while True:
        if path is not None and lock is not None and not lock.held:
            try:  # a failed try closed the database, and its lock
                lock = InstanceLock.acquire(path)
            except DatabaseInUse as e:  # another process started meanwhile
                return report(str(e), form, status=BAD_SETTING)
        bot = make_bot(settings, lock=lock, force_sync=args.sync, settle_memory=True)
        quiet = FirstConnectLog(bot)
        logging.getLogger("discord.client").addFilter(quiet)
        try:
            _serve(bot, settings.token)
        except discord.LoginFailure:
            return report(BAD_TOKEN, form, status=TOKEN_REFUSED)
        except (DatabaseUnavailable, MetricsUnavailable) as e:
            return report(str(e), form, status=BAD_SETTING)
        except Exception as e:
            why = unreached(bot, e)
            if why is None:
                raise  # not Discord out of reach: `main` reports it whole
            if attempt == settings.connect_retries:
                return report(
                    f"Discord can't be reached ({why}): giving up (exit status "
                    f"{UNREACHABLE}; CONNECT_RETRIES={settings.connect_retries}).",
                    form,
                    status=UNREACHABLE,
                )
            delay = RETRY_DELAYS[min(attempt, len(RETRY_DELAYS) - 1)]
            log.warning("Discord can't be reached (%s): trying again in %d s.", why, delay)
            time.sleep(delay)
            attempt += 1
        else:
            return 0
        finally:
            logging.getLogger("discord.client").removeFilter(quiet)


def _serve(bot: ParlourBot, token: str) -> None:
    """`bot.run(token)` on libuv's event loop (uvloop), which takes about half the CPU
    asyncio's own spends on each click's sockets, tasks and callbacks."""
    from uvloop import new_event_loop

    async def serve() -> None:
        async with bot:
            await bot.start(token)

    with asyncio.Runner(loop_factory=new_event_loop) as runner:
        try:
            runner.run(serve())
        except KeyboardInterrupt:  # as `bot.run`: a Ctrl-C before the bot's own handler is set
            return


def sync_commands(settings: Settings, _: argparse.Namespace) -> int:
    """`sync-commands`: log in only to sync the slash commands with Discord, then exit."""
    import discord

    from bot.client import make_bot
    from bot.startup import NOT_REACHED, reason

    form = settings.log_format
    if not settings.token:
        return report(NO_TOKEN, form, status=BAD_SETTING)
    token = settings.token
    setup_logging(settings.log_level, form)

    async def sync() -> None:
        async with make_bot(settings, sync_only=True) as bot:
            await bot.login(token)  # runs setup_hook: the cogs' commands, synced

    try:
        asyncio.run(sync())
    except discord.LoginFailure:
        return report(BAD_TOKEN, form, status=TOKEN_REFUSED)
    except NOT_REACHED as e:
        line = f"Discord can't be reached ({reason(e)}): try again later."
        return report(line, form, status=UNREACHABLE)
    return 0


def _copy_source(settings: Settings, args: argparse.Namespace) -> str:
    """The database `copy-db` copies: `--from`, else the bot's."""
    return str(args.source or settings.database_url)


def copy(settings: Settings, args: argparse.Namespace) -> int:
    """`copy-db`: copy a SQLite database (`--from`, else the bot's) into PostgreSQL (`--to`) and
    verify the copy."""
    source = _copy_source(settings, args)
    try:
        sqlite_path(args.to)
    except ValueError:
        print(f"--to {args.to!r} is not valid: {ALLOWED}.", file=sys.stderr)
        return 2
    try:
        asyncio.run(copy_db(source, args.to, print))
    except (DatabaseInUse, DatabaseUnavailable) as e:
        print(e, file=sys.stderr)
        return 2
    except CopyRefused as e:
        print(f"copy-db: {e}", file=sys.stderr)
        return 1
    return 0


def back_up(settings: Settings, args: argparse.Namespace) -> int:
    """`backup PATH`: copy the SQLite database to a new file (or a dated one in the folder
    PATH, keeping the newest `--keep`), safely while the bot runs."""
    folder = Path(args.path) if Path(args.path).is_dir() else None
    if args.keep is not None and folder is None:
        print("backup: --keep needs PATH to be a folder (of dated backups).", file=sys.stderr)
        return 2
    destination = Path(args.path) if folder is None else dated(folder)
    try:
        games = backup(settings, destination)
    except (BackupRefused, sqlite3.Error) as e:
        print(f"backup: {e}", file=sys.stderr)
        return 2
    print(f"Backed up {games} games to {destination}.")
    if folder is not None and args.keep is not None:
        for old in prune(folder, args.keep):
            print(f"Deleted the older backup {old}.")
    return 0


def restore_backup(settings: Settings, args: argparse.Namespace) -> int:
    """`restore BACKUP`: put a backup in place of the SQLite database, with the bot stopped."""
    try:
        done = restore(settings.database_url, Path(args.backup))
    except (RestoreRefused, OSError, sqlite3.Error) as e:
        print(f"restore: {e}", file=sys.stderr)
        return 2
    for line in done.said():
        print(line)
    return 0


def forget_member(settings: Settings, args: argparse.Namespace) -> int:
    """`forget-user ID`: remove a member's personal data, as their own `/forget-me` does."""
    try:
        done = asyncio.run(forget_user(settings, args.id))
    except (DatabaseInUse, DatabaseUnavailable) as e:
        print(f"forget-user: {e}", file=sys.stderr)
        return 2
    except UserError as e:  # a game of theirs this version can't read: nothing changed
        print(f"forget-user: {e}", file=sys.stderr)
        return 1
    print(
        f"Member {args.id} forgotten: {done.games} games now name a former player "
        f"({len(done.resigned)} in play resigned, {len(done.lobbies)} lobbies left)."
    )
    return 0


def export_member(settings: Settings, args: argparse.Namespace) -> int:
    """`export-user ID [--out FILE]`: a member's copy of their data, as their `/my-data`
    gives it, on stdout or in a new file only its owner may read."""
    try:
        text = as_json(asyncio.run(export_user(settings, args.id)))
    except DatabaseUnavailable as e:
        print(f"export-user: {e}", file=sys.stderr)
        return 2
    if args.out is None:
        sys.stdout.write(text)
        return 0
    try:  # a new file, 0600: it holds the member's personal data
        with os.fdopen(os.open(args.out, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as f:
            f.write(text)
    except OSError as e:
        print(f"export-user: {args.out!r} can't be written: {e.strerror}.", file=sys.stderr)
        return 2
    print(f"Member {args.id}'s data written to {args.out}.", file=sys.stderr)
    return 0


def forget_guild(settings: Settings, args: argparse.Namespace) -> int:
    """`forget-server ID`: delete everything kept about a server."""
    try:
        games = asyncio.run(forget_server(settings, args.id))
    except (DatabaseInUse, DatabaseUnavailable) as e:
        print(f"forget-server: {e}", file=sys.stderr)
        return 2
    print(f"Server {args.id} forgotten: its data deleted ({games} games).")
    return 0


def _count(text: str) -> int:
    """A number of backups to keep, 1 or more, else argparse's error."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of backups (1 or more)")
    return int(text)


# A Discord id as Discord's Copy ID writes it: 17 digits since 2015, and below 2**63 (the
# database's integers) until long after 2080.
SNOWFLAKE = re.compile(r"[0-9]{17,19}")


def discord_id(text: str) -> int:
    """A member's or a server's id typed on the command line: a plausible Discord snowflake
    (17 to 19 ASCII digits, below 2**63), else argparse's error, so that a typo (`2`, a
    full-width `１２３`, a digit short) never names someone else's data."""
    if not SNOWFLAKE.fullmatch(text) or int(text) >= 2**63:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a Discord id: copy it from Discord (17 to 19 digits, "
            "Developer Mode, then Copy ID)."
        )
    return int(text)


def check_all(settings: Settings, _: argparse.Namespace) -> int:
    """`check`: show the settings, print every problem found; status 1 if any (2 if there is
    no database where the settings say)."""
    found = asyncio.run(check(settings, settings_file(), note=print))
    for line in found.problems:
        print(line)
    if not found.problems:
        print("No problems found.")
    return 2 if found.no_database else 1 if found.problems else 0


def parser() -> argparse.ArgumentParser:
    """The command line: the bot's own options, and one sub-command per chore."""
    parse = argparse.ArgumentParser(
        prog="python -m bot",
        description="Run Parlour (settings from the environment or .env; see .env.example).",
    )
    parse.set_defaults(command=run)
    parse.add_argument("--version", action="version", version=f"Parlour {__version__}")
    parse.add_argument(
        "--sync",
        action="store_true",
        help="sync the slash commands at start even if they did not change since the last "
        "sync (they are sent only when changed, otherwise)",
    )
    sub = parse.add_subparsers(title="chores", metavar="COMMAND")
    sync = sub.add_parser(
        "sync-commands",
        help="sync the slash commands with Discord, then exit",
        description="Sync the slash commands with Discord (globally, or to DEV_GUILD_ID) and "
        "exit. A sharded bot's process holding shard 0 also does this at every start.",
    )
    sync.set_defaults(command=sync_commands)
    copy_db_ = sub.add_parser(
        "copy-db",
        help="copy a SQLite database into PostgreSQL and verify it",
        description="Copy every game, seat, action log, result and server setting of a "
        "SQLite database into an empty PostgreSQL database, then replay every copied game "
        "from its seed and log and compare it with its stored state. Stop the bot first.",
    )
    copy_db_.add_argument(
        "--to", required=True, metavar="URL", help="postgresql://user@host:5432/database"
    )
    copy_db_.add_argument(
        "--from",
        dest="source",
        metavar="URL",
        help="the database to copy (default: DATABASE_URL or DATABASE_PATH, as the bot uses)",
    )
    copy_db_.set_defaults(command=on_database(copy, url=_copy_source))
    backup_ = sub.add_parser(
        "backup",
        help="copy the SQLite database to a new file, safely while the bot runs",
        description="Copy the SQLite database to PATH with SQLite's online backup API: a "
        "consistent copy even while the bot is playing (restore it with `restore PATH`). For "
        "PostgreSQL, use pg_dump.",
    )
    backup_.add_argument(
        "path",
        metavar="PATH",
        help="the new file (must not exist), or a folder: a new file named for the moment, "
        "parlour-YYYYMMDDTHHMMSSZ.sqlite3, in it",
    )
    backup_.add_argument(
        "--keep",
        type=_count,
        metavar="N",
        help="with a folder: then delete its oldest dated backups beyond the newest N",
    )
    backup_.set_defaults(command=on_database(back_up))
    check_ = sub.add_parser(
        "check",
        help="look for problems in the settings and the database",
        description="Show the settings as the bot resolves them (secrets hidden), read the "
        "database (without changing anything; the bot may be running) and print one line per "
        "problem: a bad or missing setting, a key of the settings file the bot does not read, "
        "a database folder or file this user can't write, a metrics port in use, a "
        "write-ahead log left beside a database no bot runs on, an unreachable database, "
        "pending migrations, a game this version can't load. Exit status 0 if none, 1 if "
        "any, 2 for a bad setting or no database where the settings say.",
    )
    check_.set_defaults(command=on_database(check_all, must_exist=False))
    restore_ = sub.add_parser(
        "restore",
        help="put a backup in place of the SQLite database (stop the bot first)",
        description="Put BACKUP (a file `backup` made) in place of the SQLite database: "
        "refused while the bot runs; the backup is copied and checked (SQLite's integrity "
        "check, a schema this version knows) before anything changes; the database and "
        "its -wal and -shm files are then moved aside under a timestamped name, never "
        "deleted. For PostgreSQL, use pg_restore.",
    )
    restore_.add_argument("backup", metavar="BACKUP", help="the backup file")
    restore_.set_defaults(command=on_database(restore_backup, must_exist=False))
    forget_user_ = sub.add_parser(
        "forget-user",
        help="remove a member's personal data (a deletion request)",
        description="Remove a member's personal data from every server, as their own "
        "/forget-me does: their games in play are resigned, their lobbies left; their id and "
        "name in every game become a former player's, their results and ratings are "
        "deleted. Finished games still replay. On SQLite, stop the bot first.",
    )
    forget_user_.add_argument("id", type=discord_id, help="the member's Discord user id")
    forget_user_.set_defaults(command=on_database(forget_member))
    export_user_ = sub.add_parser(
        "export-user",
        help="a member's copy of their data, as JSON (a request of access)",
        description="Write everything Parlour keeps about a member, from every server, as "
        "the JSON their own /my-data gives them: their games (public facts and seats), "
        "their own moves, results, ratings and settings; nothing of another player's "
        "hidden hand. Reads the database as it is; the bot may be running.",
    )
    export_user_.add_argument("id", type=discord_id, help="the member's Discord user id")
    export_user_.add_argument(
        "--out", metavar="FILE", help="a new file to write (default: standard output)"
    )
    export_user_.set_defaults(command=on_database(export_member, output=True))
    forget_server_ = sub.add_parser(
        "forget-server",
        help="delete everything kept about a server",
        description="Delete a server's games, action logs, results, ratings and settings "
        "(the bot does this by itself 30 days after it was removed from a server). On "
        "SQLite, stop the bot first.",
    )
    forget_server_.add_argument("id", type=discord_id, help="the server's (guild's) id")
    forget_server_.set_defaults(command=on_database(forget_guild))
    return parse


def main(argv: list[str] | None = None) -> int:
    """Read the settings, then run the bot or the chore asked for; returns the exit status."""
    args = parser().parse_args(argv)
    if sys.platform == "win32":  # the database lock is Unix's flock
        print(NOT_ON_WINDOWS, file=sys.stderr)
        return 2
    # The database, its journal files and lock, backups and cached pictures hold members'
    # ids and names: this user's alone, even outside the systemd unit (its UMask=0077).
    os.umask(0o077)
    env_file = os.environ.get("ENV_FILE", "").strip()
    if env_file and not Path(env_file).is_file():
        line = f"ENV_FILE={env_file!r} is not a file: name the settings file."
        return report(line, _log_format(), status=BAD_SETTING)
    load_dotenv(settings_file())
    try:
        settings = Settings.from_env()
    except SettingsError as e:
        return report(str(e), _log_format(), status=BAD_SETTING)
    command: Callable[[Settings, argparse.Namespace], int] = args.command
    try:
        return command(settings, args)
    except Exception as e:  # a crash: one line (and its traceback), and a status to restart on
        first = (str(e).splitlines() or [""])[0]
        line = (
            f"Parlour stopped on an unexpected error ({type(e).__name__}: {first}): exit status "
            f"{FAILED}, to be started again."
        )
        return report(line, settings.log_format, status=FAILED, error=e)


def _log_format() -> str:
    """LOG_FORMAT as set, for a line written before the settings are read (or when they are
    not valid): json only if it says json."""
    return "json" if os.environ.get("LOG_FORMAT", "").strip().lower() == "json" else "text"


if __name__ == "__main__":
    sys.exit(main())
