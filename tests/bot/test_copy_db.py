"""`python -m bot copy-db`: a SQLite database into PostgreSQL, verified by replay."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.ops.copy_db import CopyRefused, verify
from bot.service import GameService
from bot.storage import TABLES, Storage, open_storage
from bot.storage.notify_state import StoredDm
from rules.registry import ENGINES
from tests.e2e.process import REPO, clean_env
from tests.tournaments import create_event

OLD_DATABASE = Path(__file__).parent / "data" / "parlour-schema3.sqlite3"


def copy_db(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "copy-db", *args],
        cwd=cwd,
        env=clean_env(**env) | {"PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=120,
    )


async def a_tournament_played(storage: Storage, player: int) -> None:
    """A tournament with a round played, a bye and a result: a row in each of its tables."""
    event = await create_event(
        storage, channel_id=2, host_id=player, starts_at=1.0, rated=False, seed=7
    )
    for member in (player, 556):
        await storage.join_tournament(event.id, member, "x", 1.0)
    await storage.start_tournament(event.id, 2.0, min_entrants=1)
    await storage.store_round(event.id, 1, [(player,)], [556])
    await storage.store_result(event.id, 1, 1, {player: 1}, frozenset())


async def test_copy_db_round_trip(tmp_path: Path, postgres_url: str) -> None:
    """The previous version's database (schema 3), copied as the bot's DATABASE_PATH: every
    row arrives as it was, every game replays to its stored state, and the copy plays on."""
    source = tmp_path / "parlour.sqlite3"
    shutil.copy(OLD_DATABASE, source)
    upgraded = await open_storage(f"sqlite:///{source}")
    try:  # its games rated, as a server manager's /recompute-ratings does after the upgrade
        assert [await upgraded.recompute_ratings(g) for g in (1 << 22, 3 << 22)] == [1, 1]
        await upgraded.guild_left(3 << 22, 1.0)  # the bot removed from a server: kept 30 days
        await upgraded.set_text_board_default(555, True)  # a member's own setting
        await upgraded.set_notify(3 << 22, 555, "dm")  # and how their turn reaches them
        # a turn's DM of a game in play kept for them, and their DMs refused once
        await upgraded.queue_dm(StoredDm(555, 6, 3 << 22, 9, 4, False, "your turn", "turn"))
        await upgraded.dms_refused(555, 3 << 22, 2.0)
        # A season with a game of its own, ended: its rows and frozen table are copied too.
        await upgraded.start_season(
            1 << 22, name="S", ends_at=9.0, games=None, recur="none", channel_id=2, now=1.0
        )
        result = (await upgraded.table_rows("results"))[0]
        season_row = {"guild_id": 1 << 22, "season": 1, "game": result["game"]}
        await upgraded.insert_rows(
            {
                "season_ratings": [
                    season_row
                    | {"player_id": result["player_id"], "mu": 26.0, "sigma": 4.0}
                    | {"played": 1, "wins": 1, "points": 10.0}
                ],
                "season_results": [
                    season_row
                    | {"game_id": result["game_id"], "player_id": result["player_id"]}
                    | {"tablemates": "1", "day": 0, "points": 10.0, "counted": 1}
                ],
            }
        )
        await upgraded.end_season(1 << 22, 1, 3.0, due_only=False)
        await a_tournament_played(upgraded, result["player_id"])
    finally:
        await upgraded.close()
    done = copy_db("--to", postgres_url, cwd=tmp_path, DATABASE_PATH=str(source))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        f"Database: {source}",
        "copied 7 games, 14 seats, 363 actions, 4 results, 1 guild_settings, 4 ratings, "
        "1 guild_departures, 1 member_settings, 1 member_notify, 1 notify_dms, "
        "1 notify_refusals, 1 seasons, 1 season_ratings, 1 season_results, 1 season_finals, "
        "1 tournaments, 2 tournament_entrants, 1 tournament_tables, 1 tournament_byes, "
        "1 tournament_results",
        "replayed 6 games from their seeds and logs: every one matches its state",
    ]
    old, new = await open_storage(f"sqlite:///{source}"), await open_storage(postgres_url)
    try:
        for table in TABLES:
            rows = await old.table_rows(table)
            assert rows and await new.table_rows(table) == rows, table
        service = GameService(new, ENGINES)
        (lobby,) = await new.games(status="lobby")
        await service.join(lobby.id, 555, "Mia")
        await service.start(lobby.id, lobby.host_id)  # the copied lobby starts
        fresh = await service.create_lobby(
            "risk", guild_id=1, channel_id=2, host_id=1, host_name="Ana", options={}
        )
        assert fresh.row.id == 8  # ids carry on after the copied games
        assert (await old.standings(1 << 22, "cock_and_bull")) == (
            await new.standings(1 << 22, "cock_and_bull")
        )
    finally:
        await old.close()
        await new.close()

    again = copy_db("--from", f"sqlite:///{source}", "--to", postgres_url, cwd=tmp_path)
    assert again.returncode == 1
    assert again.stderr.splitlines() == [
        f"copy-db: {postgres_url} holds 8 games already: copy into an empty database."
    ]


async def test_a_game_that_does_not_replay_fails_the_check(
    tmp_path: Path, postgres_url: str
) -> None:
    source = tmp_path / "parlour.sqlite3"
    shutil.copy(OLD_DATABASE, source)
    old, new = await open_storage(f"sqlite:///{source}"), await open_storage(postgres_url)
    try:
        await new.insert_rows({t: await old.table_rows(t) for t in TABLES})
        assert await verify(new) == (6, [])
        async with new._transaction() as db:  # one logged move changed after the fact
            await db.execute("UPDATE actions SET step = step + 1000 WHERE game_id = 2")
        with pytest.raises(CopyRefused, match=r"^games \[2\] do not replay"):
            await verify(new)
    finally:
        await old.close()
        await new.close()


def test_a_bad_target_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "parlour.sqlite3").touch()  # the bot's database, there
    done = copy_db("--to", "mysql://x/y", cwd=tmp_path)
    assert (done.returncode, done.stderr.splitlines()) == (
        2,
        [
            "--to 'mysql://x/y' is not valid: sqlite:///<file> or postgresql://user@host:5432/database."
        ],
    )
