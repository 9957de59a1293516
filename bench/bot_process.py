"""A real `python -m bot` process for the benches that drive it through the fake Discord
(`bench.scale`, `bench.load`): launching it, and what Linux says it costs (CPU time and
resident memory, from /proc: psutil is not a dependency)."""

from __future__ import annotations

import asyncio
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from tests.e2e.process import BotProcess

_TICKS = os.sysconf("SC_CLK_TCK")
_PAGE = os.sysconf("SC_PAGE_SIZE")


async def launch(folder: Path, env: dict[str, str], *argv: str, module: str = "bot") -> BotProcess:
    """Start `python [argv] -m bot` in `folder` with exactly `env` (argv: e.g. a profiler's
    `-m cProfile -o FILE`; `module`: another bot than Parlour's)."""
    folder.mkdir(exist_ok=True)
    proc = await asyncio.create_subprocess_exec(
        *(sys.executable, *argv, "-m", module),
        cwd=folder,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    return BotProcess(proc)


@dataclass(frozen=True)
class Usage:
    """CPU seconds used so far and resident memory now, of a process and its descendants
    (a worker pool's processes are the bot's cost too)."""

    cpu_s: float
    rss_bytes: int
    main_cpu_s: float  # the bot process's own, its event loop's among them


def _stat(pid: int) -> tuple[int, float, int] | None:
    """(parent pid, user + system CPU seconds, RSS bytes) of `pid`, None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name, field 2, may hold spaces: the fields after it follow its ')'.
    fields = text[text.rindex(")") + 2 :].split()
    ppid, utime, stime, rss_pages = int(fields[1]), int(fields[11]), int(fields[12]), fields[21]
    return ppid, (utime + stime) / _TICKS, int(rss_pages) * _PAGE


def usage(pid: int) -> Usage:
    """`pid`'s and its descendants' CPU time and RSS now."""
    stats = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit() and (found := _stat(int(entry.name))) is not None:
            stats[int(entry.name)] = found
    tree, frontier = {pid}, [pid]
    while frontier:
        parent = frontier.pop()
        children = [p for p, (ppid, _, _) in stats.items() if ppid == parent and p not in tree]
        tree.update(children)
        frontier.extend(children)
    own = [stats[p] for p in tree if p in stats]
    main = stats.get(pid, (0, 0.0, 0))[1]
    return Usage(sum(s[1] for s in own), sum(s[2] for s in own), main)
