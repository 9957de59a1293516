"""Storage and the game service: migrations, the action log, replay, stale steps.

Every test taking `storage` or `service` runs on both backends, SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path
from random import Random
from typing import Any

import aiosqlite
import pytest

from bot.errors import GameUnreadable, UserError
from bot.instance_lock import DatabaseInUse
from bot.service import GameService
from bot.storage import SeatRow, Storage, migrations, open_storage
from rules.cock_and_bull.actions import ROLL
from rules.core import Engine
from rules.registry import ENGINES

ANA, LEO, EVE = 101, 102, 103


OLD_DATABASE = Path(__file__).parent / "data" / "parlour-schema3.sqlite3"


def sqlite_url(path: Path | str) -> str:
    return f"sqlite:///{path}"


@pytest.fixture
async def storage(database_url: str):
    storage = await open_storage(database_url)
    yield storage
    await storage.close()


@pytest.fixture
def service(storage: Storage) -> GameService:
    return GameService(storage, ENGINES, clock=lambda: 1000.0, fixed_seed="seed-1")


async def started_game(service: GameService, **options) -> int:
    table = await service.create_lobby(
        "cock_and_bull",
        guild_id=1,
        channel_id=2,
        host_id=ANA,
        host_name="Ana",
        options=options,
    )
    await service.join(table.row.id, LEO, "Leo")
    await service.start(table.row.id, ANA)
    return table.row.id


async def play_to_the_end(
    service: GameService, game_id: int, engine: Engine[Any] = ENGINES["cock_and_bull"]
) -> int:
    """Every seat follows the AI's choices; returns the number of actions."""
    while True:
        table = await service.table(game_id)
        to_act = sorted(engine.to_act(table.state))
        if not to_act:
            return table.row.step
        action = engine.choose(table.state, to_act[0], Random(table.row.step))
        await service.act(game_id, to_act[0], action, table.row.step, by_ai=to_act[0] < 0)


LATEST = max(number for number, _ in migrations("sqlite"))


async def old_database(path: str, version: int) -> aiosqlite.Connection:
    """A database as the release with schema `version` left it."""
    db = await aiosqlite.connect(path)
    for number, sql in migrations("sqlite"):
        if number <= version:
            await db.executescript(sql)
    await db.execute(f"PRAGMA user_version = {version}")
    return db


def test_both_backends_have_the_same_migrations_by_number() -> None:
    numbers = [[n for n, _ in migrations(backend)] for backend in ("sqlite", "postgres")]
    assert numbers[0] == numbers[1] == list(range(1, LATEST + 1))


async def test_migrations_from_empty_set_the_schema_version(storage: Storage) -> None:
    assert await storage.schema_version() == LATEST
    await storage.migrate()  # idempotent: a second start applies nothing
    assert await storage.schema_version() == LATEST


async def test_processes_starting_together_on_postgresql_migrate_once(postgres_url: str) -> None:
    """No instance lock on PostgreSQL (many processes share it); the migrations' advisory
    lock lets exactly one of them apply each migration."""
    opened = await asyncio.gather(*(open_storage(postgres_url) for _ in range(4)))
    try:
        assert [await s.schema_version() for s in opened] == [LATEST] * 4
    finally:
        for storage in opened:
            await storage.close()


async def test_a_database_written_by_the_previous_version_opens_and_plays_on(
    tmp_path: Path,
) -> None:
    """A real schema-3 file (tests/bot/data/README.md): its games keep their state, replay
    exactly, and the active ones play on to their end."""
    path = tmp_path / "parlour.sqlite3"
    shutil.copy(OLD_DATABASE, path)
    storage = await open_storage(sqlite_url(path))
    try:
        assert await storage.schema_version() == LATEST
        service = GameService(storage, ENGINES, clock=lambda: 1e9)
        active = await storage.games(status="active")
        assert len(active) == 4 and len(await storage.games(status="finished")) == 2
        assert await storage.guild_turn_timer(1 << 22) == 300
        assert len(await storage.standings(1 << 22, "cock_and_bull")) == 2
        for row in active + await storage.games(status="finished"):
            assert await service.replay(row.id) == (await service.table(row.id)).state
        game_id = active[0].id
        steps = await play_to_the_end(service, game_id, ENGINES[active[0].game])
        assert steps > active[0].step
        assert (await service.table(game_id)).row.status == "finished"
        new = await service.create_lobby(
            "risk", guild_id=1, channel_id=2, host_id=ANA, host_name="Ana", options={}
        )
        assert new.row.id == 8  # after the seven games of the file
    finally:
        await storage.close()


async def test_a_second_process_on_the_same_database_is_refused(tmp_path: Path) -> None:
    path = str(tmp_path / "parlour.sqlite3")
    first = await open_storage(sqlite_url(path))
    with pytest.raises(DatabaseInUse, match=f"pid {os.getpid()}.*parlour.sqlite3"):
        await open_storage(sqlite_url(path))
    await first.close()
    second = await open_storage(sqlite_url(path))  # the lock went with the first one
    await second.close()


async def test_games_of_an_earlier_version_are_marked_for_one_refresh(tmp_path: Path) -> None:
    """Schema 2 had no shown step: an active game's board is refreshed once (-1); a game
    that ended was shown to its end."""
    path = str(tmp_path / "old.sqlite3")
    db = await old_database(path, 2)
    for gid, status, state in (
        (1, "active", "'{}'"),
        (2, "finished", "'{}'"),
        (3, "lobby", "NULL"),
    ):
        await db.execute(
            "INSERT INTO games (id, game, guild_id, channel_id, host_id, status, options, seed,"
            f" step, state, created_at, updated_at) VALUES ({gid}, 'cock_and_bull', 1, 2, 11,"
            f" '{status}', '{{}}', 's', 7, {state}, 0, 0)"
        )
    await db.commit()
    await db.close()
    storage = await open_storage(sqlite_url(path))
    rows_now = [await storage.get_game(g) for g in (1, 2, 3)]
    shown = {row.id: row.shown_step for row in rows_now if row is not None}
    assert shown == {1: -1, 2: 7, 3: None}
    assert await storage.to_resume() == [1]
    await storage.close()


async def test_a_database_from_before_sides_gets_the_side_column(tmp_path: Path) -> None:
    """A game saved by the first release keeps its seats (side 0) after the upgrade."""
    path = str(tmp_path / "old.sqlite3")
    db = await old_database(path, 1)
    await db.execute(
        "INSERT INTO games (id, game, guild_id, channel_id, host_id, status, options, seed,"
        " step, created_at, updated_at) VALUES (1, 'cock_and_bull', 1, 2, 11, 'lobby', '{}',"
        " 's', 0, 0, 0)"
    )
    await db.execute(
        "INSERT INTO seats (game_id, seat, player_id, name, is_bot) VALUES (1, 0, 11, 'Ana', 0)"
    )
    await db.commit()
    await db.close()
    storage = await open_storage(sqlite_url(path))
    assert await storage.schema_version() == LATEST
    assert await storage.seats(1) == [SeatRow(0, 11, "Ana", False, 0)]
    await storage.close()


async def test_lobby_rules(service: GameService) -> None:
    table = await service.create_lobby(
        "cock_and_bull", guild_id=1, channel_id=2, host_id=ANA, host_name="Ana", options={}
    )
    gid = table.row.id
    with pytest.raises(UserError, match="at least 2 players"):
        await service.start(gid, ANA)
    with pytest.raises(UserError, match="already in"):
        await service.join(gid, ANA, "Ana")
    await service.join(gid, LEO, "Leo")
    with pytest.raises(UserError, match="full"):
        await service.join(gid, EVE, "Eve")
    with pytest.raises(UserError, match="Only the host"):
        await service.start(gid, LEO)
    await service.leave(gid, LEO)
    table = await service.add_bot(gid, ANA)
    assert [(s.seat, s.player_id, s.is_bot) for s in table.seats] == [
        (0, ANA, False),
        (1, -1, True),
    ]
    table = await service.start(gid, ANA)
    assert table.row.status == "active"
    with pytest.raises(UserError, match="already started"):
        await service.join(gid, EVE, "Eve")


async def test_bad_options_are_refused_at_the_lobby(service: GameService) -> None:
    with pytest.raises(UserError, match=r"^Match: 1, 3 or 5\.$"):
        await service.create_lobby(
            "cock_and_bull",
            guild_id=1,
            channel_id=2,
            host_id=ANA,
            host_name="Ana",
            options={"best_of": 4},
        )


async def test_replay_from_seed_and_log_reproduces_the_state(service: GameService) -> None:
    gid = await started_game(service, best_of=3)
    steps = await play_to_the_end(service, gid)
    table = await service.table(gid)
    assert table.row.status == "finished"
    assert len(await service.storage.actions(gid)) == steps > 10
    assert await service.replay(gid) == table.state


async def test_results_are_written_with_the_last_action(service: GameService) -> None:
    gid = await started_game(service)
    await play_to_the_end(service, gid)
    standings = await service.storage.standings(1, "cock_and_bull")
    assert sorted((s.wins, s.losses) for s in standings) == [(0, 1), (1, 0)]
    winner = standings[0]
    assert winner.points > standings[1].points or winner.wins == 1
    assert set(winner.stats) == {"flying_monkeys", "le_pews", "games_won"}


async def test_a_read_never_sees_a_write_before_its_commit(service: GameService) -> None:
    """A read while another task's transaction is open sees the database as committed: a
    move rolled back (or lost with the process) was never shown. On SQLite's one shared
    connection the read waits for the transaction to end."""
    gid = await started_game(service)
    storage = service.storage
    read: asyncio.Task[Any] | None = None
    with pytest.raises(RuntimeError):
        async with storage._transaction() as db:
            await db.execute("UPDATE games SET status = 'finished' WHERE id = ?", gid)
            read = asyncio.create_task(storage.get_game(gid))
            for _ in range(20):  # the read has every chance to run inside the transaction
                await asyncio.sleep(0.005)
            raise RuntimeError("the move fails before its commit")
    assert read is not None
    game = await read
    assert game is not None and game.status == "active"


async def test_stale_step_is_refused_and_nothing_is_written(service: GameService) -> None:
    gid = await started_game(service)
    table = await service.table(gid)
    engine = ENGINES["cock_and_bull"]
    player = sorted(engine.to_act(table.state))[0]
    await service.act(gid, player, ROLL, 0)
    before = await service.table(gid)
    with pytest.raises(UserError, match="out of date"):
        await service.act(gid, player, ROLL, 0)  # the same click again
    after = await service.table(gid)
    assert after.row.step == before.row.step == 1
    assert after.row.state == before.row.state
    assert len(await service.storage.actions(gid)) == 1


async def test_wrong_player_and_outsider_change_nothing(service: GameService) -> None:
    gid = await started_game(service)
    table = await service.table(gid)
    engine = ENGINES["cock_and_bull"]
    # Finish the start roll so exactly one player is to act.
    while len(engine.to_act(table.state)) != 1 or table.state.phase.value != "roll":
        p = sorted(engine.to_act(table.state))[0]
        await service.act(gid, p, engine.choose(table.state, p, Random(0)), table.row.step)
        table = await service.table(gid)
    (to_act,) = engine.to_act(table.state)
    other = LEO if to_act == ANA else ANA
    with pytest.raises(UserError, match="not your turn"):
        await service.act(gid, other, ROLL, table.row.step)
    with pytest.raises(UserError, match="not playing"):
        await service.act(gid, EVE, ROLL, table.row.step)
    assert (await service.table(gid)).row.step == table.row.step


async def test_timeout_lets_the_ai_act_only_if_the_step_is_unchanged(storage: Storage) -> None:
    service = GameService(storage, ENGINES, clock=lambda: 1000.0, fixed_seed="s")
    gid = await started_game(service, turn_timer=60)
    table = await service.table(gid)
    assert table.row.deadline == 1060.0
    assert await service.time_out(gid, expected_step=5) is None  # not at that step
    played = await service.time_out(gid, expected_step=0)
    assert played is not None and played.by_ai
    assert (await service.table(gid)).row.step == 1
    logged = await storage.actions(gid)
    assert logged[0].by_ai


async def test_bot_seat_plays_through_the_service(service: GameService) -> None:
    table = await service.create_lobby(
        "cock_and_bull", guild_id=1, channel_id=2, host_id=ANA, host_name="Ana", options={}
    )
    await service.add_bot(table.row.id, ANA)
    await service.start(table.row.id, ANA)
    played = await service.play_bot(table.row.id)
    assert played is not None and played.player == -1 and played.action == ROLL


async def test_a_click_on_a_finished_game_is_refused(service: GameService) -> None:
    gid = await started_game(service)
    steps = await play_to_the_end(service, gid)
    with pytest.raises(UserError, match="over"):
        await service.act(gid, ANA, ROLL, steps)
    assert len(await service.storage.actions(gid)) == steps


async def test_a_board_behind_its_game_is_found_until_marked_shown(service: GameService) -> None:
    gid = await started_game(service)
    storage = service.storage
    assert (await service.table(gid)).row.shown_step is None  # no board yet
    assert await storage.behind(untouched_since=2000.0) == [gid]
    await service.mark_shown(gid, 0, 0, board_message_id=555)
    assert await storage.behind(untouched_since=2000.0) == []
    table = await service.table(gid)
    player = sorted(ENGINES["cock_and_bull"].to_act(table.state))[0]
    played = await service.act(gid, player, ROLL, 0)
    assert played.table.row.behind and played.from_step == 0
    assert played.table.row == (await service.table(gid)).row  # as saved, not read back
    assert await storage.behind(untouched_since=2000.0) == [gid]
    assert await storage.behind(untouched_since=999.0) == []  # touched at 1000: in flight


async def test_replay_since_narrates_the_moves_a_board_missed(service: GameService) -> None:
    gid = await started_game(service)
    events, states = [], []
    for _ in range(4):
        table = await service.table(gid)
        states.append(table.state)
        player = sorted(ENGINES["cock_and_bull"].to_act(table.state))[0]
        action = ENGINES["cock_and_bull"].choose(table.state, player, Random(0))
        events.append((await service.act(gid, player, action, table.row.step)).events)
    table = await service.table(gid)
    replayed = await service.replay_since(table, 2)
    assert replayed.events == events[2] + events[3]
    assert replayed.after == table.state
    assert replayed.before == states[2]
    assert (await service.replay_since(table, 4)).events == ()


async def test_a_game_of_an_unknown_state_version_is_unreadable(service: GameService) -> None:
    gid = await started_game(service)
    async with service.storage._transaction() as db:  # as a later version saved it
        await db.execute("UPDATE games SET state = ? WHERE id = ?", '{"v": 99}', gid)
    with pytest.raises(GameUnreadable) as caught:
        await service.table(gid)
    assert not caught.value.marked and "version" in caught.value.reason
    assert "can't be continued" in str(caught.value)
    await service.mark_broken(gid, caught.value.reason)
    with pytest.raises(GameUnreadable) as again:
        await service.act(gid, ANA, ROLL, 0)
    assert again.value.marked
    assert await service.storage.to_resume() == []


async def test_an_absurd_game_id_is_no_game(service: GameService) -> None:
    for game_id in (10**40, 2**63, 0, -5):
        with pytest.raises(UserError, match="no longer exists"):
            await service.table(game_id)


async def test_a_rematch_lobby_is_found_while_it_is_open(service: GameService) -> None:
    finished = await started_game(service)
    await play_to_the_end(service, finished)
    assert await service.storage.open_rematch(finished) is None
    lobby = await service.create_lobby(
        "cock_and_bull",
        guild_id=1,
        channel_id=2,
        host_id=LEO,
        host_name="Leo",
        options={},
        rematch_of=finished,
    )
    found = await service.storage.open_rematch(finished)
    assert found is not None and found.id == lobby.row.id and found.rematch_of == finished
    await service.cancel(lobby.row.id, LEO)
    assert await service.storage.open_rematch(finished) is None


async def test_a_members_text_board_setting_is_kept(storage: Storage) -> None:
    assert await storage.text_board_members() == set()
    await storage.set_text_board_default(5, True)
    await storage.set_text_board_default(6, False)
    assert await storage.text_board_members() == {5}
    await storage.set_text_board_default(5, False)
    assert await storage.text_board_members() == set()
