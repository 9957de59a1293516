"""One bot process per SQLite database: a second one would act on the same games.

The lock is an exclusive `flock` on `<database>.lock`, held for the life of the process; the
kernel drops it when the process ends however it ends (even `kill -9`), so a crash never
leaves a stale lock behind. `flock` is Unix's: on Windows the bot stops with one line
(`python -m bot` checks the platform first).
"""

from __future__ import annotations

import os
from pathlib import Path


class DatabaseInUse(Exception):
    """Another live process holds the database's lock."""

    def __init__(self, database: str, pid: str) -> None:
        """`pid` is the holder's, as it wrote it in the lock file ("" when unknown)."""
        holder = f" (pid {pid})" if pid else ""
        super().__init__(
            f"Another Parlour process{holder} is already running on {database}: stop it "
            "first, or give this one its own DATABASE_PATH."
        )


class InstanceLock:
    """The lock on one SQLite database, held by this process until `release` (or its end)."""

    def __init__(self, fd: int) -> None:
        """The lock held open on `fd`; `acquire` is how one is taken."""
        self._fd = fd

    @classmethod
    def acquire(cls, database: str) -> InstanceLock:
        """Lock `database` for this process, or raise DatabaseInUse."""
        import fcntl  # here: importing this module must not fail where there is none

        path = Path(f"{database}.lock")
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = os.pread(fd, 32, 0).decode(errors="replace").strip()
            os.close(fd)
            raise DatabaseInUse(database, pid) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)  # for the message a second process prints
        return cls(fd)

    @staticmethod
    def holder(database: str) -> str | None:
        """Whether a process holds `database`'s lock now, creating nothing: its pid as it
        wrote it ("" when unknown), or None when no process holds it (or there is no lock
        file: no bot ever ran there). Raises OSError when the lock file can't be read."""
        import fcntl

        try:
            fd = os.open(f"{database}.lock", os.O_RDONLY)
        except FileNotFoundError:
            return None
        try:
            # A shared lock for a moment: two `check`s never stand in each other's way.
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return os.pread(fd, 32, 0).decode(errors="replace").strip()
        else:
            return None
        finally:
            os.close(fd)  # drops the shared lock, if taken

    @property
    def held(self) -> bool:
        """Not released yet."""
        return self._fd >= 0

    def release(self) -> None:
        """Drop the lock (closing the file drops the flock); releasing it twice does nothing."""
        if self._fd >= 0:
            os.close(self._fd)  # closing the descriptor drops the flock
            self._fd = -1
