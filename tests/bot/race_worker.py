"""One of two processes racing on the same games (`test_race.py`): `python -m
tests.bot.race_worker URL STEPS GAME_ID...`.

It tries every step of the games in turn, `STEPS` in all, exactly as a click would: it loads
the game, and if the game is at that step, plays the AI's choice for the player to act
(both workers choose the same); if the game has moved on, its click is an old button's.
Prints one JSON line: the (game, step) pairs it applied, and how many it lost at the
database (it read the step, the other process wrote it first).
"""

from __future__ import annotations

import asyncio
import json
import sys
from random import Random

from bot.errors import UserError
from bot.service import GameService
from bot.storage import ACTIVE, open_storage
from rules.core import Action
from rules.registry import ENGINES

STALE = Action("roll")  # what an old button would send: refused whatever it is


async def race(url: str, steps: int, game_ids: list[int]) -> dict[str, object]:
    storage = await open_storage(url)
    service = GameService(storage, ENGINES)
    applied: list[tuple[int, int]] = []
    lost_at_database = refused = 0
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)  # "go"
    tried = 0
    try:
        for game_id in game_ids:
            step = 0
            while tried < steps:
                table = await service.table(game_id)
                if table.row.status != ACTIVE and table.row.step <= step:
                    break  # every step of this game tried
                fresh = table.row.step == step
                engine = service.engine(table.row.game)
                if fresh:
                    player = sorted(engine.to_act(table.state))[0]
                    action = engine.choose(table.state, player, Random(step))
                else:
                    player, action = table.seats[0].player_id, STALE
                try:
                    await service.act(game_id, player, action, step)
                    applied.append((game_id, step))
                except UserError:
                    refused += 1
                    lost_at_database += fresh
                step += 1
                tried += 1
    finally:
        await storage.close()
    return {"applied": applied, "refused": refused, "lost_at_database": lost_at_database}


if __name__ == "__main__":
    url, steps, *ids = sys.argv[1:]
    result = asyncio.run(race(url, int(steps), [int(i) for i in ids]))
    print(json.dumps(result))
