"""Storms: every game played to its end by members clicking at random while the real bot
process is killed (SIGKILL, no shutdown code) every 40 clicks and started again."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bot.service import GameService
from bot.storage import open_storage
from rules.registry import ENGINES
from tests.e2e.conftest import Launcher
from tests.e2e.driver import move_number
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.process import BotProcess, connected, process_env
from tests.e2e.storm import Storm
from tests.games import STORMS as SPECS

KILL_EVERY = 40
MAX_CLICKS = 3000


@dataclass
class Killed:
    """`python -m bot` on a SQLite file in `folder`, killed (SIGKILL: no shutdown code runs)
    and started again every `every` clicks: forked from the test's fork server, which
    imported the bot once for all the starts (`tests/e2e/fork_server.py`)."""

    every: int
    fake: FakeDiscord
    launch: Launcher
    folder: Path
    bot: BotProcess
    restarts: int = 0

    @classmethod
    async def every_clicks(
        cls, every: int, fake: FakeDiscord, launch: Launcher, folder: Path
    ) -> Killed:
        bot = await launch(folder, cls._env(fake, folder), forked=True)
        await connected(fake, bot, 1)
        return cls(every, fake, launch, folder, bot)

    @staticmethod
    def _env(fake: FakeDiscord, folder: Path) -> dict[str, str]:
        return process_env(fake, folder / "parlour.sqlite3", AUTOPLAY_PACE="0")

    async def after(self, clicks: int) -> None:
        """Kill and start the bot again if `clicks` reached the next multiple of `every`."""
        if clicks >= self.every * (self.restarts + 1):
            await self.stop()
            self.restarts += 1
            self.bot = await self.launch(
                self.folder, self._env(self.fake, self.folder), forked=True
            )
            await connected(self.fake, self.bot, self.restarts + 1)

    async def stop(self) -> None:
        await self.bot.kill()
        self.bot.assert_clean()


async def test_a_restart_storm_loses_nothing_and_every_game_ends(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path
) -> None:
    database = tmp_path / "parlour.sqlite3"
    process = await Killed.every_clicks(KILL_EVERY, fake, launch, tmp_path)
    storm = Storm(fake, seed=10)
    tables = [await storm.open(spec, ("Ana", "Leo")) for spec in SPECS]
    while not all(storm.finished(t) for t in tables):
        assert storm.tally.clicks < MAX_CLICKS, storm.report(tables)
        await storm.click(storm.rng.choice([t for t in tables if not storm.finished(t)]))
        await process.after(storm.tally.clicks)
    await process.stop()

    assert process.restarts >= 5, storm.tally
    assert storm.tally.unanswered == [] and fake.late_answers == [] and fake.unanswered() == []
    # Nothing lost: each game finished, its last board shows every logged move, and the log
    # replays to the saved state.
    storage = await open_storage(f"sqlite:///{database}")
    try:
        service = GameService(storage, ENGINES)
        for table in tables:
            (row,) = [
                r for r in await storage.games(status="finished") if r.thread_id == table.thread_id
            ]
            board = storm.board(table)
            assert board is not None and move_number(board) == row.step
            assert len(await storage.actions(row.id)) == row.step
            assert await service.replay(row.id) == (await service.table(row.id)).state
    finally:
        await storage.close()


REMATCHES = 6
REMATCH_KILL_EVERY = 60


async def test_a_chain_of_rematches_through_restarts_leaves_no_click_unanswered(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path
) -> None:
    """Two members play Cock & Bull, click Rematch after every game and play on, clicking
    what they see — boards their screens still show as they were before the last click
    among it — while the bot process is killed every 60 clicks."""
    process = await Killed.every_clicks(REMATCH_KILL_EVERY, fake, launch, tmp_path)
    storm = Storm(fake, seed=12)
    table = await storm.open(SPECS[0], ("Ana", "Leo"))
    games = 1
    while games < REMATCHES or not storm.finished(table):
        assert storm.tally.clicks < MAX_CLICKS * 2, storm.report([table])
        if storm.finished(table):
            table = await storm.rematch(table)
            games += 1
        else:
            await storm.click(table)
        await process.after(storm.tally.clicks)
    await process.stop()
    assert games == REMATCHES and process.restarts >= 5, (games, process.restarts, storm.tally)
    assert storm.tally.unanswered == [] and fake.late_answers == [] and fake.unanswered() == []
