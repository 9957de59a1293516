"""Which database a chore works on: said on its first line, and refused when there is none.

With the default relative `DATABASE_URL` (`sqlite:///parlour.sqlite3`), a chore run in
another directory than the bot's would open (and SQLite would create) an empty database
there and report success on it: a deletion request silently not done. Every chore that
reads or changes the bot's data goes through `on_database`, which names the database first
and refuses a SQLite file that does not exist.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable

from bot.settings import Settings
from bot.storage.url import redacted, sqlite_path

Chore = Callable[[Settings, argparse.Namespace], int]
Which = Callable[[Settings, argparse.Namespace], str]  # the database a chore uses
REFUSED = 2  # the exit status of a chore that finds no database


def where(url: str) -> str:
    """The database `url` names, as a chore says it: a SQLite file's absolute path, or a
    PostgreSQL URL without its password."""
    path = sqlite_path(url)
    return redacted(url) if path is None else os.path.abspath(path)


def no_database(url: str) -> str | None:
    """Why a chore can't use `url`, when it names a SQLite file that does not exist (None
    when it does, and for PostgreSQL, whose server says so itself)."""
    path = sqlite_path(url)
    if path is None or os.path.isfile(path):
        return None
    return (
        f"There is no database at {os.path.abspath(path)}: run this where the bot runs, "
        "or set DATABASE_URL."
    )


def the_bots(settings: Settings, _: argparse.Namespace) -> str:
    """The database the bot uses: `DATABASE_URL` (or `DATABASE_PATH`)."""
    return settings.database_url


def on_database(
    chore: Chore, *, must_exist: bool = True, url: Which = the_bots, output: bool = False
) -> Chore:
    """`chore`, saying first which database it uses (`url` picks it from the settings and
    the command line) and, with `must_exist`, refusing (exit status 2) when it is a SQLite
    file that does not exist, instead of letting SQLite create an empty one. A chore whose
    standard output is its `output` (a JSON export) hears the database named on stderr."""

    def run(settings: Settings, args: argparse.Namespace) -> int:
        database = url(settings, args)
        print(f"Database: {where(database)}", file=sys.stderr if output else sys.stdout, flush=True)
        refusal = no_database(database) if must_exist else None
        if refusal is not None:
            print(refusal, file=sys.stderr)
            return REFUSED
        return chore(settings, args)

    return run
