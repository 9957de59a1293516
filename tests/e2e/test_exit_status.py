"""How the real `python -m bot` process ends when it can't run: one line saying why, and an
exit status a service manager can act on (`deploy/parlour.service`): 2 and 4 need the admin,
3 (Discord out of reach, or any other failure) is restarted. In JSON mode every line of it,
the last one included, is a JSON object. Each process is forked from the worker's fork
server, its imports done (`tests/e2e/fork_server.py`): it ends as a started one does."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.__main__ import BAD_SETTING, BAD_TOKEN, FAILED, TOKEN_REFUSED, UNREACHABLE
from tests.e2e.conftest import Launcher
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.process import START_TIMEOUT, BotProcess, process_env


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _ended(bot: BotProcess) -> int:
    """The process's exit status, once it has stopped by itself; its stderr read whole."""
    status = await asyncio.wait_for(bot.proc.wait(), START_TIMEOUT * 2)
    await bot.kill()  # reads the rest of its output
    return status


def _json_lines(bot: BotProcess) -> list[dict[str, object]]:
    lines = []
    for line in bot.stderr:
        parsed = json.loads(line)  # fails the test on a line that is not JSON
        assert isinstance(parsed, dict), line
        lines.append(parsed)
    return lines


async def test_a_gateway_refused_after_login_is_one_line_per_try_then_3(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path
) -> None:
    """discord.py #10520: the login accepted, the first gateway connect fails and discord.py
    trips over its own `self.ws` (None); Parlour reads it as Discord out of reach, tries
    again (with the database's lock taken again), then gives up with 3."""
    gateway = f"ws://127.0.0.1:{_closed_port()}/gateway"
    env = process_env(
        fake, tmp_path / "parlour.sqlite3", DISCORD_GATEWAY_URL=gateway, CONNECT_RETRIES="1"
    )
    bot = await launch(tmp_path, env, forked=True)
    assert await _ended(bot) == UNREACHABLE == 3, bot.log
    said = [line for line in bot.stderr if "Discord can't be reached" in line]
    assert len(said) == 2, bot.log
    assert said[0].endswith("trying again in 2 s.")
    assert bot.stderr[-1] == said[1]
    assert said[1].endswith("giving up (exit status 3; CONNECT_RETRIES=1).")
    assert "Traceback" not in bot.log and "NoneType" not in bot.log, bot.log
    assert len([c for c in fake.calls if c.path == "/users/@me"]) == 2  # logged in twice


@pytest.fixture
def busy_port() -> Iterator[int]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        yield int(s.getsockname()[1])


async def test_a_busy_metrics_port_is_one_line_and_2(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path, busy_port: int
) -> None:
    env = process_env(fake, tmp_path / "parlour.sqlite3", METRICS_PORT=str(busy_port))
    bot = await launch(tmp_path, env, forked=True)
    assert await _ended(bot) == BAD_SETTING == 2, bot.log
    assert bot.stderr[-1].startswith(
        f"METRICS_PORT={busy_port} can't be used on METRICS_HOST='127.0.0.1': "
    ), bot.log
    assert "Traceback" not in bot.log


async def test_an_address_this_machine_lacks_is_one_line_and_2(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path
) -> None:
    env = process_env(fake, tmp_path / "parlour.sqlite3", METRICS_PORT="9100")
    env["METRICS_HOST"] = "192.0.2.1"  # TEST-NET-1: no machine's own address
    bot = await launch(tmp_path, env, forked=True)
    assert await _ended(bot) == BAD_SETTING, bot.log
    assert bot.stderr[-1].startswith("METRICS_PORT=9100 can't be used on METRICS_HOST='192.0.2.1'")
    assert "Traceback" not in bot.log


async def test_a_refused_token_has_a_status_of_its_own(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path
) -> None:
    env = process_env(fake, tmp_path / "parlour.sqlite3", DISCORD_TOKEN="not-the-token")
    bot = await launch(tmp_path, env, forked=True)
    assert await _ended(bot) == TOKEN_REFUSED == 4, bot.log
    assert bot.stderr[-1] == BAD_TOKEN
    assert "Traceback" not in bot.log
    sync = await launch(tmp_path, env, "sync-commands", forked=True)  # the chore says it alike
    assert await _ended(sync) == TOKEN_REFUSED, sync.log
    assert sync.stderr[-1] == BAD_TOKEN


@pytest.mark.parametrize("form", ["text", "json"])
async def test_an_unexpected_failure_at_start_is_one_line_and_3(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path, form: str
) -> None:
    """Any failure the bot has no answer for (here Discord refusing the commands' sync with
    a 400) ends with one line naming it and 3, which a service restarts; its traceback is
    kept (in JSON mode as a field of that line's record)."""
    fake.inject("PUT", r"/applications/\d+/commands", status=400, message="Bad commands")
    env = process_env(fake, tmp_path / "parlour.sqlite3", LOG_FORMAT=form)
    bot = await launch(tmp_path, env, forked=True)
    assert await _ended(bot) == FAILED == 3, bot.log
    reason = "Parlour stopped on an unexpected error (HTTPException: 400 Bad Request"
    last = bot.stderr[-1]
    if form == "text":
        assert last.startswith(reason) and last.endswith("exit status 3, to be started again.")
        assert "Traceback" in bot.log
        return
    lines = _json_lines(bot)
    assert str(lines[-1]["message"]).startswith(reason)
    assert lines[-1]["exit_status"] == 3 and lines[-1]["level"] == "CRITICAL"
    assert "Traceback" in str(lines[-1]["exception"])


def _json_env(fake: FakeDiscord, tmp_path: Path, **more: str) -> dict[str, str]:
    """JSON logs, debug level, a gateway that can't be reached and no retry; `more` on top."""
    gateway = f"ws://127.0.0.1:{_closed_port()}/gateway"
    return process_env(
        fake,
        tmp_path / "parlour.sqlite3",
        DISCORD_GATEWAY_URL=gateway,
        CONNECT_RETRIES="0",
        LOG_FORMAT="json",
        LOG_LEVEL="DEBUG",
        **more,
    )


# In JSON mode every way to stop ends on a JSON line with its exit status: one test each,
# so that pytest-xdist runs the four processes on several workers at once.
async def test_json_mode_discord_out_of_reach_is_json_too(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path
) -> None:
    bot = await launch(tmp_path, _json_env(fake, tmp_path), forked=True)
    assert await _ended(bot) == UNREACHABLE, bot.log
    last = _json_lines(bot)[-1]
    assert last["exit_status"] == 3 and "giving up" in str(last["message"])


async def test_json_mode_busy_metrics_port_is_json_too(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path, busy_port: int
) -> None:
    busy = await launch(
        tmp_path, _json_env(fake, tmp_path, METRICS_PORT=str(busy_port)), forked=True
    )
    assert await _ended(busy) == BAD_SETTING, busy.log
    assert _json_lines(busy)[-1]["exit_status"] == 2


async def test_json_mode_refused_token_is_json_too(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path
) -> None:
    refused = await launch(
        tmp_path, _json_env(fake, tmp_path, DISCORD_TOKEN="not-the-token"), forked=True
    )
    assert await _ended(refused) == TOKEN_REFUSED, refused.log
    assert _json_lines(refused)[-1] == _json_lines(refused)[-1] | {"message": BAD_TOKEN}


async def test_json_mode_bad_setting_is_json_too(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path
) -> None:
    # Refused before the settings are read (and the log set up from them).
    bad = await launch(tmp_path, _json_env(fake, tmp_path, BOT_MOVE_DELAY="abc"), forked=True)
    assert await _ended(bad) == BAD_SETTING
    assert [line["exit_status"] for line in _json_lines(bad)] == [2]
