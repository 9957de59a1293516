"""`/scoreboard` and `/stats`: standings from the results of finished games, and (in
`/stats`) each game's rating and rank."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import Interaction, ParlourBot
from bot.language.i18n import _, ngettext
from bot.language.wording import number, rating
from bot.ratings import MIN_GAMES
from bot.storage import RatingRow, StandingRow
from bot.table.presenter import Presenter
from bot.ui.replies import Reply
from cogs.options import guild_id
from rules.registry import ENGINES

GAME_CHOICES = [app_commands.Choice(name=e.title, value=e.name) for e in ENGINES.values()]
TOP = 15


def _who(row: StandingRow) -> str:
    bot = _("Bot {number}").format(number=-row.player_id)
    return f"🤖 {bot}" if row.is_bot else f"<@{row.player_id}>"


def record(wins: int, losses: int) -> str:
    """Wins and losses, as short as a standings line needs: "3 W / 1 L"."""
    return _("{wins} W / {losses} L").format(wins=number(wins), losses=number(losses))


def _stats(presenter: Presenter[Any], stats: Mapping[str, int], form: str) -> str:
    """A game's own scoreboard figures, each worded by `form` ("{title} {value}")."""
    return "".join(
        form.format(title=_(title), value=number(stats.get(key, 0)))
        for key, title in presenter.stat_columns.items()
    )


def rating_text(rows: Sequence[RatingRow], player: int) -> str:
    """A player's rating and rank among `rows` (a game's ratings, as `/leaderboard` shows
    them by default)."""
    mine = next((r.rating for r in rows if r.player_id == player), None)
    if mine is None:
        return _("Not rated yet")
    ranked = [r.player_id for r in rows if r.rating.ranked]
    shown = rating(mine.points)
    if player not in ranked:
        line = _("Rating {rating} · ranked after {needed} rated games ({played} so far)")
        return line.format(rating=shown, needed=MIN_GAMES, played=number(mine.played))
    line = _("Rating {rating} · rank {rank} of {ranked}")
    return line.format(rating=shown, rank=ranked.index(player) + 1, ranked=len(ranked))


class Scoreboard(commands.Cog):
    """`/scoreboard` and `/stats`."""

    def __init__(self, bot: ParlourBot) -> None:
        """The commands read `bot`'s stored results and ratings."""
        self.bot = bot

    @app_commands.command(name="scoreboard", extras={"public": True})
    @app_commands.guild_only()
    @app_commands.describe(game="Which game's standings")
    @app_commands.choices(game=GAME_CHOICES)
    async def scoreboard(self, interaction: Interaction, game: str) -> None:
        """This server's standings for a game: wins minus losses, then points."""
        presenter = self.bot.presenters.get(game)
        rows = await self.bot.storage.standings(guild_id(interaction), game)
        title = _("{game} — scoreboard").format(game=presenter.title)
        embed = discord.Embed(title=title, colour=presenter.colour)
        if not rows:
            embed.description = _("No finished games yet.")
        else:
            line = _("**{rank}.** {player} — {record} · {points} pts{stats}")
            embed.description = "\n".join(
                line.format(
                    rank=rank,
                    player=_who(row),
                    record=record(row.wins, row.losses),
                    points=number(row.points),
                    stats=_stats(presenter, row.stats, " · {title} {value}"),
                )
                for rank, row in enumerate(rows[:TOP], start=1)
            )
        await Reply.of(interaction).send(embed=embed)

    @app_commands.command(name="stats")
    @app_commands.guild_only()
    @app_commands.describe(user="Whose record to show")
    async def stats(self, interaction: Interaction, user: discord.User) -> None:
        """One member's record in this server, across every game."""
        storage = self.bot.storage
        per_game = await storage.player_stats(guild_id(interaction), user.id)
        embed = discord.Embed(title=_("{name} — record").format(name=user.display_name))
        if not per_game:
            embed.description = _("No finished games yet.")
        for game, row in per_game.items():
            if game not in self.bot.presenters:
                continue  # a game this version no longer offers
            presenter = self.bot.presenters.get(game)
            rated = rating_text(await storage.ratings(guild_id(interaction), game), user.id)
            played = ngettext("{n} played", "{n} played", row.played).format(n=number(row.played))
            points = ngettext("{n} point", "{n} points", row.points).format(n=number(row.points))
            stats = _stats(presenter, row.stats, "\n{title}: {value}")
            embed.add_field(
                name=presenter.title,
                value=f"{played} · {record(row.wins, row.losses)}\n{points}{stats}\n{rated}",
            )
        await Reply.of(interaction).private(embed=embed)


async def setup(bot: ParlourBot) -> None:
    """Load `/scoreboard` and `/stats` (discord.py's extension entry point)."""
    await bot.add_cog(Scoreboard(bot))
