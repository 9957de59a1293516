"""What a hoster meets, through the real `python -m bot` process: the version, settings from
a named file, JSON log lines, one line when Discord can't be reached, `check` on a fresh
machine, the forgetting chores, and the systemd unit."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from packaging.version import Version

from bot import __version__
from bot.__main__ import BAD_SETTING, FAILED, NOT_ON_WINDOWS, TOKEN_REFUSED, UNREACHABLE
from bot.client import SHUTDOWN_GRACE
from bot.service import GameService
from bot.storage import migrations, open_storage
from rules.registry import ENGINES
from tests.bot.test_admin import chore, problems
from tests.e2e.conftest import Launcher, ParlourFactory
from tests.e2e.driver import play_one_move, start_game
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.process import REPO, BotProcess, clean_env, connected, process_env

GAME = "cock-and-bull"


def test_one_version_everywhere(tmp_path: Path) -> None:
    done = chore("--version", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (0, f"Parlour {__version__}\n")
    changelog = (REPO / "CHANGELOG.md").read_text()
    released = re.findall(r"^## \[(\d+\.\d+\.\d+)\]", changelog, re.MULTILINE)
    if __version__ == released[0]:
        return  # a release: the newest the changelog describes
    # Main between releases: the next release's number, marked as in development, which the
    # changelog's Unreleased section names.
    upcoming, dev = __version__.split(".dev")
    assert dev == "0" and Version(upcoming) > Version(released[0])
    unreleased = changelog.split("## [Unreleased]")[1].split("\n## [")[0]
    assert f"`{__version__}`" in unreleased


def test_the_changelog_names_every_migration() -> None:
    """Each version lists the migrations it runs (`**009**`, or `**001** to **008**`): an
    upgrader reads which ones will run."""
    changelog = (REPO / "CHANGELOG.md").read_text()
    named: set[int] = set()
    for low, high in re.findall(r"\*\*(\d{3})\*\*(?: to \*\*(\d{3})\*\*)?", changelog):
        named |= set(range(int(low), int(high or low) + 1))
    for backend in ("sqlite", "postgres"):
        assert {number for number, _ in migrations(backend)} == named


async def test_help_shows_the_version_and_the_privacy_commands(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    await start_parlour()
    rec = await fake.slash(fake.make_user("Ana"), "help")
    (embed,) = (await rec.response()).message.embeds  # type: ignore[union-attr]
    assert embed["footer"]["text"] == f"Parlour {__version__}"
    assert "`/privacy`" in embed["description"] and "`/forget-me`" in embed["description"]


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_discord_unreachable_at_start_is_one_line_per_try_then_exit_3(tmp_path: Path) -> None:
    done = chore(
        cwd=tmp_path,
        DISCORD_TOKEN="t",
        DISCORD_API_BASE=f"http://127.0.0.1:{_closed_port()}/api/v10",
        CONNECT_RETRIES="1",
    )
    assert done.returncode == UNREACHABLE == 3
    said = [line for line in done.stderr.splitlines() if "Discord can't be reached" in line]
    assert len(said) == 2, done.stderr
    assert said[0].endswith("trying again in 2 s.")
    assert said[1].endswith("giving up (exit status 3; CONNECT_RETRIES=1).")
    assert "Traceback" not in done.stderr and "voice" not in done.stderr


def test_check_on_a_fresh_machine_says_there_is_no_database_yet(tmp_path: Path) -> None:
    """Before the first start there is no database: `check` still shows the settings and
    looks at the folder, names the file it looked for, and creates nothing."""
    done = chore("check", cwd=tmp_path, DISCORD_TOKEN="t")
    assert (done.returncode, done.stderr) == (2, "")
    assert problems(done) == [
        "On a machine where the bot never ran, its first start creates the database.",
        f"There is no database at {tmp_path / 'parlour.sqlite3'}: run this where the bot "
        "runs, or set DATABASE_URL.",
    ]
    assert list(tmp_path.iterdir()) == []  # nothing created
    missing = chore("check", cwd=tmp_path, DISCORD_TOKEN="t", DATABASE_PATH="no/such/db")
    assert missing.returncode == 2
    assert problems(missing)[-2] == f"The database's folder {tmp_path / 'no/such'} does not exist."


def test_on_windows_it_stops_with_one_line(tmp_path: Path) -> None:
    code = "import sys; from bot.__main__ import main; sys.platform = 'win32'; sys.exit(main([]))"
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=clean_env(DISCORD_TOKEN="t"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stderr) == (2, NOT_ON_WINDOWS + "\n")
    assert list(tmp_path.iterdir()) == []


def test_the_default_install_runs_without_postgresqls_driver(tmp_path: Path) -> None:
    """asyncpg is the `postgres` extra: without it the bot runs on SQLite, and a
    PostgreSQL URL is one line saying what to install."""
    blocked = "import sys; sys.modules['asyncpg'] = None; import runpy; "
    run_bot = "runpy.run_module('bot', run_name='__main__')"

    def chore_without_asyncpg(**env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", blocked + run_bot, "check"],
            cwd=tmp_path,
            env=clean_env(DISCORD_TOKEN="t", **env),
            capture_output=True,
            text=True,
            timeout=60,
        )

    (tmp_path / "parlour.sqlite3").touch()
    sqlite = chore_without_asyncpg()
    assert (sqlite.returncode, sqlite.stdout.splitlines()[-1]) == (0, "No problems found."), (
        sqlite.stdout + sqlite.stderr
    )
    postgres = chore_without_asyncpg(DATABASE_URL="postgresql://parlour@db/parlour")
    assert postgres.returncode == 1
    assert problems(postgres) == [
        "DATABASE_URL='postgresql://parlour@db/parlour' is PostgreSQL, whose driver is not "
        "installed: pip install 'parlour[postgres]'."
    ]


async def test_settings_come_from_the_file_env_file_names(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path
) -> None:
    settings = tmp_path / "etc" / "parlour.env"
    settings.parent.mkdir()
    env = process_env(fake, tmp_path / "parlour.sqlite3")
    settings.write_text("".join(f"{k}={v}\n" for k, v in env.items() if k.isupper()))
    elsewhere = tmp_path / "run"
    elsewhere.mkdir()
    bot = await launch(elsewhere, clean_env(ENV_FILE=str(settings)), forked=True)
    await connected(fake, bot, 1)
    bot.assert_clean()
    missing = chore(cwd=elsewhere, ENV_FILE=str(tmp_path / "nothing.env"))
    assert missing.returncode == 2
    assert (
        missing.stderr
        == f"ENV_FILE={str(tmp_path / 'nothing.env')!r} is not a file: name the settings file.\n"
    )


async def test_json_logs_are_one_object_a_line_with_the_game_and_server(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path
) -> None:
    """...and, at DEBUG, no line names a member (docs/PRIVACY.md); the files the bot makes
    are its user's alone (mode 600), without systemd's UMask too."""
    database = tmp_path / "parlour.sqlite3"
    env = process_env(fake, database, LOG_FORMAT="json", LOG_LEVEL="DEBUG")
    bot = await launch(tmp_path, env, forked=True)
    await connected(fake, bot, 1)
    ana, leo = fake.make_user("Zephyrine"), fake.make_user("Quillfeather")
    board = await start_game(fake, ana, GAME, joiners=[leo])
    await play_one_move(fake, [ana, leo], board)
    made = [database, *tmp_path.glob("parlour.sqlite3-*"), tmp_path / "parlour.sqlite3.lock"]
    assert {f.name: oct(f.stat().st_mode & 0o777) for f in made} == {f.name: "0o600" for f in made}
    assert len(made) == 4  # the database, its -wal and -shm, the lock
    bot.proc.send_signal(signal.SIGTERM)  # as a service manager stops it
    assert await asyncio.wait_for(bot.proc.wait(), 20) == 0
    await bot.kill()  # reads the rest of its log
    not_json = [line for line in bot.stderr if not _is_json_object(line)]
    assert not not_json, "\n".join(not_json)
    lines = [json.loads(line) for line in bot.stderr]
    assert all({"time", "level", "logger", "message"} <= set(line) for line in lines)
    assert lines[0]["message"] == f"Parlour {__version__} starting"
    about_the_game = [line for line in lines if line.get("game_id") == 1]
    assert about_the_game and {line["guild_id"] for line in about_the_game} == {fake.guild_id}
    assert "Zephyrine" not in bot.log and "Quillfeather" not in bot.log
    assert sum(line["level"] == "DEBUG" for line in lines) > 10  # DEBUG was on
    warned = [line["message"] for line in lines if line["level"] not in ("DEBUG", "INFO")]
    assert not [m for m in warned if "voice" in m or "Traceback" in m], warned


def _is_json_object(line: str) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except ValueError:
        return False


async def test_forget_user_and_forget_server_chores(tmp_path: Path) -> None:
    database = tmp_path / "parlour.sqlite3"
    storage = await open_storage(f"sqlite:///{database}")
    service = GameService(storage, ENGINES)
    ana, leo, guild = 733241950187002113, 733241950187003227, 1100000000000000001
    table = await service.create_lobby(
        "cock_and_bull", guild_id=guild, channel_id=2, host_id=ana, host_name="Ana", options={}
    )
    await service.join(table.row.id, leo, "Leo")
    await service.start(table.row.id, ana)
    await storage.close()
    env = {"DATABASE_PATH": str(database)}

    done = chore("forget-user", str(leo), cwd=tmp_path, **env)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == [
        f"Database: {database}",
        f"Member {leo} forgotten: 1 games now name a former player (1 in play resigned, "
        "0 lobbies left).",
    ]
    done = chore("forget-server", str(guild), cwd=tmp_path, **env)
    assert done.stdout.splitlines() == [
        f"Database: {database}",
        f"Server {guild} forgotten: its data deleted (1 games).",
    ]
    for typed in ("Leo", "2"):
        bad = chore("forget-user", typed, cwd=tmp_path, **env)
        assert bad.returncode == 2 and f"{typed!r} is not a Discord id" in bad.stderr


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
def test_the_systemd_unit_verifies(tmp_path: Path) -> None:
    unit = (REPO / "deploy" / "parlour.service").read_text()
    fields = dict(
        line.split("=", 1) for line in unit.splitlines() if "=" in line and line[0] != "#"
    )
    assert fields["User"] != "root" and fields["Restart"] == "on-failure"
    # Not restarted: what needs the admin; restarted: Discord out of reach, and any failure.
    kept_down = {int(status) for status in fields["RestartPreventExitStatus"].split()}
    assert kept_down == {BAD_SETTING, TOKEN_REFUSED} and UNREACHABLE == FAILED not in kept_down
    assert fields["EnvironmentFile"] and fields["WorkingDirectory"]
    assert int(fields["TimeoutStopSec"]) >= 3 * SHUTDOWN_GRACE  # clicks, boards, closing
    # Verified as installed: the interpreter where the unit expects the project's.
    local = tmp_path / "parlour.service"
    local.write_text(unit.replace("/opt/parlour/.venv/bin/python", sys.executable))
    done = subprocess.run(
        ["systemd-analyze", "verify", str(local)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert "parlour.service" not in done.stderr, done.stderr  # no warnings about it


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
def test_the_systemd_unit_is_hardened(tmp_path: Path) -> None:
    """`systemd-analyze security` rates the unit 3.0 or less ("OK"; it was 7.9, "EXPOSED")."""
    local = tmp_path / "parlour.service"
    unit = (REPO / "deploy" / "parlour.service").read_text()
    local.write_text(unit.replace("/opt/parlour/.venv/bin/python", sys.executable))
    done = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", "--no-pager", str(local)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if "--offline" in done.stderr:
        pytest.skip("this systemd-analyze can't rate a unit file offline (systemd < 252)")
    rating = re.search(r"Overall exposure level for parlour\.service: (\d+\.\d+)", done.stdout)
    assert rating is not None, done.stdout + done.stderr
    assert float(rating.group(1)) <= 3.0, done.stdout


# Linux's own refusal of memory both writable and executable (prctl PR_SET_MDWE, from 6.3:
# what the unit's MemoryDenyWriteExecute sets up), kept across exec; status 77 without it.
WRITE_XOR_EXECUTE = """
import ctypes, os, sys
if ctypes.CDLL(None, use_errno=True).prctl(65, 1, 0, 0, 0) != 0:
    sys.exit(77)
os.execv(sys.executable, [sys.executable, *sys.argv[1:]])
"""


async def test_the_bot_plays_where_memory_is_never_writable_and_executable(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """The unit's `MemoryDenyWriteExecute=true` holds for Python, uvloop, Pillow and the
    picture workers: the real process plays a game under the kernel's W^X."""
    wx = "import mmap; mmap.mmap(-1, 4096, prot=7)"  # read, write and execute at once
    probe = subprocess.run(
        [sys.executable, "-c", WRITE_XOR_EXECUTE, "-c", wx], capture_output=True, text=True
    )
    if probe.returncode == 77:
        pytest.skip("this kernel can't refuse writable executable memory (Linux < 6.3)")
    assert "PermissionError" in probe.stderr  # the guard holds
    env = process_env(fake, tmp_path / "parlour.sqlite3", PICTURE_WORKERS="1")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", WRITE_XOR_EXECUTE, "-m", "bot", cwd=tmp_path, env=env,
        stdin=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    bot = BotProcess(proc)
    try:
        await connected(fake, bot, 1)
        ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
        board = await start_game(fake, ana, GAME, joiners=[leo])
        for _ in range(3):
            board = await play_one_move(fake, [ana, leo], board)
    finally:
        await bot.kill()
    bot.assert_clean()


async def test_json_logs_of_picture_workers_are_json_too(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path
) -> None:
    """A picture worker logs as the bot does: its warnings (here: a picture cache that can't
    be written, under a file) are JSON lines in JSON mode."""
    (tmp_path / "a-file").write_text("")
    env = process_env(
        fake,
        tmp_path / "parlour.sqlite3",
        LOG_FORMAT="json",
        PICTURE_WORKERS="1",
        CACHE_DIR=str(tmp_path / "a-file" / "cache"),
    )
    bot = await launch(tmp_path, env)
    await connected(fake, bot, 1)
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    board = await start_game(fake, ana, GAME, joiners=[leo])
    await play_one_move(fake, [ana, leo], board)
    await bot.kill()
    not_json = [line for line in bot.stderr if not _is_json_object(line)]
    assert not not_json, "\n".join(not_json)
    lines = [json.loads(line) for line in bot.stderr]
    unwritten = [line for line in lines if "not written" in line["message"]]
    assert len({line["time"] for line in unwritten}) > 1  # the bot's and its worker's
