"""Parlour in Spanish through the fake Discord: the synced commands carry Spanish names
Discord accepts; a game speaks its host's language (or the server's), while each member's
private replies speak their own."""

from __future__ import annotations

from typing import Any

import discord

from bot.language.command_translator import NAME
from bot.language.i18n import translations
from rules.risk.map import TERRITORIES
from tests.e2e.conftest import ParlourFactory
from tests.e2e.driver import (
    JSON,
    choose,
    choose_ok,
    click_ok,
    is_board,
    move_number,
    offered,
    open_lobby,
    prompt,
)
from tests.e2e.fake_discord import STRING_SELECT, FakeDiscord, FakeMessage, walk_components

GAME = "cock-and-bull"


def _names(command: dict[str, object]) -> list[dict[str, str]]:
    """The name localizations of a command and of all its options, recursively."""
    found = [command.get("name_localizations") or {}]
    for option in command.get("options") or []:  # type: ignore[attr-defined]
        found += _names(option)
    return found  # type: ignore[return-value]


async def test_synced_commands_carry_spanish_names_discord_accepts(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    await start_parlour()
    synced = await fake.wait_for(lambda: fake.commands() or None)
    by_name = {c["name"]: c for c in synced}
    assert by_name["help"]["name_localizations"]["es-ES"] == "ayuda"
    assert by_name["help"]["description_localizations"]["es-419"] == "Cómo usar Parlour."
    new = next(o for o in by_name[GAME]["options"] if o["name"] == "new")
    assert new["name_localizations"] == {"es-ES": "nueva", "es-419": "nueva"}
    assert by_name["leaderboard"]["name_localizations"]["es-ES"] == "ranking"
    for command in synced:
        for localized in _names(command):
            for name in localized.values():
                assert name == name.lower() and NAME.match(name), name


async def test_a_game_speaks_its_hosts_language_and_replies_speak_the_clickers(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    await start_parlour()
    ana, leo = fake.make_user("Ana", locale="es-ES"), fake.make_user("Leo", locale="en-GB")
    lobby = await open_lobby(fake, ana, GAME)
    assert {"Unirse", "Salir", "Añadir bot", "Empezar", "Cancelar"} <= set(offered(lobby))
    embed = lobby.embeds[0]
    assert "Anfitrión" in embed["description"]
    assert [f["name"] for f in embed["fields"]][1] == "Reglas de la casa"
    assert "Tiempo de turno: desactivado" in embed["fields"][1]["value"]
    # Leo (English) may not start Ana's game: told so in English; Ana hears Spanish.
    refused = await (await fake.click(leo, lobby, label="Empezar")).response()
    assert refused.message is not None and refused.message.content.startswith("Only the host")
    help_es = await (await fake.slash(ana, "help")).response()
    assert help_es.message is not None
    assert help_es.message.embeds[0]["title"] == "Parlour — juegos de mesa en el chat"
    help_en = await (await fake.slash(leo, "help")).response()
    assert help_en.message is not None
    assert help_en.message.embeds[0]["title"] == "Parlour — tabletop games in chat"


async def test_the_servers_language_outranks_the_hosts(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    await start_parlour()
    admin = fake.make_user("Mia", locale="en-US")
    fake.grant(admin, discord.Permissions(manage_guild=True))
    done = await (
        await fake.slash(admin, "settings", "language", options={"language": "es"})
    ).response()
    assert done.message is not None and "in Spanish" in done.message.content
    lobby = await open_lobby(fake, admin, GAME)
    assert "Unirse" in offered(lobby)
    await (await fake.slash(admin, "settings", "language", options={"language": "host"})).response()
    lobby = await open_lobby(fake, admin, GAME)
    assert "Join" in offered(lobby)


def es(message: str, **values: Any) -> str:
    """`message` as the Spanish catalog words it (formatted with `values`, if any)."""
    text = translations("es").gettext(message)
    assert text != message, f"{message!r} is not translated"
    return text.format(**values) if values else text


async def _spanish_table(
    fake: FakeDiscord,
    game: str,
    options: dict[str, Any] | None = None,
    bots: int = 0,
    join: str = "Join",
) -> tuple[FakeMessage, JSON, JSON, JSON]:
    """A game hosted by Ana (es-ES) with Leo (en-GB) and `bots`; its first board, Ana, Leo,
    and Mia (en-US), who is not playing."""
    ana, leo = fake.make_user("Ana", locale="es-ES"), fake.make_user("Leo", locale="en-GB")
    mia = fake.make_user("Mia", locale="en-US")
    lobby = await open_lobby(fake, ana, game, options)
    await click_ok(fake, leo, lobby, join if join != "Join" else es("Join"))
    for _ in range(bots):
        await click_ok(fake, ana, lobby, es("Add bot"))
    before = {int(t["id"]) for t in fake.threads}
    await click_ok(fake, ana, lobby, es("Start"))

    def new_board() -> FakeMessage | None:
        for thread in fake.threads:
            if int(thread["id"]) not in before:
                return fake.latest_message(int(thread["id"]), is_board)
        return None

    return await fake.wait_for(new_board), ana, leo, mia


async def _refusal(fake: FakeDiscord, user: JSON, board: FakeMessage, label: str) -> str:
    answer = await (await fake.click(user, board, label=label)).response()
    assert answer.message is not None and answer.message.ephemeral
    return answer.message.content


async def test_cock_and_bull_first_turn_in_spanish_reads_for_the_one_left_to_roll(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    """Once one player has rolled for the first turn, the board names the one left, with no
    "cada uno" ("Leo: cada uno tira un dado" read wrong at every game's start)."""
    await start_parlour()
    board, ana, _leo, _mia = await _spanish_table(fake, GAME)
    first = "Tirada de un dado por el primer turno: {players}"
    assert prompt(board) == first.format(players="Ana y Leo")
    step = move_number(board)
    await click_ok(fake, ana, board, es("Roll one die"))
    await fake.wait_for(lambda: move_number(board) > step or None)
    assert prompt(board) == first.format(players="Leo")


async def test_hold_your_horses_in_spanish(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    await start_parlour()
    board, ana, leo, mia = await _spanish_table(fake, "hold-your-horses", {"races": 1})
    roll = es("Roll for a scratch")
    assert offered(board) == [roll, es("My cards"), es("Text board"), es("Resign or end…")]
    race = es("Race {race} of {races}", race=1, races=1)
    line = "{race}, scratches ({done} of {scratches} done): {player} to roll"
    assert prompt(board) in {
        es(line, race=race, done=0, scratches=4, player=f"<@{user['id']}>") for user in (ana, leo)
    }
    # Mia (English) is not playing: told so in English.
    assert await _refusal(fake, mia, board, roll) == "You are not playing in this game."
    # Each hand is worded in its holder's language.
    assert (await _refusal(fake, ana, board, es("My cards"))).startswith(
        es("**Your cards, race {race}:** {hand}", race=1, hand="")
    )
    assert (await _refusal(fake, leo, board, es("My cards"))).startswith("**Your cards, race 1:**")


async def test_winners_circle_in_spanish(fake: FakeDiscord, start_parlour: ParlourFactory) -> None:
    await start_parlour()
    board, ana, leo, mia = await _spanish_table(fake, "winners-circle")
    race = es("Race {race} of {races}", race=1, races=3)
    line = "{race}, bets (round {round} of {rounds}): {player} to bet{where}"
    assert prompt(board) in {
        es(line, race=race, round=1, rounds=3, player=f"<@{user['id']}>", where="")
        for user in (ana, leo)
    }
    bet = "Horse {number} ({colour}) — chip {chip}{bluff}"
    red = translations("es").pgettext("horse colour", "red")
    bet = es(bet, number=1, colour=red, chip=1, bluff="")
    assert bet in offered(board)
    assert [b["label"] for b in board.buttons] == [
        es("My chips"),
        es("Text board"),
        es("Resign or end…"),
    ]
    menus = [m for m in walk_components(board.components) if m["type"] == STRING_SELECT]
    assert {m["placeholder"] for m in menus} == {es("Bet: horse · chip")}
    answer = await (await choose(fake, mia, board, bet)).response()
    assert answer.message is not None and answer.message.ephemeral
    assert answer.message.content == "You are not playing in this game."
    title = es("**Race {race} of {races} — your chips**", race=1, races=3)
    assert (await _refusal(fake, ana, board, es("My chips"))).startswith(title)
    assert (await _refusal(fake, leo, board, es("My chips"))).startswith(
        "**Race 1 of 3 — your chips**"
    )


async def test_horse_collar_in_spanish(fake: FakeDiscord, start_parlour: ParlourFactory) -> None:
    await start_parlour()
    blue = es("Join {side}", side=es("Blue"))
    options = {"frames": 1, "target": 11}
    board, ana, leo, mia = await _spanish_table(fake, "horse-collar", options, join=blue)
    line = "Frame {frame}{tie}, {side}{hammer}: {player} to shoot {weight} ({shot} of {shots})"
    assert prompt(board) in {
        es(
            line,
            frame=1,
            tie="",
            side=es(side),
            hammer=hammer,
            player=f"<@{user['id']}>",
            weight=translations("es").pgettext("weight", "R{number}").format(number=1),
            shot=1,
            shots=8,
        )
        for side, user in (("Red", ana), ("Blue", leo))
        for hammer in ("", es(" (hammer)"))
    }
    menus = [m for m in walk_components(board.components) if m["type"] == STRING_SELECT]
    placeholders = ("Where to release", "Angle", "Shoot: how far? (picking a distance shoots)")
    assert {m["placeholder"] for m in menus} == {es(p) for p in placeholders}
    labels = offered(board)
    assert {es("Centre"), es("Straight"), es("Just past the foul line")} <= set(labels)
    assert es("Resign or end…") in labels
    answer = await (await choose(fake, mia, board, es("Straight"))).response()
    assert answer.message is not None and answer.message.ephemeral
    assert answer.message.content == "You are not playing in this game."


async def test_risk_in_spanish(fake: FakeDiscord, start_parlour: ParlourFactory) -> None:
    await start_parlour()
    board, ana, leo, mia = await _spanish_table(fake, "risk", {"turn_limit": 1})
    assert prompt(board) in {
        f"<@{user['id']}>: " + es("place set-up armies ({left} left)", left=left)
        for user in (ana, leo)
        for left in range(1, 41)
    }
    panel = es("My cards & mission")
    assert [b["label"] for b in board.buttons] == [
        es("Auto"),
        panel,
        es("Text board"),
        es("Zoom"),
        es("Resign or end…"),
    ]
    menus = [m for m in walk_components(board.components) if m["type"] == STRING_SELECT]
    assert {m["placeholder"] for m in menus} == {es("Place armies on…")}
    names = {translations("es").gettext(t.name) for t in TERRITORIES.values()}  # "Perú"
    options = [o["label"] for m in menus for o in m["options"]]
    assert options and all(label.rsplit(" (", 1)[0] in names for label in options)
    assert await _refusal(fake, mia, board, es("Auto")) == "You are not playing in this game."
    cards = es("**Your cards ({count}):**", count=0)
    assert (await _refusal(fake, ana, board, panel)).startswith(cards)
    assert (await _refusal(fake, leo, board, panel)).startswith("**Your cards (0):**")
    # Choosing a territory offers numbers to place, worded as placing armies (the same English
    # "Place" is a finishing place in Winner's Circle: "Segundo" there).
    who = ana if str(ana["id"]) in prompt(board) else leo
    await choose_ok(fake, who, board, options[0])
    place = translations("es").pgettext("armies", "Place") + " "

    def numbers() -> list[str] | None:
        shown = fake.latest_message(board.channel_id, is_board)
        labels = [] if shown is None else [str(b.get("label")) for b in shown.buttons]
        return [label for label in labels if label.startswith(place)] or None

    assert place == "Colocar " and await fake.wait_for(numbers)
