"""Commands and panels in each member's language, through the fake Discord: the rules texts,
`/scoreboard`, `/stats`, `/leaderboard`, `/recompute-ratings`, `/history`, the replay viewer,
the "Resign or end…" panel and the rules' own refusals. Ana's Discord speaks Spanish (es-ES),
Leo's English (en-GB): each reads their private replies in their own language, while a
game's public notes speak the game's."""

from __future__ import annotations

import re
import string
from types import ModuleType

import discord

import cogs.cock_and_bull
import cogs.hold_your_horses
import cogs.horse_collar
import cogs.risk.words
import cogs.winners_circle
from bot.language.i18n import speaking, translations
from bot.language.speech import spoken
from tests.e2e.conftest import ParlourFactory
from tests.e2e.driver import (
    JSON,
    click_ok,
    move_number,
    newest_board,
    open_lobby,
    open_panel,
    play_one_move,
    play_to_the_end,
    player_to_act,
    start_game,
)
from tests.e2e.fake_discord import STRING_SELECT, FakeDiscord, FakeMessage, walk_components
from tests.e2e.test_spanish import _refusal, _spanish_table, es

RULES: dict[str, tuple[ModuleType, dict[str, int]]] = {
    "cock-and-bull": (cogs.cock_and_bull, {}),
    "hold-your-horses": (cogs.hold_your_horses, {}),
    "winners-circle": (
        cogs.winners_circle,
        {
            "races": cogs.winners_circle.RACES,
            "pace": cogs.winners_circle.PACE_BONUS,
            "last": cogs.winners_circle.LAST_PENALTY,
        },
    ),
    "horse-collar": (cogs.horse_collar, {}),
    "risk": (cogs.risk.words, {}),
}


def es_pattern(message: str, **values: str) -> re.Pattern[str]:
    """`message` as the Spanish catalog words it, its other fields any whole number (the
    first two captured)."""
    fields = [
        f for _, f, _, _ in string.Formatter().parse(translations("es").gettext(message)) if f
    ]
    marked = es(message, **{f: values.get(f, f"\x00{f}\x00") for f in fields})
    pattern = re.escape(marked)
    for n, field in enumerate(f for f in fields if f not in values):
        number = r"(\d+)" if n < 2 else r"\d+"
        pattern = pattern.replace(re.escape(f"\x00{field}\x00"), number)
    return re.compile(pattern)


def es_n(one: str, other: str, n: int, **values: object) -> str:
    """A plural message as the Spanish catalog words it for `n`."""
    text = translations("es").ngettext(one, other, n)
    assert text not in (one, other), f"{one!r} is not translated"
    return text.format(n=n, **values)


async def answer(fake: FakeDiscord, member: JSON, *command: str, **options: object) -> FakeMessage:
    message = (await (await fake.slash(member, *command, options=options)).response()).message
    assert message is not None
    return message


def labels(message: FakeMessage) -> list[str]:
    return [b["label"] for b in message.buttons]


async def test_the_rules_texts_speak_the_askers_language(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    await start_parlour()
    ana, leo = fake.make_user("Ana", locale="es-ES"), fake.make_user("Leo", locale="en-GB")
    for command, (cog, values) in RULES.items():
        spanish = (await answer(fake, ana, command, "rules")).embeds[0]
        english = (await answer(fake, leo, command, "rules")).embeds[0]
        paragraphs = [p.format(**values) for p in cog.RULES_SUMMARY]
        assert english["description"].startswith("\n".join(paragraphs) + "\n**House rules**")
        assert english["title"].endswith(" — the rules in short")
        assert spanish["title"] == es(
            "{game} — the rules in short",
            game=english["title"].removesuffix(" — the rules in short"),
        )
        spoken = [es(p, **values) for p in cog.RULES_SUMMARY]
        heading = es("**House rules** (options of `{command}`):", command=f"/{command} nueva")
        assert spanish["description"].startswith("\n".join([*spoken, heading]) + "\n")
        # The house rules: the option names as a Spanish member's Discord shows them.
        assert "\n• **" in spanish["description"]
        assert len(spanish["description"]) <= 4096
        if command == "risk":  # a choice's values as the command offers them, in Spanish
            deal, claim = es("deal (quick)"), es("claim (classic)")
            assert f"{deal} o {claim}" in spanish["description"]
            assert "deal (quick) or claim (classic)" in english["description"]


async def test_a_finished_games_standings_history_and_replay_in_each_language(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    parlour = await start_parlour()
    ana, leo = fake.make_user("Ana", locale="es-ES"), fake.make_user("Leo", locale="en-GB")
    board = await start_game(fake, leo, "cock-and-bull", bots=1, options={"point_limit": 3})
    await play_to_the_end(fake, [leo], board)
    (done,) = await parlour.service.storage.games(status="finished")
    game = {"game": "cock_and_bull"}

    # /scoreboard and /stats
    spanish = (await answer(fake, ana, "scoreboard", **game)).embeds[0]
    english = (await answer(fake, leo, "scoreboard", **game)).embeds[0]
    assert spanish["title"] == es("{game} — scoreboard", game="Cock & Bull")
    assert english["title"] == "Cock & Bull — scoreboard"
    assert re.search(r"\d+ V / \d+ D · ", spanish["description"])
    assert re.search(r"\d+ W / \d+ L · ", english["description"])
    spanish = (await answer(fake, ana, "stats", user=leo["id"])).embeds[0]
    english = (await answer(fake, leo, "stats", user=leo["id"])).embeds[0]
    assert spanish["title"] == es("{name} — record", name="Leo")
    assert spanish["fields"][0]["value"].startswith(es_n("{n} played", "{n} played", 1) + " · ")
    assert english["fields"][0]["value"].startswith("1 played · ")
    unranked = "Rating {rating} · ranked after {needed} rated games ({played} so far)"
    after = es(unranked, rating="@", needed=3, played=1).split("@", 1)[1]
    assert spanish["fields"][0]["value"].endswith(after)
    assert english["fields"][0]["value"].endswith(" · ranked after 3 rated games (1 so far)")

    # /leaderboard and /recompute-ratings (for server managers)
    spanish = (await answer(fake, ana, "leaderboard", **game)).embeds[0]
    english = (await answer(fake, leo, "leaderboard", **game)).embeds[0]
    assert spanish["title"] == es("{game} — leaderboard", game="Cock & Bull")
    assert spanish["description"] == es("Nobody has played {needed} rated games yet.", needed=3)
    assert english["description"] == "Nobody has played 3 rated games yet."
    waiting = "A player needs {needed} rated games to be ranked: {n} player not ranked yet"
    others = waiting.replace("{n} player not", "{n} players not")
    assert spanish["footer"]["text"].startswith(es_n(waiting, others, 2, needed=3) + ". ")
    assert english["footer"]["text"].startswith(
        "A player needs 3 rated games to be ranked: 2 players not ranked yet. "
    )
    fake.grant(ana, discord.Permissions(manage_guild=True))
    recomputed = await answer(fake, ana, "recompute-ratings")
    one = "Ratings recomputed from {n} finished game."
    many = "Ratings recomputed from {n} finished games."
    assert recomputed.ephemeral and recomputed.content == es_n(one, many, 1)

    # /history
    spanish = await answer(fake, ana, "history")
    english = await answer(fake, leo, "history")
    assert spanish.ephemeral and spanish.embeds[0]["title"] == es("Finished games")
    assert spanish.embeds[0]["footer"]["text"] == es("Page {page}", page=1)
    assert labels(spanish) == [es("Newer"), es("Older")]
    # The option is `id` to Discord and "partida" to a Spanish member.
    assert f"`/repeticion partida:{done.id}`" in spanish.embeds[0]["description"]
    assert english.embeds[0]["title"] == "Finished games" and labels(english) == ["Newer", "Older"]
    assert f"`/replay id:{done.id}`" in english.embeds[0]["description"]

    # /replay: the viewer, its moves and its buttons in the viewer's language
    mine = await answer(fake, ana, "replay", id=done.id)
    theirs = await answer(fake, leo, "replay", id=done.id)
    assert mine.embeds[0]["title"] == es("Replay · {game} #{id}", game="Cock & Bull", id=done.id)
    assert theirs.embeds[0]["title"] == f"Replay · Cock & Bull #{done.id}"
    footer = es_pattern(
        "Move {step} of {last} · {chapter} {number} of {chapters}",
        chapter=translations("es").pgettext("chapter", "chapter"),
    )
    assert footer.fullmatch(mine.embeds[0]["footer"]["text"])
    assert theirs.embeds[0]["footer"]["text"].startswith("Move 0 of ")
    assert mine.embeds[0]["description"].startswith("▶ **" + es("The start.") + "**")
    # The frame's alt text speaks the viewer's language too (" · " read as a comma).
    (frame,) = mine.attachments
    # and the game's number as a screen reader should hear it ("partida 7", not "#7").
    with speaking("es"):
        heading = spoken(mine.embeds[0]["title"] + ", " + es("Move {step}", step=0) + ". ")
    assert (frame.description or "").startswith(heading)
    (frame,) = theirs.attachments
    assert (frame.description or "").startswith(f"Replay, Cock and Bull, game {done.id}, Move 0. ")
    assert labels(mine) == [
        es("First"),
        es("Back"),
        es("Next"),
        translations("es").pgettext("move", "Last"),
        "Capítulo anterior",
        "Capítulo siguiente",
        es("Animated summary"),
    ]
    assert labels(theirs)[4:6] == ["Chapter back", "Next chapter"]
    await (await fake.click(ana, mine, label=es("Next"))).response()
    await (await fake.click(leo, theirs, label="Next")).response()
    shown = footer.fullmatch(mine.embeds[0]["footer"]["text"])
    assert shown is not None and shown[1] == "1"  # the move: the first field
    assert "`1.`" not in mine.embeds[0]["description"]  # the current move is marked
    assert es("Roll one die") in mine.embeds[0]["description"]
    assert "Roll one die" in theirs.embeds[0]["description"]
    # The animated summary's alt text, in Spanish for a Spanish member.
    rec = await fake.click(ana, mine, label=es("Animated summary"))
    sent = await fake.wait_for(lambda: rec.followups[-1] if rec.followups else None, 30)
    (animation,) = sent.attachments
    summary = "{game} #{id}: an animated summary, one frame per {chapter} ({frames})."
    said = es(summary, game="Cock & Bull", id=done.id, chapter="@", frames="@").split("@")[0]
    assert said != summary.split("{chapter}")[0]
    assert (animation.description or "").startswith(said)


async def test_the_table_menu_speaks_the_clickers_language_and_its_notes_the_games(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    await start_parlour()
    board, ana, leo, _mia = await _spanish_table(fake, "cock-and-bull")
    menu = es("Resign or end…")
    assert menu in labels(board)
    # Leo's panel is English; Ana's (the host's) Spanish, with the host's choices.
    theirs = await open_panel(fake, leo, board, menu)
    assert theirs.content == "Votes to end: 0/2."
    assert labels(theirs) == ["Resign…", "Vote to end (0/2)"]
    mine = await open_panel(fake, ana, board, menu)
    assert mine.content == es("Votes to end: {votes}.", votes="0/2")
    assert labels(mine) == [
        es("Resign…"),
        es("Vote to end ({votes})", votes="0/2"),
        es("End game…"),
    ]
    menus = [m for m in walk_components(mine.components) if m["type"] == STRING_SELECT]
    assert [m["placeholder"] for m in menus] == [es("Hand a seat to the AI…")]
    voted = await (await fake.click(leo, theirs, label="Vote to end (0/2)")).response()
    assert voted.message is not None and voted.message.content == "You voted to end the game (1/2)."
    asked = await (await fake.click(ana, mine, label=es("End game…"))).response()
    assert asked.message is not None and asked.message.content == es(
        "End this game for everyone? Nobody wins and the scoreboard does not change."
    )
    assert labels(asked.message) == [es("End game"), es("Keep playing")]
    ended = await (await fake.click(ana, asked.message, label=es("End game"))).response()
    assert ended.message is not None and ended.message.content == es("You ended the game.")
    # The note everyone reads is in the game's language (Ana's: she hosts).
    note = "⏹ " + es("Ended by {player}.", player=f"<@{ana['id']}>")
    assert await fake.wait_for(
        lambda: fake.latest_message(board.channel_id, lambda m: m.content == note)
    )


async def test_a_rules_refusal_speaks_the_clickers_language(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    """Hold Your Horses: whoever is not to roll and clicks Roll is told so by the rules
    (`IllegalAction`), in their own language; nothing moves."""
    await start_parlour()
    board, ana, leo, _mia = await _spanish_table(fake, "hold-your-horses", {"races": 1})
    roll = es("Roll for a scratch")
    told: dict[str, str] = {}
    for _ in range(12):
        actor = player_to_act(board, [ana, leo])
        assert actor is not None
        other = leo if actor is ana else ana
        step = move_number(board)
        told[other["username"]] = await _refusal(fake, other, board, roll)
        assert move_number(newest_board(fake, board)) == step
        if len(told) == 2:
            break
        board = await play_one_move(fake, [ana, leo], board, choices=[roll])
    assert told == {"Ana": es("It is not your roll."), "Leo": "It is not your roll."}


async def test_a_lobby_refusal_from_the_rules_is_spanish(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    """Options no table of the lobby can play: refused by the rules, in the host's words."""
    await start_parlour()
    ana, leo = fake.make_user("Ana", locale="es-ES"), fake.make_user("Leo", locale="en-GB")
    lobby = await open_lobby(fake, ana, "risk", {"missions": 12})
    await click_ok(fake, leo, lobby, es("Join"))
    rec = await fake.click(ana, lobby, label=es("Start"))
    refused = await fake.wait_for(lambda: rec.followups[-1] if rec.followups else None)
    assert refused.ephemeral
    assert es("Secret Mission Risk is for 3 to 6 players.") in refused.content
