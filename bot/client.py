"""The Discord client: wires storage, service, tables and cogs together at start-up."""

from __future__ import annotations

import logging
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot.components import GENERIC_ERROR, GameButton, GameSelect, reply_privately
from bot.errors import UserError
from bot.service import GameService
from bot.settings import Settings
from bot.storage import Storage
from bot.tables import TableManager
from rules.registry import ENGINES

log = logging.getLogger(__name__)

COGS = (
    "cogs.cock_and_bull",
    "cogs.hold_your_horses",
    "cogs.winners_circle",
    "cogs.horse_collar",
    "cogs.risk",
    "cogs.general",
    "cogs.scoreboard",
)


def point_at_endpoints(settings: Settings) -> None:
    """Send the unchanged client to an emulator or REST proxy when the settings say so."""
    if settings.api_base:
        discord.http.Route.BASE = settings.api_base.rstrip("/")
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


class ParlourTree(app_commands.CommandTree["ParlourBot"]):
    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, UserError):
            await reply_privately(interaction, str(original))
            return
        if isinstance(error, app_commands.CheckFailure):
            await reply_privately(interaction, str(error) or "You can't use that here.")
            return
        command = interaction.command.qualified_name if interaction.command else "?"
        log.error("/%s failed", command, exc_info=original)
        await reply_privately(interaction, GENERIC_ERROR)


class ParlourBot(commands.Bot):
    storage: Storage
    service: GameService
    tables: TableManager

    def __init__(self, settings: Settings, **options: Any) -> None:
        point_at_endpoints(settings)
        super().__init__(
            command_prefix=commands.when_mentioned,  # slash commands only; no message content
            intents=discord.Intents.default(),
            help_command=None,
            tree_cls=ParlourTree,
            allowed_mentions=discord.AllowedMentions.none(),
            **options,
        )
        self.settings = settings

    async def setup_hook(self) -> None:
        self.storage = await Storage.open(self.settings.database_path)
        self.service = GameService(self.storage, ENGINES, fixed_seed=self.settings.game_seed)
        self.tables = TableManager(
            self,
            self.service,
            bot_move_delay=self.settings.bot_move_delay,
            autoplay_pace=self.settings.autoplay_pace,
        )
        self.add_dynamic_items(GameButton, GameSelect)
        for cog in COGS:
            await self.load_extension(cog)
        await self._sync_commands()
        self.loop.create_task(self._recover_when_ready())

    async def _sync_commands(self) -> None:
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d slash commands", len(synced))

    async def _recover_when_ready(self) -> None:
        await self.tables.warm_up()
        await self.wait_until_ready()
        await self.tables.recover()

    async def on_ready(self) -> None:
        assert self.user is not None
        log.info("logged in as %s (%s) in %d servers", self.user, self.user.id, len(self.guilds))

    async def close(self) -> None:
        if hasattr(self, "tables"):
            await self.tables.close()
        await super().close()
        if hasattr(self, "storage"):
            await self.storage.close()
