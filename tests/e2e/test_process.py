"""`python -m bot` as a real process: start-up errors, and a SIGKILL in the middle of a game.

These tests run the bot exactly as a server does (a separate interpreter, settings from the
environment or `.env`), against the in-process fake Discord of the test.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from pathlib import Path

import pytest

from bot.storage import Storage
from tests.e2e.driver import (
    board_message,
    move_number,
    play_one_move,
    play_to_the_end,
    prompt,
    start_game,
)
from tests.e2e.fake_discord import FakeDiscord

REPO = Path(__file__).resolve().parents[2]
GAME = "cock-and-bull"
START_TIMEOUT = 15.0
ANSI = re.compile(r"\x1b\[[0-9;]*m")
# discord.utils.setup_logging: "[date time] [LEVEL   ] name: ..." or, in colour (a tty or
# Docker), "date time LEVEL    name ...".
ERROR_LINE = re.compile(r"^\[?\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\]? \[?(ERROR|CRITICAL)\b|Traceback")


def clean_env(**settings: str) -> dict[str, str]:
    """Only what an interpreter needs to import the project, plus the given settings."""
    return {"PATH": os.environ.get("PATH", os.defpath), "PYTHONPATH": str(REPO), **settings}


class BotProcess:
    """One `python -m bot` process; its stderr is collected as it comes."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
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


Launcher = Callable[[Path, Mapping[str, str]], Awaitable[BotProcess]]


@pytest.fixture
async def launch(fake: FakeDiscord) -> AsyncIterator[Launcher]:
    """Start `python -m bot` processes; every one is killed at teardown (before the fake
    Discord closes)."""
    started: list[BotProcess] = []

    async def start(cwd: Path, env: Mapping[str, str]) -> BotProcess:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=cwd,
            env=dict(env),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        started.append(BotProcess(proc))
        return started[-1]

    try:
        yield start
    finally:
        for bot in started:
            await bot.kill()
            print(f"--- stderr of bot process {bot.proc.pid} ---\n{bot.log}")


def _syncs(fake: FakeDiscord) -> int:
    return sum(
        1
        for c in fake.calls
        if c.method == "PUT" and c.path.endswith("/commands") and c.status == 200
    )


async def connected(fake: FakeDiscord, bot: BotProcess, count: int) -> None:
    """Wait until the `count`-th bot process has synced its commands and identified."""
    deadline = asyncio.get_running_loop().time() + START_TIMEOUT
    while len(fake.identifies) < count or _syncs(fake) < count:
        if bot.proc.returncode is not None:
            await bot.kill()
            raise AssertionError(f"the bot exited ({bot.proc.returncode}):\n{bot.log}")
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"the bot did not connect in time:\n{bot.log}")
        await asyncio.sleep(0.05)


# -- playing by clicks ------------------------------------------------------------------------


# -- the tests --------------------------------------------------------------------------------


def test_without_a_token_it_stops_with_one_line(tmp_path: Path) -> None:
    # load_dotenv() also finds a .env next to the code (see the test below): a developer's
    # real token must not make this test log in to Discord.
    if any((folder / ".env").exists() for folder in (REPO / "bot").parents):
        pytest.skip("a .env beside the code would be loaded whatever the working directory")
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=10,
    )
    assert done.returncode != 0
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert "DISCORD_TOKEN" in lines[0]
    assert done.stdout == ""
    assert list(tmp_path.iterdir()) == []  # no database was created


async def test_env_file_in_the_working_directory_is_read(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path
) -> None:
    """The README and bot/settings.py: the settings come from the environment or a `.env`
    in the working directory (copied from .env.example)."""
    (tmp_path / ".env").write_text(
        f"DISCORD_TOKEN={fake.token}\n"
        f"DISCORD_API_BASE={fake.api_base}\n"
        f"DISCORD_GATEWAY_URL={fake.gateway_url}\n"
        f"DATABASE_PATH={tmp_path / 'parlour.sqlite3'}\n"
    )
    bot = await launch(tmp_path, clean_env())
    await connected(fake, bot, 1)
    bot.assert_clean()


async def test_sigkill_mid_game_then_restart_loses_nothing(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path
) -> None:
    database = tmp_path / "parlour.sqlite3"
    env = clean_env(
        DISCORD_TOKEN=fake.token,
        DISCORD_API_BASE=fake.api_base,
        DISCORD_GATEWAY_URL=fake.gateway_url,
        DATABASE_PATH=str(database),
        GAME_SEED="process",
        BOT_MOVE_DELAY="0",
        LOG_LEVEL="INFO",
    )
    first = await launch(tmp_path, env)
    await connected(fake, first, 1)
    assert {c["name"] for c in fake.commands()} >= {GAME, "games"}

    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    players = [ana, leo]
    board = await start_game(fake, ana, GAME, joiners=[leo])
    thread_id = int(fake.threads[0]["id"])
    # Past the start roll and the colour choice, then a few plain turns.
    while not prompt(board).endswith("to roll"):
        await play_one_move(fake, players, board)
    for _ in range(3):
        await play_one_move(fake, players, board)
    await first.kill()  # right after the click's answer arrived: no graceful shutdown
    first.assert_clean()
    shown = move_number(board)
    assert shown > 3

    # Every move the players saw answered is in the database.
    storage = await Storage.open(str(database))
    try:
        (game,) = await storage.games(status="active")
        assert len(await storage.actions(game.id)) == shown
    finally:
        await storage.close()

    second = await launch(tmp_path, env)
    await connected(fake, second, 2)

    rec = await fake.slash(leo, "games")
    listing = (await rec.response()).message
    assert listing is not None and listing.ephemeral
    text = listing.embeds[0]["description"]
    assert f"#{game.id}**" in text and "Ana" in text and "Leo" in text
    assert f"<#{thread_id}>" in text

    # The board posted by the killed process still works, and counts on.
    await play_one_move(fake, players, board)
    assert move_number(board) == shown + 1
    moves = await play_to_the_end(fake, players, board)
    assert moves > 0
    assert board_message(fake) is board  # the same board message, edited to the end
    result = await fake.wait_for(
        lambda: fake.latest_message(thread_id, lambda m: m.content.startswith("🏁"))
    )
    assert "wins" in result.content
    second.assert_clean()
