"""The chores find the bot's database or refuse; `restore` after a crash; `check`'s deeper
looks (stray write-ahead log, unwritable files, a busy metrics port, unknown settings). Run
as an admin runs them: `python -m bot …` as a real process."""

from __future__ import annotations

import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from random import Random

import pytest

from bot.ops.check import unwritable
from bot.service import GameService
from bot.settings import NAMES, Settings
from bot.storage import ACTIVE, migrations, open_storage
from rules.registry import ENGINES
from tests.bot.test_admin import a_game, chore, header, play, problems
from tests.e2e.process import REPO, clean_env

ID = "123456789012345678"  # a plausible member's or server's id


@pytest.mark.parametrize(
    "args",
    [
        ("forget-user", ID),
        ("forget-server", ID),
        ("backup", "copy.sqlite3"),
        ("copy-db", "--to", "postgresql://parlour@127.0.0.1:1/none"),
        ("check",),
    ],
)
def test_a_chore_run_elsewhere_refuses_and_creates_nothing(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    """With the default `sqlite:///parlour.sqlite3`, run in a directory other than the
    bot's: the chore names the database it looked for, refuses, and leaves no file."""
    elsewhere = tmp_path / "home"
    elsewhere.mkdir()
    done = chore(*args, cwd=elsewhere, DISCORD_TOKEN="t")
    assert done.returncode == 2, done.stdout + done.stderr
    missing = elsewhere / "parlour.sqlite3"
    assert header(done) == f"Database: {missing}"
    refusal = (
        f"There is no database at {missing}: run this where the bot runs, or set DATABASE_URL."
    )
    assert refusal in (done.stdout + done.stderr).splitlines()
    assert list(elsewhere.iterdir()) == []
    assert "Traceback" not in done.stderr


async def test_chores_name_the_database_they_use(tmp_path: Path) -> None:
    database = tmp_path / "state" / "parlour.sqlite3"
    database.parent.mkdir()
    storage = await open_storage(f"sqlite:///{database}")
    await a_game(GameService(storage, ENGINES))
    await storage.close()
    for args in (("forget-server", ID), ("check",), ("backup", str(tmp_path / "b.sqlite3"))):
        done = chore(*args, cwd=database.parent, DISCORD_TOKEN="t")
        assert done.returncode == 0, done.stderr
        assert header(done) == f"Database: {database}"
    secret = chore("check", cwd=tmp_path, DATABASE_URL="postgresql://p:hush@127.0.0.1:1/x")
    assert header(secret) == "Database: postgresql://p:***@127.0.0.1:1/x"
    assert "hush" not in secret.stdout + secret.stderr


CRASH = """
import asyncio, os, sys
from random import Random
from bot.service import GameService
from bot.storage import open_storage
from rules.registry import ENGINES
from tests.bot.test_admin import a_game, play

async def main() -> None:
    storage = await open_storage(sys.argv[1])
    service = GameService(storage, ENGINES)
    for game_id in [await a_game(service) for _ in range(2)] + [1, 2, 3]:
        await play(service, game_id, 30, Random(game_id))
    os._exit(0)  # a crash: no checkpoint, the write-ahead log stays

asyncio.run(main())
"""


async def crashed_after_a_backup(folder: Path) -> tuple[Path, Path, dict[int, object]]:
    """A database with several games, a backup of it, then more moves and games by a bot
    that crashes, leaving its write-ahead log. The database, the backup, and the backup's
    games' states."""
    database = folder / "parlour.sqlite3"
    storage = await open_storage(f"sqlite:///{database}")
    service = GameService(storage, ENGINES)
    games = [await a_game(service) for _ in range(4)]
    for game_id in games[:3]:
        await play(service, game_id, 6, Random(game_id))
    await storage.close()
    backup = folder / "backup.sqlite3"
    done = chore("backup", str(backup), cwd=folder)
    assert done.returncode == 0, done.stderr
    shutil.copyfile(backup, folder / "look.sqlite3")  # the backup's games, read from a copy
    look = await open_storage(f"sqlite:///{folder / 'look.sqlite3'}")
    states = {g: (await GameService(look, ENGINES).table(g)).state for g in games}
    await look.close()
    crash = subprocess.run(
        [sys.executable, "-c", CRASH, f"sqlite:///{database}"],
        cwd=folder,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert crash.returncode == 0, crash.stderr
    assert Path(f"{database}-wal").stat().st_size > 32  # the crash left its log
    return database, backup, states


async def test_restore_after_a_crash_brings_back_every_game_playable(tmp_path: Path) -> None:
    database, backup, states = await crashed_after_a_backup(tmp_path)
    left = [p for p in tmp_path.glob("parlour.sqlite3*") if not p.name.endswith(".lock")]
    before = {p.name: p.read_bytes() for p in left}

    done = chore("restore", str(backup), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"Database: {database}"
    assert lines[1] == f"Restored 4 games (4 active) from {backup}."
    assert lines[2] == f"It is at schema {migrations('sqlite')[-1][0]}, this version's."
    assert lines[3].startswith("The files it replaced were moved aside: ")

    # Moved aside, not deleted: the same bytes under one timestamped name.
    aside = {p.name: p.read_bytes() for p in tmp_path.glob("parlour.sqlite3.before-restore-*")}
    assert sorted(aside) == sorted(
        n.replace("parlour.sqlite3", next(iter(sorted(aside))), 1) for n in before
    )
    assert sorted(aside.values()) == sorted(before.values())
    assert not Path(f"{database}-wal").exists() and not Path(f"{database}-shm").exists()

    storage = await open_storage(f"sqlite:///{database}")
    try:
        service = GameService(storage, ENGINES)
        assert len(await storage.games(status=ACTIVE)) == len(states)
        for game_id, state in states.items():
            assert (await service.table(game_id)).state == state
            assert await service.replay(game_id) == state
            await play(service, game_id, 1, Random(0))  # and it plays on
            assert (await service.table(game_id)).state != state
    finally:
        await storage.close()

    # Undone: the crashed database moved aside comes back with its log, the crash's last
    # moves and its two new games in it.
    (crashed,) = tmp_path.glob("parlour.sqlite3.before-restore-*Z")  # not its -wal, -shm
    undone = chore("restore", str(crashed), cwd=tmp_path)
    assert undone.returncode == 0, undone.stderr
    assert undone.stdout.splitlines()[1].startswith("Restored 6 games (")
    assert Path(f"{crashed}-wal").read_bytes() == before["parlour.sqlite3-wal"]  # only read


async def test_restore_is_refused_while_the_bot_runs_or_for_a_bad_backup(tmp_path: Path) -> None:
    database = tmp_path / "parlour.sqlite3"
    storage = await open_storage(f"sqlite:///{database}")  # the running bot
    await a_game(GameService(storage, ENGINES))
    backup = tmp_path / "backup.sqlite3"
    assert chore("backup", str(backup), cwd=tmp_path).returncode == 0
    running = chore("restore", str(backup), cwd=tmp_path)
    await storage.close()
    assert running.returncode == 2
    assert "stop it first" in running.stderr and str(os.getpid()) in running.stderr

    with sqlite3.connect(backup) as db:  # from a newer Parlour
        db.execute("PRAGMA user_version = 999")
    db.close()
    newer = chore("restore", str(backup), cwd=tmp_path)
    assert newer.returncode == 2 and "upgrade Parlour first" in newer.stderr
    (tmp_path / "notes.txt").write_text("not a database " * 100)
    junk = chore("restore", "notes.txt", cwd=tmp_path)
    assert junk.returncode == 2 and "is not a Parlour backup" in junk.stderr
    with sqlite3.connect(backup) as db:  # from the first Parlour: fine, migrated at start
        db.execute("PRAGMA user_version = 1")
    db.close()
    older = chore("restore", str(backup), cwd=tmp_path)
    latest = migrations("sqlite")[-1][0]
    assert older.returncode == 0, older.stderr
    assert older.stdout.splitlines()[2] == (
        f"It is at schema 1: the bot applies migrations 2 to {latest} when it starts."
    )
    (aside,) = tmp_path.glob("parlour.sqlite3.before-restore-*")
    aside.rename(database)  # as it was, for what follows
    postgres = chore("restore", str(backup), cwd=tmp_path, DATABASE_URL="postgresql://h/db")
    assert postgres.returncode == 2 and "pg_restore" in postgres.stderr
    # Nothing was moved, nothing left behind.
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "backup.sqlite3",
        "notes.txt",
        "parlour.sqlite3",
        "parlour.sqlite3.lock",
    ]


async def test_check_flags_a_stray_write_ahead_log(tmp_path: Path) -> None:
    """A backup copied by hand over a crashed bot's database: SQLite would write the old log
    over it. `check` says so, and what replaying it would do; after `restore`, all clear."""
    database, backup, _ = await crashed_after_a_backup(tmp_path)
    crashed = chore("check", cwd=tmp_path, DISCORD_TOKEN="t")
    (stray,) = problems(crashed)
    assert crashed.returncode == 1
    assert stray.startswith(f"{database}-wal holds ") and "no bot is running" in stray
    assert "the file holds 4 games (4 active); with the log replayed, 6 games" in stray

    by_hand = tmp_path / "by-hand"
    by_hand.mkdir()
    for name in ("parlour.sqlite3-wal", "parlour.sqlite3-shm"):
        shutil.copyfile(tmp_path / name, by_hand / name)
    shutil.copyfile(backup, by_hand / "parlour.sqlite3")  # the old instructions
    flagged = chore("check", cwd=by_hand, DISCORD_TOKEN="t")
    (line,) = problems(flagged)
    assert flagged.returncode == 1 and line.startswith(f"{by_hand}/parlour.sqlite3-wal holds ")
    assert "python -m bot restore BACKUP" in line

    assert chore("restore", str(backup), cwd=tmp_path).returncode == 0
    clear = chore("check", cwd=tmp_path, DISCORD_TOKEN="t")
    assert (clear.returncode, problems(clear)) == (0, ["No problems found."])


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A folder another user can reach (pytest's tmp_path is root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="parlour-check-", dir="/tmp"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder)


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("setpriv") is None, reason="needs root and setpriv"
)
async def test_check_run_as_the_bots_user_finds_files_it_cant_write(shared_folder: Path) -> None:
    """Root's files in the bot's folder: the bot, run as another user, would stop with
    "Permission denied"; `check` run as that user says which file and whose it is."""
    database = shared_folder / "parlour.sqlite3"
    storage = await open_storage(f"sqlite:///{database}")
    await storage.close()
    for path in (database, Path(f"{database}.lock")):
        path.chmod(0o644)

    def as_nobody() -> subprocess.CompletedProcess[str]:
        command = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
        return subprocess.run(
            [*command, sys.executable, "-m", "bot", "check"],
            cwd=shared_folder,
            env=clean_env(DISCORD_TOKEN="t", PYTHONPATH=str(REPO)),
            capture_output=True,
            text=True,
            timeout=120,
        )

    folder = as_nobody()
    assert folder.returncode == 1, folder.stderr
    assert problems(folder) == [
        f"The database's folder {shared_folder} is not writable by nobody: the bot makes its "
        "files there (the database, its lock, -wal and -shm). Run the bot as the folder's "
        "owner, or give it the folder."
    ]
    os.chown(shared_folder, 65534, 65534)  # the folder is the bot's now, but not its files
    files = as_nobody()
    assert files.returncode == 1
    assert [line.split(" (")[0] for line in problems(files)] == [
        f"{database} is not writable by nobody",
        f"{database}.lock is not writable by nobody",
    ]
    assert "it belongs to root" in problems(files)[1]


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root")
async def test_check_run_as_root_finds_a_file_the_bots_user_cant_open(tmp_path: Path) -> None:
    """The bot runs as the folder's owner; root ran a chore there that left its own lock
    file, which the bot can't open. Root passes every access check: `check` sees it by the
    file's owner and mode."""
    database = tmp_path / "parlour.sqlite3"
    storage = await open_storage(f"sqlite:///{database}")  # as root: root's files
    await storage.close()
    database.chmod(0o666)  # the database anyone may write: no problem
    os.chown(tmp_path, 65534, 65534)  # the bot's folder (its user: nobody)
    done = chore("check", cwd=tmp_path, DISCORD_TOKEN="t")
    assert done.returncode == 1
    assert problems(done) == [
        f"{database}.lock belongs to root, and the folder's owner, nobody, can't write it: a "
        f"bot run as nobody can't start. Give it the file (chown nobody {database}.lock)."
    ]
    os.chown(f"{database}.lock", 65534, 65534)
    fixed = chore("check", cwd=tmp_path, DISCORD_TOKEN="t")
    assert (fixed.returncode, problems(fixed)) == (0, ["No problems found."])


def test_unwritable_asks_the_access_check_for_each_file(tmp_path: Path) -> None:
    database = tmp_path / "parlour.sqlite3"
    for name in ("parlour.sqlite3", "parlour.sqlite3.lock"):
        (tmp_path / name).touch()
    refused = {str(tmp_path / "parlour.sqlite3.lock")}
    lines = unwritable(str(database), lambda path, _: path not in refused)
    assert len(lines) == 1 and lines[0].startswith(f"{database}.lock is not writable by ")
    assert unwritable(str(database), lambda path, _: True) == []


def test_check_finds_the_metrics_port_in_use_and_unknown_settings(tmp_path: Path) -> None:
    settings = tmp_path / "parlour.env"
    settings.write_text("DISCORD_TOKEN=t\nMETRICS_PROT=9100\nLOG_LEVEL=INFO\nCOLOUR=blue\n")
    (tmp_path / "parlour.sqlite3").touch()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = chore("check", cwd=tmp_path, ENV_FILE=str(settings), METRICS_PORT=str(port))
    assert done.returncode == 1
    assert problems(done)[-3:] == [
        f"{settings} sets METRICS_PROT, which is not a setting of Parlour (did you mean "
        "METRICS_PORT?): it has no effect.",
        f"{settings} sets COLOUR, which is not a setting of Parlour: it has no effect.",
        f"METRICS_PORT 127.0.0.1:{port} is in use by another program: the bot would stop at "
        "start. Pick a free port, or stop what holds it.",
    ]
    shown = done.stdout.splitlines()
    assert shown[1] == f"Settings file: {settings}"
    assert "  DISCORD_TOKEN=(set, hidden)" in shown and f"  METRICS_PORT={port}" in shown


class Reads(dict[str, str]):
    """An environment that remembers every name asked for."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: set[str] = set()

    def get(self, key: str, default: object = None) -> str:  # type: ignore[override]
        self.asked.add(key)
        return ""


def test_the_known_setting_names_are_what_the_bot_reads_and_the_example_documents() -> None:
    env = Reads()
    Settings.from_env(env)
    assert env.asked == NAMES
    example = (REPO / ".env.example").read_text().splitlines()
    documented = {
        line.lstrip("# ").split("=")[0]
        for line in example
        if "=" in line
        and line.lstrip("# ").split("=")[0].isupper()
        and " " not in line.lstrip("# ").split("=")[0]
    }
    assert NAMES - {"XDG_CACHE_HOME"} <= documented


async def test_a_backup_into_a_folder_is_dated_and_keeps_the_newest(tmp_path: Path) -> None:
    database = tmp_path / "parlour.sqlite3"
    storage = await open_storage(f"sqlite:///{database}")
    await a_game(GameService(storage, ENGINES))
    await storage.close()
    backups = tmp_path / "backups"
    backups.mkdir()
    older = ["parlour-20260101T040000Z.sqlite3", "parlour-20260102T040000Z.sqlite3"]
    for name in [*older, "notes.txt", "parlour-mine.sqlite3"]:
        (backups / name).write_text("")

    done = chore("backup", str(backups), "--keep", "2", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    (new,) = (
        set(backups.iterdir())
        - {backups / n for n in older}
        - {
            backups / "notes.txt",
            backups / "parlour-mine.sqlite3",
        }
    )
    assert done.stdout.splitlines() == [
        f"Database: {database}",
        f"Backed up 1 games to {new}.",
        f"Deleted the older backup {backups / older[0]}.",
    ]
    assert sorted(p.name for p in backups.iterdir()) == sorted(
        [older[1], new.name, "notes.txt", "parlour-mine.sqlite3"]  # not its own: left alone
    )
    with sqlite3.connect(new) as db:
        assert db.execute("SELECT COUNT(*) FROM games").fetchone() == (1,)
    db.close()
    to_a_file = chore("backup", str(tmp_path / "one.sqlite3"), "--keep", "2", cwd=tmp_path)
    assert to_a_file.returncode == 2 and "--keep needs PATH to be a folder" in to_a_file.stderr


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
def test_the_backup_service_and_timer_verify(tmp_path: Path) -> None:
    for name in ("parlour-backup.service", "parlour-backup.timer"):
        unit = (REPO / "deploy" / name).read_text()
        (tmp_path / name).write_text(unit.replace("/opt/parlour/.venv/bin/python", sys.executable))
    service = (REPO / "deploy" / "parlour-backup.service").read_text()
    bot = (REPO / "deploy" / "parlour.service").read_text()
    for line in ("User=", "WorkingDirectory=", "EnvironmentFile="):  # the bot's database
        (same,) = {f for f in bot.splitlines() if f.startswith(line)}
        assert same in service.splitlines()
    done = subprocess.run(
        ["systemd-analyze", "verify", *(str(p) for p in sorted(tmp_path.iterdir()))],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "parlour-backup" not in done.stderr, done.stderr
