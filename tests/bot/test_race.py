"""Two processes meet one game on PostgreSQL (a shard moved, a restart that overlaps): the
database decides, and each step is applied exactly once."""

from __future__ import annotations

import asyncio
import json
import sys

import pytest

from bot.errors import UserError
from bot.service import GameService
from bot.storage import StaleStep, Storage, open_storage
from rules.cock_and_bull.actions import ROLL
from rules.core import Action
from rules.registry import ENGINES
from tests.e2e.process import REPO, clean_env

ANA, LEO = 101, 102
STEPS = 1000


async def new_games(storage: Storage, count: int) -> list[int]:
    service = GameService(storage, ENGINES, fixed_seed="race")
    ids = []
    for _ in range(count):
        table = await service.create_lobby(
            "cock_and_bull", guild_id=1, channel_id=2, host_id=ANA, host_name="Ana", options={}
        )
        await service.join(table.row.id, LEO, "Leo")
        await service.start(table.row.id, ANA)
        ids.append(table.row.id)
    return ids


async def write_over(
    storage: Storage, game_id: int, *, step: int, revision: int, player_id: int, action: Action
) -> None:
    """`record_action` of an empty state at `step` and `revision`: for the writes a storage
    must refuse as stale (StaleStep)."""
    await storage.record_action(
        game_id,
        step=step,
        revision=revision,
        player_id=player_id,
        action=action,
        by_ai=False,
        state={},
        deadline=None,
        results=None,
        now=0.0,
    )


async def test_two_connections_writing_one_step_write_it_once(postgres_url: str) -> None:
    """Both read the game at step 0 and both write step 0 at the same moment: the game row
    is locked, the second waits, then finds the step gone and writes nothing."""
    first, second = await open_storage(postgres_url), await open_storage(postgres_url)
    try:
        (game_id,) = await new_games(first, 1)
        services = [GameService(s, ENGINES) for s in (first, second)]
        tables = [await service.table(game_id) for service in services]
        player = sorted(ENGINES["cock_and_bull"].to_act(tables[0].state))[0]
        outcomes = await asyncio.gather(
            *(
                service._apply(table, player, ROLL, 0, by_ai=False)
                for service, table in zip(services, tables, strict=True)
            ),
            return_exceptions=True,
        )
        refused = [o for o in outcomes if isinstance(o, BaseException)]
        assert len(refused) == 1 and isinstance(refused[0], UserError)
        assert "out of date" in str(refused[0])
        assert [a.step for a in await first.actions(game_id)] == [0]
        with pytest.raises(StaleStep):  # the storage's own refusal, without the service
            await write_over(second, game_id, step=0, revision=0, player_id=player, action=ROLL)
    finally:
        await first.close()
        await second.close()


async def test_two_processes_racing_apply_each_of_1000_steps_once(postgres_url: str) -> None:
    storage = await open_storage(postgres_url)
    try:
        game_ids = await new_games(storage, 100)  # more steps than STEPS in all
        workers = [
            await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "tests.bot.race_worker",
                postgres_url,
                str(STEPS),
                *map(str, game_ids),
                cwd=REPO,
                env=clean_env(),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
            )
            for _ in range(2)
        ]
        for worker in workers:  # both connected and migrated: start them together
            assert worker.stdout is not None and await worker.stdout.readline() == b"ready\n"
        results = []
        for worker in workers:
            assert worker.stdin is not None
            worker.stdin.write(b"go\n")
            await worker.stdin.drain()
        for worker in workers:
            out, _ = await asyncio.wait_for(worker.communicate(), 300)
            assert worker.returncode == 0
            results.append(json.loads(out))
        applied = [{tuple(pair) for pair in r["applied"]} for r in results]
        logged = {
            (game_id, entry.step)
            for game_id in game_ids
            for entry in await storage.actions(game_id)
        }
        # Every step tried by both: applied by exactly one, refused by the other.
        assert not applied[0] & applied[1]
        assert applied[0] | applied[1] == logged and len(logged) == STEPS
        assert sum(r["refused"] for r in results) == STEPS
        print(
            f"applied {len(applied[0])} + {len(applied[1])}; lost at the database (both read "
            f"the step): {[r['lost_at_database'] for r in results]}"
        )
        service = GameService(storage, ENGINES)
        for game_id in {g for g, _ in logged}:
            assert await service.replay(game_id) == (await service.table(game_id)).state
    finally:
        await storage.close()
