"""A SQLite write-ahead log (`<database>-wal`) left beside a database that no bot is running on.

The bot runs SQLite in WAL mode: a commit is appended to the `-wal` file and copied into the
database later (a checkpoint). A bot that stops normally leaves no `-wal`; one that crashed
leaves its last commits there, and SQLite writes them into the database the next time it
is opened. The log names no database, so SQLite does the same to a backup put in place of
the database by hand: the old log is written over the backup (in the review that found it,
every game of the backup came back abandoned, and the file still passed SQLite's own
integrity check). Neither SQLite nor this module can tell the two apart for sure; `stray_wal`
says that such a log is there, what replaying it would change, and what to do in each case.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path

from bot.instance_lock import InstanceLock

WAL_HEADER = 32  # bytes of a WAL file's header: a log of this size holds no commit


def games_by_status(db: sqlite3.Connection) -> dict[str, int]:
    """How many games a Parlour database holds in each status (none before its tables)."""
    if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'games'").fetchone():
        return {}
    rows = db.execute("SELECT status, COUNT(*) FROM games GROUP BY status ORDER BY status")
    return {str(status): int(count) for status, count in rows}


def counted(games: dict[str, int]) -> str:
    """`games_by_status` in words: "7 games (5 active, 2 finished)"."""
    total = sum(games.values())
    if not total:
        return "no games"
    return f"{total} games (" + ", ".join(f"{n} {status}" for status, n in games.items()) + ")"


def stray_wal(database: str) -> str | None:
    """A line for the admin when a write-ahead log with commits in it lies beside
    `database` while no bot holds its lock; None otherwise (no log, an empty one, or the
    running bot's own). The files are only read: the log is tried on a copy."""
    wal = Path(f"{os.path.abspath(database)}-wal")
    if not wal.is_file() or wal.stat().st_size <= WAL_HEADER:
        return None
    try:
        if InstanceLock.holder(database) is not None:
            return None  # the running bot's log: in use, as it should be
    except OSError:
        return None  # the lock can't be read: the check of the files' owners says so
    with tempfile.TemporaryDirectory(prefix="parlour-wal-") as folder:
        copy = Path(folder) / "copy.sqlite3"
        shutil.copyfile(database, copy)
        try:
            with closing(sqlite3.connect(copy)) as db:
                before = games_by_status(db)
            shutil.copyfile(wal, f"{copy}-wal")
            with closing(sqlite3.connect(copy)) as db:  # SQLite replays the log on opening
                (_, frames, _) = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                (damage,) = db.execute("PRAGMA integrity_check(1)").fetchone()
                after = games_by_status(db) if damage == "ok" else {}
        except sqlite3.DatabaseError:
            return None  # the database itself can't be read: check says so already
    if frames <= 0:  # -1: the file is not in WAL mode, and SQLite ignores the log
        return None  # else 0: the log's header only, or commits checkpointed already
    what = (
        f"replayed onto it, the log damages it ({damage}): it is not this database's log"
        if damage != "ok"
        else f"the file holds {counted(before)}; with the log replayed, {counted(after)}"
    )
    return (
        f"{wal} holds {frames} pages not yet written into the database, and no bot is "
        f"running on it: {what}. After a crash, start the bot: it writes them in. If a "
        f"backup was put in place of the database by hand, the log is the old database's: "
        f"move {wal.name} and {Path(database).name}-shm aside before the bot starts, or "
        "SQLite writes the old log over the backup (`python -m bot restore BACKUP` does this "
        "for you)."
    )
