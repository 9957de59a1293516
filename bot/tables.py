"""The Discord side of every game table: lobby, thread, board, pings, bots and timers.

Game cogs register a Presenter (wording and pictures); everything else about running a game
in a channel is here, the same for every game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import discord

from bot.board import PEEK, Board, build_board, private_panel
from bot.components import GameButton, view_of
from bot.custom_ids import ButtonId
from bot.errors import UserError
from bot.presenter import Presenter
from bot.service import GameService, Played, Table
from bot.storage import ACTIVE, CANCELLED, FINISHED, LOBBY
from rules.core import Action, Event, PlayerId, setup_rng

log = logging.getLogger(__name__)

LOBBY_VERBS = frozenset({"join", "leave", "add_bot", "start", "cancel"})
MAX_AI_BATCH = 500  # a guard: no AI turn is anywhere near this many actions

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


def winners_phrase(winners: Sequence[PlayerId], names: Mapping[PlayerId, str]) -> str:
    """A result line's subject: `<@1> wins`, or `<@1> and <@2> share the win`."""
    who = " and ".join(mention(p, names) for p in winners)
    return f"{who} share the win" if len(winners) > 1 else f"{who} wins"


class TableManager:
    def __init__(
        self,
        client: discord.Client,
        service: GameService,
        *,
        bot_move_delay: float,
        autoplay_pace: float = 1.2,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.client = client
        self.service = service
        self.presenters: dict[str, Presenter] = {}
        self._bot_move_delay = bot_move_delay
        # Under autoplay every roll edits the board: at most about one edit a second per
        # message keeps clear of Discord's rate limits and lets the table follow the race.
        self._autoplay_pace = autoplay_pace
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
        count = f"{engine.min_players}" + (
            f"–{engine.max_players}" if engine.max_players != engine.min_players else ""
        )
        embed.add_field(
            name=f"Players ({len(table.seats)}; needs {count})",
            value=self._lobby_players(table, presenter) or "—",
        )
        rules = presenter.describe_options(table.row.options)
        rules.append(f"Turn timer: {format_duration(int(table.row.options.get('turn_timer', 0)))}")
        embed.add_field(name="House rules", value="\n".join(rules))
        return embed

    def _lobby_players(self, table: Table, presenter: Presenter) -> str:
        sides = self._side_names(table, presenter)
        if not sides:
            return "\n".join(mention(s.player_id, table.names) for s in table.seats)
        return "\n".join(
            f"**{name}:** "
            + (
                ", ".join(mention(s.player_id, table.names) for s in table.seats if s.side == i)
                or "—"
            )
            for i, name in enumerate(sides)
        )

    @staticmethod
    def _side_names(table: Table, presenter: Presenter) -> Sequence[str]:
        """The sides players join, when the game is played by sides."""
        return presenter.sides[: table.side_count] if presenter.sides else ()

    def lobby_view(self, table: Table) -> discord.ui.View:
        full = len(table.seats) >= self.service.engine(table.row.game).max_players

        def button(
            verb: str, label: str, style: discord.ButtonStyle, off: bool = False, arg: str = ""
        ) -> GameButton:
            bid = ButtonId(table.row.game, table.row.id, None, verb, arg)
            return GameButton(bid, label=label, style=style, disabled=off)

        sides = self._side_names(table, self.presenter(table.row.game))
        joins = [
            button("join", f"Join {name}", discord.ButtonStyle.success, full, str(i))
            for i, name in enumerate(sides)
        ] or [button("join", "Join", discord.ButtonStyle.success, full)]
        # Five buttons a row: with four sides, the joins take the first row.
        return view_of(
            [
                *joins,
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
            side = int(bid.arg) if bid.arg.isdigit() else 0
            table = await self.service.join(bid.game_id, user.id, user.display_name, side)
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
        humans = self.service.engine(table.row.game).to_act(table.state) - table.autoplayed
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
        presenter = self.presenter(bid.game)
        if bid.verb in LOBBY_VERBS:
            await self._lobby_click(interaction, bid)
            return
        if bid.verb == PEEK:
            await self._peek(interaction, bid.game_id)
            return
        if bid.step is None:
            raise UserError("That button is not available.")
        action = Action(bid.verb, bid.arg)
        if presenter.slow_action(action):
            await interaction.response.defer()  # a replay to draw: answer within 3 s first
        played = await self.service.act(bid.game_id, interaction.user.id, action, bid.step)
        if await self._show(played, interaction):
            await self._after_move(played)

    async def _peek(self, interaction: discord.Interaction, game_id: int) -> None:
        """Open the clicker's private panel: their hand, mission or secret choices."""
        table = await self.service.table(game_id)
        if interaction.user.id not in table.names:
            raise UserError("You are not playing in this game.")
        if table.state is None:
            raise UserError("The game has not started yet.")
        engine = self.service.engine(table.row.game)
        text, view = private_panel(
            table, engine, self.presenter(table.row.game), interaction.user.id
        )
        await interaction.response.send_message(text, view=view, ephemeral=True)

    async def table_in_channel(self, channel_id: int) -> Table | None:
        """The active game played in this thread, for commands typed there."""
        for row in await self.service.storage.games(status=ACTIVE):
            if row.thread_id == channel_id:
                return await self.service.table(row.id)
        return None

    async def play_command(
        self, interaction: discord.Interaction, game_id: int, actions: Sequence[Action]
    ) -> None:
        """A slash command that stands for several clicks (`/risk attack from: to:`): apply
        `actions` in order, each shown on the board as a click's would be."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        for action in actions:
            table = await self.service.table(game_id)
            played = await self.service.act(game_id, interaction.user.id, action, table.row.step)
            if not await self._show(played):
                return
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
        self, table: Table, events: Sequence[Event] = (), *, closing: bool = False
    ) -> Board:
        """The board message for `table` after `events`; a closing board has no prompt and
        no moves: it stays in the thread as the end of a chapter."""
        return await build_board(
            table,
            self.service.engine(table.row.game),
            self.presenter(table.row.game),
            None if closing else self._prompt(table),
            events,
        )

    async def _post_board(self, table: Table, events: Sequence[Event] = ()) -> None:
        thread = self.client.get_partial_messageable(table.row.thread_id or 0)
        board = await self.board(table, events)
        message = await thread.send(embed=board.embed, file=board.file, view=board.view)
        await self.service.set_ids(table.row.id, board_message_id=message.id)
        self._shown_step[table.row.id] = table.row.step

    async def _show(self, played: Played, interaction: discord.Interaction | None = None) -> bool:
        """Put a move on the board: as the answer to the click that made it, or by editing
        the board (a bot, a timer, a click in a private panel). A new chapter (a race, a
        turn) closes the old board message and posts a new one. False if the thread is gone.
        """
        table = played.table
        game_id = table.row.id
        presenter = self.presenter(table.row.game)
        clicker = interaction.user.id if interaction is not None else None
        news = presenter.narrate_private(played.events, clicker, table.names) if clicker else []
        in_panel = (
            interaction is not None
            and interaction.message is not None
            and interaction.message.flags.ephemeral
        )
        if interaction is not None and in_panel:
            await self._refresh_panel(interaction, table, news)
            interaction = None  # answered: the board is edited directly below
        answered = False
        async with self._board_lock(game_id):
            if self._shown_step.get(game_id, -1) > table.row.step:
                return True  # a newer board is already up
            new_chapter = presenter.chapter(played.before) != presenter.chapter(table.state)
            board = await self.board(table, played.events, closing=new_chapter)
            parts = {"embed": board.embed, "attachments": [board.file], "view": board.view}
            answered = await self._answer_click(interaction, **parts)
            if not answered and not await self._edit_board(table, **parts):
                return False
            if new_chapter:
                await self._post_board(table)
            self._shown_step[game_id] = table.row.step
        if answered and news and interaction is not None:
            with contextlib.suppress(discord.HTTPException):
                await interaction.followup.send("\n".join(news), ephemeral=True)
        return True

    @staticmethod
    async def _answer_click(interaction: discord.Interaction | None, **parts: Any) -> bool:
        """Edit the clicked board as the interaction's answer; False if there is no click to
        answer or answering failed (the interaction expired): the caller edits directly."""
        if interaction is None:
            return False
        try:
            if interaction.response.is_done():  # deferred before a slow picture
                await interaction.edit_original_response(**parts)
            else:
                await interaction.response.edit_message(**parts)
        except discord.HTTPException:
            log.warning("game board: answering the click failed; editing the board directly")
            return False
        return True

    async def _edit_board(self, table: Table, **parts: Any) -> bool:
        """Edit the board message; if the thread or board is gone, abandon the game."""
        thread = self.client.get_partial_messageable(table.row.thread_id or 0)
        message = thread.get_partial_message(table.row.board_message_id or 0)
        try:
            await message.edit(**parts)
        except discord.NotFound:
            log.warning("game %s: thread or board deleted; abandoning", table.row.id)
            await self.service.abandon(table.row.id)
            self._cancel_timer(table.row.id)
            return False
        return True

    async def _refresh_panel(
        self, interaction: discord.Interaction, table: Table, news: Sequence[str]
    ) -> None:
        """Answer a click made in a private panel with the panel as it is now."""
        engine = self.service.engine(table.row.game)
        presenter = self.presenter(table.row.game)
        text, view = private_panel(table, engine, presenter, interaction.user.id, news)
        try:
            if interaction.response.is_done():
                await interaction.edit_original_response(content=text, view=view)
            else:
                await interaction.response.edit_message(content=text, view=view)
        except discord.HTTPException:
            log.warning("game %s: could not refresh a private panel", table.row.id)

    # --- after every move: results, pings, timers, bots -------------------------------------

    async def _after_move(self, played: Played) -> None:
        table = played.table
        if played.outcome is not None:
            await self._finish(table)
            return
        engine = self.service.engine(table.row.game)
        now_to_act = engine.to_act(table.state) - table.autoplayed
        newly = now_to_act - (played.was_to_act - {played.player})
        if newly:
            await self._ping(table, newly, "your turn: " + self._prompt(table))
        self._after(table)

    def _after(self, table: Table) -> None:
        self._arm_timer(table)
        if self.service.engine(table.row.game).to_act(table.state) & table.autoplayed:
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
                if played is None:
                    return
                played = await self._play_on(played)
                if not await self._show(played):
                    return
                await self._after_move(played)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: bot move failed", game_id)
        finally:
            self._bot_runs.pop(game_id, None)

    async def _play_on(self, played: Played) -> Played:
        """In a game whose turns are many small actions, let the AI play the rest of this
        player's turn (while they alone are to act, in the same chapter), so the board is
        edited once with the whole turn instead of once per sub-step."""
        table = played.table
        presenter = self.presenter(table.row.game)
        if not presenter.batch_ai_moves:
            return played
        engine = self.service.engine(table.row.game)
        chapter = presenter.chapter(played.before)
        plays = [played]
        while len(plays) < MAX_AI_BATCH:
            last = plays[-1]
            state = last.table.state
            if (
                last.outcome is not None
                or engine.to_act(state) != {played.player}
                or presenter.chapter(state) != chapter
            ):
                break
            more = await self.service.play_ai_for(table.row.id, played.player, last.table.row.step)
            if more is None:
                break
            plays.append(more)
        last = plays[-1]
        return replace(
            last,
            events=tuple(e for p in plays for e in p.events),
            was_to_act=played.was_to_act,
            before=played.before,
        )

    async def _bot_pause(self, game_id: int) -> float:
        """A pause before a bot's move, so players can follow it — unless a human must act
        at the same time (a simultaneous phase): then the bot gets out of their way at once,
        and their click is not refused as out of date."""
        table = await self.service.table(game_id)
        if table.row.options.get("autoplay"):
            return max(self._bot_move_delay, self._autoplay_pace)
        to_act = self.service.engine(table.row.game).to_act(table.state)
        return 0.0 if to_act - table.autoplayed else self._bot_move_delay

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
                humans = self.service.engine(row.game).to_act(table.state) - table.autoplayed
                await self._ping(
                    table,
                    humans,
                    f"⏰ still your turn: {self._prompt(table)} "
                    f"— the AI plays for you <t:{int(row.deadline)}:R>.",
                )
                await self.service.mark_reminded(row.id)
            await asyncio.sleep(max(0.0, row.deadline - self._clock()))
            played = await self.service.time_out(row.id, row.step)
            if played is not None:
                played = await self._play_on(played)
            if played is not None and await self._show(played):
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
            if row.game not in self.presenters or row.id in self._starting:
                continue  # a Start click in flight posts its own board
            table = await self.service.table(row.id)
            try:
                if table.row.board_message_id is None and table.row.thread_id is not None:
                    await self._post_board(table)
                    table = await self.service.table(row.id)
                self._shown_step[row.id] = table.row.step
                self._after(table)
            except discord.NotFound:
                await self.service.abandon(row.id)
            except Exception:
                log.exception("game %s: could not be resumed", row.id)
