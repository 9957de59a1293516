"""`python -m bot`: start Parlour with the settings from the environment or `.env`;
`python -m bot sync-commands`, `copy-db --to …`, `backup PATH` and `check` for the admin's
chores."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path

import discord
from dotenv import load_dotenv

from bot.admin import BackupRefused, backup, check
from bot.client import make_bot
from bot.copy_db import CopyRefused, copy_db
from bot.instance_lock import DatabaseInUse, InstanceLock
from bot.settings import Settings, SettingsError
from bot.storage import DatabaseUnavailable
from bot.storage.url import ALLOWED, sqlite_path

NO_TOKEN = (
    "DISCORD_TOKEN is not set: put your bot's token in a .env file "
    "(copy .env.example) or in the environment, then run `python -m bot` again."
)
BAD_TOKEN = "Discord refused DISCORD_TOKEN: check the token in .env."


def run(settings: Settings, args: argparse.Namespace) -> int:
    if not settings.token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    lock = None
    path = settings.sqlite_path
    if path is not None:  # PostgreSQL is shared by design: no lock
        try:
            lock = InstanceLock.acquire(path)  # before anything else happens
        except DatabaseInUse as e:
            print(e, file=sys.stderr)
            return 2
        except OSError as e:
            print(
                f"DATABASE_URL={settings.database_url!r} can't be used: {e.strerror}.",
                file=sys.stderr,
            )
            return 2
    discord.utils.setup_logging(level=getattr(logging, settings.log_level, logging.INFO))
    bot = make_bot(settings, lock=lock, force_sync=args.sync, settle_memory=True)
    try:
        bot.run(settings.token, log_handler=None)
    except discord.LoginFailure:
        print(BAD_TOKEN, file=sys.stderr)
        return 1
    except DatabaseUnavailable as e:
        print(e, file=sys.stderr)
        return 2
    return 0


def sync_commands(settings: Settings, _: argparse.Namespace) -> int:
    if not settings.token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    token = settings.token
    discord.utils.setup_logging(level=getattr(logging, settings.log_level, logging.INFO))

    async def sync() -> None:
        async with make_bot(settings, sync_only=True) as bot:
            await bot.login(token)  # runs setup_hook: the cogs' commands, synced

    try:
        asyncio.run(sync())
    except discord.LoginFailure:
        print(BAD_TOKEN, file=sys.stderr)
        return 1
    return 0


def copy(settings: Settings, args: argparse.Namespace) -> int:
    source = args.source or settings.database_url
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
    try:
        games = backup(settings, Path(args.path))
    except (BackupRefused, sqlite3.Error) as e:
        print(f"backup: {e}", file=sys.stderr)
        return 2
    print(f"Backed up {games} games to {args.path}.")
    return 0


def check_all(settings: Settings, _: argparse.Namespace) -> int:
    problems = asyncio.run(check(settings))
    for line in problems:
        print(line)
    if not problems:
        print("No problems found.")
    return 1 if problems else 0


def parser() -> argparse.ArgumentParser:
    parse = argparse.ArgumentParser(
        prog="python -m bot",
        description="Run Parlour (settings from the environment or .env; see .env.example).",
    )
    parse.set_defaults(command=run)
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
    copy_db_.set_defaults(command=copy)
    backup_ = sub.add_parser(
        "backup",
        help="copy the SQLite database to a new file, safely while the bot runs",
        description="Copy the SQLite database to PATH with SQLite's online backup API: a "
        "consistent copy even while the bot is playing. To restore, stop the bot and put the "
        "copy in place of the database file. For PostgreSQL, use pg_dump.",
    )
    backup_.add_argument("path", metavar="PATH", help="the new file (must not exist)")
    backup_.set_defaults(command=back_up)
    check_ = sub.add_parser(
        "check",
        help="look for problems in the settings and the database",
        description="Read the settings and the database (without changing anything; the bot "
        "may be running) and print one line per problem: a bad or missing setting, an "
        "unreachable database, pending migrations, a game this version can't load. Exit "
        "status 0 if none, 1 if any, 2 for a bad setting.",
    )
    check_.set_defaults(command=check_all)
    return parse


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    load_dotenv(Path.cwd() / ".env")  # the admin's .env, where they run the bot
    try:
        settings = Settings.from_env()
    except SettingsError as e:
        print(e, file=sys.stderr)
        return 2
    command: Callable[[Settings, argparse.Namespace], int] = args.command
    return command(settings, args)


if __name__ == "__main__":
    sys.exit(main())
