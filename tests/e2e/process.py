"""`python -m bot` as a real process, against the fake Discord of the test: starting it,
reading its log, and waiting for it to connect."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
from pathlib import Path
from typing import Protocol

from tests.e2e.fake_discord import FakeDiscord

REPO = Path(__file__).resolve().parents[2]
GAME = "cock-and-bull"
START_TIMEOUT = 90.0  # a busy machine (the suite runs in parallel) starts it slowly; a hang fails
POLL = 0.01  # seconds between looks at the fake's IDENTIFYs (the storms wait on a hundred starts)
ANSI = re.compile(r"\x1b\[[0-9;]*m")
# discord.utils.setup_logging: "[date time] [LEVEL   ] name: ..." or, in colour (a tty or
# Docker), "date time LEVEL    name ...".
ERROR_LINE = re.compile(r"^\[?\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\]? \[?(ERROR|CRITICAL)\b|Traceback")


def clean_env(**settings: str) -> dict[str, str]:
    """Only what an interpreter needs to import the project, plus the given settings."""
    return {"PATH": os.environ.get("PATH", os.defpath), "PYTHONPATH": str(REPO), **settings}


class Process(Protocol):
    """What the tests use of a process: `asyncio.subprocess.Process`, or a child of the
    fork server (`tests/e2e/forked.py`)."""

    pid: int
    stderr: asyncio.StreamReader | None

    @property
    def returncode(self) -> int | None: ...

    def send_signal(self, signum: int) -> None: ...

    def kill(self) -> None: ...

    async def wait(self) -> int: ...


class BotProcess:
    """One `python -m bot` process; its stderr is collected as it comes."""

    def __init__(self, proc: Process) -> None:
        self.proc = proc
        self.stderr: list[str] = []
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.proc.stderr is not None
        async for line in self.proc.stderr:
            self.stderr.append(ANSI.sub("", line.decode(errors="replace")).rstrip("\n"))

    @property
    def log(self) -> str:
        return "\n".join(self.stderr)

    def errors(self) -> list[str]:
        return [line for line in self.stderr if ERROR_LINE.search(line)]

    def assert_clean(self) -> None:
        assert not self.errors(), f"the bot process logged errors:\n{self.log}"

    async def kill(self) -> None:
        """SIGKILL: no shutdown code of the bot runs."""
        if self.proc.returncode is None:
            self.proc.kill()
        await self.proc.wait()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(self._reader, 5)


def syncs(fake: FakeDiscord) -> int:
    """How many times a bot synced its slash commands."""
    return sum(
        1
        for c in fake.calls
        if c.method == "PUT" and c.path.endswith("/commands") and c.status == 200
    )


async def connected(fake: FakeDiscord, bot: BotProcess, count: int) -> None:
    """Wait until the `count`-th bot process has identified (its start-up, commands synced
    if they changed, is over by then)."""
    deadline = asyncio.get_running_loop().time() + START_TIMEOUT
    while len(fake.identifies) < count:
        if bot.proc.returncode is not None:
            await bot.kill()
            raise AssertionError(f"the bot exited ({bot.proc.returncode}):\n{bot.log}")
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"the bot did not connect in time:\n{bot.log}")
        await asyncio.sleep(POLL)


def process_env(fake: FakeDiscord, database: Path | str, **more: str) -> dict[str, str]:
    """The settings of a bot process against `fake` on `database` (a SQLite file, or a
    `DATABASE_URL`); `more` adds or overrides settings."""
    settings = {
        "DISCORD_TOKEN": fake.token,
        "DISCORD_API_BASE": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
        "GAME_SEED": "process",
        "BOT_MOVE_DELAY": "0",
        "LOG_LEVEL": "INFO",
    }
    if isinstance(database, Path):
        settings["DATABASE_PATH"] = str(database)
    else:
        settings["DATABASE_URL"] = database
    return clean_env(**(settings | more))


async def on_shard(fake: FakeDiscord, bot: BotProcess, shard: list[int], times: int) -> None:
    """Wait until `shard` ([id, count]) has IDENTIFYed `times` times in all (a restart is
    one more) and the bot process behind it is up."""
    deadline = asyncio.get_running_loop().time() + START_TIMEOUT
    while sum(i.get("shard") == shard for i in fake.identifies) < times:
        if bot.proc.returncode is not None:
            await bot.kill()
            raise AssertionError(f"the bot exited ({bot.proc.returncode}):\n{bot.log}")
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"shard {shard} did not connect in time:\n{bot.log}")
        await asyncio.sleep(POLL)
