"""`python -m tests.draw_layers DIR`: draw every game's static picture layers, in every
language, into DIR (a `CACHE_DIR`), as a bot's warm-up does.

A parallel run starts it as its workers start (`tests/conftest.py`), in the run's layer
cache: their first bots, and the bot processes the tests start, then load the layers
instead of each drawing them at once."""

from __future__ import annotations

import sys

from bot.table.pictures import warm
from cogs.games import GAMES
from cogs.pictures import prepare


def draw(directory: str) -> None:
    prepare(directory)
    warm([game.presenter() for game in GAMES])


if __name__ == "__main__":
    draw(sys.argv[1])
