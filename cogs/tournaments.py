"""`/tournament`: Swiss events at tables, signed up for on a card in a channel, one thread per
table (`bot.tournament` runs them; its clock calls this cog's `Desk` to show them).

Creating and managing an event need Manage Server, checked when the command runs. The card's
buttons (`tn1:<tournament>:<join|leave|checkin>`) name the event, so an old card keeps
working after a restart, and a forged or stale click is answered privately and changes
nothing. The card is edited by a click's own answer, or by the clock at most once every
`CARD_EVERY` seconds per event (the bot-token budget); every change is stored before it
is shown.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import Interaction, ParlourBot
from bot.errors import UserError
from bot.language.i18n import GAME_LANGUAGE, N_, _, current, game_language, speaking
from bot.service import LoadedGame, Played
from bot.storage.tournaments import (
    CANCELLED,
    FINISHED,
    IN,
    RUNNING,
    SIGNUP,
    EntrantRow,
    TableRow,
    TournamentRow,
)
from bot.table.lobby import THREAD_ARCHIVE_MINUTES, check_permissions
from bot.tournament.events import DEFAULT_TABLE_SIZE, READY_WINDOW, Plan, TournamentService
from bot.tournament.house_rules import MAX_TEXT, parse_house_rules
from bot.tournament.scoring import Standing
from bot.tournament.standings_text import named, standings_alt, standings_text
from bot.tournament.timing import BadStart, parse_start
from bot.ui.components import ParlourButton
from bot.ui.custom_ids import TournamentId
from bot.ui.permissions import require_manager
from bot.ui.replies import Reply
from cogs.options import guild_id
from cogs.scoreboard import GAME_CHOICES
from images.tournament_standings import render_standings

log = logging.getLogger(__name__)

CARD_EVERY = 5.0  # seconds between the clock's edits of one event's card, at least
CARD_TOP = 10  # standings lines on the card (the picture shows more)
PICTURE = "standings.png"
MENTIONS_PER_MESSAGE = 40  # a check-in ping's mentions per message (2,000 characters)
MAX_TOURNAMENT = 1_000_000_000  # the largest id an option takes (Discord's integers are 53-bit)
NOT_ADMIN = N_("Only members who can manage the server can create or manage a tournament.")
BAD_START = {
    "unparseable": N_(
        "`{start}` is not a start: give minutes from now (30) or a UTC time (18:30, "
        "or 2026-12-05 18:30)."
    ),
    "past": N_("`{start}` has passed: a tournament must start in the future."),
}


class TournamentButton(ParlourButton[TournamentId], kind=TournamentId):
    """Join, Leave or Check in on a tournament's card: its click goes to the
    `TournamentId` route."""


def stamp(moment: float) -> str:
    """A time every reader sees in their own zone, with a countdown."""
    return f"<t:{int(moment)}:f> (<t:{int(moment)}:R>)"


class Tournaments(commands.Cog):
    """`/tournament`, the card's buttons (`TournamentId`) and the clock's `Desk`."""

    def __init__(self, bot: ParlourBot) -> None:
        """The cog of `bot`."""
        self.bot = bot
        self.card_every = CARD_EVERY  # seconds between the clock's edits of one card, at least
        self._edited: dict[int, float] = {}  # each event's last card edit by the clock
        self._later: dict[int, asyncio.Task[None]] = {}  # a card edit held back, per event

    async def cog_unload(self) -> None:
        """Redraws held back are dropped: the next start redraws every card behind."""
        for task in self._later.values():
            task.cancel()

    @property
    def service(self) -> TournamentService:
        """The tournaments' steps (the clock's)."""
        return self.bot.tournaments.service

    tournament = app_commands.Group(
        name="tournament", description="Swiss tournaments at tables", guild_only=True
    )

    # --- creating and showing ----------------------------------------------------------------

    @tournament.command(name="create")
    @app_commands.describe(
        game="The game played at every table",
        rounds="How many rounds (2 to 12)",
        table_size="Players per table (within the game's limits)",
        starts_in="When it starts: minutes from now (30), or a UTC time (18:30)",
        checkin="Minutes before the start that check-in opens (0: no check-in)",
        rated="Whether its games move ratings",
        ready="Minutes a seated player has to make a first move before the AI plays",
        house_rules="The game's house rules as name=value pairs, e.g. races=2 track=short",
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def create(
        self,
        interaction: Interaction,
        game: str,
        rounds: app_commands.Range[int, 2, 12],
        starts_in: str,
        table_size: app_commands.Range[int, 2, 12] | None = None,
        checkin: app_commands.Range[int, 0, 1440] = 0,
        rated: bool = True,
        ready: app_commands.Range[int, 1, 60] = int(READY_WINDOW // 60),
        house_rules: app_commands.Range[str, 0, MAX_TEXT] = "",
    ) -> None:
        """Open a tournament's sign-up in this channel (Manage Server)."""
        require_manager(interaction, NOT_ADMIN)
        guild = guild_id(interaction)
        if not isinstance(interaction.channel, discord.TextChannel):
            raise UserError(_("Create a tournament in a text channel: each table gets a thread."))
        check_permissions(interaction)
        now = time.time()
        try:
            starts_at = parse_start(starts_in, now)
        except BadStart as e:
            raise UserError(_(BAD_START[str(e)]).format(start=starts_in[:40])) from None
        rules = parse_house_rules(house_rules, self.bot.service.engine(game).options)
        language = await self.bot.storage.guild_language(guild) or current()
        plan = Plan(
            game=game,
            rounds=rounds,
            table_size=table_size or DEFAULT_TABLE_SIZE[game],
            starts_at=starts_at,
            checkin_at=starts_at - checkin * 60 if checkin else None,
            ready_window=ready * 60.0,
            rated=rated,
            options={**rules, GAME_LANGUAGE: language},
        )
        event = await self.service.create(
            plan, guild_id=guild, channel_id=interaction.channel.id, host_id=interaction.user.id
        )
        with speaking(language):
            embed, view, _files = await self._card(event)  # no standings before the start
        message_id = await Reply.of(interaction).send(embed=embed, view=view)
        if message_id is not None:
            await self.bot.storage.set_card(event.id, message_id)
            await self.bot.storage.card_shown(event.id, event.revision)
        self.bot.tournaments.wake()

    @tournament.command(name="show")
    async def show(self, interaction: Interaction) -> None:
        """This server's current or next tournament, with a link to its card."""
        event = await self.bot.storage.guild_tournament(guild_id(interaction))
        if event is None:
            raise UserError(_("This server has no tournaments yet."))
        embed, _view, _files = await self._card(event, picture=False)
        if event.card_message_id is not None:
            link = (
                f"https://discord.com/channels/{event.guild_id}/{event.channel_id}/"
                f"{event.card_message_id}"
            )
            embed.url = link
        await Reply.of(interaction).private(embed=embed)

    @tournament.command(name="standings")
    @app_commands.describe(id="Which tournament (default: this server's current one)")
    async def standings(
        self, interaction: Interaction, id: app_commands.Range[int, 1, MAX_TOURNAMENT] | None = None
    ) -> None:
        """A tournament's standings, for you alone."""
        event = await self._event(interaction, id, admin=False)
        rows = await self._rows(event)
        embed = discord.Embed(title=self._title(event), description=standings_text(rows))
        await Reply.of(interaction).private(embed=embed, files=await self._picture(embed, rows))

    # --- managing ----------------------------------------------------------------------------

    @tournament.command(name="pause")
    async def pause(self, interaction: Interaction) -> None:
        """Stop rounds from starting by themselves (Manage Server)."""
        event = await self._event(interaction, None, admin=True)
        await self.service.pause(event, True)
        await self._done(interaction, _("Tournament #{id} is paused.").format(id=event.id))

    @tournament.command(name="resume")
    async def resume(self, interaction: Interaction) -> None:
        """Let rounds start by themselves again (Manage Server)."""
        event = await self._event(interaction, None, admin=True)
        await self.service.pause(event, False)
        await self._done(interaction, _("Tournament #{id} goes on.").format(id=event.id))

    @tournament.command(name="next-round")
    async def next_round(self, interaction: Interaction) -> None:
        """Start the next round now, once every table of this one has ended (Manage Server)."""
        event = await self._event(interaction, None, admin=True)
        done = await self.service.next_round(event)
        text = (
            _("Round {round} is being dealt.").format(round=event.round + 1)
            if done == "dealt"
            else _("That was the last round: the final standings are on their way.")
        )
        await self._done(interaction, text)

    @tournament.command(name="drop")
    @app_commands.describe(member="The entrant to drop")
    async def drop(self, interaction: Interaction, member: discord.Member) -> None:
        """Drop an entrant; the AI plays their seat at a table in play (Manage Server)."""
        event = await self._event(interaction, None, admin=True)
        await self.service.drop(event.id, member.id)
        for played in await self.service.stand_in(event, member.id):
            await self.handed_to_ai(played)
        text = _("{member} was dropped from tournament #{id}.")
        await self._done(interaction, text.format(member=member.mention, id=event.id))

    @tournament.command(name="cancel")
    async def cancel(self, interaction: Interaction) -> None:
        """Cancel the tournament: nobody scores (Manage Server)."""
        event = await self._event(interaction, None, admin=True)
        await self.service.cancel(event)
        await self._done(interaction, _("Tournament #{id} is cancelled.").format(id=event.id))

    async def _done(self, interaction: Interaction, text: str) -> None:
        self.bot.tournaments.wake()
        await Reply.of(interaction).private(text)

    async def _event(
        self, interaction: Interaction, number: int | None, *, admin: bool
    ) -> TournamentRow:
        """The tournament a command is about: `number`, else the channel's open one, else
        the server's current one; managing needs Manage Server."""
        if admin:
            require_manager(interaction, NOT_ADMIN)
        guild = guild_id(interaction)
        storage = self.bot.storage
        if number is not None:
            event = await storage.tournament(number)
        else:
            here = await storage.open_tournament_in(interaction.channel_id or 0)
            event = here or await storage.guild_tournament(guild)
        if event is None or event.guild_id != guild:
            raise UserError(_("This server has no such tournament."))
        return event

    # --- the card ----------------------------------------------------------------------------

    def _title(self, event: TournamentRow) -> str:
        game = self.bot.presenters.get(event.game).title
        return _("🏆 Tournament #{id}: {game}").format(id=event.id, game=game)

    async def _rows(
        self, event: TournamentRow, entrants: list[EntrantRow] | None = None
    ) -> list[tuple[Standing, str]]:
        """The standings with each entrant's name, leader first."""
        entrants = entrants if entrants is not None else await self.bot.storage.entrants(event.id)
        lines = await self.service.standings(event, entrants)
        return named(lines, {e.member_id: e.name for e in entrants})

    async def _picture(
        self, embed: discord.Embed, rows: list[tuple[Standing, str]]
    ) -> list[discord.File]:
        """The standings as a picture under `embed`, with its alt text (none without rows)."""
        if not rows:
            return []
        title = embed.title or ""
        picture = await asyncio.to_thread(render_standings, rows, title=title, language=current())
        embed.set_image(url=f"attachment://{PICTURE}")
        alt = standings_alt(title, rows)
        return [discord.File(io.BytesIO(picture), filename=PICTURE, description=alt)]

    async def _card(
        self, event: TournamentRow, *, picture: bool = True
    ) -> tuple[discord.Embed, discord.ui.View | None, list[discord.File]]:
        """The card's embed (what, when, who, how it stands), its buttons and (unless told
        not to) its standings picture, once a round has results."""
        entrants = await self.bot.storage.entrants(event.id)
        playing = [e for e in entrants if e.status == IN]
        now = time.time()
        facts = [
            _("{rounds} rounds · tables of {size} · {rated}").format(
                rounds=event.rounds,
                size=event.table_size,
                rated=_("rated") if event.rated else _("unrated"),
            )
        ]
        declared = {o.name: o for o in self.bot.service.engine(event.game).options}
        rules = [
            f"{_(declared[name].title)}: {_(declared[name].word(value))}"
            for name, value in event.options.items()
            if name in declared
        ]
        if rules:
            facts.append(_("House rules: {rules}").format(rules=" · ".join(rules)))
        if event.state == SIGNUP:
            facts.append(_("Starts {when}").format(when=stamp(event.starts_at)))
            if event.checkin_at is not None:
                facts.append(_("Check-in opens {when}").format(when=stamp(event.checkin_at)))
        elif event.state == RUNNING:
            line = _("Round {round} of {rounds}").format(round=event.round, rounds=event.rounds)
            facts.append(line + (" · " + _("paused") if event.paused else ""))
        elif event.state == FINISHED:
            facts.append(_("Finished: the final standings are below."))
        elif event.state == CANCELLED:
            facts.append(_("Cancelled: nobody scores."))
        embed = discord.Embed(
            title=self._title(event),
            description="\n".join(facts),
            colour=self.bot.presenters.get(event.game).colour,
        )
        embed.add_field(
            name=_("Entrants ({n})").format(n=len(playing)),
            value=_mention_list(playing) or _("Nobody yet: click **Join**."),
            inline=False,
        )
        files: list[discord.File] = []
        if event.state in (RUNNING, FINISHED) and event.round > 0:
            rows = await self._rows(event, entrants)
            if any(s.played for s, _name in rows):
                text = standings_text(rows, top=CARD_TOP)
                embed.add_field(name=_("Standings"), value=text[:1024], inline=False)
                files = await self._picture(embed, rows) if picture else []
        return embed, self._view(event, now), files

    def _view(self, event: TournamentRow, now: float) -> discord.ui.View | None:
        if not event.late_join_open:
            return None
        view = discord.ui.View(timeout=None)
        view.add_item(
            TournamentButton(
                TournamentId(event.id, "join"), label=_("Join"), style=discord.ButtonStyle.success
            )
        )
        if event.state == SIGNUP:
            view.add_item(TournamentButton(TournamentId(event.id, "leave"), label=_("Leave")))
        if event.checking_in(now):
            view.add_item(
                TournamentButton(
                    TournamentId(event.id, "checkin"),
                    label=_("Check in"),
                    style=discord.ButtonStyle.primary,
                )
            )
        return view

    async def click(self, reply: Reply, tid: TournamentId) -> None:
        """Join, Leave or Check in on a card (the click's answer redraws it)."""
        event = await self.service.event(tid.tournament)
        if reply.interaction.guild_id != event.guild_id:
            raise UserError(_("That tournament is not this server's."))
        user = reply.interaction.user
        if tid.verb == "join":
            event = await self.service.join(event.id, user.id, user.display_name)
        elif tid.verb == "leave":
            event = await self.service.leave(event.id, user.id)
        else:
            event = await self.service.check_in(event.id, user.id)
        message = reply.interaction.message
        if message is None or message.id != event.card_message_id:
            # Not the card itself (a forged message): the clock redraws the card.
            self.bot.tournaments.wake()
            await reply.private(_("Done: the tournament's card shows it shortly."))
            return
        with speaking(game_language(event.options)):  # the card is public
            embed, view, files = await self._card(event)
        if await reply.update(embed=embed, view=view, attachments=files):
            await self.bot.storage.card_shown(event.id, event.revision)
        else:
            self.bot.tournaments.wake()

    # --- the Desk: what the clock shows -----------------------------------------------------

    async def show_card(self, event: TournamentRow) -> None:
        """Redraw the card, at most once every `card_every` seconds (a redraw held back is
        done when the time comes)."""
        if event.card_message_id is None:
            return
        wait = self._edited.get(event.id, 0.0) + self.card_every - time.monotonic()
        if wait > 0:
            if event.id not in self._later:
                self._later[event.id] = asyncio.create_task(self._redraw_later(event.id, wait))
            return
        self._edited[event.id] = time.monotonic()
        with speaking(game_language(event.options)):
            embed, view, files = await self._card(event)
        card = self._channel(event).get_partial_message(event.card_message_id)
        try:
            await card.edit(embed=embed, view=view, attachments=files)
        except discord.NotFound:
            log.info("tournament %d: its card is gone", event.id)
        await self.bot.storage.card_shown(event.id, event.revision)

    async def _redraw_later(self, tournament_id: int, wait: float) -> None:
        try:
            await asyncio.sleep(wait)
        finally:
            self._later.pop(tournament_id, None)
        self.bot.tournaments.wake()

    def _channel(self, event: TournamentRow) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(event.channel_id, guild_id=event.guild_id)

    async def ping_check_in(self, event: TournamentRow) -> None:
        """Tell every entrant in the channel that check-in is open."""
        entrants = [e for e in await self.bot.storage.entrants(event.id) if e.status == IN]
        waiting = [e.member_id for e in entrants if not e.checked_in]
        with speaking(game_language(event.options)):
            text = _(
                "✅ Check-in for tournament #{id} is open: click **Check in** on its card before "
                "the start, {when}, or you are dropped."
            ).format(id=event.id, when=stamp(event.starts_at))
        for start in range(0, len(waiting), MENTIONS_PER_MESSAGE):
            chunk = waiting[start : start + MENTIONS_PER_MESSAGE]
            await self._channel(event).send(
                f"{text}\n{' '.join(f'<@{m}>' for m in chunk)}",
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(m) for m in chunk]),
            )

    async def open_table(self, event: TournamentRow, table: TableRow, game: LoadedGame) -> None:
        """The table's thread (made if the game has none), its members pinged, its first
        board shown, and its timers and bots armed."""
        thread_id = game.row.thread_id
        if thread_id is None:
            channel = self.bot.get_channel(event.channel_id)
            if not isinstance(channel, discord.TextChannel):
                log.warning("tournament %d: its channel is gone", event.id)
                return
            with speaking(game_language(event.options)):
                name = _("Tournament #{id} · round {round} · table {table}").format(
                    id=event.id, round=table.round, table=table.table_no
                )
                ping = _(
                    "🏆 Tournament #{id}, round {round}, table {table}: {members}. Make your "
                    "first move by {when}, or the AI takes your seat and you place last here."
                ).format(
                    id=event.id,
                    round=table.round,
                    table=table.table_no,
                    members=" ".join(f"<@{m}>" for m in table.members),
                    when=stamp(table.ready_at or time.time()),
                )
            # A thread of this name made by an earlier try that stopped before saving it.
            me = self.bot.user.id if self.bot.user else None
            made = [t for t in channel.threads if t.name == name[:100] and t.owner_id == me]
            thread = (
                made[0]
                if made
                else await channel.create_thread(
                    name=name[:100],
                    type=discord.ChannelType.public_thread,
                    auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                )
            )
            await self.bot.service.set_ids(game.row.id, thread_id=thread.id)
            with contextlib.suppress(discord.HTTPException):
                await thread.send(
                    ping,
                    allowed_mentions=discord.AllowedMentions(
                        users=[discord.Object(m) for m in table.members]
                    ),
                )
        await self.bot.publisher.publish(game.row.id)
        self.bot.autopilot.after(await self.bot.service.table(game.row.id))

    async def handed_to_ai(self, played: Played) -> None:
        """The AI took a member's seat: the board shows it, and the AI plays on."""
        await self.bot.publisher.publish(played.table.row.id, played=played)
        self.bot.autopilot.after(played.table)

    async def post_final(self, event: TournamentRow, tried_before: bool) -> int | None:
        """The final standings, with the podium, in the event's channel."""
        rows = await self._rows(event)
        with speaking(game_language(event.options)):
            title = _("🏁 {title}: final standings").format(title=self._title(event))
            medals = ("🥇", "🥈", "🥉")
            podium = " ".join(
                f"{m} <@{s.member_id}>" for m, (s, _n) in zip(medals, rows, strict=False)
            )
            embed = discord.Embed(title=title, description=podium or None)
            embed.add_field(name=_("Standings"), value=standings_text(rows)[:1024], inline=False)
            files = await self._picture(embed, rows)
        if tried_before and (posted := await self._posted(event, title)):
            return posted
        try:
            message = await self._channel(event).send(embed=embed, files=files)
        except discord.HTTPException:
            log.warning("tournament %d: its final standings could not be posted", event.id)
            return None
        return message.id

    async def _posted(self, event: TournamentRow, title: str) -> int | None:
        """The final post among the channel's latest messages, if an earlier try sent it."""
        channel = self.bot.get_channel(event.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return None
        with contextlib.suppress(discord.HTTPException):
            async for message in channel.history(limit=50):
                if message.author == self.bot.user and any(
                    e.title == title for e in message.embeds
                ):
                    return message.id
        return None


def _mention_list(entrants: list[EntrantRow]) -> str:
    """Entrants as mentions, as many as fit a field, then how many more."""
    text = ""
    for n, entrant in enumerate(entrants):
        more = _("and {n} more").format(n=len(entrants) - n)
        if len(text) + len(f"<@{entrant.member_id}> ") + len(more) > 1000:
            return f"{text}{more}"
        text += f"<@{entrant.member_id}> "
    return text.strip()


async def setup(bot: ParlourBot) -> None:
    """Load the cog, route its card's clicks to it, and let the tournament clock show events
    through it."""
    cog = Tournaments(bot)
    bot.clicks.add(TournamentId, cog.click)
    bot.add_dynamic_items(TournamentButton)
    if hasattr(bot, "tournaments"):  # not when only syncing the commands
        bot.tournaments.desk = cog
    await bot.add_cog(cog)
