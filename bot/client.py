"""The Discord client: wires the table runtime together and connects it to Discord."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands
from typing_extensions import override

from bot.errors import UserError
from bot.instance_lock import InstanceLock
from bot.language.command_translator import CatalogTranslator
from bot.language.i18n import N_, _
from bot.metrics import Metrics, MetricsServer, finite_or_nan
from bot.ops.forget import purge_departed, purge_forever
from bot.ops.gc_watch import GcWatch
from bot.ops.invite import invite_url
from bot.ops.looplag import LoopWatch
from bot.ops.warm_up import settle_memory, warm_up
from bot.scheduler import Scheduler
from bot.season_clock import SeasonClock
from bot.service import GameService
from bot.settings import Settings
from bot.storage import Storage, open_storage
from bot.table.autopilot import Autopilot
from bot.table.clicks import Clicks
from bot.table.lobby import Lobby
from bot.table.notifier import Notifier
from bot.table.pictures import PictureWorkers
from bot.table.play import Play
from bot.table.presenters import Presenters
from bot.table.publisher import BoardPublisher
from bot.table.recovery import Recovery
from bot.table.replay import Replays
from bot.table.table_menu import TableMenu
from bot.tournament.clock import TournamentClock
from bot.tournament.events import TournamentService
from bot.ui.click_routes import ClickRoutes
from bot.ui.command_sync import sync_if_changed
from bot.ui.command_values import refusal
from bot.ui.components import GameButton, GameSelect, shows
from bot.ui.custom_ids import ButtonId, is_box_id, is_parlour_id, typed_value
from bot.ui.replies import Reply
from bot.ui.router import GENERIC_ERROR, MOVED_ON, OLD_BOX, OLD_BUTTON, Router
from rules.registry import ENGINES

log = logging.getLogger(__name__)

COGS = (
    "cogs.pictures",
    "cogs.games",  # every game's cog, and its presenter registered
    "cogs.general",
    "cogs.scoreboard",
    "cogs.leaderboard",
    "cogs.community",
    "cogs.privacy",
    "cogs.my_games",
    "cogs.seasons",
    "cogs.tournaments",
)
# What the bot hears: servers, channels and threads, and messages deleted (a board or a
# thread a moderator removes). Not typing, reactions, voice, invites and the rest: every
# event costs a parse, and on a busy server they are most of the gateway's traffic.
INTENTS = discord.Intents(guilds=True, guild_messages=True)
# Messages are never read (no message content, no message cache): their creation and edits,
# each board edit's and ping's among them, are dropped unparsed.
UNREAD_EVENTS = ("MESSAGE_CREATE", "MESSAGE_UPDATE")
SHUTDOWN_GRACE = 5.0  # seconds for clicks and boards in flight when the bot stops
RETIRED_COMMAND = N_("That command is no longer part of Parlour. Type `/` to see the current ones.")
CHANGED_COMMAND = N_(
    "That command has just changed; Discord will show its new form shortly. Try again in a minute."
)


def _unread(data: Any) -> None:
    """The parser of an event the bot does not read."""


def point_at_endpoints(settings: Settings) -> None:
    """Send the unchanged client to an emulator or REST proxy when the settings say so."""
    if settings.api_base:
        discord.http.Route.BASE = settings.api_base.rstrip("/")
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


class ParlourTree(app_commands.CommandTree["ParlourBot"]):
    """The slash commands: each runs through the router, within Discord's deadline, and only
    with the values it offers."""

    @override
    async def _call(self, interaction: discord.Interaction[ParlourBot]) -> None:
        call = super()._call
        if interaction.type is not discord.InteractionType.application_command:
            await call(interaction)  # autocomplete: nothing to defer
            return
        # Errors go on to `on_error` below, through discord.py's own path.
        await self.client.router.handle(
            Reply.of(interaction), lambda _: call(interaction), on_error=False
        )

    @override
    async def interaction_check(self, interaction: discord.Interaction[ParlourBot], /) -> bool:
        """Run a command only with values it offers, whatever the member's client sent."""
        if interaction.type is not discord.InteractionType.application_command:
            return True  # autocomplete: a value being typed
        refused = refusal(interaction.command, interaction.namespace)
        if refused is None:
            return True
        reply = Reply.of(interaction)
        reply.outcome = "refused"
        await reply.private(refused)
        return False

    @override
    async def on_error(
        self, interaction: discord.Interaction[ParlourBot], error: app_commands.AppCommandError
    ) -> None:
        """A command that failed: the member is told why, privately; anything unexpected is
        logged."""
        reply = Reply.of(interaction)
        original = getattr(error, "original", error)
        refused = (
            UserError,
            app_commands.CommandNotFound,
            app_commands.CommandSignatureMismatch,
            app_commands.CheckFailure,
        )
        reply.outcome = "refused" if isinstance(original, refused) else "error"
        if isinstance(original, UserError):
            await reply.private(str(original))
        elif isinstance(error, app_commands.CommandNotFound):
            await reply.private(_(RETIRED_COMMAND))
        elif isinstance(error, app_commands.CommandSignatureMismatch):
            await reply.private(_(CHANGED_COMMAND))
        elif isinstance(error, app_commands.CheckFailure):
            await reply.private(str(error) or _("You can't use that here."))
        else:
            command = interaction.command.qualified_name if interaction.command else "?"
            log.error("/%s failed", command, exc_info=original)
            await reply.private(_(GENERIC_ERROR))


class ParlourBot(commands.Bot):
    """Parlour's client, the composition root: `setup_hook` builds the table runtime and loads
    the cogs; its `on_...` events keep boards and servers in step with Discord."""

    storage: Storage
    service: GameService
    presenters: Presenters
    pictures: PictureWorkers
    scheduler: Scheduler
    publisher: BoardPublisher
    autopilot: Autopilot
    lobby: Lobby
    play: Play
    router: Router
    clicks: ClickRoutes
    table_clicks: Clicks
    recovery: Recovery
    replays: Replays
    seasons: SeasonClock
    tournaments: TournamentClock

    def __init__(
        self,
        settings: Settings,
        *,
        lock: InstanceLock | None = None,
        sync_only: bool = False,
        force_sync: bool = False,
        settle_memory: bool = False,
        **options: Any,
    ) -> None:
        """`lock`: the database's instance lock, if taken already; `options` go to
        discord.py's client. The runtime is built in `setup_hook`, once logged in."""
        point_at_endpoints(settings)
        # Parlour never joins a voice channel: no warnings at every start that it can't.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        self.metrics = Metrics()
        super().__init__(
            command_prefix=commands.when_mentioned,  # slash commands only; no message content
            intents=INTENTS,
            help_command=None,
            tree_cls=ParlourTree,
            allowed_mentions=discord.AllowedMentions.none(),
            # No message cache: the bot reads only raw events, and caching (and copying, at
            # every board edit) its own messages was CPU and memory for nothing.
            max_messages=None,
            http_trace=self.metrics.rate_limit_trace(),  # Discord's 429s, counted
            **options,
        )
        for event in UNREAD_EVENTS:
            self._connection.parsers[event] = _unread
        self.settings = settings
        self._lock = lock  # the database's instance lock, when the caller took it already
        self._settle_memory = settle_memory  # the process is the bot's own (`python -m bot`)
        self.metrics.gateway_latency.set_function(lambda: finite_or_nan(self.latency))
        self.metrics.guilds.set_function(lambda: len(self.guilds))
        self.loop_watch = LoopWatch(observe=self.metrics.loop_lag.observe)
        self.gc_watch = GcWatch(
            lambda generation, pause: self.metrics.gc_pause.labels(str(generation)).observe(pause)
        )
        self._metrics_server: MetricsServer | None = None
        self._sync_only = sync_only  # `python -m bot sync-commands`: no database, no gateway
        self._force_sync = force_sync  # `python -m bot --sync`: even if they did not change
        self._background: set[asyncio.Task[None]] = set()
        self._closing: asyncio.Future[None] | None = None
        self.router = Router(self.metrics)
        # Every button's and menu's click, by its id's kind: the cogs add theirs as they load.
        self.clicks = ClickRoutes(self.router)

    @override
    async def setup_hook(self) -> None:
        """Build the runtime, load the cogs and sync the commands, before connecting
        (`sync_only`: only the cogs and the sync)."""
        # Every command's names and descriptions in each language with a catalog.
        await self.tree.set_translator(CatalogTranslator())
        self.presenters = Presenters()  # `cogs.games` registers them as it loads
        # Started at the warm-up; `cogs.pictures` says how each worker is prepared.
        self.pictures = PictureWorkers(self.settings.picture_workers, self.presenters)
        if self._sync_only:
            for cog in COGS:
                await self.load_extension(cog)
            await self._sync_commands()
            return
        self.loop_watch.start()
        self.gc_watch.start()
        self._stop_on_signals()
        self.storage = await open_storage(self.settings.database_url, self._lock)
        self.service = GameService(self.storage, ENGINES, fixed_seed=self.settings.game_seed)
        self.scheduler = Scheduler(give_way=self.router.quiet)
        self.notifier = Notifier(
            self,
            self.storage,
            watching=self.settings.notify_watching,
            dm_every=self.settings.notify_dm_every,
        )
        shards = self.settings.shards
        await self.notifier.resume(shards.owns if shards else lambda guild_id: True)
        self.publisher = BoardPublisher(
            self,
            self.service,
            self.storage,
            self.presenters,
            self.scheduler,
            self.metrics,
            self.notifier,
            self.pictures,
        )
        self.autopilot = Autopilot(
            self.service,
            self.presenters,
            self.publisher,
            self.scheduler,
            bot_move_delay=self.settings.bot_move_delay,
            autoplay_pace=self.settings.autoplay_pace,
        )
        self.lobby = Lobby(
            self.service, self.storage, self.presenters, self.publisher, self.autopilot
        )
        self.play = Play(
            self.service,
            self.storage,
            self.presenters,
            self.publisher,
            self.autopilot,
            self.notifier,
        )
        self.table_menu = TableMenu(self.service, self.publisher, self.play)
        self.replays = Replays(self.service, self.storage, self.presenters)
        self.table_clicks = Clicks(
            self.router, self.lobby, self.play, self.table_menu, self.notifier
        )
        self.clicks.add(ButtonId, self.table_clicks.click)
        self.recovery = Recovery(
            self,
            self.service,
            self.storage,
            self.publisher,
            self.autopilot,
            self.scheduler,
            starting=self.lobby.starting,
            shards=self.settings.shards,
        )
        self.seasons = SeasonClock(self.storage, shards=self.settings.shards)
        self.tournaments = TournamentClock(
            TournamentService(self.service, self.storage), shards=self.settings.shards
        )
        # A game's end may end a tournament table: its clock looks at once.
        self.publisher.game_ended.append(lambda _game: self.tournaments.wake())
        self.add_dynamic_items(GameButton, GameSelect)
        for cog in COGS:
            await self.load_extension(cog)
        # Before connecting: the first click must not pay for a cold picture.
        await warm_up(self.presenters, self.pictures)
        if self._settle_memory:
            settle_memory()
        shards = self.settings.shards
        if shards is None or shards.syncs_commands:  # the other shards' processes don't
            await self._sync_commands()
        self._spawn(self.recovery.reconcile_forever())
        self._spawn(self.seasons.run_forever(self.wait_until_ready))
        self._spawn(self.tournaments.run_forever(self.wait_until_ready))
        self._spawn(
            purge_forever(
                self.wait_until_ready,
                lambda: purge_departed(self.storage, self.settings.shards, present=self.get_guild),
            )
        )
        if self.settings.metrics_port is not None:
            self._metrics_server = MetricsServer(
                self.metrics,
                connected=self.gateway_up,
                database_ok=lambda: self.storage.schema_version(),
                refresh=self._count_games,
            )
            await self._metrics_server.start(self.settings.metrics_host, self.settings.metrics_port)

    def gateway_up(self) -> bool:
        """Connected to Discord's gateway right now (not between a drop and a reconnect)."""
        ws = self.ws
        return self.is_ready() and not self.is_closed() and ws is not None and ws.open

    async def _count_games(self) -> None:
        counts = await self.storage.active_by_title()
        for game in ENGINES:
            self.metrics.games_active.labels(game).set(counts.get(game, 0))

    def _stop_on_signals(self) -> None:
        """SIGTERM (a service manager, `docker stop`) and SIGINT close the bot cleanly."""
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            # Not the main thread, or a platform without signals (tests, Windows): skip.
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, lambda: self._spawn(self.close()))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _sync_commands(self) -> None:
        guild = None
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
        if self._sync_only:  # `sync-commands`: asked for, and no database to remember it in
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d slash commands", len(synced))
            return
        assert self.application_id is not None  # known once logged in, before setup_hook
        await sync_if_changed(
            self.tree, self.storage, self.application_id, guild, force=self._force_sync
        )

    async def on_connect(self) -> None:
        """Every new gateway session (the first, and after a reconnect that could not
        resume): recovery, at once — `on_ready` waits for every server's data first, and
        recovery needs none of it. Idempotent: it catches up whatever was missed. A task of
        ours, so that closing waits for it before the database closes."""
        self._spawn(self.recovery.run())

    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        """A message deleted: a game's board is posted again (a cleanup must not end a game)."""
        if self.router.closing:
            return  # the database may be closed already; a start-up repairs boards anyway
        row = await self.storage.game_by_board(payload.message_id)
        if row is not None:
            self._spawn(self.publisher.board_deleted(row.id))

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A thread deleted: a game played in it ends, and its lobby card says why."""
        if self.router.closing:
            return
        row = await self.storage.game_in_thread(payload.thread_id)
        if row is not None:
            self._spawn(self.publisher.thread_deleted(row.id))

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from a server (kicked, banned, the server deleted; an outage is
        `on_guild_unavailable` instead): its data is deleted 30 days on (`bot.ops.forget`).
        Logged by id and size, never by name."""
        log.info("removed from server %d (%s members)", guild.id, guild.member_count)
        if not self.router.closing:
            await self.storage.guild_left(guild.id, time.time())

    async def on_guild_join(self, guild: discord.Guild) -> None:
        """Added to a server, perhaps again: whatever it kept is kept on. Logged by id and
        size, never by name."""
        log.info("added to server %d (%s members)", guild.id, guild.member_count)
        if not self.router.closing:
            await self.storage.guild_back(guild.id)

    async def on_ready(self) -> None:
        """Every server's data received: the log says where the bot is and how to invite it."""
        if self.user is not None:
            log.info("logged in as %s in %d servers", self.user, len(self.guilds))
        if self.application_id is not None:
            log.info("invite link: %s", invite_url(self.application_id))

    async def on_interaction(self, interaction: discord.Interaction[ParlourBot]) -> None:
        """Number boxes submitted (whatever process opened them), and every click or box that
        no DynamicItem will take still gets an answer instead of "This interaction failed":
        a button or menu of no current Parlour kind (an older version's), a box Parlour never
        opens, and a click on a component no longer on its message (discord.py drops those:
        the member clicked a board a moment after another click or a bot's move changed it)."""
        kind = interaction.type
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if kind is discord.InteractionType.modal_submit:
            if is_box_id(custom_id):
                await self.table_clicks.typed(
                    interaction, ButtonId.parse(custom_id), typed_value(data)
                )
            else:
                await self._answer_privately(interaction, OLD_BOX)
        elif kind is discord.InteractionType.component:
            if not is_parlour_id(custom_id):
                await self._answer_privately(interaction, OLD_BUTTON)
            elif not shows(interaction.message, custom_id, data.get("component_type")):
                await self._answer_privately(interaction, MOVED_ON)

    async def _answer_privately(
        self, interaction: discord.Interaction[ParlourBot], text: str
    ) -> None:
        await self.router.handle(Reply.of(interaction), lambda reply: reply.private(_(text)))

    @override
    async def close(self) -> None:
        """Stop taking clicks, let those in flight finish, then stop timers and bots (they
        are re-armed from the database at the next start), close the database, and only
        then the gateway: `run` returns as soon as the gateway closes, and cancels whatever
        is left. A second call waits for the first."""
        if self._closing is not None:
            await asyncio.shield(self._closing)
            return
        self._closing = asyncio.get_running_loop().create_future()
        try:
            log.info("shutting down")
            await self._stop_runtime()
            await self.loop_watch.stop()
            self.gc_watch.stop()
            await super().close()
        finally:
            self._closing.set_result(None)

    async def _stop_runtime(self) -> None:
        if self._metrics_server is not None:
            await self._metrics_server.stop()  # a health check now says "down", rightly
        await self.router.close(SHUTDOWN_GRACE)
        others = [t for t in self._background if t is not asyncio.current_task()]
        for task in others:
            task.cancel()  # recovery and the reconciler
        await asyncio.gather(*others, return_exceptions=True)
        if hasattr(self, "publisher"):
            await self.publisher.close(SHUTDOWN_GRACE)
        if hasattr(self, "scheduler"):
            await self.scheduler.close()
        if hasattr(self, "notifier"):
            await self.notifier.close()
        if hasattr(self, "storage"):
            await self.storage.close()
        if hasattr(self, "pictures"):
            self.pictures.stop()


class ShardedParlourBot(ParlourBot, commands.AutoShardedBot):
    """Parlour on some of the bot's shards (`SHARD_COUNT`, `SHARD_IDS`): discord.py's
    `AutoShardedBot` runs one gateway connection per shard of this process."""

    @override
    def gateway_up(self) -> bool:
        """Every shard of this process connected."""
        shards = self.shards.values()
        return self.is_ready() and bool(shards) and not any(s.is_closed() for s in shards)


def make_bot(settings: Settings, **options: Any) -> ParlourBot:
    """The bot the settings call for: sharded or not."""
    if settings.shards is None:
        return ParlourBot(settings, **options)
    return ShardedParlourBot(
        settings,
        shard_count=settings.shards.count,
        shard_ids=list(settings.shards.ids),
        **options,
    )


Interaction = discord.Interaction[ParlourBot]
"""What a cog's command receives: an interaction whose client is the typed Parlour bot."""
