"""`/history` and `/replay`: a server's finished games, and any of them replayed privately.

Both answer privately, with buttons that carry everything their click needs (the viewer's
owner, the game, the step or page), so they keep working after a restart. Only the member
who opened a viewer or a list can use its buttons.
"""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import Interaction, ParlourBot
from bot.errors import UserError
from bot.language.command_translator import spoken_command
from bot.language.i18n import _, ngettext
from bot.language.wording import number
from bot.storage import SeasonRow
from bot.table.history import Page, history_page, reachable
from bot.table.replay import Replay
from bot.ui.components import ParlourButton
from bot.ui.custom_ids import PageId, ViewerId
from bot.ui.replies import Reply
from cogs.options import guild_id
from cogs.replay_viewer import (
    SUMMARY,
    ReplayButton,
    ViewerMessage,
    picture_at,
    summary,
    summary_alt,
    viewer_message,
)
from cogs.scoreboard import GAME_CHOICES
from cogs.seasons import MAX_SEASON, NO_SUCH_SEASON, season_title

MAX_OPTION_INT = 2**53 - 1  # Discord's largest integer option


class HistoryButton(ParlourButton[PageId], kind=PageId):
    """◀ or ▶ under a `/history` list: its click goes to the `PageId` route."""


class Community(commands.Cog):
    """`/history` and `/replay`, and the clicks on their buttons (`PageId`, `ViewerId`)."""

    def __init__(self, bot: ParlourBot) -> None:
        """The cog of `bot`."""
        self.bot = bot

    # --- /history ---------------------------------------------------------------------------

    @app_commands.command(name="history")
    @app_commands.guild_only()
    @app_commands.describe(
        game="Only this game",
        user="Only games this member played",
        season="Only games of this season (its number)",
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def history(
        self,
        interaction: Interaction,
        game: str | None = None,
        user: discord.User | None = None,
        season: app_commands.Range[int, 1, MAX_SEASON] | None = None,
    ) -> None:
        """This server's finished games, newest first, with their replays' ids."""
        if season is not None:
            await self._season(guild_id(interaction), season)  # refused if there is none
        who = None if user is None else user.id
        pid = PageId(interaction.user.id, 0, game, who, "open", season)
        embed, view = await self._page(guild_id(interaction), pid)
        await Reply.of(interaction).private(embed=embed, view=view)

    async def page_click(self, reply: Reply, pid: PageId) -> None:
        """◀ or ▶ clicked: the page it leads to, in place (its owner's alone)."""
        check_owner(reply, pid.owner, spoken_command("/history"))
        if not reachable(pid.page, pid.user):
            gone = _("That page of the list does not exist: use `{command}` for a new list.")
            raise UserError(gone.format(command=spoken_command("/history")))
        embed, view = await self._page(guild_id(reply.interaction), pid)
        await reply.update(embed=embed, view=view)

    async def _season(self, guild: int, number: int) -> SeasonRow:
        season = await self.bot.storage.season(guild, number)
        if season is None:
            raise UserError(_(NO_SUCH_SEASON).format(number=number))
        return season

    async def _page(self, guild: int, pid: PageId) -> tuple[discord.Embed, discord.ui.View]:
        season = None if pid.season is None else await self._season(guild, pid.season)
        page = await history_page(
            self.bot.service,
            self.bot.storage,
            self.bot.presenters,
            guild,
            pid.page,
            game=pid.game if season is None or season.games is None else season.games,
            player_id=pid.user,
            between=None if season is None else season.window,
        )
        text = _history_text(page)
        if season is not None:
            text = _("Games of {season}:").format(season=season_title(season)) + f"\n\n{text}"
        if pid.user is not None:
            played = _("Games {player} played:").format(player=f"<@{pid.user}>")
            text = f"{played}\n\n{text}"
        embed = discord.Embed(title=_history_title(pid), description=text[:4096])
        embed.set_footer(text=_("Page {page}").format(page=number(page.number + 1)))
        view = discord.ui.View(timeout=None)
        for move, label, emoji, tag, off in (
            (-1, _("Newer"), "◀", "back", page.number == 0),
            (1, _("Older"), "▶", "on", not page.more),
        ):
            target = PageId(
                pid.owner, max(0, page.number + move), pid.game, pid.user, tag, pid.season
            )
            view.add_item(HistoryButton(target, label=label, emoji=emoji, disabled=off))
        return embed, view

    # --- /replay ----------------------------------------------------------------------------

    @app_commands.command(name="replay")
    @app_commands.guild_only()
    @app_commands.rename(game_id="id")
    @app_commands.describe(
        game_id="The game's number: #N on its board, or from /history",
        season="The season it was played in (checked)",
    )
    async def replay(
        self,
        interaction: Interaction,
        game_id: app_commands.Range[int, 1, MAX_OPTION_INT],
        season: app_commands.Range[int, 1, MAX_SEASON] | None = None,
    ) -> None:
        """Replay a finished game of this server, move by move (only you see it)."""
        replay = await self.bot.replays.open(game_id, guild_id(interaction))
        if season is not None:
            await self._in_season(guild_id(interaction), season, replay)
        viewer = await self._viewer(replay, 0, interaction.user.id)
        await Reply.of(interaction).private(embed=viewer.embed, file=viewer.file, view=viewer.view)

    async def _in_season(self, guild: int, number: int, replay: Replay) -> None:
        """Refuse a replay whose game was not played in season `number`."""
        season = await self._season(guild, number)
        row = replay.table.row
        finished = await self.bot.storage.finished_at(row.id)
        start, end = season.window
        if not season.counts(row.game) or finished is None or not start <= finished < end:
            text = _("Game #{id} was not played in {season}.")
            raise UserError(text.format(id=row.id, season=season_title(season)))

    async def viewer_click(self, reply: Reply, vid: ViewerId) -> None:
        """A replay viewer's button clicked: the step it leads to, in place, or the animated
        summary (its owner's alone)."""
        check_owner(reply, vid.owner, f"{spoken_command('/replay id')}:{vid.game_id}")
        replay = await self.bot.replays.open(vid.game_id, guild_id(reply.interaction))
        if vid.tag == SUMMARY:
            await self._summary(reply, replay)
            return
        viewer = await self._viewer(replay, replay.clamp(vid.step), vid.owner)
        await reply.update(embed=viewer.embed, attachments=[viewer.file], view=viewer.view)

    async def _viewer(self, replay: Replay, step: int, owner: int) -> ViewerMessage:
        game = replay.table.row.game
        engine, presenter = self.bot.service.engine(game), self.bot.presenters.get(game)
        picture = await asyncio.to_thread(picture_at, replay, presenter, step)
        return viewer_message(replay, engine, presenter, step, owner, picture)

    async def _summary(self, reply: Reply, replay: Replay) -> None:
        """The animated summary, as a private message of its own (drawing it takes a while)."""
        await reply.defer()
        game = replay.table.row.game
        engine, presenter = self.bot.service.engine(game), self.bot.presenters.get(game)
        animation = await asyncio.to_thread(summary, replay, presenter)
        if len(animation.data) > reply.interaction.filesize_limit:
            raise UserError(_("This game's summary is too large for Discord to show."))
        kind = animation.filename.rsplit(".", 1)[-1].upper()
        frames = ngettext("{n} frame", "{n} frames", animation.frames).format(
            n=number(animation.frames)
        )
        line = _("**{game} #{id}**, one frame per {chapter} ({frames}, {kind}, {size} KB).")
        await reply.private(
            line.format(
                game=presenter.title,
                id=replay.table.row.id,
                chapter=presenter.chapter_word(),
                frames=frames,
                kind=kind,
                size=number(len(animation.data) // 1024),
            ),
            file=discord.File(
                io.BytesIO(animation.data),
                filename=animation.filename,
                description=summary_alt(replay, engine, presenter, frames),
            ),
        )


def check_owner(reply: Reply, owner: int, command: str) -> None:
    """Refuse a click on a private list's or viewer's button by anyone but its `owner`."""
    if reply.user_id != owner:
        mine = _("These buttons are someone else's: use `{command}` for your own.")
        raise UserError(mine.format(command=command))


def _history_title(pid: PageId) -> str:
    if pid.game is None:
        return _("Finished games")
    # A button of a game this version does not offer (withdrawn since) names it as stored.
    game = next((c.name for c in GAME_CHOICES if c.value == pid.game), pid.game)
    return _("Finished games of {game}").format(game=game)


def _history_text(page: Page) -> str:
    if not page.entries:
        return _("No finished games yet.") if page.number == 0 else _("No older games.")
    blocks = []
    replay, thread = spoken_command("/replay id"), _("thread")
    for e in page.entries:
        where = f" · [{thread}]({e.thread_url})" if e.thread_url else ""
        blocks.append(
            f"**{e.title} #{e.game_id}** · <t:{int(e.finished_at)}:d>{where} · "
            f"`{replay}:{e.game_id}`\n{e.players}\n{e.result}"
        )
    return "\n\n".join(blocks)


async def setup(bot: ParlourBot) -> None:
    """Load the cog, and route its buttons' clicks to it."""
    cog = Community(bot)
    bot.clicks.add(PageId, cog.page_click)
    bot.clicks.add(ViewerId, cog.viewer_click)
    bot.add_dynamic_items(ReplayButton, HistoryButton)
    await bot.add_cog(cog)
