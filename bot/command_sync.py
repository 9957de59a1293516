"""Slash commands are sent to Discord only when they changed.

Syncing is a rate-limited call, and Discord keeps the commands between starts: a start whose
commands are the same as those last synced (the hash of the exact payload, translations
included, kept in the database) sends nothing. `python -m bot --sync` forces it.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

import discord
from discord import app_commands

from bot.storage import Storage

log = logging.getLogger(__name__)


async def payload(tree: app_commands.CommandTree[Any], guild: discord.Object | None) -> list[Any]:
    """What `tree.sync(guild=guild)` sends, as discord.py builds it."""
    commands = tree.get_commands(guild=guild)
    translator = tree.translator
    if translator is None:
        return [command.to_dict(tree) for command in commands]
    return [await command.get_translated_payload(tree, translator) for command in commands]


async def sync_if_changed(
    tree: app_commands.CommandTree[Any],
    storage: Storage,
    application_id: int,
    guild: discord.Object | None,
    *,
    force: bool = False,
) -> bool:
    """Sync unless the same commands were synced last time to the same place; True if sent."""
    scope = "global" if guild is None else f"guild {guild.id}"
    key = f"commands synced: application {application_id}, {scope}"
    digest = hashlib.sha256(
        json.dumps(await payload(tree, guild), sort_keys=True).encode()
    ).hexdigest()
    if not force and await storage.bot_state(key) == digest:
        log.info("slash commands unchanged since the last sync: not sent (--sync sends them)")
        return False
    synced = await tree.sync(guild=guild)
    await storage.set_bot_state(key, digest)
    log.info("synced %d slash commands", len(synced))
    return True
