"""`python -m bot` as a real process: start-up errors, and a SIGKILL in the middle of a game.

These tests run the bot exactly as a server does (a separate interpreter, settings from the
environment or `.env`), against the in-process fake Discord of the test.
"""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.storage import open_storage
from tests.e2e.conftest import Launcher
from tests.e2e.driver import (
    board_message,
    move_number,
    play_one_move,
    play_to_the_end,
    prompt,
    start_game,
)
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.process import (
    REPO,
    START_TIMEOUT,
    clean_env,
    connected,
    process_env,
    syncs,
)

GAME = "cock-and-bull"


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
        timeout=START_TIMEOUT,
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
    bot = await launch(tmp_path, clean_env(), forked=True)
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
        PICTURE_WORKERS="1",  # killed outright beside its bot process
    )
    first = await launch(tmp_path, env, forked=True)
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
    storage = await open_storage(f"sqlite:///{database}")
    try:
        (game,) = await storage.games(status="active")
        assert len(await storage.actions(game.id)) == shown
    finally:
        await storage.close()

    second = await launch(tmp_path, env, forked=True)
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


async def test_a_second_process_on_the_same_database_refuses_to_start(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path
) -> None:
    env = process_env(fake, tmp_path / "parlour.sqlite3")
    first = await launch(tmp_path, env, forked=True)
    await connected(fake, first, 1)
    second = await launch(tmp_path, env, forked=True)
    assert await asyncio.wait_for(second.proc.wait(), START_TIMEOUT) == 2
    await second.kill()  # collects the rest of its output
    (line,) = second.stderr
    assert f"(pid {first.proc.pid}) is already running on" in line, second.log
    assert first.proc.returncode is None  # the first one is untouched
    first.assert_clean()


def test_a_bad_setting_stops_with_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=clean_env(DISCORD_TOKEN="x", BOT_MOVE_DELAY="abc"),
        capture_output=True,
        text=True,
        timeout=START_TIMEOUT,
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "BOT_MOVE_DELAY='abc' is not valid: seconds, 0 or more (e.g. 1)."
    ]
    assert list(tmp_path.iterdir()) == []


async def test_sigterm_mid_game_stops_cleanly_and_a_restart_goes_on(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path
) -> None:
    """`docker stop` or a service manager: SIGTERM, and the bot closes what it has open
    (exit 0, nothing logged as an error); the next start finds the game as it was."""
    env = process_env(fake, tmp_path / "parlour.sqlite3")
    first = await launch(tmp_path, env, forked=True)
    await connected(fake, first, 1)
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    board = await start_game(fake, ana, GAME, joiners=[leo])
    for _ in range(4):
        board = await play_one_move(fake, [ana, leo], board)
    shown = move_number(board)
    first.proc.send_signal(signal.SIGTERM)
    assert await asyncio.wait_for(first.proc.wait(), 10) == 0
    await first.kill()
    first.assert_clean()
    assert "shutting down" in first.log
    assert "event loop lag over" in first.log  # the last thing it does before exiting

    second = await launch(tmp_path, env, forked=True)
    await connected(fake, second, 2)
    board = await play_one_move(fake, [ana, leo], board)
    assert move_number(board) == shown + 1
    assert await play_to_the_end(fake, [ana, leo], board) > 0
    second.assert_clean()


@pytest.mark.parametrize(
    ("settings", "line"),
    [
        (
            {"DATABASE_URL": "mysql://db/parlour"},
            "DATABASE_URL='mysql://db/parlour' is not valid: sqlite:///<file> or "
            "postgresql://user@host:5432/database.",
        ),
        (
            {"SHARD_COUNT": "2", "SHARD_IDS": "0,2"},
            "SHARD_IDS='0,2' is not valid: shard numbers from 0 to 1 (SHARD_COUNT=2), "
            "separated by commas (e.g. 0,1).",
        ),
    ],
)
def test_a_bad_database_or_shard_setting_stops_with_one_line(
    tmp_path: Path, settings: dict[str, str], line: str
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=clean_env(DISCORD_TOKEN="x", **settings),
        capture_output=True,
        text=True,
        timeout=START_TIMEOUT,
    )
    assert (done.returncode, done.stderr.splitlines()) == (2, [line])
    assert list(tmp_path.iterdir()) == []


CHORES = (
    "sync-commands",
    "copy-db",
    "backup",
    "restore",
    "check",
    "forget-user",
    "export-user",
    "forget-server",
)


@pytest.mark.parametrize("command", [[], *([c] for c in CHORES)])
def test_every_command_has_help(tmp_path: Path, command: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", *command, "--help"],
        cwd=tmp_path,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=START_TIMEOUT,
    )
    assert done.returncode == 0 and done.stdout.startswith("usage: python -m bot")
    assert ("--to URL" in done.stdout) == (command == ["copy-db"])
    if not command:  # the bot's own help lists every chore
        assert all(c in done.stdout for c in CHORES)


async def test_an_unreachable_postgresql_stops_with_one_line(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path
) -> None:
    url = "postgresql://parlour:secret@127.0.0.1:9/parlour"  # port 9: nobody listens
    bot = await launch(tmp_path, process_env(fake, url), forked=True)
    assert await asyncio.wait_for(bot.proc.wait(), START_TIMEOUT) == 2
    await bot.kill()
    assert bot.stderr[-1].startswith(
        "DATABASE_URL='postgresql://parlour:***@127.0.0.1:9/parlour' can't be used: "
    ), bot.log
    assert "Traceback" not in bot.log and "secret" not in bot.log


async def test_sync_commands_syncs_and_exits(fake: FakeDiscord, tmp_path: Path) -> None:
    """`python -m bot sync-commands`: the slash commands synced, no gateway, no database."""
    env = process_env(fake, tmp_path / "parlour.sqlite3", SHARD_COUNT="2", SHARD_IDS="1")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "sync-commands", cwd=tmp_path, env=env,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    _, err = await asyncio.wait_for(proc.communicate(), START_TIMEOUT)
    assert proc.returncode == 0, err.decode()
    assert {c["name"] for c in fake.commands()} >= {GAME, "games"}
    assert fake.identifies == [] and list(tmp_path.iterdir()) == []


async def test_commands_are_synced_only_when_they_changed_or_when_asked(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path
) -> None:
    """Discord keeps the commands between starts: a second start with the same commands
    sends no sync (a rate-limited call); `--sync` sends them anyway, and so does a start
    whose commands differ from those last synced (here: to a development server)."""
    env = process_env(fake, tmp_path / "parlour.sqlite3")
    starts = [((), {}), ((), {}), (("--sync",), {}), ((), {"DEV_GUILD_ID": str(fake.guild_ids[0])})]
    synced, logs = [], []
    for count, (args, more) in enumerate(starts, start=1):
        bot = await launch(tmp_path, env | more, *args, forked=True)
        await connected(fake, bot, count)
        await bot.kill()
        bot.assert_clean()
        synced.append(syncs(fake))
        logs.append(bot.log)
    assert synced == [1, 1, 2, 3]
    assert "slash commands unchanged since the last sync: not sent" in logs[1]
