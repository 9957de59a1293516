"""A 3-round, 9-entrant Hold Your Horses event (tables of 4: three tables of 3 a round)
run by real `python -m bot` processes on SQLite, one after another: the first, which takes
the sign-up, killed from outside; each next one killed by SIGKILL at one kind of stored
step (`tests/e2e/kill_after.py`), having gone on with the event until then: the start,
a table's game started (round 1), a table's result (round 1), a table seated and the card
redrawn (round 2), a round stored (round 3), the end, the final post claimed, the final
post sent but not recorded; a last one finishes. The members play by clicking Roll in
the tables' threads. At the end: the standings and every table's places of an
uninterrupted run, each table of each round seated once with one game (its members as
dealt) and one thread, no other game, and one final post in the channel.

The uninterrupted run is the same event played in this process through the services (no
Discord) with the same seeds: Hold Your Horses has no decisions (everyone only rolls), and
a game's deal and rolls come from its seed and step (`rules.core.setup_rng`, `step_rng`),
so who rolls, and when, changes nothing: the same tables play the same races. Every
occurrence of every step is killed in process, on both backends, by
`tests/bot/test_tournament_events.py`; two processes racing for a table (PostgreSQL) are
`tests/bot/test_tournament_storage.py`'s.
"""

from __future__ import annotations

import asyncio
import functools
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from bot.storage import FINISHED, Storage, open_storage
from bot.storage.tournaments import TournamentRow
from bot.tournament.events import TournamentService
from tests.bot.test_tournament_events import Clock, Event, play_round
from tests.e2e.conftest import Launcher
from tests.e2e.driver import (
    boards_in,
    eventually,
    first_offered,
    is_result,
    move_number,
    newest_board,
    player_to_act,
)
from tests.e2e.fake_discord import JSON, FakeDiscord, FakeMessage
from tests.e2e.process import START_TIMEOUT, BotProcess, connected, process_env
from tests.e2e.test_tournaments import HYH_ROLL, answer, click, manager

T = TypeVar("T")
NAMES = ("Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy")
# Each process's kill, in the event's order: the step, the tables (round, table) the
# members play to their end while the process runs, and the event's round at the kill.
KILLS: tuple[tuple[str, tuple[tuple[int, int], ...], int], ...] = (
    ("start", (), 0),
    ("begin", (), 1),
    ("result", ((1, 1),), 1),
    ("seat", ((1, 2), (1, 3)), 2),
    ("card", (), 2),
    ("round", ((2, 1), (2, 2), (2, 3)), 3),
    ("end", ((3, 1), (3, 2), (3, 3)), 3),
    ("final-claim", (), 3),
    ("final-post", (), 3),
)
MENTION = re.compile(r"<@(\d+)>")


async def seen(fake: FakeDiscord, bot: BotProcess, check: Callable[[], T | None]) -> T | None:
    """What `check` finds (looked at after each of the bot's requests), once it finds
    something; None if the process died first."""
    found = asyncio.ensure_future(fake.wait_for(check))
    died = asyncio.ensure_future(bot.proc.wait())
    await asyncio.wait({found, died}, return_when=asyncio.FIRST_COMPLETED)
    died.cancel()
    if found.done():
        return found.result()
    found.cancel()
    return None


async def roll_to_the_end(
    fake: FakeDiscord, bot: BotProcess, people: dict[int, JSON], round_no: int, table: int
) -> None:
    """The table's members click Roll, each on their turn, until its game is over (or the
    process died, at the step that the game's end brought)."""
    name = f"Tournament #1 · round {round_no} · table {table}"
    thread = await seen(
        fake, bot, lambda: next((int(t["id"]) for t in fake.threads if t["name"] == name), None)
    )
    assert thread is not None, f"{name}: no thread"
    ping = await seen(fake, bot, lambda: next(iter(fake.messages(thread)), None))
    assert ping is not None
    players = [people[int(m)] for m in MENTION.findall(ping.content)]
    board = await seen(fake, bot, lambda: next(reversed(boards_in(fake, thread)), None))
    while board is not None:
        up = await seen(fake, bot, functools.partial(to_roll, fake, board, players))
        if up is None or up == "over":
            return
        assert isinstance(up, FakeMessage)
        label, actor = first_offered(up, HYH_ROLL), player_to_act(up, players)
        assert label is not None and actor is not None
        await fake.click(actor, up, label=label)  # its answer may be the process's last act
        board = await seen(fake, bot, functools.partial(moved_on, fake, up, move_number(up)))


def to_roll(fake: FakeDiscord, board: FakeMessage, players: list[JSON]) -> FakeMessage | str | None:
    """The newest board of `board`'s thread when one of `players` is to roll on it, "over"
    once the game's result is out."""
    if fake.latest_message(board.channel_id, is_result) is not None:
        return "over"
    up = newest_board(fake, board)
    return up if first_offered(up, HYH_ROLL) and player_to_act(up, players) else None


def moved_on(fake: FakeDiscord, board: FakeMessage, step: int) -> FakeMessage | None:
    """The board up once the game moved past `step`."""
    up = newest_board(fake, board)
    return up if up is not board or move_number(board) > step else None


async def uninterrupted(
    database: Path, event: TournamentRow, killed: Storage, game_seed: str
) -> tuple[list[tuple[int, float]], list[tuple[int, int, int, int]]]:
    """The same event with the same entrants, played in this process from its start to
    its end without a kill: its `outcome`."""
    clock = Clock()
    clock.now = event.starts_at
    world = Event(await open_storage(f"sqlite:///{database}"), clock, game_seed)
    try:
        calm = await world.storage.create_tournament(
            guild_id=event.guild_id,
            channel_id=event.channel_id,
            host_id=event.host_id,
            game=event.game,
            options=event.options,
            rounds=event.rounds,
            table_size=event.table_size,
            starts_at=event.starts_at,
            checkin_at=event.checkin_at,
            ready_window=event.ready_window,
            rated=event.rated,
            seed=event.seed,
            now=event.created_at,
        )
        for entrant in await killed.entrants(event.id):
            await world.storage.join_tournament(
                calm.id, entrant.member_id, entrant.name, entrant.joined_at
            )
        for _look in range(event.rounds + 1):  # a look deals a round, or ends the event
            await world.clock.tick()
            calm = await world.event(calm.id)
            if calm.state == FINISHED:
                break
            await play_round(world, calm.id)
        assert calm.state == FINISHED
        return await outcome(world.service, calm)
    finally:
        await world.storage.close()


async def outcome(
    service: TournamentService, event: TournamentRow
) -> tuple[list[tuple[int, float]], list[tuple[int, int, int, int]]]:
    """The event's standings (member, points) and places (round, table, member, place)."""
    places = await service.storage.places(event.id)
    lines = await service.standings(event)
    return [(s.member_id, s.points) for s in lines], [
        (p.round, p.table_no, p.member_id, p.place) for p in places
    ]


async def test_a_kill_9_at_each_kind_of_stored_step_ends_as_an_uninterrupted_event(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path
) -> None:
    fake.nonce_window = 0.0  # a final post sent before a kill is found by looking, not by nonce
    database = tmp_path / "parlour.sqlite3"
    env = process_env(fake, database)
    channel = fake.channel_id
    organiser = manager(fake, fake.make_user("Max"))
    members = [fake.make_user(name) for name in NAMES]
    people = {int(m["id"]): m for m in members}

    # The sign-up, by command and clicks; the process is killed from outside once the last
    # join is stored, and the start is moved to now (as if its time had come).
    # Nine processes: forked from the test's fork server (`launch`), which imports the bot
    # once for all of them.
    signup = await launch(tmp_path, env, forked=True)
    await connected(fake, signup, 1)
    card = await answer(
        fake,
        organiser,
        "create",
        game="hold_your_horses",
        rounds=3,
        table_size=4,
        starts_in="30",
        house_rules="races=1 track=short",
    )
    for member in members:
        card = await click(fake, member, card, "Join") or card
    await signup.kill()
    signup.assert_clean()
    storage = await open_storage(f"sqlite:///{database}")
    try:
        async with storage._transaction() as db:
            await db.execute("UPDATE tournaments SET starts_at = ?", time.time() - 1)
    finally:
        await storage.close()

    for number, (step, played, round_no) in enumerate(KILLS, start=2):
        plant = env | {"KILL_AFTER": step}
        bot = await launch(tmp_path, plant, module="tests.e2e.kill_after", forked=True)
        if played:  # the clicks go to this process, once it is connected
            await connected(fake, bot, number)
        for table in played:
            await roll_to_the_end(fake, bot, people, *table)
        status = await asyncio.wait_for(bot.proc.wait(), START_TIMEOUT)
        assert status == -9, f"{step}: {bot.log}"  # SIGKILL, at the step
        bot.assert_clean()
        storage = await open_storage(f"sqlite:///{database}", inspect=True)
        try:
            assert (await storage.tournament(1)).round == round_no, step  # type: ignore[union-attr]
        finally:
            await storage.close()

    # A last process finds nothing left to do but the card.
    last = await launch(tmp_path, env, forked=True)
    storage = await open_storage(f"sqlite:///{database}", inspect=True)  # beside the bot
    try:

        async def done() -> bool:
            event = await storage.tournament(1)
            assert event is not None
            return event.final_done and event.card_revision == event.revision

        await eventually(done)
        event = await storage.tournament(1)
        assert event is not None
        assert (event.state, event.round, event.final_done) == (FINISHED, 3, True)

        finals = [
            m
            for m in fake.messages(channel)
            if m.embeds and "final standings" in m.embeds[0]["title"]
        ]
        assert [m.id for m in finals] == [event.final_message_id]  # posted once
        tables = await storage.all_tables(1)
        dealt = [(t.round, t.table_no) for t in tables]
        assert dealt == [(r, t) for r in (1, 2, 3) for t in (1, 2, 3)]  # no round skipped
        names = sorted(t["name"] for t in fake.threads)
        assert names == sorted(f"Tournament #1 · round {r} · table {t}" for r, t in dealt)
        games = await storage.table_rows("games")
        assert sorted(g["id"] for g in games) == sorted(t.game_id for t in tables)  # type: ignore[misc]
        for row in tables:
            seats = await storage.seats(row.game_id)  # type: ignore[arg-type]
            assert tuple(s.player_id for s in seats) == row.members  # seated once, as dealt
        assert all(g["status"] == FINISHED for g in games)

        killed = await outcome(Event(storage, Clock()).service, event)
        calm = await uninterrupted(tmp_path / "calm.sqlite3", event, storage, env["GAME_SEED"])
        assert killed == calm
    finally:
        await storage.close()
    await last.kill()
    last.assert_clean()
