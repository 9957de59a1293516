"""`python -m bot restore BACKUP`: put a backup in place of the bot's SQLite database, safely.

Copying a backup over the database by hand loses it when a write-ahead log is left beside
the database (after a crash): SQLite writes the old log over the backup (`bot.ops.wal`).
The chore holds the database's instance lock (so the bot can't be running, nor start
meanwhile), copies the backup beside the database and checks the copy (SQLite's integrity
check; a schema this version knows), then moves the database and its `-wal`, `-shm` and
`-journal` aside under one timestamped name, never deleting them, and renames the copy into
place: the database is the old one or the whole backup, never a mix.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import stat
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bot.instance_lock import DatabaseInUse, InstanceLock
from bot.ops.wal import counted, games_by_status
from bot.storage import migrations
from bot.storage.url import redacted, sqlite_path

SIDE_FILES = ("-wal", "-shm", "-journal")  # what SQLite reads beside a database file


class RestoreRefused(Exception):
    """The backup can't be restored; the message says why and what to do. Nothing was
    changed."""


@dataclass(frozen=True)
class Restored:
    """What a restore did."""

    games: dict[str, int]  # the restored database's games, by status
    schema: int  # its migration number (`PRAGMA user_version`)
    latest: int  # this version's last migration, which the bot brings it to at start
    moved: list[Path]  # where the files that were in place went
    backup: Path

    def said(self) -> list[str]:
        """What the restore did, for the admin."""
        if self.schema < self.latest:
            schema = (
                f"It is at schema {self.schema}: the bot applies migrations "
                f"{self.schema + 1} to {self.latest} when it starts."
            )
        else:
            schema = f"It is at schema {self.schema}, this version's."
        moved = (
            "The files it replaced were moved aside: " + ", ".join(map(str, self.moved))
            if self.moved
            else "There was no database in its place before."
        )
        return [f"Restored {counted(self.games)} from {self.backup}.", schema, moved]


def restore(url: str, backup: Path, now: datetime | None = None) -> Restored:
    """Put the SQLite backup `backup` in place of the database `url` names. Raises
    RestoreRefused having changed nothing (while the bot runs, too)."""
    path = sqlite_path(url)
    if path is None:
        raise RestoreRefused(
            f"DATABASE_URL={redacted(url)!r} is PostgreSQL: restore a pg_dump with "
            "PostgreSQL's own tool, with the bot stopped, e.g. "
            "`pg_restore --clean --if-exists --dbname=<url> parlour.dump`."
        )
    database = Path(os.path.abspath(path))
    source = Path(os.path.abspath(backup))
    if not source.is_file():
        raise RestoreRefused(f"There is no backup at {source}: name the backup file.")
    if source == database:
        raise RestoreRefused(f"{source} is the database itself: name a backup.")
    if not database.parent.is_dir():
        raise RestoreRefused(f"The database's folder {database.parent} does not exist.")
    existed = database.exists()
    owner = (database if existed else database.parent).stat()
    try:
        lock = InstanceLock.acquire(str(database))  # no bot runs meanwhile
    except DatabaseInUse:
        pid = InstanceLock.holder(str(database))
        raise RestoreRefused(
            f"A bot is running on {database}{f' (pid {pid})' if pid else ''}: stop it first "
            "(systemctl stop parlour, under the unit), then restore."
        ) from None
    try:
        _give(Path(f"{database}.lock"), owner, 0o644)  # the bot opens it for writing
        staged = database.with_name(f"{database.name}.restoring")
        try:
            games, schema = _copy_checked(source, staged)
        except BaseException:
            _remove(staged)
            raise
        _give(staged, owner, stat.S_IMODE(owner.st_mode) if existed else 0o600)
        moved = _move_aside(database, now or datetime.now(UTC))
        try:
            os.replace(staged, database)
        except BaseException:  # the database as it was, not none
            _put_back(moved)
            _remove(staged)
            raise
        _sync_folder(database.parent)
    finally:
        lock.release()
    return Restored(games, schema, migrations("sqlite")[-1][0], list(moved.values()), source)


def _copy_checked(source: Path, staged: Path) -> tuple[dict[str, int], int]:
    """Copy `source` to `staged` and check the copy (the backup itself is only read, and
    nothing is left beside it); the copy's games and schema. A `-wal` beside the backup is
    its own (a database moved aside with its log, by this chore or a crash): it is copied
    too, and SQLite writes it into the copy."""
    _remove(staged)  # an interrupted restore's
    shutil.copyfile(source, staged)
    if Path(f"{source}-wal").is_file():
        shutil.copyfile(f"{source}-wal", f"{staged}-wal")
    latest = migrations("sqlite")[-1][0]
    try:
        with closing(sqlite3.connect(staged)) as copy:
            (ok,) = copy.execute("PRAGMA integrity_check(1)").fetchone()
            if ok != "ok":
                raise RestoreRefused(f"The backup {source} is damaged ({ok}): pick another.")
            (schema,) = copy.execute("PRAGMA user_version").fetchone()
            if schema > latest:
                raise RestoreRefused(
                    f"The backup {source} is at schema {schema}, newer than this version of "
                    f"Parlour knows ({latest}): upgrade Parlour first."
                )
            games = games_by_status(copy)
    except sqlite3.DatabaseError as e:
        raise RestoreRefused(f"{source} is not a Parlour backup: {e}.") from None
    return games, int(schema)


def _give(path: Path, owner: os.stat_result, mode: int) -> None:
    """Give `path` the replaced database's owner (else its folder's) and `mode`: the bot's
    user must write it when an admin restores as root."""
    # Only root may give a file away; anyone else restores into their own files anyway.
    with contextlib.suppress(PermissionError):
        os.chown(path, owner.st_uid, owner.st_gid)
        os.chmod(path, mode)


def _move_aside(database: Path, now: datetime) -> dict[Path, Path]:
    """Rename the database and its side files to one new timestamped name (a set SQLite can
    still open together): each file moved, to where. If one can't be moved, those moved
    already are put back."""
    stamp = now.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    name = next(
        candidate
        for candidate in _names(f"{database.name}.before-restore-{stamp}")
        if not any(database.with_name(candidate + s).exists() for s in ("", *SIDE_FILES))
    )
    moved: dict[Path, Path] = {}
    try:
        for suffix in ("", *SIDE_FILES):
            there = Path(f"{database}{suffix}")
            if there.exists():
                moved[there] = there.rename(database.with_name(name + suffix))
    except BaseException:
        _put_back(moved)
        raise
    return moved


def _put_back(moved: dict[Path, Path]) -> None:
    for there, aside in moved.items():
        aside.rename(there)


def _names(base: str) -> Iterator[str]:
    yield base
    n = 2
    while True:
        yield f"{base}-{n}"
        n += 1


def _remove(staged: Path) -> None:
    for suffix in ("", *SIDE_FILES):
        Path(f"{staged}{suffix}").unlink(missing_ok=True)


def _sync_folder(folder: Path) -> None:
    """Make the renames durable (a power cut must not bring the old names back)."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
