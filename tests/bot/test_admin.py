"""`python -m bot backup` and `python -m bot check`, run as an admin runs them."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from importlib import resources
from pathlib import Path
from random import Random

from bot.service import GameService
from bot.storage import migrations, open_storage
from rules.registry import ENGINES
from tests.databases import dump
from tests.e2e.process import REPO, clean_env
from tests.tournaments import create_event

GAME = "cock_and_bull"


def chore(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=clean_env(**env) | {"PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=120,
    )


def header(done: subprocess.CompletedProcess[str]) -> str:
    """A chore's first line: the database it uses."""
    return done.stdout.splitlines()[0]


def problems(done: subprocess.CompletedProcess[str]) -> list[str]:
    """`check`'s lines after the database, the settings file and the settings."""
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Database: ") and lines[1].startswith("Settings file: ")
    return [line for line in lines[2:] if not line.startswith("  ")]


async def rows_backed_up(tmp_path: Path, database: Path, table: str) -> int:
    """How many rows of `table` a backup of `database` (taken by the chore) holds."""
    copy = tmp_path / "copy.sqlite3"
    assert chore("backup", str(copy), cwd=tmp_path, DATABASE_PATH=str(database)).returncode == 0
    restored = await open_storage(f"sqlite:///{copy}")
    try:
        return len(await restored.table_rows(table))
    finally:
        await restored.close()


async def a_game(service: GameService) -> int:
    table = await service.create_lobby(
        GAME, guild_id=1 << 22, channel_id=2, host_id=1, host_name="Ana", options={}
    )
    await service.join(table.row.id, 2, "Leo")
    await service.start(table.row.id, 1)
    return table.row.id


async def play(service: GameService, game_id: int, moves: int, rng: Random) -> None:
    """`moves` random legal moves (fewer if the game ends), each saved as the bot saves it."""
    engine = service.engine(GAME)
    for _ in range(moves):
        table = await service.table(game_id)
        if engine.outcome(table.state) is not None:
            return
        player = min(engine.to_act(table.state))
        action = rng.choice(engine.legal_actions(table.state, player))
        await service.act(game_id, player, action, table.row.step)
        await asyncio.sleep(0)


async def test_a_backup_taken_while_moves_are_made_opens_and_replays(tmp_path: Path) -> None:
    database = tmp_path / "parlour.sqlite3"
    storage = await open_storage(f"sqlite:///{database}")  # the running bot's connection
    service = GameService(storage, ENGINES)
    games = [await a_game(service) for _ in range(3)]
    rng = Random(7)
    copies = []
    try:
        for n in range(3):
            playing = asyncio.gather(*(play(service, g, 40, rng) for g in games))
            copy = tmp_path / f"backup{n}.sqlite3"
            backing_up = asyncio.to_thread(
                chore, "backup", str(copy), cwd=tmp_path, DATABASE_PATH=str(database)
            )
            _, done = await asyncio.gather(playing, backing_up)
            assert done.returncode == 0, done.stderr
            assert done.stdout == f"Database: {database}\nBacked up 3 games to {copy}.\n"
            copies.append(copy)
        steps = [(await service.table(g)).row.step for g in games]
    finally:
        await storage.close()

    for copy in copies:
        restored = await open_storage(f"sqlite:///{copy}")
        try:
            service = GameService(restored, ENGINES)
            for game_id, now in zip(games, steps, strict=True):
                table = await service.table(game_id)
                assert 0 < table.row.step <= now
                assert len(await restored.actions(game_id)) == table.row.step
                assert await service.replay(game_id) == table.state  # a consistent moment
        finally:
            await restored.close()


def test_a_backup_is_refused_on_postgresql_or_over_an_existing_file(tmp_path: Path) -> None:
    on_postgres = chore("backup", "x.sqlite3", cwd=tmp_path, DATABASE_URL="postgresql://h/db")
    assert on_postgres.returncode == 2 and "pg_dump" in on_postgres.stderr
    (tmp_path / "there.sqlite3").write_bytes(b"")
    (tmp_path / "parlour.sqlite3").write_bytes(b"")
    existing = chore("backup", "there.sqlite3", cwd=tmp_path)
    assert existing.returncode == 2
    assert existing.stderr == "backup: 'there.sqlite3' exists already: give a new file name.\n"


async def test_check_passes_a_good_database(tmp_path: Path) -> None:
    database = tmp_path / "parlour.sqlite3"
    storage = await open_storage(f"sqlite:///{database}")
    await play(
        GameService(storage, ENGINES), await a_game(GameService(storage, ENGINES)), 5, Random(1)
    )
    # The bot keeps running on it: check reads beside it.
    done = chore("check", cwd=tmp_path, DATABASE_PATH=str(database), DISCORD_TOKEN="t")
    await storage.close()
    assert (done.returncode, done.stderr) == (0, "")
    running = f"A bot is running on this database (pid {os.getpid()})."
    assert problems(done) == [running, "No problems found."]


async def test_check_names_every_problem_on_its_own_line(tmp_path: Path) -> None:
    database = tmp_path / "parlour.sqlite3"
    storage = await open_storage(f"sqlite:///{database}")
    service = GameService(storage, ENGINES)
    healthy, damaged = await a_game(service), await a_game(service)
    await storage.close()
    with sqlite3.connect(database) as db:  # a state this version can't read
        db.execute("UPDATE games SET state = '{\"v\": 99}' WHERE id = ?", (damaged,))
    db.close()

    done = chore("check", cwd=tmp_path, DATABASE_PATH=str(database))
    assert done.returncode == 1
    lines = problems(done)
    assert lines[0] == "DISCORD_TOKEN is not set: the bot can't log in to Discord."
    assert lines[1].startswith(f"Game {damaged} ({GAME}) can't be loaded: ")
    assert len(lines) == 2 and f"Game {healthy} " not in done.stdout


def test_check_reports_pending_migrations_without_applying_them(tmp_path: Path) -> None:
    database = tmp_path / "parlour.sqlite3"
    latest = migrations("sqlite")[-1][0]
    first = (resources.files("bot") / "migrations" / "sqlite" / "001_initial.sql").read_text()
    with sqlite3.connect(database) as db:  # as the first version of Parlour left it
        db.executescript(first + "\nPRAGMA user_version = 1;")
    db.close()
    done = chore("check", cwd=tmp_path, DATABASE_PATH=str(database), DISCORD_TOKEN="t")
    assert done.returncode == 1
    assert problems(done) == [
        f"The database is at schema 1; migrations 2 to {latest} are pending (the bot "
        "applies them when it starts; back up first)."
    ]
    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (1,)  # untouched
    db.close()


def test_check_says_an_unreachable_database_in_one_line(tmp_path: Path) -> None:
    done = chore(
        "check",
        cwd=tmp_path,
        DATABASE_URL="postgresql://nobody@127.0.0.1:1/none",
        DISCORD_TOKEN="t",
    )
    assert done.returncode == 1
    (line,) = problems(done)
    assert line.startswith("DATABASE_URL='postgresql://nobody@127.0.0.1:1/none' can't")
    assert "Traceback" not in done.stderr


async def test_check_reads_postgresql_too(tmp_path: Path, postgres_url: str) -> None:
    storage = await open_storage(postgres_url)
    await a_game(GameService(storage, ENGINES))
    await storage.close()
    done = chore("check", cwd=tmp_path, DATABASE_URL=postgres_url, DISCORD_TOKEN="t")
    assert (done.returncode, problems(done)) == (0, ["No problems found."])


async def test_check_on_an_empty_database_says_the_first_start_creates_the_tables(
    tmp_path: Path, database_url: str
) -> None:
    """A PostgreSQL database just made for the bot (or an empty SQLite file) is a fresh
    machine's too: no problem, and check creates nothing in it."""
    if database_url.startswith("sqlite:///"):
        Path(database_url.removeprefix("sqlite:///")).touch()
    done = chore("check", cwd=tmp_path, DATABASE_URL=database_url, DISCORD_TOKEN="t")
    assert (done.returncode, done.stderr) == (0, "")
    assert problems(done) == [
        "The database has no tables yet: the bot creates them at its first start.",
        "No problems found.",
    ]
    assert "CREATE TABLE" not in dump(database_url)


async def test_check_and_backup_know_the_seasons(tmp_path: Path) -> None:
    """A season past its end is a note for the next start (no problem); a season counting a
    game this version does not offer is a problem; a backup holds the seasons' rows."""
    database = tmp_path / "parlour.sqlite3"
    storage = await open_storage(f"sqlite:///{database}")
    for guild, games in ((1 << 22, None), (2 << 22, "chess")):
        await storage.start_season(
            guild, name="S", ends_at=2.0, games=games, recur="none", channel_id=1, now=1.0
        )
    await storage.close()
    done = chore("check", cwd=tmp_path, DATABASE_PATH=str(database), DISCORD_TOKEN="t")
    assert done.returncode == 1
    assert problems(done) == [
        "2 season(s) are past their end: the bot ends them at its next start.",
        f"Season 1 of server {2 << 22} counts 'chess', a game this version does not offer.",
    ]
    assert await rows_backed_up(tmp_path, database, "seasons") == 2


async def test_check_and_backup_know_the_tournaments(tmp_path: Path) -> None:
    """A tournament past its start is a note for the next start; one of a game this version
    does not offer is a problem; a backup holds the tournaments' rows."""
    database = tmp_path / "parlour.sqlite3"
    storage = await open_storage(f"sqlite:///{database}")
    for channel, game in ((1, "cock_and_bull"), (2, "chess")):
        await create_event(storage, channel_id=channel, game=game)
    await storage.close()
    done = chore("check", cwd=tmp_path, DATABASE_PATH=str(database), DISCORD_TOKEN="t")
    assert done.returncode == 1
    assert problems(done) == [
        "2 tournament(s) are past their start: the bot starts them at its start.",
        "Tournament 2 of server 4194304 plays 'chess', a game this version does not offer.",
    ]
    assert await rows_backed_up(tmp_path, database, "tournaments") == 2
