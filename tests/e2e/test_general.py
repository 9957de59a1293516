"""The commands every game shares: `/help` lists each game, and each game's commands exist;
it mentions them by the ids Discord gave them, so each member sees their own language's
names."""

from __future__ import annotations

from rules.registry import ENGINES
from tests.e2e.conftest import ParlourFactory
from tests.e2e.fake_discord import FakeDiscord


async def test_help_lists_every_game_with_its_synced_commands(
    fake: FakeDiscord, start_parlour: ParlourFactory
) -> None:
    await start_parlour()
    synced = await fake.wait_for(lambda: {c["name"]: c for c in fake.commands()} or None)
    eve = fake.make_user("Eve")
    rec = await fake.slash(eve, "help")
    reply = (await rec.response()).message
    assert reply is not None and reply.ephemeral
    text = reply.embeds[0]["description"]

    for game in ENGINES:
        group = game.replace("_", "-")
        command_id = synced[group]["id"]
        assert f"</{group} new:{command_id}>" in text and f"</{group} rules:{command_id}>" in text
        subcommands = {option["name"] for option in synced[group]["options"]}
        assert {"new", "rules"} <= subcommands
