"""House rules declared once: the synced `/<game> new` commands offer exactly the declared
options (with their ranges, choices, defaults and descriptions) plus the turn timer, the
lobby lists each one, and `/<game> rules` names them all."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.options import TURN_TIMER, TURN_TIMER_CHOICES, TURN_TIMER_HELP
from rules.options import Kind, Option, OptionSet
from rules.registry import ENGINES
from tests.e2e.conftest import ParlourFactory
from tests.e2e.driver import eventually, open_lobby
from tests.e2e.fake_discord import FakeDiscord

# By command group: every game that declares its house rules.
DECLARED: dict[str, OptionSet] = {
    game.replace("_", "-"): engine.options for game, engine in ENGINES.items()
}
# How the project reads rules the sources leave unclear, stated where players read the rules.
READINGS = {
    "winners-circle": "Those spaces count: a horse runs one full lap from where it starts",
    "hold-your-horses": "the same player rolls again, **free** — with escalating scratches too",
    "risk": "a set-up turn puts any number of your armies on one territory, in the claim set-up",
}
BOOLEAN, INTEGER, STRING = 5, 4, 3  # Discord's application command option types
EMBED_DESCRIPTION = 4096  # characters, Discord's limit


SHAPE = ("name", "description", "required", "type", "choices", "min_value", "max_value")


def shape(synced: dict[str, Any]) -> dict[str, Any]:
    """What an option offers in English (an absent key as None; the choices' Spanish
    names, `name_localizations`, are tested in test_spanish.py)."""
    offered = {key: synced.get(key) for key in SHAPE}
    if offered["choices"]:
        offered["choices"] = [{"name": c["name"], "value": c["value"]} for c in offered["choices"]]
    return offered


def expected(option: Option) -> dict[str, Any]:
    """The synced form of a declared option."""
    offered = dict.fromkeys(SHAPE) | {
        "name": option.name,
        "description": option.description,
        "required": False,
    }
    if option.kind is Kind.FLAG:
        return offered | {"type": BOOLEAN}
    if option.kind is Kind.NUMBER:
        return offered | {"type": INTEGER, "min_value": option.low, "max_value": option.high}
    choices = [{"name": c.label, "value": c.value} for c in option.choices]
    kind = INTEGER if isinstance(option.default, int) else STRING
    return offered | {"type": kind, "choices": choices}


def turn_timer() -> dict[str, Any]:
    return dict.fromkeys(SHAPE) | {
        "name": TURN_TIMER,
        "description": TURN_TIMER_HELP,
        "required": False,
        "type": INTEGER,
        "choices": [{"name": c.name, "value": c.value} for c in TURN_TIMER_CHOICES],
    }


async def test_every_new_command_offers_exactly_its_declared_options(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    await start_parlour()
    synced = await fake.wait_for(lambda: {c["name"]: c for c in fake.commands()} or None)
    for group, declared in DECLARED.items():
        (new,) = [c for c in synced[group]["options"] if c["name"] == "new"]
        offered = [shape(option) for option in new["options"]]
        assert offered == [*(expected(o) for o in declared), turn_timer()], group


@pytest.mark.parametrize("group", DECLARED)
async def test_the_lobby_and_the_rules_name_every_house_rule(
    fake: FakeDiscord, start_parlour: ParlourFactory, group: str
) -> None:
    bot = await start_parlour()
    ana = fake.make_user("Ana")
    declared = DECLARED[group]
    lobby = await open_lobby(fake, ana, group)
    game_id = int(lobby.embeds[0]["title"].split("#")[-1])

    async def lobby_saved() -> bool:  # the command's last step, after its reply
        return (await bot.service.table(game_id)).row.lobby_message_id == lobby.id

    await eventually(lobby_saved)
    fields = {f["name"]: f["value"] for f in lobby.embeds[0]["fields"]}
    lines = fields["House rules"].splitlines()
    titles = [line.split(": ")[0] for line in lines]
    assert titles == [*(o.title for o in declared), "Turn timer"]

    reply = (await (await fake.slash(ana, group, "rules")).response()).message
    assert reply is not None and reply.ephemeral
    text = reply.embeds[0]["description"]
    assert len(text) <= EMBED_DESCRIPTION
    assert f"options of `/{group} new`" in text
    for option in declared:
        assert f"**{option.name}** — {option.description}" in text
    assert READINGS.get(group, "") in text
