"""Tournaments in storage, on SQLite and on PostgreSQL: one open event per channel, joining
and leaving, check-in, the start that drops absentees (or cancels), each step won by one
caller only (a round dealt, a table seated, a result stored), missed rounds that withdraw,
and forgetting a member or a server."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.storage import NewGame, SeatRow, Storage, open_storage
from bot.storage.tournaments import CANCELLED, DROPPED, IN, RUNNING, WITHDRAWN, Refused
from tests.databases import dump
from tests.tournaments import create_event

GUILD, CHANNEL, HOST = 1 << 22, 77, 5
ZED, ZED_NAME = 733_241_950_187_002_113, "Zephyrine Quillfeather"
ANA, LEO, EVE, MIA = 101, 102, 103, 104
START = 100_000.0


@pytest.fixture
async def storage(database_url: str) -> AsyncIterator[Storage]:
    storage = await open_storage(database_url)
    yield storage
    await storage.close()


async def create(storage: Storage, *, checkin: float | None = None, channel: int = CHANNEL) -> int:
    event = await create_event(
        storage,
        guild_id=GUILD,
        channel_id=channel,
        host_id=HOST,
        options={"turn_timer": 0},
        starts_at=START,
        checkin_at=checkin,
        seed=42,
        now=START - 3600,
    )
    return event.id


def lobby(host: int) -> NewGame:
    """A table's game, hosted by `host`, as the tournament service makes it."""
    return NewGame("cock_and_bull", GUILD, CHANNEL, SeatRow(0, host, "x", False), {}, "s", START)


async def refused(reason: str, call: object) -> None:
    with pytest.raises(Refused) as caught:
        await call  # type: ignore[misc]
    assert caught.value.reason == reason


async def test_one_open_event_per_channel_and_joining_rules(storage: Storage) -> None:
    tid = await create(storage)
    await refused("channel_busy", create(storage))
    other = await create(storage, channel=CHANNEL + 1)  # another channel is free
    assert other != tid
    assert (await storage.guild_tournament(GUILD)).id == tid  # type: ignore[union-attr]
    assert (await storage.open_tournament_in(CHANNEL + 1)).id == other  # type: ignore[union-attr]

    before = (await storage.tournament(tid)).revision  # type: ignore[union-attr]
    joined = await storage.join_tournament(tid, ANA, "Ana", START - 100)
    assert joined.revision == before + 1
    await refused("already_in", storage.join_tournament(tid, ANA, "Ana", START - 90))
    await storage.leave_tournament(tid, ANA)
    await refused("not_in", storage.leave_tournament(tid, ANA))
    await storage.join_tournament(tid, ANA, "Ana", START - 80)  # back after leaving
    assert [(e.member_id, e.status) for e in await storage.entrants(tid)] == [(ANA, IN)]
    await refused("no_checkin", storage.check_in(tid, ANA, START - 70))  # no check-in here


async def test_the_start_drops_those_not_checked_in_and_happens_once(storage: Storage) -> None:
    tid = await create(storage, checkin=START - 600)
    for n, member in enumerate((ANA, LEO, EVE, MIA, ZED)):
        await storage.join_tournament(tid, member, f"P{member}", START - 3000 + n)
    await refused("no_checkin", storage.check_in(tid, ANA, START - 601))
    for member in (ANA, LEO, EVE, MIA):
        await storage.check_in(tid, member, START - 300)
    await refused("checked_in", storage.check_in(tid, ANA, START - 200))
    await refused("not_in", storage.check_in(tid, 999, START - 200))
    assert await storage.claim_checkin_ping(tid)
    assert not await storage.claim_checkin_ping(tid)

    assert await storage.start_tournament(tid, START - 1, min_entrants=4) is None  # not due
    started = await storage.start_tournament(tid, START, min_entrants=4)
    assert started is not None and started.state == RUNNING
    later = await create(storage, channel=CHANNEL + 1)
    assert (await storage.guild_tournament(GUILD)).id == tid  # type: ignore[union-attr]
    assert later != tid  # the running one first, then the next to start
    assert await storage.start_tournament(tid, START, min_entrants=4) is None  # once
    status = {e.member_id: e.status for e in await storage.entrants(tid)}
    assert status == {ANA: IN, LEO: IN, EVE: IN, MIA: IN, ZED: DROPPED}
    await refused("started", storage.leave_tournament(tid, ANA))
    await refused("dropped", storage.join_tournament(tid, ZED, "Zed", START + 1))


async def test_too_few_entrants_cancel_the_event(storage: Storage) -> None:
    tid = await create(storage)
    for member in (ANA, LEO, EVE):
        await storage.join_tournament(tid, member, "x", START - 10)
    started = await storage.start_tournament(tid, START, min_entrants=4)
    assert started is not None and started.state == CANCELLED
    assert await storage.open_tournament_in(CHANNEL) is None
    await refused("closed", storage.join_tournament(tid, MIA, "Mia", START + 1))


async def test_each_step_is_won_once_and_missed_rounds_withdraw(storage: Storage) -> None:
    tid = await create(storage)
    for member in (ANA, LEO, EVE, MIA):
        await storage.join_tournament(tid, member, "x", START - 10)
    await storage.start_tournament(tid, START, min_entrants=4)
    assert await storage.store_round(tid, 1, [(ANA, LEO), (EVE, MIA)], [])
    assert not await storage.store_round(tid, 1, [(ANA, EVE), (LEO, MIA)], [])  # dealt once
    tables = await storage.round_tables(tid, 1)
    assert [t.members for t in tables] == [(ANA, LEO), (EVE, MIA)]
    # late joining closes once half the rounds have started (1 of 2)
    await refused("too_late", storage.join_tournament(tid, 999, "Late", START + 5))

    first = await storage.seat_table(tid, 1, 1, lobby(ANA), START + 300)
    assert await storage.seat_table(tid, 1, 1, lobby(LEO), START + 600) == first  # seated once
    second = await storage.seat_table(tid, 1, 2, lobby(EVE), START + 300)
    assert [g["id"] for g in await storage.table_rows("games")] == [first, second]
    assert (await storage.table_of_game(first)).table_no == 1  # type: ignore[union-attr]
    assert await storage.next_tournament_time() == START + 300
    assert [t.table_no for t in await storage.ready_due(START + 300)] == [1, 2]
    assert await storage.ready_looked_at(tid, 1, 1)
    assert not await storage.ready_looked_at(tid, 1, 1)

    assert await storage.store_result(tid, 1, 1, {ANA: 1, LEO: 2}, frozenset({LEO}))
    assert not await storage.store_result(tid, 1, 1, {ANA: 2, LEO: 1}, frozenset())
    assert [(p.member_id, p.place, p.replaced) for p in await storage.places(tid)] == [
        (ANA, 1, False),
        (LEO, 2, True),
    ]
    assert await storage.store_round(tid, 2, [(ANA, EVE)], [LEO])
    assert await storage.byes(tid) == {2: [LEO]}
    await storage.seat_table(tid, 2, 1, lobby(ANA), START + 900)
    await storage.store_result(tid, 2, 1, {ANA: 2, EVE: 1}, frozenset({ANA}))
    entrants = {e.member_id: e for e in await storage.entrants(tid)}
    assert (entrants[LEO].missed, entrants[LEO].status) == (1, IN)
    assert (entrants[ANA].missed, entrants[ANA].status) == (1, IN)
    await storage.store_result(tid, 1, 2, {EVE: 1, MIA: 2}, frozenset({MIA}))
    assert await storage.set_paused(tid, True) and not await storage.set_paused(tid, True)
    assert await storage.end_tournament(tid, "finished", START + 2000)
    assert not await storage.end_tournament(tid, "cancelled", START + 2001)


async def test_callers_seating_one_table_at_once_make_one_game(storage: Storage) -> None:
    tid = await create(storage)
    for member in (ANA, LEO, EVE, MIA):
        await storage.join_tournament(tid, member, "x", START - 10)
    await storage.start_tournament(tid, START, min_entrants=4)
    await storage.store_round(tid, 1, [(ANA, LEO), (EVE, MIA)], [])
    # Each caller made its own lobby; on PostgreSQL each claims on its own connection (the
    # pool's, opened first by reads at once).
    await asyncio.gather(*(storage.round_tables(tid, 1) for _ in range(3)))
    seated = await asyncio.gather(
        *(storage.seat_table(tid, 1, 1, lobby(m), START + 300) for m in (ANA, LEO, EVE))
    )
    games = await storage.table_rows("games")
    assert len(set(seated)) == 1 and [g["id"] for g in games] == seated[:1]
    (table, _other) = await storage.round_tables(tid, 1)
    assert table.game_id == seated[0] and games[0]["host_id"] in (ANA, LEO, EVE)
    assert await storage.seats(seated[0]) == [SeatRow(0, games[0]["host_id"], "x", False)]


async def test_two_missed_rounds_in_a_row_withdraw_and_join_brings_them_back(
    storage: Storage,
) -> None:
    tid = await create(storage)
    for member in (ANA, LEO, EVE, MIA):
        await storage.join_tournament(tid, member, "x", START - 10)
    await storage.start_tournament(tid, START, min_entrants=4)
    for number in (1, 2):
        await storage.store_round(tid, number, [(ANA, LEO)], [])
        await storage.store_result(tid, number, 1, {ANA: 1, LEO: 2}, frozenset({LEO}))
    assert {e.member_id: e.status for e in await storage.entrants(tid)}[LEO] == WITHDRAWN


async def test_forgetting_reaches_the_tournament_tables(
    storage: Storage, database_url: str
) -> None:
    tid = await create(storage)
    for member in (ANA, ZED, EVE, MIA):
        await storage.join_tournament(tid, member, ZED_NAME if member == ZED else "x", START)
    await storage.start_tournament(tid, START, min_entrants=4)
    await storage.store_round(tid, 1, [(ANA, ZED), (EVE, MIA)], [ZED])
    await storage.store_result(tid, 1, 1, {ANA: 2, ZED: 1}, frozenset())
    records = await storage.member_records(ZED)
    assert [r["name"] for r in records["tournaments"]] == [ZED_NAME]
    assert [r["place"] for r in records["tournament_places"]] == [1]

    await storage.forget_player(ZED, "Former player", lambda *a: a[1], lambda: -5)
    text = dump(database_url)
    assert str(ZED) not in text and ZED_NAME not in text
    assert [t.members for t in await storage.round_tables(tid, 1)] == [(ANA,), (EVE, MIA)]

    await storage.forget_guild(GUILD)
    assert await storage.tournament(tid) is None
    for table in ("tournaments", "tournament_entrants", "tournament_tables", "tournament_results"):
        assert await storage.table_rows(table) == []
