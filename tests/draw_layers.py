"""`python -m tests.draw_layers DIR`: draw every game's static picture layers, in every
language, into DIR (a `CACHE_DIR`), as a bot's warm-up does.

A parallel run starts it as its workers start (`tests/conftest.py`), in the run's layer
cache: their first bots, and the bot processes the tests start, then load the layers
instead of each drawing them at once. The fork server draws the same way before it forks
(`tests/e2e/fork_server.py`)."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

from bot.table.pictures import warm


def run_layers(basetemp: Path) -> Path:
    """The run's layer cache, below the base temporary folder of the run's main process."""
    return basetemp / "layers"


def draw(directory: str | None) -> None:
    """Draw them into `directory` (None: in memory only), the bot's catalogs installed."""
    # Run apart from `sys.modules`, as a bot's `load_extension` runs the cogs afresh.
    games = runpy.run_module("cogs.games")["GAMES"]
    runpy.run_module("cogs.pictures")["prepare"](directory)
    warm([game.presenter() for game in games])


if __name__ == "__main__":
    draw(sys.argv[1])
