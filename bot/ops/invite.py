"""The invite link: the permissions Parlour asks for when a server adds it."""

from __future__ import annotations

import discord

# What a game needs in its channel (see `bot.table.lobby.REQUIRED_PERMISSIONS`), plus seeing the
# channel and reading the thread's history (a board is edited, not re-posted).
INVITE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
)
SCOPES = ("bot", "applications.commands")


def invite_url(application_id: int) -> str:
    """The link that adds the bot `application_id` to a server, asking for `INVITE_PERMISSIONS`."""
    return discord.utils.oauth_url(application_id, permissions=INVITE_PERMISSIONS, scopes=SCOPES)
