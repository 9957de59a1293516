"""Slash commands are sent to Discord only when they changed.

Syncing is a rate-limited call, and Discord keeps the commands between starts: a start whose
commands are the same as those last synced (the hash of the exact payload, translations
included, kept in the database) sends nothing. `python -m bot --sync` forces it.

The ids Discord gave the commands are kept beside that hash, so that messages can mention a
command (`</risk new:id>`): Discord shows a mention in each member's language and makes it
clickable.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

import discord
from discord import app_commands

from bot.language.command_translator import spoken_command
from bot.storage import Storage

log = logging.getLogger(__name__)

_ids: dict[str, int] = {}  # each top-level command's id, by its (English) name


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
        known = await storage.bot_state(f"{key}: ids")
        if known is None:  # synced by a version that kept no ids: ask Discord once
            await _remember(storage, key, await tree.fetch_commands(guild=guild))
        else:
            _ids.update({name: int(i) for name, i in json.loads(known).items()})
        return False
    synced = await tree.sync(guild=guild)
    await storage.set_bot_state(key, digest)
    await _remember(storage, key, synced)
    log.info("synced %d slash commands", len(synced))
    return True


async def _remember(storage: Storage, key: str, commands: list[app_commands.AppCommand]) -> None:
    ids = {command.name: command.id for command in commands}
    _ids.update(ids)
    await storage.set_bot_state(f"{key}: ids", json.dumps(ids, sort_keys=True))


def mention(english: str) -> str:
    """A command as a message shows it: "/risk new" as a mention, which Discord shows in the
    reader's language; where its id is unknown (not synced by this process), its name in
    the language being spoken, as code: `/risk nueva`."""
    name = english.lstrip("/")
    command_id = _ids.get(name.split()[0])
    return f"</{name}:{command_id}>" if command_id else f"`{spoken_command(english)}`"
