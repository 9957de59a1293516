"""A tournament's life through the game service and storage (no Discord): the start, each
round dealt, seated and scored, a restart in the middle seating the same tables and never
one twice, the ready window handing an absent member to the AI (last at their table, then
withdrawn; one whose turn came after it, a window later), and the organiser's pause and
next round. Eight entrants over three rounds meeting nobody twice: tests/e2e/test_tournaments.py."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from random import Random
from typing import Any

import pytest

from bot.errors import UserError
from bot.service import GameService
from bot.storage import ACTIVE, FINISHED, Storage, open_storage
from bot.storage.tournaments import WITHDRAWN, TournamentRow
from bot.tournament.clock import TournamentClock
from bot.tournament.events import Plan, TournamentService
from bot.tournament.house_rules import parse_house_rules
from bot.tournament.timing import BadStart, parse_start
from rules.core import PlayerId
from rules.registry import ENGINES

GUILD, CHANNEL, HOST = 1 << 22, 77, 5
NOW = 1_000_000.0
MEMBERS = (101, 102, 103, 104, 105, 106, 107)


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> float:
        return self.now


class Event:
    """One process's view of the database: storage, game service (its games seeded by
    `game_seed`), tournaments, clock."""

    def __init__(self, storage: Storage, clock: Clock, game_seed: str = "tournament") -> None:
        self.storage = storage
        self.games = GameService(storage, ENGINES, clock=clock, fixed_seed=game_seed)
        self.service = TournamentService(
            self.games, self.games.storage, clock=clock, draw_seed=lambda: 1234
        )
        self.clock = TournamentClock(self.service)

    async def event(self, tid: int) -> TournamentRow:
        return await self.service.event(tid)


@pytest.fixture
async def world(database_url: str) -> AsyncIterator[tuple[Event, Clock]]:
    clock = Clock()
    storage = await open_storage(database_url)
    yield Event(storage, clock), clock
    await storage.close()


async def restart(old: Event, url: str, clock: Clock) -> Event:
    """The process stops and another starts on the same database."""
    await old.storage.close()
    return Event(await open_storage(url), clock)


async def create(
    world: Event,
    game: str,
    table_size: int,
    entrants: int,
    *,
    rounds: int = 2,
    rated: bool = True,
    rules: dict[str, Any] | None = None,
) -> int:
    """An event of `entrants` members, with the game's house `rules` (if any)."""
    plan = Plan(
        game=game,
        rounds=rounds,
        table_size=table_size,
        starts_at=NOW + 600,
        checkin_at=None,
        ready_window=300.0,
        rated=rated,
        options={"turn_timer": 0, **(rules or {})},
    )
    event = await world.service.create(plan, guild_id=GUILD, channel_id=CHANNEL, host_id=HOST)
    for member in MEMBERS[:entrants]:
        await world.service.join(event.id, member, f"P{member}")
    return event.id


async def play_round(world: Event, tid: int, *, absent: frozenset[int] = frozenset()) -> None:
    """Every seated member of the current round plays their own moves (chosen by the AI,
    seeded), except `absent` ones; seats handed to the AI are played by it."""
    event = await world.event(tid)
    rng = Random(event.round)
    for table in await world.storage.round_tables(tid, event.round):
        assert table.game_id is not None
        while True:
            game = await world.games.table(table.game_id)
            if game.row.status != ACTIVE:
                break
            engine = world.games.engine(game.row.game)
            to_act = sorted(engine.to_act(game.state))
            mover = next((p for p in to_act if p not in absent or p in game.autoplayed), None)
            if mover is None:
                break  # only absent members are to act: the game waits for them
            if mover in game.autoplayed:
                await world.games.play_ai_for(table.game_id, mover, game.row.step)
                continue
            action = engine.choose(game.state, PlayerId(mover), rng)
            await world.games.act(table.game_id, PlayerId(mover), action, game.row.step)


async def game_ids(storage: Storage) -> list[int]:
    return sorted(row["id"] for row in await storage.table_rows("games"))


async def test_a_cock_and_bull_event_from_start_to_final_across_a_restart(
    database_url: str,
) -> None:
    clock = Clock()
    first = Event(await open_storage(database_url), clock)
    tid = await create(first, "cock_and_bull", 2, 4)
    await first.clock.tick()
    assert (await first.event(tid)).state == "signup"  # not due yet

    clock.now = NOW + 600
    await first.clock.tick()
    event = await first.event(tid)
    assert (event.state, event.round) == ("running", 1)
    round_one = await first.storage.round_tables(tid, 1)
    assert sorted(m for t in round_one for m in t.members) == sorted(MEMBERS[:4])
    assert all(t.game_id is not None for t in round_one)
    await first.clock.tick()  # a second look seats nothing again
    assert await game_ids(first.storage) == sorted(t.game_id for t in round_one)  # type: ignore[misc]

    await play_round(first, tid)
    await first.clock.tick()  # round 1 scored, round 2 dealt and seated
    event = await first.event(tid)
    assert event.round == 2
    round_two = await first.storage.round_tables(tid, 2)
    met = {frozenset(t.members) for t in round_one}
    assert not met & {frozenset(t.members) for t in round_two}  # no pair meets twice

    # A restart: new storage and services on the same file see the same tables.
    second = await restart(first, database_url, clock)
    try:
        before = await game_ids(second.storage)
        await second.clock.tick()
        assert await game_ids(second.storage) == before  # no table seated twice
        assert await second.storage.round_tables(tid, 2) == round_two
        await play_round(second, tid)
        await second.clock.tick()
        event = await second.event(tid)
        assert event.state == "finished"
        lines = await second.service.standings(event)
        assert [line.played for line in lines] == [2, 2, 2, 2]
        assert sum(line.points for line in lines) == 40  # 10 a table, 2 tables, 2 rounds
        assert lines[0].points == 20  # someone won both of their games
    finally:
        await second.storage.close()


async def test_a_restart_between_the_deal_and_the_seating_seats_each_table_once(
    database_url: str,
) -> None:
    clock = Clock()
    first = Event(await open_storage(database_url), clock)
    tid = await create(first, "hold_your_horses", 3, 7)
    clock.now = NOW + 600
    started = await first.service.start(await first.event(tid))
    assert started is not None
    assert await first.service.deal_next(started)  # stored, then the process "dies"
    assert not await first.service.deal_next(started)  # another caller: dealt already
    assert await game_ids(first.storage) == []

    second = await restart(first, database_url, clock)
    try:
        await second.clock.tick()
        tables = await second.storage.round_tables(tid, 1)
        assert sorted(len(t.members) for t in tables) == [2, 2, 3]
        games = await game_ids(second.storage)
        assert games == sorted(t.game_id for t in tables)  # type: ignore[misc]
        await second.clock.tick()  # another look finds every table seated
        assert await game_ids(second.storage) == games
        for table in tables:
            game = await second.games.table(table.game_id)  # type: ignore[arg-type]
            assert game.row.status == ACTIVE
            assert sorted(game.names) == sorted(table.members)
    finally:
        await second.storage.close()


async def test_an_absent_member_is_played_by_the_ai_scores_last_and_is_withdrawn(
    world: tuple[Event, Clock],
) -> None:
    service, clock = world
    tid = await create(service, "cock_and_bull", 2, 4)
    absent = MEMBERS[0]
    clock.now = NOW + 600
    await service.clock.tick()
    for number in (1, 2):
        await play_round(service, tid, absent=frozenset({absent}))
        table = next(
            t for t in await service.storage.round_tables(tid, number) if absent in t.members
        )
        game = await service.games.table(table.game_id)  # type: ignore[arg-type]
        if game.row.status == ACTIVE:  # waiting for the absent member
            clock.now = table.ready_at  # type: ignore[assignment]
            await service.clock.tick()  # the ready window ends: the AI takes the seat
            game = await service.games.table(table.game_id)  # type: ignore[arg-type]
            assert absent in game.away
            await play_round(service, tid, absent=frozenset({absent}))
        await service.clock.tick()
        places = {
            p.member_id: (p.place, p.replaced)
            for p in await service.storage.places(tid)
            if p.round == number
        }
        assert places[absent] == (2, True)  # last at their table, whatever the AI did
    entrants = {e.member_id: e for e in await service.storage.entrants(tid)}
    assert entrants[absent].status == WITHDRAWN
    assert (await service.event(tid)).state == FINISHED


async def test_a_member_whose_turn_comes_after_the_ready_window_gets_a_window_of_their_own(
    world: tuple[Event, Clock],
) -> None:
    """Two no-shows at a table of Hold Your Horses, where one rolls at a time: at the
    window's end only the roller could have moved and is handed to the AI; the other's turn
    comes later, and the AI takes their seat a whole window after it came, so the table
    never waits for them for good."""
    service, clock = world
    tid = await create(service, "hold_your_horses", 2, 4, rules={"races": 1, "track": "short"})
    clock.now = NOW + 600
    await service.clock.tick()
    (table, *_others) = await service.storage.round_tables(tid, 1)
    assert table.game_id is not None and table.ready_at is not None
    absent = frozenset(table.members)
    await play_round(service, tid, absent=absent)  # the other table plays; this one waits
    game = await service.games.table(table.game_id)
    (roller,) = service.games.engine("hold_your_horses").to_act(game.state)
    (waiting,) = absent - {roller}

    clock.now = table.ready_at
    await service.clock.tick()
    assert (await service.games.table(table.game_id)).away == {roller}
    # The AI rolls for the roller a while later: only then does the other's turn come.
    clock.now += 200
    await play_round(service, tid, absent=absent)
    turn_came = clock.now
    (looked,) = [t for t in await service.storage.round_tables(tid, 1) if t.table_no == 1]
    assert not looked.ready_done and looked.ready_at == table.ready_at + 300
    clock.now = looked.ready_at  # a window after the first one ended: not one after their turn
    await service.clock.tick()
    assert waiting not in (await service.games.table(table.game_id)).away
    (again,) = [t for t in await service.storage.round_tables(tid, 1) if t.table_no == 1]
    assert again.ready_at == turn_came + 300
    clock.now = again.ready_at
    await service.clock.tick()
    assert (await service.games.table(table.game_id)).away == absent
    await play_round(service, tid, absent=absent)
    await service.clock.tick()
    places = {p.member_id: (p.place, p.replaced) for p in await service.storage.places(tid)}
    assert places[roller] == places[waiting] == (1, True)  # both last (and only) at their table
    assert (await service.event(tid)).round == 2  # the round ended


async def test_paused_events_wait_for_next_round_and_bad_plans_are_refused(
    world: tuple[Event, Clock],
) -> None:
    service, clock = world
    tid = await create(service, "cock_and_bull", 2, 4, rounds=3)
    with pytest.raises(UserError, match="not started"):
        await service.service.next_round(await service.event(tid))
    clock.now = NOW + 600
    await service.clock.tick()
    await service.service.pause(await service.event(tid), True)
    with pytest.raises(UserError, match="paused already"):
        await service.service.pause(await service.event(tid), True)
    with pytest.raises(UserError, match="still being played"):
        await service.service.next_round(await service.event(tid))
    await play_round(service, tid)
    await service.clock.tick()
    event = await service.event(tid)
    assert event.round == 1 and await service.service.round_complete(event)  # paused: waits
    assert await service.service.next_round(event) == "dealt"
    await service.clock.tick()
    assert (await service.event(tid)).round == 2

    bad = Plan("cock_and_bull", 1, 2, NOW + 700, None, 300.0, True, {})
    for plan, words in (
        (bad, "2 to 12 rounds"),
        (Plan("risk", 3, 7, NOW + 700, None, 300.0, True, {}), "2 to 6 players"),
        (Plan("cock_and_bull", 3, 3, NOW + 700, None, 300.0, True, {}), "tables of 2"),
        (Plan("risk", 3, 4, clock.now - 1, None, 300.0, True, {}), "in the future"),
    ):
        with pytest.raises(UserError, match=words):
            await service.service.create(plan, guild_id=GUILD, channel_id=9, host_id=HOST)
    busy = Plan("cock_and_bull", 3, 2, clock.now + 60, None, 300.0, True, {})
    with pytest.raises(UserError, match="one at a time"):
        await service.service.create(busy, guild_id=GUILD, channel_id=CHANNEL, host_id=HOST)


def test_house_rules_are_read_against_the_games_declaration() -> None:
    declared = ENGINES["hold_your_horses"].options
    assert parse_house_rules("races=2 track=short", declared) == {"races": 2, "track": "short"}
    assert parse_house_rules("", declared) == {}
    for bad, words in (
        ("races=99", "Races"),
        ("laps=3", "not a house rule"),
        ("races", "not a house rule"),
        ("track=moon", "Track"),
    ):
        with pytest.raises(UserError, match=words):
            parse_house_rules(bad, declared)


async def test_a_rated_events_games_move_ratings_and_an_unrated_ones_never(
    world: tuple[Event, Clock],
) -> None:
    service, clock = world
    unrated = await create(service, "cock_and_bull", 2, 4, rated=False)
    clock.now = NOW + 600
    await service.clock.tick()
    await play_round(service, unrated)
    await service.clock.tick()
    storage = service.storage
    assert len(await storage.places(unrated)) == 4  # scored in the event
    results = await storage.table_rows("results")
    assert len(results) == 4 and all(r["rating_after"] is None for r in results)
    assert await storage.ratings(GUILD, "cock_and_bull") == []
    assert await storage.recompute_ratings(GUILD) == 0  # and stays unrated
    assert await storage.ratings(GUILD, "cock_and_bull") == []
    await service.service.cancel(await service.event(unrated))

    rated = await service.service.create(
        Plan("cock_and_bull", 2, 2, clock.now + 60, None, 300.0, True, {}),
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=HOST,
    )
    for member in MEMBERS[:4]:
        await service.service.join(rated.id, member, f"P{member}")
    clock.now += 60
    await service.clock.tick()
    await play_round(service, rated.id)
    await service.clock.tick()
    assert len(await storage.ratings(GUILD, "cock_and_bull", with_ai=False)) == 4


class Killed(BaseException):
    """The process killed right after a step was stored (as `kill -9` would: nothing after
    it runs, not even an `except Exception`)."""


class Killer:
    """Kills the process after every stored step of an event, once each (a step tried
    again after the restart goes through), while armed."""

    STORAGE_STEPS = (
        "start_tournament",
        "store_round",
        "seat_table",
        "ready_looked_at",
        "ready_looked_at_again",
        "store_result",
        "end_tournament",
    )
    GAME_STEPS = ("join", "start")

    def __init__(self) -> None:
        self.armed = True
        self.kills = 0
        self._done: set[str] = set()

    def wrap(self, world: Event) -> Event:
        for target, names in ((world.storage, self.STORAGE_STEPS), (world.games, self.GAME_STEPS)):
            for name in names:
                setattr(target, name, self._killing(name, getattr(target, name)))
        return world

    def _killing(self, name: str, step: Any) -> Any:
        async def run(*args: Any, **kwargs: Any) -> Any:
            done = await step(*args, **kwargs)
            key = f"{name}{args!r}{sorted(kwargs.items())!r}"
            if self.armed and key not in self._done:
                self._done.add(key)
                self.kills += 1
                raise Killed
            return done

        return run


async def run_to_the_end(url: str, *, kill: bool) -> tuple[list[tuple[int, float]], int, int]:
    """A 3-round, 9-entrant Hold Your Horses event at tables of 4, played to its end,
    killed after every stored step when `kill`: its final standings (member, points), how
    many games were stored, and how many kills there were."""
    clock = Clock()
    killer = Killer()
    killer.armed = kill
    world = killer.wrap(Event(await open_storage(url), clock))
    plan = Plan("hold_your_horses", 3, 4, NOW + 600, None, 300.0, True, {"races": 1})
    killer.armed = False
    event = await world.service.create(plan, guild_id=GUILD, channel_id=CHANNEL, host_id=HOST)
    for member in (*MEMBERS, 108, 109):
        await world.service.join(event.id, member, f"P{member}")
    clock.now = NOW + 600
    played = 0
    while True:
        killer.armed = kill
        try:
            await world.clock.tick()
        except Killed:
            await world.storage.close()  # the process is gone; another starts
            world = killer.wrap(Event(await open_storage(url), clock))
            continue
        killer.armed = False
        event = await world.event(event.id)
        if event.state == FINISHED:
            break
        assert event.round > played, "a look changed nothing"
        await play_round(world, event.id)
        played = event.round
    lines = await world.service.standings(event)
    games = await world.storage.table_rows("games")
    tables = await world.storage.all_tables(event.id)
    assert sorted(t.round for t in tables) == [1, 1, 1, 2, 2, 2, 3, 3, 3]  # no round skipped
    # Every game stored is a table's and was played: a kill left no lobby nobody knows.
    assert sorted(g["id"] for g in games) == sorted(t.game_id for t in tables)  # type: ignore[misc]
    assert all(g["status"] == FINISHED for g in games)
    for table in tables:
        game = await world.games.table(table.game_id)  # type: ignore[arg-type]
        assert sorted(game.names) == sorted(table.members)  # each table seated once, as dealt
    await world.storage.close()
    return [(s.member_id, s.points) for s in lines], len(games), killer.kills


async def test_a_kill_after_every_stored_step_ends_as_an_uninterrupted_event(
    database_url: str, tmp_path: Any
) -> None:
    calm_url = (
        f"sqlite:///{tmp_path / 'calm.sqlite3'}" if database_url.startswith("sqlite") else None
    )
    killed, games, kills = await run_to_the_end(database_url, kill=True)
    assert kills >= 30  # every step of 3 rounds of 3 tables, and the start and the end
    if calm_url is not None:
        calm, calm_games, _ = await run_to_the_end(calm_url, kill=False)
        assert killed == calm
        assert games == calm_games == 9


async def test_two_callers_advancing_at_once_deal_one_round_and_end_nothing(
    world: tuple[Event, Clock],
) -> None:
    service, clock = world
    tid = await create(service, "cock_and_bull", 2, 4, rounds=3)
    clock.now = NOW + 600
    await service.clock.tick()
    await play_round(service, tid)
    event = await service.event(tid)
    await service.service.collect(event)
    event = await service.event(tid)
    done = await asyncio.gather(service.service.advance(event), service.service.advance(event))
    assert sorted(map(str, done)) == ["None", "dealt"]
    event = await service.event(tid)
    assert (event.state, event.round) == ("running", 2)


async def test_a_click_for_an_event_no_longer_kept_is_refused_in_words(
    world: tuple[Event, Clock],
) -> None:
    service, _clock = world
    with pytest.raises(UserError, match="no longer exists"):
        await service.service.join(99, MEMBERS[0], "Ana")
    with pytest.raises(UserError, match="no longer exists"):
        await service.service.event(99)


def test_a_start_is_minutes_from_now_or_a_future_utc_time() -> None:
    now = 1_800_000_000.0  # 2027-01-15 08:00 UTC
    assert parse_start("30", now) == now + 1800
    assert parse_start(" 90m ", now) == now + 5400
    assert parse_start("18:30", now) == now + 10.5 * 3600
    assert parse_start("2027-01-16 08:00 UTC", now) == now + 86400
    for past in ("07:59", "2027-01-15 08:00", "0"):
        with pytest.raises(BadStart, match="past"):
            parse_start(past, now)
    for nonsense in ("someday", "25:00", "2027-02-30 10:00", "-5"):
        with pytest.raises(BadStart, match="unparseable"):
            parse_start(nonsense, now)
