"""Values the bot did not offer, through `python -m bot`. Slash command values as a client
with an older definition of the command (after an upgrade, before the new commands reach
it) or a custom client sends them: Discord's own checks run in the member's client only, so
the bot holds every value to what the command offers, refuses the rest privately naming
what is allowed, and saves nothing. And a number box's text: decimal digits only."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.storage import Storage, open_storage
from rules.risk import ENGINE as RISK
from rules.risk.state import Phase
from tests.e2e.conftest import Launcher
from tests.e2e.driver import move_number, newest_board, start_game
from tests.e2e.fake_discord import BUTTON, JSON, FakeDiscord, FakeMessage
from tests.e2e.process import connected, process_env
from tests.rules.risk.scenario import position

GAME = "cock-and-bull"
TIMERS = "off, 2 minutes, 10 minutes, 1 hour or 24 hours"
GAMES = "Cock & Bull, Hold Your Horses, Horse Collar, Winner's Circle or Risk"


@pytest.fixture
async def storage(fake: FakeDiscord, launch: Launcher, tmp_path: Path) -> AsyncIterator[Storage]:
    """`python -m bot` running against the fake, and its database read beside it."""
    database = tmp_path / "parlour.sqlite3"
    bot = await launch(tmp_path, process_env(fake, database), forked=True)
    await connected(fake, bot, 1)
    reader = await open_storage(f"sqlite:///{database}", inspect=True)
    yield reader
    await reader.close()
    bot.assert_clean()


def shown(value: int | str) -> str:
    """A refused value as its refusal shows it: as the bot read it, cut at 20 characters.
    discord.py reads the gateway's JSON with orjson, which reads a whole number beyond 64 bits
    as a float (Discord sends none beyond 2^53)."""
    read = str(float(value) if isinstance(value, int) and value >= 2**64 else value)
    return read[:20] + ("…" if len(read) > 20 else "")


async def refusal(
    fake: FakeDiscord, user: JSON, command: str, sub: str | None, options: dict[str, Any]
) -> str:
    """The private answer to a slash command sent with `options` as they are."""
    rec = await fake.slash(user, command, sub, options=options, checked=False)
    answer = (await rec.response()).message
    assert answer is not None and answer.ephemeral, f"/{command} {sub} {options}: no refusal"
    return answer.content


async def test_a_new_game_with_values_not_offered_is_refused_and_opens_nothing(
    fake: FakeDiscord, storage: Storage
) -> None:
    ana = fake.make_user("Ana")
    for timer in (1, 2**70, -600, "600"):
        assert await refusal(fake, ana, GAME, "new", {"turn_timer": timer}) == (
            f"**turn_timer** can't be `{shown(timer)}`: it takes {TIMERS}."
        )
    # The house rules: a number out of its range, a choice not offered, a flag as a number.
    assert await refusal(fake, ana, GAME, "new", {"point_limit": 501}) == (
        "**point_limit** can't be `501`: it takes a whole number from 0 to 500."
    )
    assert await refusal(fake, ana, GAME, "new", {"best_of": 7}) == (
        "**best_of** can't be `7`: it takes best of 1, best of 3 or best of 5."
    )
    assert await refusal(fake, ana, GAME, "new", {"optional_points": 1}) == (
        "**optional_points** can't be `1`: it takes true or false."
    )
    # In the member's language: the option as their Discord names it, the choices as shown.
    mia = fake.make_user("Mia", locale="es-ES")
    assert await refusal(fake, mia, GAME, "new", {"turn_timer": 1}) == (
        "**tiempo_de_turno** no puede ser `1`: admite desactivado, 2 minutos, 10 minutos, "
        "1 hora o 24 horas."
    )
    assert fake.public_messages() == []  # no lobby
    assert await storage.games(status="lobby") == []
    # What is offered still opens the lobby.
    rec = await fake.slash(ana, GAME, "new", options={"turn_timer": 600, "point_limit": 500})
    lobby = (await rec.response()).message
    assert lobby is not None and not lobby.ephemeral
    (row,) = await storage.games(status="lobby")
    assert row.options["turn_timer"] == 600


async def test_server_settings_not_offered_are_refused_and_not_saved(
    fake: FakeDiscord, storage: Storage
) -> None:
    admin = fake.make_user("Admin")
    (guild,) = fake.guild_ids
    for timer in (10**18, 2**70, 7):
        assert await refusal(fake, admin, "settings", "turn-timer", {"timer": timer}) == (
            f"**timer** can't be `{shown(timer)}`: it takes {TIMERS}."
        )
    assert await refusal(fake, admin, "settings", "language", {"language": "xx"}) == (
        "**language** can't be `xx`: it takes the host's language, English or Español."
    )
    assert await storage.guild_turn_timer(guild) == 0
    assert await storage.guild_language(guild) is None
    # A later game is as the server's settings were: no timer, the host's language.
    rec = await fake.slash(admin, GAME, "new")
    assert (await rec.response()).message is not None
    (row,) = await storage.games(status="lobby")
    assert (row.options["turn_timer"], row.options["language"]) == (0, "en")


@pytest.mark.usefixtures("storage")
async def test_history_of_a_game_not_offered_is_refused(fake: FakeDiscord) -> None:
    eve = fake.make_user("Eve")
    assert await refusal(fake, eve, "history", None, {"game": "chess"}) == (
        f"**game** can't be `chess`: it takes {GAMES}."
    )
    assert await refusal(fake, eve, "history", None, {"game": "x" * 6000}) == (
        f"**game** can't be `{'x' * 20}…`: it takes {GAMES}."
    )
    # `/scoreboard` and `/leaderboard` answer the same way.
    for command in ("scoreboard", "leaderboard"):
        assert await refusal(fake, eve, command, None, {"game": "chess"}) == (
            f"**game** can't be `chess`: it takes {GAMES}."
        )


async def click_old_list(
    fake: FakeDiscord, user: JSON, custom_id: str
) -> tuple[FakeMessage, FakeMessage | None]:
    """`user` clicks "Older" on a `/history` list posted earlier with the button `custom_id`
    (forged, or of an older version): the list, and the bot's answer."""
    button = {"type": BUTTON, "style": 2, "label": "Older", "custom_id": custom_id}
    old = await fake.post_as_bot(
        fake.channel_id, content="A list", components=[{"type": 1, "components": [button]}]
    )
    return old, (await (await fake.click(user, old, label="Older")).response()).message


@pytest.mark.usefixtures("storage")
async def test_a_history_button_of_a_game_not_offered_lists_none(fake: FakeDiscord) -> None:
    """A `/history` page button naming a game this version does not offer (forged, or of a
    game since withdrawn) turns the page like any other: there are no such games."""
    eve = fake.make_user("Eve")
    _old, page = await click_old_list(fake, eve, f"hp1:{eve['id']}:0:chess:-:on")
    assert page is not None
    assert page.embeds[0]["title"] == "Finished games of chess"
    assert page.embeds[0]["description"] == "No finished games yet."


@pytest.mark.usefixtures("storage")
async def test_a_history_button_with_a_page_or_member_out_of_range_is_refused(
    fake: FakeDiscord,
) -> None:
    """A forged `/history` button whose page or member number no list could reach (10^30,
    past what a database takes) is refused privately, naming `/history`; the list it was
    clicked on stays as it was."""
    eve = fake.make_user("Eve")
    for page, user in ((10**30, "-"), (2**63, "-"), (0, str(10**30))):
        old, answer = await click_old_list(fake, eve, f"hp1:{eve['id']}:{page}:-:{user}:on")
        assert answer is not None and answer.ephemeral, (page, user)
        assert answer.content == (
            "That page of the list does not exist: use `/history` for a new list."
        )
        assert old.content == "A list" and old.embeds == []


async def test_a_number_box_takes_decimal_digits_of_any_script_and_nothing_else(
    fake: FakeDiscord, launch: Launcher, tmp_path: Path
) -> None:
    """`²` and `①` are digits to Python's `isdigit` but no number: refused as words are.
    Decimal digits of any script are the number they write."""
    database = tmp_path / "parlour.sqlite3"
    first = await launch(tmp_path, process_env(fake, database), forked=True)
    await connected(fake, first, 1)
    ana, leo = fake.make_user("Ana"), fake.make_user("Leo")
    board = await start_game(fake, ana, "risk", joiners=[leo])
    await first.kill()
    # The game saved at a position with more numbers than a menu holds: 60 armies in Ukraine,
    # fortifying Ural (a box for 1 to 59).
    storage = await open_storage(f"sqlite:///{database}")
    try:
        (row,) = await storage.games(status="active")
        state = RISK.load(row.state or {})
        mover = state.players[0]
        state = replace(
            position(
                {"ukraine": (mover, 60), "ural": (mover, 1)},
                players=state.players,
                rest=state.players[1],
                phase=Phase.FORTIFY,
                source="ukraine",
                target="ural",
            ),
            rules=state.rules,
        )
        async with storage._transaction() as db:
            await db.execute(
                "UPDATE games SET state = ?, shown_step = -1 WHERE id = ?",
                json.dumps(RISK.dump(state)),
                row.id,
            )
    finally:
        await storage.close()
    second = await launch(tmp_path, process_env(fake, database), forked=True)
    await connected(fake, second, 2)
    board = await fake.wait_for(lambda: (b := newest_board(fake, board)) and _typed(b) and b)
    user = ana if int(ana["id"]) == mover else leo

    async def typed(text: str) -> str | None:
        opened = await fake.click(user, board, label="Type a number…")
        await opened.response()
        answer = (await (await fake.submit_modal(user, opened, {"n": text})).response()).message
        return answer.content if answer is not None and answer.ephemeral else None

    for text in ("²", "①", "4²"):
        assert await typed(text) == f"“{text}” is not a number: type digits only, e.g. 12."
    # Past Discord's 4,000 characters a box holds, as a forged box sends: past `int`'s too.
    assert await typed("9" * 5000) == (
        f"“{'9' * 20}…” is longer than any box takes: type a number from the box's range."
    )
    step = move_number(board)
    assert await typed("٤٢") is None  # Arabic-Indic 42: no refusal, the board moves on
    await fake.wait_for(lambda: move_number(newest_board(fake, board)) > step or None)
    reader = await open_storage(f"sqlite:///{database}", inspect=True)
    try:
        (row,) = await reader.games(status="active")
        moved = RISK.load(row.state or {})
    finally:
        await reader.close()
    assert (moved.armies_on("ukraine"), moved.armies_on("ural")) == (18, 43)
    second.assert_clean()


def _typed(board: FakeMessage) -> bool:
    return "Type a number…" in [b.get("label") for b in board.buttons]
