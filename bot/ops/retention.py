"""Dated backups in a folder, the oldest deleted beyond a number kept: what a nightly
`python -m bot backup FOLDER --keep N` (deploy/parlour-backup.timer) leaves behind."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

DATED = re.compile(r"parlour-\d{8}T\d{6}Z\.sqlite3")  # what `dated` names, and nothing else


def dated(folder: Path, now: datetime | None = None) -> Path:
    """A new backup's file in `folder`, named for the moment (UTC): names sort by time."""
    moment = (now or datetime.now(UTC)).astimezone(UTC)
    return folder / f"parlour-{moment:%Y%m%dT%H%M%SZ}.sqlite3"


def prune(folder: Path, keep: int) -> list[Path]:
    """Delete the oldest dated backups in `folder` beyond the newest `keep` (only files
    `dated` names: anything else there is left alone); the files deleted."""
    backups = sorted(p for p in folder.iterdir() if DATED.fullmatch(p.name) and p.is_file())
    old = backups[: max(len(backups) - keep, 0)]
    for path in old:
        path.unlink()
    return old
