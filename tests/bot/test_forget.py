"""Forgetting, on both backends: a member's personal data removed everywhere (their games
in play resigned, finished games still replaying, the others' results standing), a server's
data deleted, and servers the bot left purged after 30 days unless it came back."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from pathlib import Path
from random import Random
from typing import Any

import aiosqlite
import pytest

from bot.errors import UserError
from bot.instance_lock import InstanceLock
from bot.language.wording import FORMER_PLAYER, STAND_INS
from bot.ops.forget import RETENTION, forget_member, purge_departed
from bot.service import GameService
from bot.shards import Shards
from bot.storage import ACTIVE, CANCELLED, FINISHED, LOBBY, StaleStep, open_storage
from bot.storage.notify_state import StoredDm
from bot.storage.tables import TABLES
from bot.storage.url import sqlite_path
from rules.hold_your_horses.actions import ROLL
from rules.registry import ENGINES
from rules.seats import RESIGN
from tests.bot.test_admin import play
from tests.bot.test_race import write_over
from tests.databases import dump

GAME = "cock_and_bull"
# Ids as Discord's are (18-19 digits), and a name found nowhere else.
ZED, ZED_NAME = 733_241_950_187_002_113, "Zephyrine Quillfeather"
LEO, MIA = 733_241_950_187_003_227, 733_241_950_187_004_331
HOME, AWAY = 1_100_000_000_000_000_001 << 1, 1_200_000_000_000_000_003


@pytest.fixture
async def service(database_url: str) -> AsyncIterator[GameService]:
    storage = await open_storage(database_url)
    yield GameService(storage, ENGINES, fixed_seed="forget")
    await storage.close()


async def lobby(service: GameService, guild: int, host: int, name: str, *others: int) -> int:
    table = await service.create_lobby(
        GAME, guild_id=guild, channel_id=5, host_id=host, host_name=name, options={}
    )
    for other in others:
        await service.join(table.row.id, other, f"Player {other % 1000}")
    return table.row.id


async def started(service: GameService, guild: int, host: int, name: str, other: int) -> int:
    game_id = await lobby(service, guild, host, name, other)
    await service.start(game_id, host)
    await play(service, game_id, 12, Random(game_id))
    return game_id


async def test_forgetting_a_member_leaves_neither_id_nor_name_and_games_replay(
    service: GameService, database_url: str
) -> None:
    storage = service.storage
    finished = await started(service, HOME, ZED, ZED_NAME, LEO)
    await service.seat_action(finished, LEO, RESIGN)  # Zed wins: results and ratings
    in_play = await started(service, AWAY, LEO, "Leo", ZED)  # another server
    others = await started(service, HOME, LEO, "Leo", MIA)  # without Zed
    hosted, joined = (
        await lobby(service, HOME, ZED, ZED_NAME, MIA),
        await lobby(service, HOME, MIA, "Mia", ZED),
    )
    await storage.set_text_board_default(ZED, True)  # a setting of their own
    await storage.set_notify(AWAY, ZED, "dm")  # and how their turn reaches them there
    await storage.queue_dm(turn_dm(ZED, in_play, AWAY, f"{ZED_NAME}, your turn"))
    await storage.dms_refused(ZED, AWAY, 5.0)  # their DMs closed, once
    assert str(ZED) in dump(database_url) and ZED_NAME in dump(database_url)
    before = await storage.standings(HOME, GAME)

    done = await forget_member(service, service.storage, ZED)

    # Three games name them: the lobby they left no longer does.
    assert (done.games, len(done.resigned), done.lobbies) == (3, 1, [hosted, joined])
    text = dump(database_url)
    assert str(ZED) not in text and ZED_NAME not in text
    # Resigned first: Leo won the game in play; every finished game replays to its state.
    assert (await storage.get_game(in_play)).status == FINISHED  # type: ignore[union-attr]
    for game_id in (finished, in_play, others):
        table = await service.table(game_id)
        assert service.engine(GAME).dump(await service.replay(game_id)) == table.row.state
    names = {s.name for s in await storage.seats(finished)}
    assert names == {FORMER_PLAYER, "Player 227"}
    # The others' results stand; the member's are gone, with their rating.
    after = await storage.standings(HOME, GAME)
    assert [r for r in before if r.player_id != ZED] == after
    assert [r.player_id for r in await storage.standings(AWAY, GAME)] == [LEO]
    assert [r.player_id for r in await storage.ratings(HOME, GAME, with_ai=False)] == [LEO]
    # Their lobbies: the one they hosted closed, the other goes on without them.
    assert (await storage.get_game(hosted)).status == CANCELLED  # type: ignore[union-attr]
    assert [s.player_id for s in await storage.seats(joined)] == [MIA]
    assert (await storage.get_game(joined)).status == LOBBY  # type: ignore[union-attr]


def turn_dm(user_id: int, game_id: int, guild_id: int, line: str) -> StoredDm:
    """A turn's DM waiting for `user_id`, as the notifier keeps it."""
    return StoredDm(user_id, game_id, guild_id, 7, 3, False, line, "your turn")


async def play_on(service: GameService, game_id: int, moves: int, rng: Random) -> None:
    """Up to `moves` random legal moves, each by a seat to act (a resigned one's too, as
    the bot plays it)."""
    for _ in range(moves):
        table = await service.table(game_id)
        engine = service.engine(table.row.game)
        if engine.outcome(table.state) is not None:
            return
        player = min(p for p in engine.to_act(table.state) if p in table.names)
        action = rng.choice(engine.legal_actions(table.state, player))
        await service.act(game_id, player, action, table.row.step)


async def test_every_game_forgets_the_member_and_plays_on_without_them(
    service: GameService, database_url: str
) -> None:
    """A game's state and actions name its players by id (a seat's owner, a Risk mission to
    destroy them): none still names the member, in any game, and a game that plays on after
    their seat was resigned (a pot race) never writes them back."""
    rng = Random(5)
    for game in ENGINES:
        table = await service.create_lobby(
            game, guild_id=HOME, channel_id=5, host_id=LEO, host_name="Leo", options={}
        )
        await service.join(table.row.id, ZED, ZED_NAME)
        await service.start(table.row.id, LEO)
        await play_on(service, table.row.id, 30, rng)
    assert str(ZED) in dump(database_url)

    done = await forget_member(service, service.storage, ZED)

    assert done.games == len(ENGINES)
    playing_on = await service.storage.games(status=ACTIVE)
    assert playing_on  # the test's point: some games go on after the resignation
    for row in playing_on:
        await play_on(service, row.id, 5, rng)
    text = dump(database_url)
    assert str(ZED) not in text and ZED_NAME not in text
    rows = [*playing_on, *await service.storage.games(status=FINISHED)]
    assert sorted(row.game for row in rows) == sorted(ENGINES)
    for row in rows:
        table = await service.table(row.id)
        replayed = await service.replay(row.id)
        assert service.engine(row.game).dump(replayed) == table.row.state, row.game


async def test_a_game_another_process_keeps_in_memory_is_read_afresh_after_forgetting(
    database_url: str,
) -> None:
    """The bot plays on in one process while another (`forget-user`, another shard)
    forgets the member: the bot's next move reads the swapped state, not the copy it kept
    of the game, which still names the member."""
    # One instance lock for both connections on SQLite: the test is one process.
    path = sqlite_path(database_url)
    lock = None if path is None else InstanceLock.acquire(path)
    async with AsyncExitStack() as stack:
        bot, chore = [
            GameService(await open_storage(database_url, lock), ENGINES, fixed_seed="forget")
            for _ in range(2)
        ]
        for service in (bot, chore):
            stack.push_async_callback(service.storage.close)
        rng = Random(3)
        table = await bot.create_lobby(
            "hold_your_horses",
            guild_id=HOME,
            channel_id=5,
            host_id=LEO,
            host_name="Leo",
            options={},
        )
        game_id = table.row.id
        await bot.join(game_id, ZED, ZED_NAME)
        await bot.start(game_id, LEO)
        await play_on(bot, game_id, 6, rng)
        await bot.seat_action(game_id, ZED, RESIGN)  # the race goes on without them
        await play_on(bot, game_id, 1, rng)  # the bot's copy: the state after this move

        assert (await forget_member(chore, chore.storage, ZED)).games == 1

        # A move applied to the state from before the rewrite is refused, at the current step.
        row = await chore.storage.get_game(game_id)
        assert row is not None and row.revision == 1
        with pytest.raises(StaleStep):
            await write_over(
                bot.storage, game_id, step=row.step, revision=0, player_id=LEO, action=ROLL
            )
        await play_on(bot, game_id, 3, rng)
        assert (await bot.storage.get_game(game_id)).status == ACTIVE  # type: ignore[union-attr]
        text = dump(database_url)
        assert str(ZED) not in text and ZED_NAME not in text
        table = await bot.table(game_id)
        assert bot.engine(table.row.game).dump(await bot.replay(game_id)) == table.row.state


async def test_forgetting_a_server_deletes_all_of_it_and_nothing_else(
    service: GameService, database_url: str
) -> None:
    await started(service, HOME, ZED, ZED_NAME, LEO)
    kept = await started(service, AWAY, LEO, "Leo", MIA)
    await service.storage.set_guild_language(HOME, "es")
    await service.storage.guild_left(HOME, 1.0)
    await service.storage.set_notify(HOME, MIA, "quiet")
    await service.storage.set_notify(AWAY, MIA, "dm")
    await service.storage.queue_dm(turn_dm(MIA, 1, HOME, "your turn here"))
    await service.storage.queue_dm(turn_dm(MIA, kept, AWAY, "your turn there"))
    await service.storage.dms_refused(MIA, HOME, 5.0)

    assert await service.storage.forget_guild(HOME) == 1

    text = dump(database_url)
    assert str(HOME) not in text and ZED_NAME not in text
    assert [g.id for g in await service.storage.games(status=ACTIVE)] == [kept]
    assert await service.storage.notify_settings(AWAY) == {MIA: "dm"}
    assert [dm.line for dm in await service.storage.waiting_dms()] == ["your turn there"]
    assert await service.storage.refusals() == []


async def test_a_server_left_is_purged_after_30_days_unless_the_bot_came_back(
    service: GameService,
) -> None:
    storage = service.storage
    gone, back, elsewhere = HOME, AWAY, 1_300_000_000_000_000_000
    for guild in (gone, back, elsewhere):
        await lobby(service, guild, LEO, "Leo")
        await storage.guild_left(guild, 1000.0)
    await storage.guild_left(gone, 5000.0)  # a second removal: the first one counts
    await storage.guild_back(back)  # added back before the time was up

    assert await purge_departed(storage, now=1000.0 + RETENTION - 1) == []
    other_shard = Shards(2, (1 - (elsewhere >> 22) % 2,))
    purged = await purge_departed(
        storage,
        other_shard,
        present=lambda guild: guild != gone and guild != elsewhere,
        now=1000.0 + RETENTION + 1,
    )
    assert purged == ([gone] if other_shard.owns(gone) else [])
    assert await purge_departed(storage, now=1000.0 + RETENTION + 1) == sorted(
        {gone, elsewhere} - set(purged)
    )
    left = {g.guild_id for g in await storage.games(status=LOBBY)}
    assert left == {back}
    assert await storage.guilds_left_before(10**12) == []


async def test_a_server_left_while_the_bot_was_offline_is_noticed_once_connected(
    service: GameService,
) -> None:
    storage = service.storage
    kept, removed = HOME, AWAY
    for guild in (kept, removed):
        await lobby(service, guild, LEO, "Leo")
    await storage.guild_left(kept, 10.0)  # removed then, added back while offline

    assert await purge_departed(storage, present=lambda guild: guild == kept, now=100.0) == []
    assert await storage.guilds_left_before(101.0) == [removed]  # since it was noticed
    assert await purge_departed(storage, present=lambda guild: False, now=100.0 + RETENTION) == []
    purged = await purge_departed(
        storage, present=lambda guild: guild == kept, now=101.0 + RETENTION
    )
    assert purged == [removed]
    assert [g.guild_id for g in await storage.games(status=LOBBY)] == [kept]


async def rows_of_games(service: GameService, game_ids: set[int]) -> dict[str, list[Any]]:
    """Every row of these games, in every table that holds a game's rows, as stored."""
    storage = service.storage
    return {
        table: sorted(
            (row for row in await storage.table_rows(table) if row[key] in game_ids),
            key=repr,
        )
        for table, key in (
            ("games", "id"),
            ("seats", "game_id"),
            ("actions", "game_id"),
            ("results", "game_id"),
        )
    }


async def a_game_of(
    service: GameService, game: str, players: list[int], rng: Random, host_name: str = "Host"
) -> int:
    """A game of `game` for `players` (the first hosts), played 30 random moves on."""
    host, *others = players
    table = await service.create_lobby(
        game, guild_id=HOME, channel_id=5, host_id=host, host_name=host_name, options={}
    )
    for other in others:
        await service.join(table.row.id, other, f"Player {other % 1000}")
    await service.start(table.row.id, host)
    await play_on(service, table.row.id, 30, rng)
    return table.row.id


@pytest.mark.parametrize("member", [ZED, 2])
async def test_forgetting_a_member_changes_no_byte_of_anyone_elses_games(
    service: GameService, member: int
) -> None:
    """Other members' games are never touched, though their logged moves hold numbers
    that, written out, are the member's id (`{"verb": "roll", "arg": "2"}`), and in the
    member's own games only player ids change: a move's argument stays as it was."""
    rng = Random(11)
    theirs = {await a_game_of(service, game, [LEO, member], rng) for game in ENGINES}
    others = {await a_game_of(service, game, [LEO, MIA], rng) for game in ENGINES}
    logged = [
        entry.action
        for game_id in others
        for entry in await service.storage.actions(game_id)
        if entry.action.arg is not None
    ]
    assert any(str(member) in str(a.arg) for a in logged) or member == ZED
    before = await rows_of_games(service, others)
    moves = {g: [e.action for e in await service.storage.actions(g)] for g in theirs}

    done = await forget_member(service, service.storage, member)

    assert done.games == len(ENGINES)
    assert await rows_of_games(service, others) == before
    for game_id in theirs:  # as before, and the resignation of a game still in play
        now = [e.action for e in await service.storage.actions(game_id)]
        assert now[: len(moves[game_id])] == moves[game_id]
    for game_id in theirs | others:
        table = await service.table(game_id)
        replayed = await service.replay(game_id)
        assert service.engine(table.row.game).dump(replayed) == table.row.state


async def test_each_forgotten_game_gets_a_stand_in_of_its_own(service: GameService) -> None:
    rng = Random(12)
    theirs = [await a_game_of(service, game, [LEO, ZED], rng) for game in ENGINES]
    theirs.append(await started(service, AWAY, ZED, ZED_NAME, MIA))

    await forget_member(service, service.storage, ZED)

    stand_ins = [
        seat.player_id
        for game_id in theirs
        for seat in await service.storage.seats(game_id)
        if seat.name == FORMER_PLAYER
    ]
    assert len(stand_ins) == len(set(stand_ins)) == len(theirs)
    assert all(s in STAND_INS for s in stand_ins)
    for game_id, stand_in in zip(theirs, stand_ins, strict=True):
        row = await service.storage.get_game(game_id)
        assert row is not None and row.state is not None
        assert str(stand_in) in json.dumps(row.state)  # the seat the state names


async def test_nothing_of_a_forgotten_member_stays_in_the_sqlite_files_while_the_bot_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read as raw bytes, the database file and its write-ahead log hold neither the
    member's name nor their id (as text or as a stored integer) right after a forget, nor a
    forgotten server's id, the connection still open, on a SQLite built with
    `secure_delete` off (simulated: every connection opens with it off, as such a build's
    do)."""
    connect = aiosqlite.connect

    async def built_without_secure_delete(*args: Any, **kwargs: Any) -> aiosqlite.Connection:
        db = await connect(*args, **kwargs)
        await db.execute("PRAGMA secure_delete = OFF")
        return db

    monkeypatch.setattr(aiosqlite, "connect", built_without_secure_delete)
    database = tmp_path / "parlour.sqlite3"
    storage = await open_storage(f"sqlite:///{database}")
    service = GameService(storage, ENGINES, fixed_seed="forget")
    try:
        rng = Random(13)
        for game in ENGINES:
            await a_game_of(service, game, [ZED, LEO], rng, ZED_NAME)
            await a_game_of(service, game, [LEO, MIA], rng)
        await service.storage.set_text_board_default(ZED, True)

        def held(*traces: bytes) -> list[bytes]:
            files = (database, Path(f"{database}-wal"))
            return [t for t in traces for f in files if f.exists() and t in f.read_bytes()]

        zed = (ZED_NAME.encode(), str(ZED).encode(), ZED.to_bytes(8, "big"))
        assert held(*zed)
        await forget_member(service, service.storage, ZED)

        assert held(*zed) == []
        # A whole server forgotten too: its id (in games, results, ratings) is gone.
        assert held(HOME.to_bytes(8, "big"))
        await service.storage.forget_guild(HOME)
        assert held(HOME.to_bytes(8, "big")) == []
    finally:
        await storage.close()


async def test_a_member_with_a_game_this_version_cant_read_is_not_forgotten_yet(
    service: GameService,
) -> None:
    """Their ids in a state that can't be loaded can't be found by its structure: nothing
    is changed (no game resigned, no lobby left), and the member is told why."""
    in_play = await started(service, HOME, ZED, ZED_NAME, LEO)
    finished = await started(service, HOME, LEO, "Leo", ZED)
    await service.seat_action(finished, LEO, RESIGN)
    await lobby(service, HOME, ZED, ZED_NAME, MIA)
    async with service.storage._transaction() as db:  # as a later version saved it
        await db.execute("UPDATE games SET state = ? WHERE id = ?", '{"v": 99}', finished)
    storage = service.storage
    before = {t: sorted(await storage.table_rows(t), key=repr) for t in TABLES}

    with pytest.raises(UserError, match="can't forget this member yet"):
        await forget_member(service, service.storage, ZED)

    assert {t: sorted(await storage.table_rows(t), key=repr) for t in TABLES} == before
    assert (await service.storage.get_game(in_play)).status == ACTIVE  # type: ignore[union-attr]
