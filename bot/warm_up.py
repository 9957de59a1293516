"""Draw one board of every game before the bot connects, so no player's click pays for a
renderer's cold start (its static layers: from the disk cache, or drawn and cached)."""

from __future__ import annotations

import asyncio
import logging
import time

from bot.presenters import Presenters
from bot.service import GameService
from rules.core import setup_rng

log = logging.getLogger(__name__)


async def warm_up(presenters: Presenters, service: GameService) -> None:
    started = time.perf_counter()
    for presenter in presenters:
        engine = service.engine(presenter.game)
        seats = list(range(1, engine.min_players + 1))
        state = engine.initial_state(seats, {}, setup_rng("warm-up"))
        await asyncio.to_thread(presenter.render_png, state, {})
    log.info("pictures ready in %.2f s", time.perf_counter() - started)
