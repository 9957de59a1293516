"""The Discord side of every game table: lobby, thread, board, pings, bots and timers.

Game cogs register a Presenter (wording and pictures); everything else about running a game
in a channel is here, the same for every game.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import discord

from bot.components import GameButton, view_of
from bot.custom_ids import ButtonId
from bot.errors import UserError
from bot.presenter import Presenter
from bot.service import GameService, Played, Table
from bot.storage import ACTIVE, CANCELLED, FINISHED, LOBBY
from rules.core import Action, Event, PlayerId, setup_rng

log = logging.getLogger(__name__)

LOBBY_VERBS = frozenset({"join", "leave", "add_bot", "start", "cancel"})
NARRATION_LINES = 8  # what the board embed shows of the last action: enough, never a wall

# What the bot needs in the lobby's channel to run a game there, with Discord's wording.
REQUIRED_PERMISSIONS = {
    "create_public_threads": "Create Public Threads",
    "send_messages_in_threads": "Send Messages in Threads",
    "attach_files": "Attach Files",
    "embed_links": "Embed Links",
}


def format_duration(seconds: int) -> str:
    if seconds <= 0:
        return "off"
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            n = seconds // size
            return f"{n} {unit}{'s' if n != 1 else ''}"
    return f"{seconds} seconds"


def mention(player: PlayerId, names: Mapping[PlayerId, str]) -> str:
    """A human as a mention (shown as their name, pinging no one inside embeds); a bot by name."""
    return f"<@{player}>" if player > 0 else f"🤖 {names.get(player, 'Bot')}"


class TableManager:
    def __init__(
        self,
        client: discord.Client,
        service: GameService,
        *,
        bot_move_delay: float,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.client = client
        self.service = service
        self.presenters: dict[str, Presenter] = {}
        self._bot_move_delay = bot_move_delay
        self._clock = clock
        self._timers: dict[int, asyncio.Task[None]] = {}
        self._bot_runs: dict[int, asyncio.Task[None]] = {}
        self._starting: set[int] = set()
        self._board_locks: dict[int, asyncio.Lock] = {}
        self._shown_step: dict[int, int] = {}
        self._clicks: set[asyncio.Task[Any]] = set()

    def register(self, presenter: Presenter) -> None:
        self.presenters[presenter.game] = presenter

    def presenter(self, game: str) -> Presenter:
        try:
            return self.presenters[game]
        except KeyError:
            raise UserError("This game is not available on this bot any more.") from None

    async def close(self, grace: float = 5.0) -> None:
        """Let clicks being answered finish (their moves are saved already), then stop the
        timers and bots: they are re-armed from the database at the next start."""
        clicks = [t for t in self._clicks if t is not asyncio.current_task()]
        if clicks:
            await asyncio.wait(clicks, timeout=grace)
        tasks = [*self._timers.values(), *self._bot_runs.values()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # --- the lobby -----------------------------------------------------------------------

    async def open_lobby(
        self, interaction: discord.Interaction, game: str, options: Mapping[str, Any]
    ) -> None:
        """`/<game> new`: post a lobby in this channel."""
        if interaction.guild is None or interaction.channel is None:
            raise UserError("Games are played in a server's text channel, not in DMs.")
        if isinstance(interaction.channel, discord.Thread):
            raise UserError("Start games from a text channel: each game gets its own thread.")
        self._check_permissions(interaction)
        table = await self.service.create_lobby(
            game,
            guild_id=interaction.guild.id,
            channel_id=interaction.channel.id,
            host_id=interaction.user.id,
            host_name=interaction.user.display_name,
            options=options,
        )
        sent = await interaction.response.send_message(
            embed=self.lobby_embed(table), view=self.lobby_view(table)
        )
        await self.service.set_ids(table.row.id, lobby_message_id=sent.message_id)

    def _check_permissions(self, interaction: discord.Interaction) -> None:
        perms = interaction.app_permissions
        missing = [
            label for attr, label in REQUIRED_PERMISSIONS.items() if not getattr(perms, attr)
        ]
        if missing:
            raise UserError(
                "I can't run a game in this channel: I am missing the "
                f"**{', '.join(missing)}** permission{'s' if len(missing) > 1 else ''} here. "
                "Ask a server admin to grant them, then try again."
            )

    def lobby_embed(self, table: Table, note: str = "") -> discord.Embed:
        presenter = self.presenter(table.row.game)
        engine = self.service.engine(table.row.game)
        status = table.row.status
        lines = {
            LOBBY: f"Hosted by <@{table.row.host_id}>. Click **Join** to play; "
            "the host clicks **Start** when everyone is in.",
            ACTIVE: "The game is on"
            + (f" in <#{table.row.thread_id}>." if table.row.thread_id else "."),
            FINISHED: "This game is over.",
            CANCELLED: "The host cancelled this game.",
        }
        embed = discord.Embed(
            title=f"{presenter.title} · #{table.row.id}",
            description=lines.get(status, "This game was abandoned.")
            + (f"\n{note}" if note else ""),
            colour=presenter.colour,
        )
        players = "\n".join(mention(s.player_id, table.names) for s in table.seats)
        count = f"{engine.min_players}" + (
            f"–{engine.max_players}" if engine.max_players != engine.min_players else ""
        )
        embed.add_field(name=f"Players ({len(table.seats)}; needs {count})", value=players)
        rules = presenter.describe_options(table.row.options)
        rules.append(f"Turn timer: {format_duration(int(table.row.options.get('turn_timer', 0)))}")
        embed.add_field(name="House rules", value="\n".join(rules))
        return embed

    def lobby_view(self, table: Table) -> discord.ui.View:
        full = len(table.seats) >= self.service.engine(table.row.game).max_players

        def button(
            verb: str, label: str, style: discord.ButtonStyle, off: bool = False
        ) -> GameButton:
            bid = ButtonId(table.row.game, table.row.id, None, verb)
            return GameButton(bid, label=label, style=style, disabled=off)

        return view_of(
            [
                button("join", "Join", discord.ButtonStyle.success, full),
                button("leave", "Leave", discord.ButtonStyle.secondary),
                button("add_bot", "Add bot", discord.ButtonStyle.secondary, full),
                button("start", "Start", discord.ButtonStyle.primary),
                button("cancel", "Cancel", discord.ButtonStyle.danger),
            ]
        )

    async def _lobby_click(self, interaction: discord.Interaction, bid: ButtonId) -> None:
        user = interaction.user
        if bid.verb == "start":
            await self._start(interaction, bid.game_id)
            return
        if bid.verb == "join":
            table = await self.service.join(bid.game_id, user.id, user.display_name)
        elif bid.verb == "leave":
            table = await self.service.leave(bid.game_id, user.id)
        elif bid.verb == "add_bot":
            table = await self.service.add_bot(bid.game_id, user.id)
        else:
            table = await self.service.cancel(bid.game_id, user.id)
            await interaction.response.edit_message(embed=self.lobby_embed(table), view=None)
            return
        await interaction.response.edit_message(
            embed=self.lobby_embed(table), view=self.lobby_view(table)
        )

    async def _start(self, interaction: discord.Interaction, game_id: int) -> None:
        table = await self.service.table(game_id)
        self.service.check_can_start(table, interaction.user.id)
        self._check_permissions(interaction)
        if game_id in self._starting:
            raise UserError("The game is starting already.")
        self._starting.add(game_id)
        try:
            await interaction.response.defer()  # creating a thread can take a moment
            presenter = self.presenter(table.row.game)
            if table.row.thread_id is None:
                assert interaction.message is not None
                try:
                    thread = await interaction.message.create_thread(
                        name=f"{presenter.title} #{game_id}", auto_archive_duration=1440
                    )
                except discord.Forbidden as e:
                    raise UserError(
                        "Discord did not let me create the game's thread here. Ask a server "
                        "admin for the Create Public Threads permission, then click Start again."
                    ) from e
                await self.service.set_ids(game_id, thread_id=thread.id)
            table = await self.service.start(game_id, interaction.user.id)
            await interaction.edit_original_response(embed=self.lobby_embed(table), view=None)
            await self._post_board(table)
        finally:
            self._starting.discard(game_id)
        humans = self.service.engine(table.row.game).to_act(table.state) - table.bots
        await self._ping(table, humans, "the game is on! " + self._prompt(table))
        self._after(table)

    # --- clicks ----------------------------------------------------------------------------

    async def on_click(self, interaction: discord.Interaction, bid: ButtonId) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._clicks.add(task)
        try:
            await self._click(interaction, bid)
        finally:
            self._clicks.discard(task)

    async def _click(self, interaction: discord.Interaction, bid: ButtonId) -> None:
        self.presenter(bid.game)
        if bid.verb in LOBBY_VERBS:
            await self._lobby_click(interaction, bid)
            return
        if bid.step is None:
            raise UserError("That button is not available.")
        played = await self.service.act(
            bid.game_id, interaction.user.id, Action(bid.verb, bid.arg), bid.step
        )
        shown = False
        async with self._board_lock(bid.game_id):
            embed, file, view = await self.board(played.table, played.events)
            try:
                await interaction.response.edit_message(embed=embed, attachments=[file], view=view)
                self._shown_step[bid.game_id] = played.table.row.step
                shown = True
            except discord.HTTPException:
                # The move is saved; the interaction expired or failed. Edit the board directly
                # so the thread never shows a state behind the database.
                log.warning("game %s: answering the click failed; editing the board", bid.game_id)
        if shown or await self._publish(played):
            await self._after_move(played)

    # --- the board -------------------------------------------------------------------------

    def _board_lock(self, game_id: int) -> asyncio.Lock:
        return self._board_locks.setdefault(game_id, asyncio.Lock())

    def _prompt(self, table: Table) -> str:
        presenter = self.presenter(table.row.game)
        outcome = self.service.engine(table.row.game).outcome(table.state)
        if outcome is not None:
            return presenter.result(table.state, outcome, table.names)
        return presenter.prompt(table.state, table.names)

    async def board(
        self, table: Table, events: Iterable[Event] = ()
    ) -> tuple[discord.Embed, discord.File, discord.ui.View]:
        """The board message: what happened, whose turn, the picture, the legal moves."""
        presenter = self.presenter(table.row.game)
        engine = self.service.engine(table.row.game)
        lines = presenter.narrate(list(events), table.names)[-NARRATION_LINES:]
        lines.append(f"**▶ {self._prompt(table)}**")
        embed = discord.Embed(
            title=f"{presenter.title} · #{table.row.id}",
            description="\n".join(lines),
            colour=presenter.colour,
        )
        embed.set_image(url="attachment://board.png")
        timer = int(table.row.options.get("turn_timer", 0))
        if table.row.deadline is not None and timer:
            embed.add_field(name="Turn timer", value=f"AI plays <t:{int(table.row.deadline)}:R>")
        embed.set_footer(text=f"Move {table.row.step}")
        png = await asyncio.to_thread(presenter.render_png, table.state, table.names)
        file = discord.File(io.BytesIO(png), filename="board.png")
        buttons: list[GameButton] = []
        seen: set[Action] = set()
        for player in sorted(engine.to_act(table.state)):
            for action in engine.legal_actions(table.state, player):
                if action in seen:
                    continue
                seen.add(action)
                look = presenter.button(action, table.state)
                bid = ButtonId(
                    table.row.game, table.row.id, table.row.step, action.verb, action.arg
                )
                buttons.append(
                    GameButton(bid, label=look.label, style=look.style, emoji=look.emoji)
                )
        return embed, file, view_of(buttons)

    async def _post_board(self, table: Table) -> None:
        thread = self.client.get_partial_messageable(table.row.thread_id or 0)
        embed, file, view = await self.board(table)
        message = await thread.send(embed=embed, file=file, view=view)
        await self.service.set_ids(table.row.id, board_message_id=message.id)
        self._shown_step[table.row.id] = table.row.step

    async def _publish(self, played: Played) -> bool:
        """Edit the board after a move nobody clicked for (a bot, a timer). False if the
        game's thread is gone."""
        table = played.table
        async with self._board_lock(table.row.id):
            if self._shown_step.get(table.row.id, -1) > table.row.step:
                return True  # a newer board is already up
            embed, file, view = await self.board(table, played.events)
            thread = self.client.get_partial_messageable(table.row.thread_id or 0)
            message = thread.get_partial_message(table.row.board_message_id or 0)
            try:
                await message.edit(embed=embed, attachments=[file], view=view)
            except discord.NotFound:
                log.warning("game %s: thread or board deleted; abandoning", table.row.id)
                await self.service.abandon(table.row.id)
                self._cancel_timer(table.row.id)
                return False
            self._shown_step[table.row.id] = table.row.step
        return True

    # --- after every move: results, pings, timers, bots -------------------------------------

    async def _after_move(self, played: Played) -> None:
        table = played.table
        if played.outcome is not None:
            await self._finish(table)
            return
        engine = self.service.engine(table.row.game)
        now_to_act = engine.to_act(table.state) - table.bots
        newly = now_to_act - (played.was_to_act - {played.player})
        if newly:
            await self._ping(table, newly, "your turn: " + self._prompt(table))
        self._after(table)

    def _after(self, table: Table) -> None:
        self._arm_timer(table)
        if self.service.engine(table.row.game).to_act(table.state) & table.bots:
            self._schedule_bots(table.row.id)

    async def _ping(self, table: Table, players: Iterable[PlayerId], text: str) -> None:
        """One short message that mentions only the players to act; the last one goes."""
        targets = sorted(p for p in players if p > 0)
        if not targets or table.row.thread_id is None:
            return
        thread = self.client.get_partial_messageable(table.row.thread_id)
        await self._delete_ping(table)
        try:
            message = await thread.send(
                " ".join(f"<@{p}>" for p in targets) + f" {text}",
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(p) for p in targets]
                ),
            )
        except discord.NotFound:
            return  # the thread is gone; the next board edit abandons the game
        await self.service.set_ids(table.row.id, ping_message_id=message.id)

    async def _delete_ping(self, table: Table) -> None:
        fresh = await self.service.table(table.row.id)
        if fresh.row.ping_message_id is None or fresh.row.thread_id is None:
            return
        thread = self.client.get_partial_messageable(fresh.row.thread_id)
        # Already deleted by a moderator, or the thread is gone: nothing to tidy.
        with contextlib.suppress(discord.HTTPException):
            await thread.get_partial_message(fresh.row.ping_message_id).delete()
        await self.service.set_ids(table.row.id, ping_message_id=None)

    async def _finish(self, table: Table) -> None:
        self._cancel_timer(table.row.id)
        await self._delete_ping(table)
        result = self._prompt(table)
        if table.row.thread_id is not None:
            thread = self.client.get_partial_messageable(table.row.thread_id)
            try:
                await thread.send(
                    f"🏁 {result}\nSee `/scoreboard` for the standings.",
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            except discord.NotFound:
                log.warning("game %s finished after its thread was deleted", table.row.id)
        if table.row.lobby_message_id is not None:
            channel = self.client.get_partial_messageable(table.row.channel_id)
            lobby = channel.get_partial_message(table.row.lobby_message_id)
            try:
                await lobby.edit(embed=self.lobby_embed(table, note=result), view=None)
            except discord.HTTPException:
                log.info("game %s: lobby message gone, result not shown there", table.row.id)

    # --- bots ----------------------------------------------------------------------------

    def _schedule_bots(self, game_id: int) -> None:
        if game_id in self._bot_runs:
            return  # this game's bots are already playing; that loop picks the move up
        self._bot_runs[game_id] = asyncio.create_task(self._run_bots(game_id))

    async def _run_bots(self, game_id: int) -> None:
        try:
            while True:
                await asyncio.sleep(await self._bot_pause(game_id))
                played = await self.service.play_bot(game_id)
                if played is None or not await self._publish(played):
                    return
                await self._after_move(played)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: bot move failed", game_id)
        finally:
            self._bot_runs.pop(game_id, None)

    async def _bot_pause(self, game_id: int) -> float:
        """A pause before a bot's move, so players can follow it — unless a human must act
        at the same time (a simultaneous phase): then the bot gets out of their way at once,
        and their click is not refused as out of date."""
        table = await self.service.table(game_id)
        to_act = self.service.engine(table.row.game).to_act(table.state)
        return 0.0 if to_act - table.bots else self._bot_move_delay

    # --- turn timers -----------------------------------------------------------------------

    def _cancel_timer(self, game_id: int) -> None:
        task = self._timers.pop(game_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def _arm_timer(self, table: Table) -> None:
        self._cancel_timer(table.row.id)
        if table.row.deadline is not None and table.row.status == ACTIVE:
            self._timers[table.row.id] = asyncio.create_task(self._run_timer(table))

    async def _run_timer(self, table: Table) -> None:
        """Remind the player halfway, then let the AI play their turn at the deadline."""
        row = table.row
        assert row.deadline is not None
        try:
            if not row.reminded:
                length = int(row.options.get("turn_timer", 0))
                await asyncio.sleep(max(0.0, row.deadline - length / 2 - self._clock()))
                humans = self.service.engine(row.game).to_act(table.state) - table.bots
                await self._ping(
                    table,
                    humans,
                    f"⏰ still your turn: {self._prompt(table)} "
                    f"— the AI plays for you <t:{int(row.deadline)}:R>.",
                )
                await self.service.mark_reminded(row.id)
            await asyncio.sleep(max(0.0, row.deadline - self._clock()))
            played = await self.service.time_out(row.id, row.step)
            if played is not None and await self._publish(played):
                self._timers.pop(row.id, None)  # this task is done; the next move arms anew
                await self._after_move(played)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: turn timer failed at step %s", row.id, row.step)

    # --- start-up --------------------------------------------------------------------------

    async def warm_up(self) -> None:
        """Draw one board per game now: a renderer's first picture builds its cached layers
        (about 0.2 s), which should not land on a player's first click."""
        for game, presenter in self.presenters.items():
            engine = self.service.engine(game)
            seats = list(range(1, engine.min_players + 1))
            state = engine.initial_state(seats, {}, setup_rng("warm-up"))
            await asyncio.to_thread(presenter.render_png, state, {})

    async def recover(self) -> None:
        """After a restart: finish interrupted starts, re-arm timers, let bots move on."""
        for row in await self.service.storage.games(status=ACTIVE):
            if row.game not in self.presenters:
                continue
            table = await self.service.table(row.id)
            try:
                if row.board_message_id is None and row.thread_id is not None:
                    await self._post_board(table)
                    table = await self.service.table(row.id)
                self._shown_step[row.id] = row.step
                self._after(table)
            except discord.NotFound:
                await self.service.abandon(row.id)
            except Exception:
                log.exception("game %s: could not be resumed", row.id)
