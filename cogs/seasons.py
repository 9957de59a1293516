"""`/season start`, `/season end` and `/season show`, a season's board (for `/leaderboard`)
and the card posted when a season ends (`bot.season_clock` decides when).

Starting and ending need Manage Server, checked when the command runs (a member's client
may not hold the command's definition) and again when the end's confirmation is clicked: its
buttons (`se1:<owner>:<season>:<yes|no>`) name the admin who asked and the season, so a
forged or stale click changes nothing.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
import re
import time
from datetime import UTC, datetime

import discord
from babel.dates import format_date
from discord import app_commands
from discord.ext import commands

from bot.client import Interaction, ParlourBot
from bot.errors import UserError
from bot.language.command_translator import spoken_command
from bot.language.i18n import N_, _, babel_locale, language_of, ngettext, speaking
from bot.language.wording import FORMER_PLAYER, decimal, number, rating
from bot.seasons import MAX_NAME, NONE, RECURS, BadSeason, parse_end
from bot.storage import SeasonRow, SeasonRunning, SeasonStanding
from bot.ui.components import ParlourButton
from bot.ui.custom_ids import SeasonEndId
from bot.ui.permissions import require_manager
from bot.ui.replies import Reply
from cogs.options import guild_id
from cogs.scoreboard import GAME_CHOICES
from images.season_card import CardGame, CardLine, render_card

log = logging.getLogger(__name__)

Postable = discord.TextChannel | discord.Thread

ALL = "all"
MAX_SEASON = 1_000_000  # the largest season number an option takes
CARD_TOP = 10  # players per game on the season's card
LOOK_BACK = 50  # messages after a season's end looked through for its card posted already
CLOCK_SLACK = 300.0  # seconds Discord's clock may be behind ours: a card posted from the end
SHOW_TOP = 3  # players per game in `/season show`
BOARD_TOP = 15  # players per game on `/leaderboard season:`
GAMES_CHOICES = [app_commands.Choice(name="all games", value=ALL), *GAME_CHOICES]
RECUR_CHOICES = [
    app_commands.Choice(name="no: one season", value=NONE),
    app_commands.Choice(name="weekly", value="weekly"),
    app_commands.Choice(name="monthly", value="monthly"),
    app_commands.Choice(name="quarterly", value="quarterly"),
]
RECUR_WORDS = {
    NONE: N_("does not recur"),
    "weekly": N_("recurs weekly"),
    "monthly": N_("recurs monthly"),
    "quarterly": N_("recurs quarterly"),
}
MENTIONS = re.compile(r"<[@#]|@everyone|@here")  # a user, role or channel, or everyone
BAD_END = {
    "unparseable": N_("`{end}` is not a date: give a UTC date as YYYY-MM-DD, or 7d, 30d, 90d."),
    "past": N_("`{end}` has passed: a season must end in the future."),
    "too far": N_("`{end}` is more than a year away: a season lasts a year at most."),
}
NOT_ADMIN = N_("Only members who can manage the server can start or end a season.")
NO_SUCH_SEASON = N_("This server has no season {number}.")
ASK_END = N_("End season {number}, “{name}”, now? Its tables are frozen and its card posted.")


class SeasonEndButton(ParlourButton[SeasonEndId], kind=SeasonEndId):
    """The "End it" or "Keep it running" under `/season end`'s question: its click goes to the
    `SeasonEndId` route."""


def card_filename(season: SeasonRow) -> str:
    """The name of a season's card picture: what marks the card in its channel (`season-3.png`),
    in any language."""
    return f"season-{season.number}.png"


def card_nonce(season: SeasonRow) -> int:
    """The card's nonce (sent with `enforce_nonce`): the same for every try at posting one
    season's card, so Discord answers a second post within minutes with the first message."""
    digest = hashlib.blake2b(f"season card {season.guild_id} {season.number}".encode())
    return int.from_bytes(digest.digest()[:8]) >> 1  # 63 bits: at most 19 digits


def _utc(moment: float) -> datetime:
    return datetime.fromtimestamp(moment, UTC)


def when(moment: float) -> str:
    """A date as the current language writes it (UTC)."""
    return format_date(_utc(moment), "medium", locale=babel_locale())


def season_title(season: SeasonRow) -> str:
    """A season as named: "Autumn (season 2)"."""
    return _("{name} (season {number})").format(name=season.name, number=season.number)


def points(value: float) -> str:
    """Season points as shown: one decimal at most."""
    return decimal(value, "0.#")


def who(row: SeasonStanding) -> str:
    """A player on a season's board: a mention, or a former player."""
    return _(FORMER_PLAYER) if row.player_id is None else f"<@{row.player_id}>"


def standing_line(place: int, row: SeasonStanding) -> str:
    """One line of a season's board: "**1.** <@1> — **20** pts · rating 231 · 4 played"."""
    played = ngettext("{n} played", "{n} played", row.played).format(n=number(row.played))
    return _("**{place}.** {player} — **{points}** pts · rating {rating} · {played}").format(
        place=place,
        player=who(row),
        points=points(row.points),
        rating=rating(row.rating),
        played=played,
    )


def season_board_embed(
    season: SeasonRow, title: str, colour: int, rows: list[SeasonStanding], min_games: int
) -> discord.Embed:
    """A game's board in a season: its ranked players by points (then rating), and a note
    on the others and on how the board was made."""
    embed = discord.Embed(
        title=_("{game} — {season}").format(game=title, season=season_title(season)),
        colour=colour,
    )
    ranked = [r for r in rows if r.ranked]
    lines = [standing_line(n, r) for n, r in enumerate(ranked[:BOARD_TOP], start=1)]
    nobody = ngettext(
        "Nobody has played {n} season game yet.",
        "Nobody has played {n} season games yet.",
        min_games,
    ).format(n=number(min_games))
    embed.description = "\n".join(lines) or nobody
    notes = [
        ngettext(
            "A player needs {n} season game to be ranked",
            "A player needs {n} season games to be ranked",
            min_games,
        ).format(n=number(min_games))
    ]
    if season.running:
        notes.append(_("Ends {date} (UTC)").format(date=when(season.ends_at)))
    else:
        notes.append(_("Final table, frozen on {date}").format(date=when(season.window[1])))
    notes.append(_("Points: (players − place) ÷ (players − 1) × 10 among the humans"))
    embed.set_footer(text=". ".join(notes) + ".")
    return embed


class Seasons(commands.Cog):
    """`/season`, the end's confirmation (`SeasonEndId`) and the season's card."""

    def __init__(self, bot: ParlourBot) -> None:
        """The cog of `bot`."""
        self.bot = bot

    season = app_commands.Group(
        name="season", description="This server's seasons of play", guild_only=True
    )

    @season.command(name="start")
    @app_commands.describe(
        name="The season's name (100 characters at most)",
        ends="When it ends: a UTC date YYYY-MM-DD, or 7d, 30d, 90d",
        games="Which games it counts",
        recur="Whether a new season follows when it ends",
    )
    @app_commands.choices(games=GAMES_CHOICES, recur=RECUR_CHOICES)
    async def start(
        self,
        interaction: Interaction,
        name: str,
        ends: str,
        games: str = ALL,
        recur: str = NONE,
    ) -> None:
        """Start a season in this server (Manage Server)."""
        require_manager(interaction, NOT_ADMIN)
        guild = guild_id(interaction)
        name = " ".join(name.split())
        if not name or len(name) > MAX_NAME or MENTIONS.search(name):
            raise UserError(
                _("A season's name has 1 to {n} characters and no mentions.").format(n=MAX_NAME)
            )
        now = time.time()
        try:
            ends_at = parse_end(ends, now)
        except BadSeason as e:
            raise UserError(_(BAD_END[str(e)]).format(end=ends[:40])) from None
        if recur not in RECURS:
            raise UserError(_("Choose how the season recurs from the list."))
        try:
            season = await self.bot.storage.start_season(
                guild,
                name=name,
                ends_at=ends_at,
                games=None if games == ALL else games,
                recur=recur,
                channel_id=interaction.channel_id or 0,
                now=now,
            )
        except SeasonRunning:
            running = await self.bot.storage.running_season(guild)
            text = _("A season is running already: {season}. End it first with `{command}`.")
            raise UserError(
                text.format(
                    season=season_title(running) if running else "?",
                    command=spoken_command("/season end"),
                )
            ) from None
        self.bot.seasons.wake()
        await Reply.of(interaction).send(embed=self._season_embed(season))

    def _season_embed(self, season: SeasonRow) -> discord.Embed:
        games = (
            _("all games")
            if season.games is None
            else self.bot.presenters.get(season.games).title
            if season.games in self.bot.presenters
            else season.games
        )
        state = _("running") if season.running else _("ended")
        text = _("**{games}** · from {start} to {end} (UTC) · {recur} · {state}").format(
            games=games,
            start=when(season.starts_at),
            end=when(season.window[1]),
            recur=_(RECUR_WORDS.get(season.recur, RECUR_WORDS[NONE])),
            state=state,
        )
        return discord.Embed(title=season_title(season), description=text)

    @season.command(name="end")
    async def end(self, interaction: Interaction) -> None:
        """End this server's running season now (Manage Server; asks first)."""
        require_manager(interaction, NOT_ADMIN)
        running = await self.bot.storage.running_season(guild_id(interaction))
        if running is None:
            raise UserError(_("No season is running in this server."))
        me = interaction.user.id
        view = discord.ui.View(timeout=None)
        view.add_item(
            SeasonEndButton(
                SeasonEndId(me, running.number, "yes"),
                label=_("End it"),
                style=discord.ButtonStyle.danger,
            )
        )
        view.add_item(
            SeasonEndButton(SeasonEndId(me, running.number, "no"), label=_("Keep it running"))
        )
        ask = _(ASK_END).format(number=running.number, name=running.name)
        await Reply.of(interaction).private(ask, view=view)

    async def confirm_end(self, reply: Reply, sid: SeasonEndId) -> None:
        """The answer to `/season end`'s question (its asker's alone, still an admin)."""
        if reply.user_id != sid.owner:
            mine = _("This question is someone else's: use `{command}` for your own.")
            raise UserError(mine.format(command=spoken_command("/season end")))
        require_manager(reply.interaction, NOT_ADMIN)
        if sid.choice != "yes":
            await reply.update(content=_("Nothing was changed."), view=None)
            return
        ended = await self.bot.seasons.end_now(guild_id(reply.interaction), sid.number)
        if ended is None:
            raise UserError(
                _("Season {number} is not running: nothing was changed.").format(number=sid.number)
            )
        done = _("Season {number} has ended: its card is on its way.").format(number=sid.number)
        await reply.update(content=done, view=None)

    @season.command(name="show")
    @app_commands.describe(number="Which season (default: the current or latest one)")
    async def show(
        self, interaction: Interaction, number: app_commands.Range[int, 1, MAX_SEASON] | None = None
    ) -> None:
        """A season's name, dates and games, each game's top 3 and your place."""
        guild = guild_id(interaction)
        storage = self.bot.storage
        if number is None:
            season = await storage.running_season(guild) or await storage.latest_season(guild)
            if season is None:
                raise UserError(_("This server has no seasons yet."))
        else:
            season = await self.season_numbered(guild, number)
        min_games = await storage.season_min_games(guild)
        embed = self._season_embed(season)
        me = interaction.user.id
        for game in await storage.season_games(season):
            if game not in self.bot.presenters:
                continue
            rows = await storage.season_board(season, game, min_games)
            ranked = [r for r in rows if r.ranked]
            lines = [standing_line(n, r) for n, r in enumerate(ranked[:SHOW_TOP], start=1)]
            mine = next((n for n, r in enumerate(ranked, start=1) if r.player_id == me), None)
            if mine is not None:
                lines.append(_("You: place {place} of {n}").format(place=mine, n=len(ranked)))
            elif any(r.player_id == me for r in rows):
                lines.append(_("You: not ranked yet"))
            value = "\n".join(lines) or _("Nobody ranked yet.")
            embed.add_field(
                name=self.bot.presenters.get(game).title, value=value[:1024], inline=False
            )
        if not embed.fields:
            embed.add_field(name="\u200b", value=_("No games played in this season yet."))
        await Reply.of(interaction).private(embed=embed)

    async def season_numbered(self, guild: int, number: int) -> SeasonRow:
        """The server's season `number`, or a refusal that it has none."""
        season = await self.bot.storage.season(guild, number)
        if season is None:
            raise UserError(_(NO_SUCH_SEASON).format(number=number))
        return season

    # --- the card ----------------------------------------------------------------------------

    async def announce(self, season: SeasonRow, look_first: bool) -> int | None:
        """Post an ended season's card in its channel (or the server's first writable one):
        each game's top ten as text and as a picture with alt text, in the server's
        language. With `look_first` (an earlier try was cut short), a card already among
        the channel's latest messages is taken instead. The message's id; None when there
        is nowhere to post (logged)."""
        guild = self.bot.get_guild(season.guild_id)
        if guild is None:
            log.warning(
                "season %d of server %d: not in the server, no card", season.number, season.guild_id
            )
            return None
        channel = self._writable(guild, season.channel_id)
        if channel is None:
            log.warning(
                "season %d of server %d: no channel to post its card in",
                season.number,
                season.guild_id,
            )
            return None
        if look_first and (posted := await self._posted(channel, season)):
            return posted
        stored = await self.bot.storage.guild_language(season.guild_id)
        with speaking(stored or language_of(guild.preferred_locale)):
            embed, games, alt = await self._card(season)
            title, subtitle = (
                embed.title or "",
                _("from {start} to {end} (UTC)").format(
                    start=when(season.starts_at), end=when(season.window[1])
                ),
            )
            picture = await asyncio.to_thread(render_card, title, subtitle, games)
        filename = card_filename(season)
        file = discord.File(io.BytesIO(picture), filename=filename, description=alt[:1024])
        embed.set_image(url=f"attachment://{filename}")
        message = await channel.send(embed=embed, file=file, nonce=card_nonce(season))
        return message.id

    async def _posted(self, channel: Postable, season: SeasonRow) -> int | None:
        """The id of the season's card among the channel's first messages after the season
        ended, if an earlier try posted it: the bot's message with the card's picture, named
        after the season (whatever language the card was worded in)."""
        assert season.ended_at is not None  # only an ended season has a card
        since = discord.Object(discord.utils.time_snowflake(_utc(season.ended_at - CLOCK_SLACK)))
        filename = card_filename(season)
        try:
            async for message in channel.history(limit=LOOK_BACK, after=since):
                mine = message.author.id == (self.bot.user.id if self.bot.user else None)
                if mine and any(a.filename == filename for a in message.attachments):
                    return message.id
        except discord.HTTPException:  # no history to read: post it
            log.info("channel %d: could not read its history for a card", channel.id)
        return None

    def _writable(self, guild: discord.Guild, channel_id: int) -> Postable | None:
        """The season's channel (or thread) if the bot may post the card there, else the
        server's first text channel where it may."""
        me = guild.me
        first = guild.get_channel_or_thread(channel_id)
        candidates: list[Postable] = (
            [first] if isinstance(first, discord.TextChannel | discord.Thread) else []
        )
        by_place: list[discord.TextChannel] = sorted(guild.text_channels, key=lambda c: c.position)
        candidates += by_place
        for channel in candidates:
            allowed = channel.permissions_for(me)
            sends = (
                allowed.send_messages_in_threads
                if isinstance(channel, discord.Thread)
                else allowed.send_messages
            )
            if sends and allowed.attach_files and allowed.embed_links:
                return channel
        return None

    async def _card(self, season: SeasonRow) -> tuple[discord.Embed, list[CardGame], str]:
        """The card's words: the embed (each game's top ten), the picture's tables, its alt."""
        min_games = await self.bot.storage.season_min_games(season.guild_id)
        embed = discord.Embed(
            title=_("{season} — final standings").format(season=season_title(season))
        )
        games, alt = [], [embed.title or ""]
        for game in await self.bot.storage.season_games(season):
            if game not in self.bot.presenters:
                continue
            presenter = self.bot.presenters.get(game)
            top = await self.bot.storage.season_board(season, game, min_games, top=CARD_TOP)
            lines = [standing_line(n, r) for n, r in enumerate(top, start=1)]
            empty = _("Nobody played enough games to be ranked.")
            embed.add_field(
                name=presenter.title, value="\n".join(lines)[:1024] or empty, inline=False
            )
            card_lines = [
                CardLine(
                    f"{n}.",
                    _(FORMER_PLAYER) if r.player_id is None else r.name or "?",
                    _("{points} pts · rating {rating}").format(
                        points=points(r.points), rating=rating(r.rating)
                    ),
                )
                for n, r in enumerate(top, start=1)
            ]
            games.append(CardGame(presenter.title, presenter.colour, card_lines, empty))
            said = "; ".join(f"{c.place} {c.name}, {c.figures}" for c in card_lines) or empty
            alt.append(f"{presenter.title}: {said}")
        if not games:
            embed.description = _("No games were played in this season.")
        return embed, games, ". ".join(alt)


async def setup(bot: ParlourBot) -> None:
    """Load the cog, route its question's answers to it, and let the season clock post
    cards through it."""
    cog = Seasons(bot)
    bot.clicks.add(SeasonEndId, cog.confirm_end)
    bot.add_dynamic_items(SeasonEndButton)
    if hasattr(bot, "seasons"):  # not when only syncing the commands
        bot.seasons.announce = cog.announce
    await bot.add_cog(cog)
