"""Seasons end to end through the fake Discord, in English and Spanish: an admin starts a
season, three members play two titles, the season is ended (asked first), its card comes
with a picture and alt text, `/season show` and `/leaderboard` for the current season, a
season's number and all-time; bad input is refused privately and changes nothing; a season
that fell due while the bot was down ends once at the next start, with one card."""

from __future__ import annotations

import asyncio
import copy
import time

import discord
import pytest

from bot.client import ParlourBot
from bot.storage import open_storage
from tests.e2e.conftest import ParlourFactory
from tests.e2e.driver import eventually, play_to_the_end, start_game
from tests.e2e.fake_discord import JSON, FakeDiscord, FakeMessage
from tests.e2e.storm import Spec, Storm
from tests.e2e.test_budgets import ANSWERS, BOT_TOKEN, FOLLOW_UPS, STATEMENTS, TRANSACTIONS, Meter

CB, CB_OPTIONS = "cock-and-bull", {"point_limit": 3}
HYH, HYH_OPTIONS, ROLL = (
    "hold-your-horses",
    {"races": 2, "track": "short"},
    ("Roll for a scratch", "Roll"),
)
WORDS = {
    "en": {
        "title": "Autumn (season 1)",
        "end it": "End it",
        "card": "Autumn (season 1) — final standings",
        "refused admin": "Only members who can manage the server can start or end a season.",
        "no season": "This server has no season 9.",
        "none running": "No season is running in this server.",
        "my place": "You: place {place} of 3",
    },
    "es": {
        "title": "Otoño (temporada 1)",
        "end it": "Terminarla",
        "card": "Otoño (temporada 1) — clasificación final",
        "refused admin": (
            "Solo quien puede gestionar el servidor puede empezar o terminar una temporada."
        ),
        "no season": "Este servidor no tiene temporada 9.",
        "none running": "No hay ninguna temporada en curso en este servidor.",
        "my place": "Tú: puesto {place} de 3",
    },
}


async def answer(
    fake: FakeDiscord, member: JSON, command: str, sub: str | None = None, **options: object
) -> FakeMessage:
    message = (await (await fake.slash(member, command, sub, options=options)).response()).message
    assert message is not None
    return message


def is_card(message: FakeMessage) -> bool:
    return any(a.filename.startswith("season-") for a in message.attachments)


async def play(fake: FakeDiscord, game: str, players: list[JSON]) -> None:
    options = CB_OPTIONS if game == CB else HYH_OPTIONS
    board = await start_game(fake, players[0], game, joiners=players[1:], options=options)
    if game == CB:
        await play_to_the_end(fake, players, board)
    else:
        await play_to_the_end(fake, players, board, ROLL)


@pytest.mark.parametrize("language", ["en", "es"])
async def test_a_season_from_its_start_to_its_card(
    fake: FakeDiscord, start_parlour: ParlourFactory, language: str
) -> None:
    parlour = await start_parlour()
    storage = parlour.service.storage
    words = WORDS[language]
    locale = "es-ES" if language == "es" else "en-US"
    # Ana (the admin) and Eve speak `language`; Leo, who hosts the games, English.
    ana, eve = (fake.make_user(n, locale) for n in ("Ana", "Eve"))
    leo = fake.make_user("Leo")
    fake.grant(ana, discord.Permissions(manage_guild=True))
    name = "Otoño" if language == "es" else "Autumn"
    await answer(fake, ana, "settings", "season-min-games", games=1)

    # Refused privately, changing nothing: a member without Manage Server, bad input.
    start = {"name": name, "ends": "30d", "games": "all", "recur": "none"}
    leos = await answer(fake, leo, "season", "start", **start)
    assert leos.ephemeral and leos.content == WORDS["en"]["refused admin"]
    for bad in (
        {"ends": "2001-01-01"},
        {"ends": "400d"},
        {"ends": "someday"},
        {"name": "x" * 101},
        {"name": f"Hi <@{leo['id']}>"},
    ):
        refusal = await answer(fake, ana, "season", "start", **(start | bad))
        assert refusal.ephemeral, bad
    assert (await answer(fake, ana, "season", "end")).content == words["none running"]
    assert (await answer(fake, ana, "season", "show", number=9)).content == words["no season"]
    assert await storage.table_rows("seasons") == []

    started = await answer(fake, ana, "season", "start", **start)
    assert not started.ephemeral and started.embeds[0]["title"] == words["title"]
    again = await answer(fake, ana, "season", "start", **start)
    assert again.ephemeral and len(await storage.table_rows("seasons")) == 1

    # Three members, two titles.
    await play(fake, CB, [leo, ana])
    await play(fake, CB, [leo, eve])
    await play(fake, HYH, [leo, ana, eve])
    if language == "es":  # the card speaks the server's language
        await answer(fake, ana, "settings", "language", language="es")
    current = await answer(fake, eve, "leaderboard", game="cock_and_bull")
    assert not current.ephemeral
    assert words["title"] in current.embeds[0]["title"]
    live = current.embeds[0]["description"].splitlines()
    assert len(live) == 3  # Ana, Leo and Eve, each with one game at least
    # A recompute rates the running season as its games did.
    async with storage._transaction() as db:  # out of step with the games first
        await db.execute("UPDATE season_ratings SET mu = 0")
    await answer(fake, ana, "recompute-ratings")
    again = await answer(fake, eve, "leaderboard", game="cock_and_bull")
    assert again.embeds[0]["description"].splitlines() == live

    # Only an admin may end it.
    leos = await answer(fake, leo, "season", "end")
    assert leos.ephemeral and leos.content == WORDS["en"]["refused admin"]
    # Ended, asked first; a forged answer (Ana's button, sent by Leo's client on a message
    # of his) is answered privately and changes nothing.
    question = await answer(fake, ana, "season", "end")
    assert question.ephemeral
    yes = next(b for b in question.buttons if b["label"] == words["end it"])
    forged = FakeMessage(copy.deepcopy(leos.data), [])
    forged.data["components"] = [{"type": 1, "components": [yes]}]
    click = await fake.click(leo, leos, custom_id=yes["custom_id"], seen=forged)
    assert (await click.response()).message.ephemeral  # type: ignore[union-attr]
    assert (await storage.running_season(fake.guild_id)) is not None
    await (await fake.click(ana, question, label=words["end it"])).response()
    card = await fake.wait_for(lambda: fake.latest_message(started.channel_id, is_card))
    assert card.embeds[0]["title"] == words["card"]
    fields = {f["name"]: f["value"] for f in card.embeds[0]["fields"]}
    assert set(fields) == {"Cock & Bull", "Hold Your Horses"}
    (picture,) = [a for a in card.attachments if a.filename == "season-1.png"]
    assert picture.data.startswith(b"\x89PNG") and picture.description
    for title in ("Cock & Bull", "Hold Your Horses"):
        assert title in picture.description
    for member in ("Ana", "Leo", "Eve"):
        assert member in picture.description
    assert fields["Cock & Bull"].splitlines() == live

    # The frozen board, by number, even after a recompute; the current one is gone;
    # all-time is as ever.
    await answer(fake, ana, "recompute-ratings")
    frozen = await answer(fake, eve, "leaderboard", game="cock_and_bull", season="1")
    assert frozen.embeds[0]["description"].splitlines() == live
    assert (await answer(fake, eve, "leaderboard", game="cock_and_bull", season="9")).content == (
        words["no season"]
    )
    gone = await answer(fake, eve, "leaderboard", game="cock_and_bull", season="current")
    assert gone.ephemeral and gone.content == words["none running"]
    all_time = await answer(fake, eve, "leaderboard", game="cock_and_bull", season="all-time")
    assert words["title"] not in all_time.embeds[0]["title"]
    shown = await answer(fake, eve, "season", "show")
    assert shown.ephemeral and shown.embeds[0]["title"] == words["title"]
    assert {f["name"] for f in shown.embeds[0]["fields"]} == {"Cock & Bull", "Hold Your Horses"}
    # Season 1 by its number: each game's top 3 of the frozen table, then Eve's own place.
    by_number = await answer(fake, eve, "season", "show", number=1)
    fields = {f["name"]: f["value"].splitlines() for f in by_number.embeds[0]["fields"]}
    assert fields["Cock & Bull"][:3] == live
    place = next(n for n, line in enumerate(live, start=1) if f"<@{eve['id']}>" in line)
    assert fields["Cock & Bull"][3:] == [words["my place"].format(place=place)]
    history = await answer(fake, eve, "history", season=1)
    assert history.embeds[0]["description"].count("#") == 3
    replayed = await answer(fake, eve, "replay", id=1, season=1)
    assert replayed.ephemeral and replayed.embeds and replayed.attachments
    elsewhere = await answer(fake, eve, "replay", id=1, season=9)
    assert elsewhere.ephemeral and elsewhere.content == words["no season"]
    # One card, however often the clock looks again.
    await parlour.seasons.tick()
    assert len([m for m in fake.messages(started.channel_id) if is_card(m)]) == 1


async def sprint_played(
    fake: FakeDiscord, start_parlour: ParlourFactory, games: str, recur: str
) -> tuple[ParlourBot, JSON, FakeMessage]:
    """A bot with a week's season "Sprint" started by Ana (an admin) and one game of Cock &
    Bull played in it; the bot, Ana, and the season's start message."""
    bot = await start_parlour()
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    fake.grant(ana, discord.Permissions(manage_guild=True))
    start = {"name": "Sprint", "ends": "7d", "games": games, "recur": recur}
    started = await answer(fake, ana, "season", "start", **start)
    await play(fake, CB, [ana, leo])
    return bot, ana, started


async def test_a_season_due_while_the_bot_was_down_ends_once_at_the_next_start(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    parlour, _, started = await sprint_played(fake, start_parlour, "cock_and_bull", "weekly")
    await parlour.close()
    # While down, the season's end passes.
    storage = await open_storage(parlour.settings.database_url)
    past = time.time() - 60
    async with storage._transaction() as db:  # the end moved into the past
        await db.execute("UPDATE seasons SET ends_at = ?", past)
    await storage.close()
    second = await start_parlour()
    card = await fake.wait_for(lambda: fake.latest_message(started.channel_id, is_card))
    assert "Sprint (season 1)" in card.embeds[0]["title"]
    await second.seasons.tick()
    seasons = await second.service.storage.table_rows("seasons")
    assert sorted((s["number"], s["status"]) for s in seasons) == [(1, "ended"), (2, "running")]
    assert len([m for m in fake.messages(started.channel_id) if is_card(m)]) == 1
    following = await second.service.storage.running_season(fake.guild_id)
    assert following is not None and following.starts_at == past


async def killed(*_: object) -> None:
    """Where a process is killed: its season clock stops there, as with kill -9."""
    raise asyncio.CancelledError


@pytest.mark.parametrize("step", ["after the end", "after the claim", "after the post"])
async def test_a_kill_at_any_step_of_the_end_leaves_one_card_after_the_restart(
    fake: FakeDiscord, start_parlour: ParlourFactory, step: str
) -> None:
    first, ana, started = await sprint_played(fake, start_parlour, "all", "none")
    storage = first.service.storage
    if step == "after the end":
        first.seasons.announce = None  # the end committed, nothing more done
    elif step == "after the claim":
        first.seasons.announce = killed
    else:
        storage.card_posted = killed  # type: ignore[method-assign]
    question = await answer(fake, ana, "season", "end")
    await (await fake.click(ana, question, label="End it")).response()

    async def got_there() -> bool:
        (season,) = await storage.table_rows("seasons")
        if step == "after the end":
            return season["status"] == "ended"
        if step == "after the claim":
            return season["card_claimed_at"] is not None
        return fake.latest_message(started.channel_id, is_card) is not None

    await eventually(got_there)
    await first.close()
    second = await start_parlour()

    async def done() -> bool:
        (season,) = await second.service.storage.table_rows("seasons")
        return bool(season["card_done"])

    await eventually(done)
    cards = [m for m in fake.messages(started.channel_id) if is_card(m)]
    assert len(cards) == 1
    (season,) = await second.service.storage.table_rows("seasons")
    assert season["card_message_id"] == cards[0].id
    assert len(await second.service.storage.table_rows("season_finals")) == 2


async def test_a_move_in_a_season_costs_what_a_move_costs(
    fake: FakeDiscord, start_parlour: ParlourFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The work budgets of `tests/e2e/test_budgets.py`, with a season running: the season's
    ratings and points ride on the final move's one transaction."""
    bot = await start_parlour()
    await bot.storage.start_season(
        fake.guild_id,
        name="S",
        ends_at=time.time() + 86400,
        games=None,
        recur="none",
        channel_id=fake.channel_id,
        now=time.time(),
    )
    meter = Meter(fake, bot, monkeypatch)
    storm = Storm(fake, seed=7)
    table = await storm.open(Spec("cock_and_bull"), ("Ana", "Leo"))
    await eventually(meter._quiet)
    while not storm.finished(table):
        work = await meter.measure(lambda: storm.play_turn(table))
        assert work.transactions <= TRANSACTIONS and work.statements <= STATEMENTS, work
        assert work.requests["answer"] <= ANSWERS, work
        assert (
            work.requests["follow-up"] <= FOLLOW_UPS and work.requests["bot-token"] <= BOT_TOKEN
        ), work
    season = await bot.storage.running_season(fake.guild_id)
    assert season is not None
    assert len(await bot.storage.season_board(season, "cock_and_bull", 1)) == 2


async def test_the_card_goes_to_the_first_writable_channel_else_to_the_log(
    fake: FakeDiscord, start_parlour: ParlourFactory, caplog: pytest.LogCaptureFixture
) -> None:
    bot = await start_parlour()
    ana = fake.make_user("Ana")
    fake.grant(ana, discord.Permissions(manage_guild=True))
    other = fake.create_text_channel("games")
    for number in (1, 2):
        start = {"name": f"S{number}", "ends": "7d", "games": "all", "recur": "none"}
        await answer(fake, ana, "season", "start", **start)
        mute = discord.Permissions(fake.bot_permissions(fake.channel_id))
        mute.send_messages = False
        fake.set_bot_permissions(fake.channel_id, mute)
        if number == 2:
            fake.set_bot_permissions(other, mute)
        question = await answer(fake, ana, "season", "end")
        await (await fake.click(ana, question, label="End it")).response()

        async def done(number: int = number) -> bool:
            season = await bot.storage.season(fake.guild_id, number)
            return season is not None and season.card_done

        await eventually(done)
        restored = discord.Permissions(fake.bot_permissions(fake.channel_id))
        restored.send_messages = True
        fake.set_bot_permissions(fake.channel_id, restored)
    assert [m for m in fake.messages(fake.channel_id) if is_card(m)] == []
    (card,) = [m for m in fake.messages(other) if is_card(m)]
    assert card.embeds[0]["title"].startswith("S1 (season 1)")
    assert "season 2 of server" in caplog.text and "no channel to post its card in" in caplog.text


async def test_a_card_posted_twice_within_minutes_is_one_message(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    """A try at a card that could not look through its channel (no history to read) posts
    it with the season's own nonce: Discord answers with the card posted already."""
    bot, ana, started = await sprint_played(fake, start_parlour, "all", "none")
    question = await answer(fake, ana, "season", "end")
    await (await fake.click(ana, question, label="End it")).response()
    card = await fake.wait_for(lambda: fake.latest_message(started.channel_id, is_card))
    season = await bot.storage.season(fake.guild_id, 1)
    assert season is not None and bot.seasons.announce is not None
    assert await bot.seasons.announce(season, False) == card.id
    assert [m.id for m in fake.messages(started.channel_id) if is_card(m)] == [card.id]


async def test_season_end_racing_the_clock_ends_it_once_with_one_card(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    """The admin's "End it" and the clock's look at a season that has just fallen due, at
    the same time: one of them ends it; one card, one archive, one next season."""
    bot, ana, started = await sprint_played(fake, start_parlour, "all", "weekly")
    question = await answer(fake, ana, "season", "end")
    async with bot.storage._transaction() as db:  # the season's end comes meanwhile
        await db.execute("UPDATE seasons SET ends_at = ?", time.time() - 1)
    click, _ = await asyncio.gather(fake.click(ana, question, label="End it"), bot.seasons.tick())
    said = (await click.response()).message
    assert said is not None and said.content in (
        "Season 1 has ended: its card is on its way.",
        "Season 1 is not running: nothing was changed.",
    )

    async def posted() -> bool:
        season = await bot.storage.season(fake.guild_id, 1)
        return season is not None and season.card_done

    await eventually(posted)
    await bot.seasons.tick()
    assert len([m for m in fake.messages(started.channel_id) if is_card(m)]) == 1
    seasons = await bot.storage.table_rows("seasons")
    assert sorted((s["number"], s["status"]) for s in seasons) == [(1, "ended"), (2, "running")]
    assert len(await bot.storage.table_rows("season_finals")) == 2


async def test_a_card_whose_channel_is_gone_goes_to_the_first_writable_one(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    bot = await start_parlour()
    ana = fake.make_user("Ana")
    fake.grant(ana, discord.Permissions(manage_guild=True))
    doomed = fake.create_text_channel("doomed")
    start = {"name": "Brief", "ends": "7d", "games": "all", "recur": "none"}
    await (await fake.slash(ana, "season", "start", options=start, channel_id=doomed)).response()
    await fake.delete_channel(doomed)
    question = await answer(fake, ana, "season", "end")
    await (await fake.click(ana, question, label="End it")).response()
    card = await fake.wait_for(lambda: fake.latest_message(fake.channel_id, is_card))
    assert card.embeds[0]["title"].startswith("Brief (season 1)")
    season = await bot.storage.season(fake.guild_id, 1)
    assert season is not None and season.channel_id == doomed

    async def done() -> bool:
        season = await bot.storage.season(fake.guild_id, 1)
        return season is not None and season.card_message_id == card.id

    await eventually(done)
