"""A bench run's output file: its tables with where and when they were measured.

A bench that records (`Run`) writes `bench/results/<name>.json` as it ends: every table it
printed, the commit of the code measured (`git describe --dirty`), the date, the machine
and its load average before and after, and the paths whose change makes the figures stale
(its hot path). `python -m bench.report` writes `docs/PERFORMANCE.md` from these files, so
no figure in the docs is typed by hand.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.common import print_table

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"


def commit_of(folder: Path = ROOT, paths: Sequence[str] = ()) -> str:
    """The commit checked out in `folder`, marked `-dirty` when `paths` (or, without them,
    any tracked file) have uncommitted changes."""

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", "-C", str(folder), *args], capture_output=True, text=True, check=True
        ).stdout.strip()

    commit = git("rev-parse", "--short=7", "HEAD")
    changed = git("status", "--porcelain", "--untracked-files=no", "--", *paths)
    return f"{commit}-dirty" if changed else commit


def argv_of(baseline: Path | None) -> list[str]:
    """This run's arguments as the output file keeps them: a baseline checkout named by its
    commit, not by where it lies on this machine."""
    argv = sys.argv[1:]
    if baseline is not None:
        argv = [commit_of(baseline) if arg == str(baseline) else arg for arg in argv]
    return argv


def machine() -> str:
    """The processor's name and how many cores this process may use."""
    model = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return f"{model}, {len(os.sched_getaffinity(0))} cores"


def load_average() -> str:
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


@dataclass
class Run:
    """One run of a bench: call `table` for every table it prints, then `save`."""

    name: str
    hot_paths: tuple[str, ...]  # a change under these since `commit` makes the figures stale
    argv: list[str] = field(default_factory=list)
    tables: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.commit = commit_of(ROOT, self.hot_paths)
        self.started = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
        self.load_before = load_average()

    def table(self, caption: str, headers: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
        """Print a table (as `print_table`) and keep it for the output file."""
        print(caption)
        print_table(headers, rows)
        self.tables.append(
            {
                "caption": caption,
                "headers": list(headers),
                "rows": [list(map(str, r)) for r in rows],
            }
        )

    def note(self, text: str) -> None:
        """Print a line and keep it under the tables."""
        print(text)
        self.notes.append(text)

    def save(self) -> Path:
        RESULTS.mkdir(parents=True, exist_ok=True)
        path = RESULTS / f"{self.name}.json"
        record = {
            "bench": self.name,
            "argv": self.argv,
            "commit": self.commit,
            "date": self.started,
            "machine": machine(),
            "load_before": self.load_before,
            "load_after": load_average(),
            "hot_paths": list(self.hot_paths),
            "tables": self.tables,
            "notes": self.notes,
        }
        path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
        print(f"[written to {path.relative_to(ROOT)}]")
        return path
