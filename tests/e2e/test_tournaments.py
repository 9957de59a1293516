"""Tournaments end to end through the fake Discord, in English and Spanish: an admin
creates a Cock & Bull event, eight members join on its card, it starts at its time, each
round's tables get a thread with their members pinged and a board, the games are played
(by clicks, or a resignation), three rounds pair nobody twice, and the final standings are
posted once; a Hold Your Horses event drops a member who did not check in, seats seven at
tables of four and three, hands a member who never moves to the AI (last, then withdrawn)
and goes on across a restart; bad input is refused privately and changes nothing."""

from __future__ import annotations

import copy
import itertools
import re
import time
from collections import Counter

import discord
import pytest

from bot.client import ParlourBot
from cogs.tournaments import CARD_EVERY
from tests.e2e.conftest import ParlourFactory
from tests.e2e.driver import (
    boards_in,
    choose,
    eventually,
    first_offered,
    is_result,
    move_number,
    newest_board,
    offered,
    open_panel,
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
        "resign…": "Resign…",
        "resign": "Resign",
        "resigned": "You resigned.",
        "round 1": "Round 1 of 3",
        # What an event created in the language shows: its card, pings, threads, final post.
        "races": "Races: 1",
        "join": "Join",
        "check in": "Check in",
        "check-in ping": "Check-in for tournament #1 is open",
        "not in": "You are not in this tournament.",
        "checked in": "You have checked in already.",
        "thread": "Tournament #1 · round 1 · table 1",
        "ping": "Make your first move by",
        "final": "final standings",
        "standings": "Standings",
    },
    "es": {
        "not admin": ("Solo quien puede gestionar el servidor puede crear o gestionar un torneo."),
        "sizes": "Cock & Bull se juega en mesas de 2.",
        "in already": "Ya estás en este torneo.",
        "busy": "Este canal ya tiene un torneo: uno cada vez por canal.",
        "title": "🏆 Torneo n.º 1: Cock & Bull",
        "finished": "Terminado: la clasificación final está abajo.",
        "no threads": "**Crear hilos públicos**",
        "resign…": "Abandonar…",
        "resign": "Abandonar",
        "resigned": "Has abandonado.",
        "round 1": "Ronda 1 de 3",
        "races": "Carreras: 1",
        "join": "Unirse",
        "check in": "Confirmar asistencia",
        "check-in ping": "La confirmación de asistencia del torneo n.º 1 está abierta",
        "not in": "No estás en este torneo.",
        "checked in": "Ya has confirmado tu asistencia.",
        "thread": "Torneo n.º 1 · ronda 1 · mesa 1",
        "ping": "Haz tu primera jugada antes de",
        "final": "clasificación final",
        "standings": "Clasificación",
    },
}
LOCALES = {"en": "en-US", "es": "es-ES"}
SEED = 1  # the Cock & Bull event's
MENTION = re.compile(r"<@(\d+)>")


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


def redrawing_at_once(parlour: ParlourBot) -> ParlourBot:
    """`parlour`, its clock redrawing a card at each change: the budget of its edits (one
    every CARD_EVERY seconds at most) is the Cock & Bull test's, and the others need not
    wait for it."""
    cog = parlour.get_cog("Tournaments")  # loaded as an extension: of its own module object
    assert cog is not None and hasattr(cog, "card_every")
    cog.card_every = 0.0  # type: ignore[attr-defined]
    return parlour


async def store(parlour: ParlourBot, column: str, value: float) -> None:
    """The event's `column` stored as `value`, and the clock looks."""
    async with parlour.service.storage._transaction() as db:
        await db.execute(f"UPDATE tournaments SET {column} = ?", value)
    await parlour.tournaments.tick()


async def move_times(parlour: ParlourBot, column: str) -> None:
    """The event's `column` time (its check-in or start) moved to now, as if it had come."""
    await store(parlour, column, time.time() - 1)


@pytest.mark.parametrize("language", ["en", "es"])
async def test_a_cock_and_bull_event_from_its_card_to_its_final_standings(
    fake: FakeDiscord, start_parlour: ParlourFactory, language: str
) -> None:
    parlour = await start_parlour()
    storage = parlour.service.storage
    words = WORDS[language]
    locale = LOCALES[language]
    # Ana (an admin) and the members speak `language`; Max, an English-speaking admin,
    # creates the event, so its card and tables speak English (the server chose no
    # language): private answers are in each member's own.
    ana = fake.make_user("Ana", locale)
    leo, eve, mia = (fake.make_user(n, locale) for n in ("Leo", "Eve", "Mia"))
    max_ = manager(fake, fake.make_user("Max"))
    manager(fake, ana)
    create = {"game": "cock_and_bull", "rounds": 3, "starts_in": "30"}

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
    await store(parlour, "seed", SEED)  # drawn at random: fixed, for the same tables each run
    players = [ana, leo, eve, mia, *(fake.make_user(n, locale) for n in ("Bo", "Cy", "Di", "Ed"))]
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
    assert len(await storage.entrants(1)) == 8 and await storage.tournament(99) is None

    leave = next(b for b in card.buttons if b["label"] == "Leave")
    await move_times(parlour, "starts_at")
    await fake.wait_for(lambda: len(fake.threads) == 4 or None)  # a thread per table
    # Leave after the start: the old card's button (a member who has not seen the card
    # redrawn) is answered privately, and changes nothing.
    stale = FakeMessage(copy.deepcopy(card.data), [])
    stale.data["components"] = [{"type": 1, "components": [leave]}]
    rec = await fake.click(mia, card.id, custom_id=leave["custom_id"], seen=stale)
    left = (await rec.response()).message
    assert left is not None and left.ephemeral
    assert {e.member_id: e.status for e in await storage.entrants(1)}[int(mia["id"])] == "in"
    shown = await answer(fake, mia, "show")  # the card as it is now, privately
    assert shown.ephemeral and words["round 1"] in shown.embeds[0]["description"]

    # Three rounds of four tables, as the members see them: each table's thread, named for
    # its round, pings its two members. The first table is played to its end by clicks; at
    # every other one a member resigns (the later of the two to join), so rounds go fast.
    by_id = {int(p["id"]): p for p in players}
    rounds = []
    for number in (1, 2, 3):
        seen = await fake.wait_for(lambda n=number: _round_seen(fake, n, 4))
        rounds.append(list(seen.values()))
        for table_no, (thread, members) in enumerate(seen.items()):
            board = await fake.wait_for(lambda t=thread: (boards_in(fake, t) or [None])[-1])
            if number == 1 and table_no == 0:
                await play_to_the_end(fake, [by_id[m] for m in members], board)
                continue
            later = max((by_id[m] for m in members), key=players.index)
            await resign(fake, later, board, words)
            await fake.wait_for(lambda t=thread: fake.latest_message(t, is_result))
    everyone = set(by_id)
    for tables in rounds:  # every entrant played every round, at a table of two
        assert sorted(len(t) for t in tables) == [2] * 4 and set().union(*tables) == everyone
    pairs = [pair for tables in rounds for pair in tables]
    assert len(set(pairs)) == 12  # nobody met anyone twice

    final = await fake.wait_for(
        lambda: fake.latest_message(
            card.channel_id, lambda m: bool(m.embeds) and "final standings" in m.embeds[0]["title"]
        )
    )
    # Swiss at tables of two: one entrant won all three games, one lost all three.
    wins = Counter(p.member_id for p in await storage.places(1) if p.place == 1)
    (champion,) = [m for m in everyone if wins[m] == 3]
    (last,) = [m for m in everyone if wins[m] == 0]
    assert (final.embeds[0]["description"] or "").startswith(f"🥇 <@{champion}>")
    lines = final.embeds[0]["fields"][0]["value"].splitlines()
    assert len(lines) == 8 and all(line.endswith("· 3 rounds") for line in lines)
    assert by_id[champion]["username"] in lines[0] and by_id[last]["username"] in lines[-1]
    (picture,) = [a for a in final.attachments if a.filename == "standings.png"]
    assert picture.data.startswith(b"\x89PNG") and "Max" not in picture.description
    assert all(p["username"] in picture.description for p in players)

    # Privately, in each member's own language: the event and its standings.
    shown = await answer(fake, ana, "show")
    assert shown.ephemeral and shown.embeds[0]["title"] == words["title"]
    assert words["finished"] in shown.embeds[0]["description"]
    standings = await answer(fake, eve, "standings")
    assert standings.ephemeral and standings.attachments[0].description

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
        c
        for c in fake.calls
        if c.method == "PATCH" and c.path == f"/channels/{card.channel_id}/messages/{card.id}"
    ]
    assert all(b.at - a.at >= CARD_EVERY - 0.5 for a, b in itertools.pairwise(edits))
    moves = len(await storage.table_rows("actions"))
    assert (len(edits) + len(finals)) / moves <= 0.1


def _round_seen(fake: FakeDiscord, number: int, tables: int) -> dict[int, frozenset[int]] | None:
    """Round `number`'s tables as their members see them, once all `tables` are shown: each
    table's thread (named for the event, round and table, in English) and the members its
    first message pings."""
    named = f"Tournament #1 · round {number} · table "
    threads = [int(t["id"]) for t in fake.threads if t["name"].startswith(named)]
    pings = {t: fake.messages(t) for t in threads}
    if len(threads) < tables or not all(pings.values()):
        return None
    return {t: frozenset(map(int, MENTION.findall(m[0].content))) for t, m in pings.items()}


async def resign(
    fake: FakeDiscord, member: JSON, board: FakeMessage, words: dict[str, str]
) -> None:
    """`member` resigns through the board's panel, which speaks their own language."""
    panel = await open_panel(fake, member, board, "Resign or end…")
    for label in (words["resign…"], words["resign"]):
        reply = (await (await choose(fake, member, panel, label)).response()).message
    assert reply is not None and reply.content == words["resigned"]


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
ROLLS = {"en": HYH_ROLL, "es": ("Tirar para retirar", "Tirar")}  # by the event's language


async def play_table(
    fake: FakeDiscord,
    parlour: ParlourBot,
    thread: int,
    present: list[JSON],
    absent: JSON | None,
    rolls: tuple[str, ...],
) -> None:
    """Play a table's game by clicks on its `rolls` buttons to its end; when only `absent`
    is to act, their ready window is made to end (as if its minutes had passed), so the AI
    takes their seat."""
    board = await fake.wait_for(lambda: (boards_in(fake, thread) or [None])[-1])
    storage = parlour.service.storage
    while True:

        def ready(board: FakeMessage = board) -> str | None:
            up = newest_board(fake, board)
            if fake.latest_message(thread, is_result) is not None:
                return "over"
            if first_offered(up, rolls) and player_to_act(up, present) is not None:
                return "present"
            if absent is not None and player_to_act(up, [absent]) is not None:
                return "absent"
            return None

        state = await fake.wait_for(ready)
        if state == "over":
            return
        up = newest_board(fake, board)
        if state == "present":
            board = await play_one_move(fake, present, up, rolls)
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
    fake: FakeDiscord,
    parlour: ParlourBot,
    number: int,
    people: dict[int, JSON],
    absent: JSON,
    rolls: tuple[str, ...],
) -> None:
    await eventually(lambda: _seated(parlour, number))
    for table in await parlour.service.storage.round_tables(1, number):
        game = await parlour.service.table(table.game_id)  # type: ignore[arg-type]
        assert game.row.thread_id is not None
        present = [people[m] for m in table.members if m != int(absent["id"])]
        missing = absent if int(absent["id"]) in table.members else None
        await play_table(fake, parlour, game.row.thread_id, present, missing, rolls)


@pytest.mark.parametrize("language", ["en", "es"])
async def test_check_in_an_absent_entrant_and_a_restart_in_a_hold_your_horses_event(
    fake: FakeDiscord, start_parlour: ParlourFactory, language: str
) -> None:
    parlour = redrawing_at_once(await start_parlour())
    storage = parlour.service.storage
    words = WORDS[language]
    # Everyone speaks `language`, Max (who creates the event) too: the card, the pings, the
    # tables' threads and boards, and the final post speak it.
    max_ = manager(fake, fake.make_user("Max", LOCALES[language]))
    names = ("Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Zoe")
    members = [fake.make_user(n, LOCALES[language]) for n in names]
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
    assert words["races"] in card.embeds[0]["description"]
    for member in members:
        card = await click(fake, member, card, words["join"]) or card

    # Check-in opens: everyone is pinged once, the card gets its button; Zoe never checks in.
    await move_times(parlour, "checkin_at")
    ping = await fake.wait_for(
        lambda: fake.latest_message(card.channel_id, lambda m: words["check-in ping"] in m.content)
    )
    assert all(f"<@{m['id']}>" in ping.content for m in members)
    card = await fake.wait_for(
        lambda: fake.latest_message(
            card.channel_id, lambda m: m.id == card.id and words["check in"] in offered(m)
        )
    )
    stranger = await click(fake, max_, card, words["check in"])
    assert stranger is not None and stranger.ephemeral and stranger.content == words["not in"]
    for member in members[:-1]:
        card = await click(fake, member, card, words["check in"]) or card
    twice = await click(fake, ana, card, words["check in"])
    assert twice is not None and twice.content == words["checked in"]
    await parlour.tournaments.tick()
    pings = [m for m in fake.messages(card.channel_id) if words["check-in ping"] in m.content]
    assert len(pings) == 1  # pinged once, however often the clock looks

    # The start drops Zoe: seven entrants, tables of four and three.
    await move_times(parlour, "starts_at")
    entrants = {e.member_id: e.status for e in await storage.entrants(1)}
    assert entrants[int(zoe["id"])] == "dropped"
    await eventually(lambda: _seated(parlour, 1))
    tables = await storage.round_tables(1, 1)
    assert sorted(len(t.members) for t in tables) == [3, 4]
    (first,) = [t for t in fake.threads if t["name"] == words["thread"]]
    assert words["ping"] in fake.messages(int(first["id"]))[0].content

    # Round 1: Ana never moves; the AI takes her seat when her ready window ends.
    rolls = ROLLS[language]
    await play_round(fake, parlour, 1, people, ana, rolls)
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

    await play_round(fake, parlour, 2, people, ana, rolls)
    final = await fake.wait_for(
        lambda: fake.latest_message(
            card.channel_id, lambda m: bool(m.embeds) and words["final"] in m.embeds[0]["title"]
        )
    )
    entrants = {e.member_id: e.status for e in await storage.entrants(1)}
    assert entrants[int(ana["id"])] == "withdrawn"  # two rounds in a row played by the AI
    (standings,) = final.embeds[0]["fields"]
    lines = standings["value"].splitlines()
    assert standings["name"] == words["standings"]
    assert len(lines) == 7 and "Ana" in lines[-1]  # last in the standings: 0 points
    assert "Zoe" not in standings["value"]
    (picture,) = [a for a in final.attachments if a.filename == "standings.png"]
    assert picture.data.startswith(b"\x89PNG") and "Zoe" not in picture.description
    assert words["final"] in picture.description


async def test_organisers_pause_drop_and_cancel_and_members_cannot(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    parlour = redrawing_at_once(await start_parlour())
    storage = parlour.service.storage
    max_ = manager(fake, fake.make_user("Max"))
    members = [fake.make_user(n) for n in ("Ana", "Bo", "Cy", "Di", "Ed")]
    card = await answer(
        fake, max_, "create", game="cock_and_bull", rounds=3, starts_in="30", rated=False
    )
    for member in members:
        card = await click(fake, member, card, "Join") or card
    await move_times(parlour, "starts_at")
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
