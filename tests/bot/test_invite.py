"""The invite link asks for what the bot needs, and the README shows the same number."""

from __future__ import annotations

import discord

from bot.ops.invite import INVITE_PERMISSIONS, invite_url
from bot.table.lobby import REQUIRED_PERMISSIONS
from tests.e2e.process import REPO


def test_the_readme_invite_link_has_the_permissions_the_code_asks_for() -> None:
    readme = (REPO / "README.md").read_text()
    assert f"scope=bot+applications.commands&permissions={INVITE_PERMISSIONS.value}" in readme


def test_the_invite_covers_what_a_game_checks_for_in_its_channel() -> None:
    needed = discord.Permissions(**dict.fromkeys(REQUIRED_PERMISSIONS, True))
    assert needed.is_subset(INVITE_PERMISSIONS)
    assert not INVITE_PERMISSIONS.administrator and not INVITE_PERMISSIONS.manage_messages


def test_the_link_names_the_application_and_both_scopes() -> None:
    url = invite_url(1234)
    assert "client_id=1234" in url and "scope=bot+applications.commands" in url
