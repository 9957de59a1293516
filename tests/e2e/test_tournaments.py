"""Tournaments end to end through the fake Discord: an admin creates a Cock & Bull event,
four members join on its card, it starts at its time, each round's tables get a thread
with their members pinged and a board, the games are played by clicks, the second round
pairs nobody twice, and the final standings are posted once; bad input is refused
privately and changes nothing."""

from __future__ import annotations

import copy
import itertools
import time

import discord
import pytest

from bot.client import ParlourBot
from cogs.tournaments import CARD_EVERY
from tests.e2e.conftest import ParlourFactory
from tests.e2e.driver import (
    boards_in,
    eventually,
    first_offered,
    is_result,
    move_number,
    newest_board,
    offered,
    play_one_move,
    play_to_the_end,
    player_to_act,
)
from tests.e2e.fake_discord import JSON, FakeDiscord, FakeMessage

WORDS = {
    "en": {
        "not admin": "Only members who can manage the server can create or manage a tournament.",
        "sizes": "Cock & Bull is played at tables of 2.",
        "in already": "You are in this tournament already.",
        "busy": "This channel has a tournament already: one at a time per channel.",
        "title": "🏆 Tournament #1: Cock & Bull",
        "finished": "Finished: the final standings are below.",
        "no threads": "missing the **Create Public Threads** permission",
    },
    "es": {
        "not admin": ("Solo quien puede gestionar el servidor puede crear o gestionar un torneo."),
        "sizes": "Cock & Bull se juega en mesas de 2.",
        "in already": "Ya estás en este torneo.",
        "busy": "Este canal ya tiene un torneo: uno cada vez por canal.",
        "title": "🏆 Torneo n.º 1: Cock & Bull",
        "finished": "Terminado: la clasificación final está abajo.",
        "no threads": "**Crear hilos públicos**",
    },
}


async def answer(
    fake: FakeDiscord, user: JSON, sub: str, *, checked: bool = True, **options: object
) -> FakeMessage:
    rec = await fake.slash(user, "tournament", sub, options=options, checked=checked)
    message = (await rec.response()).message
    assert message is not None
    return message


async def click(
    fake: FakeDiscord, member: JSON, card: FakeMessage, label: str
) -> FakeMessage | None:
    return (await (await fake.click(member, card, label=label)).response()).message


def manager(fake: FakeDiscord, member: JSON) -> JSON:
    """`member`, given Manage Server: one who may organise the server's tournaments."""
    fake.grant(member, discord.Permissions(manage_guild=True))
    return member


async def start_now(parlour: ParlourBot) -> None:
    """The event's start moved to now (as if its time had come), and the clock looks."""
    storage = parlour.service.storage
    async with storage._transaction() as db:
        await db.execute("UPDATE tournaments SET starts_at = ?", time.time() - 1)
    await parlour.tournaments.tick()


@pytest.mark.parametrize("language", ["en", "es"])
async def test_a_cock_and_bull_event_from_its_card_to_its_final_standings(
    fake: FakeDiscord, start_parlour: ParlourFactory, language: str
) -> None:
    parlour = await start_parlour()
    storage = parlour.service.storage
    words = WORDS[language]
    locale = "es-ES" if language == "es" else "en-US"
    # Ana (an admin) and the members speak `language`; Max, an English-speaking admin,
    # creates the event, so its card and tables speak English (the server chose no
    # language): private answers are in each member's own.
    ana = fake.make_user("Ana", locale)
    leo, eve, mia = (fake.make_user(n, locale) for n in ("Leo", "Eve", "Mia"))
    max_ = manager(fake, fake.make_user("Max"))
    manager(fake, ana)
    create = {"game": "cock_and_bull", "rounds": 2, "starts_in": "30"}

    # Refused privately, changing nothing.
    refused = await answer(fake, leo, "create", **create)
    assert refused.ephemeral and refused.content == words["not admin"]
    sized = await answer(fake, ana, "create", **create | {"table_size": 3})
    assert sized.ephemeral and sized.content == words["sizes"]
    # rounds:1 from a client holding no range (Discord's own refuses it before sending)
    one = await answer(fake, ana, "create", checked=False, **create | {"rounds": 1})
    assert one.ephemeral
    for bad in ({"starts_in": "someday"}, {"starts_in": "2001-01-01 10:00"}):
        assert (await answer(fake, ana, "create", **create | bad)).ephemeral, bad
    # A channel where the bot can't make the tables' threads: the permission is named.
    allowed = fake.bot_permissions(fake.channel_id)
    threads = discord.Permissions(create_public_threads=True).value
    fake.set_bot_permissions(fake.channel_id, allowed & ~threads)
    threadless = await answer(fake, ana, "create", **create)
    assert threadless.ephemeral and words["no threads"] in threadless.content
    fake.set_bot_permissions(fake.channel_id, allowed)
    assert await storage.table_rows("tournaments") == []

    card = await answer(fake, max_, "create", **create)
    assert not card.ephemeral and card.embeds
    players = [ana, leo, eve, mia]
    for member in players:
        redrawn = await click(fake, member, card, "Join")  # the click redraws the card
        assert redrawn is not None and not redrawn.ephemeral
        assert f"<@{member['id']}>" in str(redrawn.embeds[0]["fields"])
        card = redrawn
    twice = await click(fake, leo, card, "Join")
    assert twice is not None and twice.ephemeral and twice.content == words["in already"]
    again = await answer(fake, ana, "create", **create)
    assert again.ephemeral and again.content == words["busy"]
    assert len(await storage.table_rows("tournaments")) == 1
    # A forged click: the card's Join, sent on another message of another server's event id.
    join = next(b for b in card.buttons if b["label"] == "Join")
    forged_id = join["custom_id"].replace("tn1:1:", "tn1:99:")
    forged = FakeMessage(copy.deepcopy(refused.data), [])
    forged.data["components"] = [{"type": 1, "components": [join | {"custom_id": forged_id}]}]
    reply = await (await fake.click(leo, refused, custom_id=forged_id, seen=forged)).response()
    assert reply.message is not None and reply.message.ephemeral
    assert len(await storage.entrants(1)) == 4 and await storage.tournament(99) is None

    leave = next(b for b in card.buttons if b["label"] == "Leave")
    await start_now(parlour)
    await fake.wait_for(lambda: len(fake.threads) == 2 or None)  # a thread per table
    # Leave after the start: the old card's button (a member who has not seen the card
    # redrawn) is answered privately, and changes nothing.
    stale = FakeMessage(copy.deepcopy(card.data), [])
    stale.data["components"] = [{"type": 1, "components": [leave]}]
    rec = await fake.click(mia, card.id, custom_id=leave["custom_id"], seen=stale)
    left = (await rec.response()).message
    assert left is not None and left.ephemeral
    assert {e.member_id: e.status for e in await storage.entrants(1)}[int(mia["id"])] == "in"
    redrawn = await fake.wait_for(
        lambda: fake.latest_message(
            card.channel_id, lambda m: m.id == card.id and "Leave" not in offered(m)
        )
    )
    assert "Round 1 of 2" in redrawn.embeds[0]["description"]

    by_id = {int(p["id"]): p for p in players}
    met: list[frozenset[int]] = []
    for number in (1, 2):
        await eventually(lambda n=number: _seated(parlour, n))
        tables = await storage.round_tables(1, number)
        assert len(tables) == 2
        for table in tables:
            met.append(frozenset(table.members))
            game = await parlour.service.table(table.game_id)  # type: ignore[arg-type]
            thread = game.row.thread_id
            assert thread is not None
            board = await fake.wait_for(lambda t=thread: (boards_in(fake, t) or [None])[-1])
            ping = fake.messages(thread)[0]
            assert all(f"<@{m}>" in ping.content for m in table.members)
            await play_to_the_end(fake, [by_id[m] for m in table.members], board)
        if number == 1:
            await eventually(lambda: _round_is(storage, 2))
    assert len(set(met)) == 4  # nobody met anyone twice

    final = await fake.wait_for(
        lambda: fake.latest_message(
            card.channel_id, lambda m: bool(m.embeds) and "final standings" in m.embeds[0]["title"]
        )
    )
    assert "🥇" in (final.embeds[0]["description"] or "")
    (picture,) = [a for a in final.attachments if a.filename == "standings.png"]
    assert picture.data.startswith(b"\x89PNG") and "Max" not in picture.description
    assert all(p["username"] in picture.description for p in players)
    # The card shows the final standings too, with the picture (edited by the clock).
    shown = await fake.wait_for(
        lambda: fake.latest_message(
            card.channel_id, lambda m: (m.id == card.id and bool(m.attachments)) or None
        )
    )
    assert any(f["name"] == "Standings" for f in shown.embeds[0]["fields"])
    assert not shown.buttons  # no joining a finished event
    await parlour.tournaments.tick()
    finals = [
        m
        for m in fake.messages(card.channel_id)
        if m.embeds and "final standings" in m.embeds[0]["title"]
    ]
    assert len(finals) == 1  # posted once, however often the clock looks
    (event,) = await storage.table_rows("tournaments")
    assert event["state"] == "finished" and event["final_done"] == 1
    # The bot-token work an event adds to its games' own: the card's edits, at least
    # CARD_EVERY seconds apart (a click's redraw is its answer), and the final post.
    edits = [
        c.at for c in fake.calls if c.method == "PATCH" and c.path.endswith(f"/messages/{card.id}")
    ]
    assert all(b - a >= CARD_EVERY - 0.5 for a, b in itertools.pairwise(edits))
    moves = len(await storage.table_rows("actions"))
    assert (len(edits) + len(finals)) / moves <= 0.1

    # Privately, in each member's own language: the event and its standings.
    shown = await answer(fake, ana, "show")
    assert shown.ephemeral and shown.embeds[0]["title"] == words["title"]
    assert words["finished"] in shown.embeds[0]["description"]
    standings = await answer(fake, eve, "standings")
    assert standings.ephemeral and standings.attachments[0].description


async def _seated(parlour: ParlourBot, number: int) -> bool:
    """Every table of round `number` is seated, with its thread."""
    tables = await parlour.service.storage.round_tables(1, number)
    for table in tables:
        if table.game_id is None:
            return False
        if (await parlour.service.table(table.game_id)).row.thread_id is None:
            return False
    return bool(tables)


async def _round_is(storage: object, number: int) -> bool:
    event = await storage.tournament(1)  # type: ignore[attr-defined]
    return bool(event is not None and event.round == number)


# --- Hold Your Horses: check-in, an absent entrant, a restart ----------------------------------

HYH_ROLL = ("Roll for a scratch", "Roll")


async def move_times(parlour: ParlourBot, column: str) -> None:
    """An event's `column` time (its check-in or start) moved to now, and the clock looks."""
    async with parlour.service.storage._transaction() as db:
        await db.execute(f"UPDATE tournaments SET {column} = ?", time.time() - 1)
    await parlour.tournaments.tick()


async def play_table(
    fake: FakeDiscord, parlour: ParlourBot, thread: int, present: list[JSON], absent: JSON | None
) -> None:
    """Play a table's game by clicks to its end; when only `absent` is to act, their ready
    window is made to end (as if its minutes had passed), so the AI takes their seat."""
    board = await fake.wait_for(lambda: (boards_in(fake, thread) or [None])[-1])
    storage = parlour.service.storage
    while True:

        def ready(board: FakeMessage = board) -> str | None:
            up = newest_board(fake, board)
            if fake.latest_message(thread, is_result) is not None:
                return "over"
            if first_offered(up, HYH_ROLL) and player_to_act(up, present) is not None:
                return "present"
            if absent is not None and player_to_act(up, [absent]) is not None:
                return "absent"
            return None

        state = await fake.wait_for(ready)
        if state == "over":
            return
        up = newest_board(fake, board)
        if state == "present":
            board = await play_one_move(fake, present, up, HYH_ROLL)
            continue
        step = move_number(up)
        async with storage._transaction() as db:
            await db.execute(
                "UPDATE tournament_tables SET ready_at = ? WHERE game_id IN"
                " (SELECT id FROM games WHERE thread_id = ?)",
                time.time() - 1,
                thread,
            )
        await parlour.tournaments.tick()
        await fake.wait_for(
            lambda board=board, step=step: (
                fake.latest_message(thread, is_result) is not None
                or move_number(newest_board(fake, board)) > step
                or None
            )
        )


async def play_round(
    fake: FakeDiscord, parlour: ParlourBot, number: int, people: dict[int, JSON], absent: JSON
) -> None:
    await eventually(lambda: _seated(parlour, number))
    for table in await parlour.service.storage.round_tables(1, number):
        game = await parlour.service.table(table.game_id)  # type: ignore[arg-type]
        assert game.row.thread_id is not None
        present = [people[m] for m in table.members if m != int(absent["id"])]
        missing = absent if int(absent["id"]) in table.members else None
        await play_table(fake, parlour, game.row.thread_id, present, missing)


async def test_check_in_an_absent_entrant_and_a_restart_in_a_hold_your_horses_event(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    parlour = await start_parlour()
    storage = parlour.service.storage
    max_ = manager(fake, fake.make_user("Max"))
    names = ("Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Zoe")
    members = [fake.make_user(n) for n in names]
    people = {int(m["id"]): m for m in members}
    ana, zoe = members[0], members[-1]
    card = await answer(
        fake,
        max_,
        "create",
        game="hold_your_horses",
        rounds=2,
        table_size=4,
        starts_in="30",
        checkin=10,
        house_rules="races=1 track=short",
    )
    assert "Races: 1" in card.embeds[0]["description"]
    for member in members:
        card = await click(fake, member, card, "Join") or card

    # Check-in opens: everyone is pinged once, the card gets its button; Zoe never checks in.
    await move_times(parlour, "checkin_at")
    ping = await fake.wait_for(
        lambda: fake.latest_message(card.channel_id, lambda m: "Check-in" in m.content)
    )
    assert all(f"<@{m['id']}>" in ping.content for m in members)
    card = await fake.wait_for(
        lambda: fake.latest_message(
            card.channel_id, lambda m: m.id == card.id and "Check in" in offered(m)
        )
    )
    stranger = await click(fake, max_, card, "Check in")
    assert stranger is not None and stranger.ephemeral
    assert stranger.content == "You are not in this tournament."
    for member in members[:-1]:
        card = await click(fake, member, card, "Check in") or card
    twice = await click(fake, ana, card, "Check in")
    assert twice is not None and twice.content == "You have checked in already."
    await parlour.tournaments.tick()
    pings = [m for m in fake.messages(card.channel_id) if "Check-in" in m.content]
    assert len(pings) == 1  # pinged once, however often the clock looks

    # The start drops Zoe: seven entrants, tables of four and three.
    await move_times(parlour, "starts_at")
    entrants = {e.member_id: e.status for e in await storage.entrants(1)}
    assert entrants[int(zoe["id"])] == "dropped"
    await eventually(lambda: _seated(parlour, 1))
    tables = await storage.round_tables(1, 1)
    assert sorted(len(t.members) for t in tables) == [3, 4]

    # Round 1: Ana never moves; the AI takes her seat when her ready window ends.
    await play_round(fake, parlour, 1, people, ana)
    await eventually(lambda: _round_is(storage, 2))
    await eventually(lambda: _seated(parlour, 2))
    places = {p.member_id: p for p in await storage.places(1) if p.round == 1}
    ana_table = next(t for t in tables if int(ana["id"]) in t.members)
    assert places[int(ana["id"])].replaced
    assert places[int(ana["id"])].place == len(ana_table.members)  # last at her table

    # A restart in round 2: the same tables, none seated twice.
    round_two = await storage.round_tables(1, 2)
    games = len(await storage.table_rows("games"))
    await parlour.close()
    parlour = await start_parlour()
    storage = parlour.service.storage
    await parlour.tournaments.tick()
    assert await storage.round_tables(1, 2) == round_two
    assert len(await storage.table_rows("games")) == games

    await play_round(fake, parlour, 2, people, ana)
    final = await fake.wait_for(
        lambda: fake.latest_message(
            card.channel_id, lambda m: bool(m.embeds) and "final standings" in m.embeds[0]["title"]
        )
    )
    entrants = {e.member_id: e.status for e in await storage.entrants(1)}
    assert entrants[int(ana["id"])] == "withdrawn"  # two rounds in a row played by the AI
    lines = (final.embeds[0]["fields"][0]["value"]).splitlines()
    assert len(lines) == 7 and "Ana" in lines[-1]  # last in the standings: 0 points
    assert "Zoe" not in final.embeds[0]["fields"][0]["value"]


async def test_organisers_pause_drop_and_cancel_and_members_cannot(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    parlour = await start_parlour()
    storage = parlour.service.storage
    max_ = manager(fake, fake.make_user("Max"))
    members = [fake.make_user(n) for n in ("Ana", "Bo", "Cy", "Di", "Ed")]
    card = await answer(
        fake, max_, "create", game="cock_and_bull", rounds=3, starts_in="30", rated=False
    )
    for member in members:
        card = await click(fake, member, card, "Join") or card
    await start_now(parlour)
    await eventually(lambda: _seated(parlour, 1))
    tables = await storage.round_tables(1, 1)
    assert len(tables) == 2 and len(await storage.byes(1)) == 1  # five: two tables, a bye

    bo = members[1]
    for sub in ("pause", "resume", "next-round", "cancel"):
        refused = await answer(fake, bo, sub)
        assert refused.ephemeral and refused.content == WORDS["en"]["not admin"], sub
    assert (await answer(fake, max_, "pause")).content == "Tournament #1 is paused."
    assert (await answer(fake, max_, "pause")).content == "The tournament is paused already."
    assert (await answer(fake, max_, "next-round")).content == "Round 1 is still being played."

    # Dropping a seated entrant: the AI takes their seat at once, and they are out.
    seated = tables[0].members[0]
    dropped = await answer(
        fake, max_, "drop", member=next(m for m in members if int(m["id"]) == seated)
    )
    assert dropped.content == f"<@{seated}> was dropped from tournament #1."
    game = await parlour.service.table(tables[0].game_id)  # type: ignore[arg-type]
    assert seated in game.away
    assert {e.member_id: e.status for e in await storage.entrants(1)}[seated] == "dropped"
    again = await answer(fake, max_, "drop", member=max_)
    assert again.ephemeral and again.content == "That member is not in this tournament."

    assert (await answer(fake, max_, "cancel")).content == "Tournament #1 is cancelled."
    redrawn = await fake.wait_for(
        lambda: fake.latest_message(
            card.channel_id,
            lambda m: m.id == card.id and "Cancelled" in m.embeds[0]["description"],
        )
    )
    assert not redrawn.buttons
    assert (await answer(fake, max_, "cancel")).content == "This tournament is over already."
    shown = await answer(fake, bo, "show")
    assert shown.ephemeral and "Cancelled" in shown.embeds[0]["description"]
    standings = await answer(fake, bo, "standings", id=1)
    assert standings.ephemeral
    assert (await answer(fake, bo, "standings", id=9)).content == (
        "This server has no such tournament."
    )
