"""The fork server the storms start their bots from (`tests/e2e/fork_server.py`): a forked
bot is `python -m bot` run in its own folder with its own environment, its stderr reaches
the test, SIGKILL kills it, and none outlives its server."""

from __future__ import annotations

import asyncio
import json
import os
import signal
from pathlib import Path

from bot.__main__ import BAD_SETTING
from tests.e2e.conftest import Launcher
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.forked import ForkServer
from tests.e2e.process import START_TIMEOUT, BotProcess, clean_env, connected, process_env


async def test_a_forked_bot_ends_as_a_started_one_in_its_own_folder_and_environment(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path
) -> None:
    """Neither the server's folder nor its environment: the `.env` of the bot's folder and
    `LOG_FORMAT` of its own environment say how it refuses a bad setting."""
    (tmp_path / ".env").write_text("BOT_MOVE_DELAY=from-the-folder\n")
    env = process_env(fake, tmp_path / "parlour.sqlite3", LOG_FORMAT="json")
    del env["BOT_MOVE_DELAY"]  # the folder's
    said = []
    for forked in (False, True):
        bot = await launch(tmp_path, env, forked=forked)
        assert await asyncio.wait_for(bot.proc.wait(), START_TIMEOUT) == BAD_SETTING, bot.log
        await bot.kill()  # reads the rest of its stderr
        (line,) = bot.stderr
        record = json.loads(line)
        assert "from-the-folder" in record["message"], line
        said.append({key: value for key, value in record.items() if "time" not in key})
    started, forked_one = said
    assert forked_one == started


async def test_a_forked_bot_is_killed_by_sigkill_and_dies_with_its_server(
    fake: FakeDiscord, layer_cache: Path, tmp_path: Path
) -> None:
    """Whether the server is closed (a test's end) or killed (a test killed mid-way), none
    of its bots is left running."""
    closed, killed = await ForkServer.start(layer_cache), await ForkServer.start(layer_cache)
    bots = []
    for n, server in enumerate((closed, closed, killed), 1):
        env = process_env(fake, tmp_path / f"{n}.sqlite3", PICTURE_WORKERS="0")
        child = await server.launch(tmp_path, env)
        bots.append(BotProcess(child))
        await connected(fake, bots[-1], n)
        # Its stdin and stdout are /dev/null, as the launcher's are (not a file it opened).
        assert [os.readlink(f"/proc/{child.pid}/fd/{fd}") for fd in (0, 1)] == [os.devnull] * 2
        if n == 1:
            bots[0].proc.kill()
            assert await bots[0].proc.wait() == -signal.SIGKILL
    assert not any(map(_dead, (bots[1].proc.pid, bots[2].proc.pid)))
    await asyncio.wait_for(closed.close(), START_TIMEOUT)
    assert bots[1].proc.returncode == -signal.SIGKILL
    killed.proc.kill()  # no clean-up of its own: the children's PR_SET_PDEATHSIG
    assert await asyncio.to_thread(killed.proc.wait) == -signal.SIGKILL
    await _gone(bots[2].proc.pid)
    await killed.close()
    for bot in bots:
        await bot.kill()  # reads the rest of its stderr
        assert "Parlour" in bot.log and "starting" in bot.log, bot.log  # its stderr reached us
        assert _dead(bot.proc.pid)


def test_one_server_serves_one_test_after_another(layer_cache: Path, tmp_path: Path) -> None:
    """A worker's tests share its server, each in its own event loop: a test's loop
    attaches, launches, and detaches once its children are gone; the next one does the same."""
    server: ForkServer | None = None

    async def one_test() -> int:
        nonlocal server
        server = server or await ForkServer.start(layer_cache)
        child = await server.launch(tmp_path, clean_env(), "--help")
        code = await asyncio.wait_for(child.wait(), START_TIMEOUT)
        await server.detach()
        return code

    assert [asyncio.run(one_test()) for _ in range(2)] == [0, 0]
    assert server is not None and server.alive
    server.stop()
    assert server.proc.returncode == 0


async def _gone(pid: int) -> None:
    """Wait until process `pid` has died."""
    deadline = asyncio.get_running_loop().time() + START_TIMEOUT
    while not _dead(pid):
        assert asyncio.get_running_loop().time() < deadline, f"process {pid} still runs"
        await asyncio.sleep(0.01)


def _dead(pid: int) -> bool:
    """Whether process `pid` is gone, or a zombie (dead: its new parent may not reap it)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"
