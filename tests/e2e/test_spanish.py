"""Parlour in Spanish through the fake Discord: the synced commands carry Spanish names
Discord accepts; a game speaks its host's language (or the server's), while each member's
private replies speak their own."""

from __future__ import annotations

from bot.command_translator import NAME
from tests.e2e.conftest import ParlourFactory
from tests.e2e.driver import offered, open_lobby
from tests.e2e.fake_discord import FakeDiscord

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
    done = await (
        await fake.slash(admin, "settings", "language", options={"language": "es"})
    ).response()
    assert done.message is not None and "in Spanish" in done.message.content
    lobby = await open_lobby(fake, admin, GAME)
    assert "Unirse" in offered(lobby)
    await (await fake.slash(admin, "settings", "language", options={"language": "host"})).response()
    lobby = await open_lobby(fake, admin, GAME)
    assert "Join" in offered(lobby)
