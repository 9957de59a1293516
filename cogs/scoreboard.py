"""`/scoreboard` and `/stats`: standings from the results of finished games, and (in
`/stats`) each game's rating and rank."""

from __future__ import annotations

from collections.abc import Sequence

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import Interaction, ParlourBot
from bot.ratings import MIN_GAMES
from bot.replies import Reply
from bot.storage import RatingRow, StandingRow
from bot.wording import rating
from cogs.options import guild_id
from rules.registry import ENGINES

GAME_CHOICES = [app_commands.Choice(name=e.title, value=e.name) for e in ENGINES.values()]
TOP = 15


def _who(row: StandingRow) -> str:
    return f"🤖 Bot {-row.player_id}" if row.is_bot else f"<@{row.player_id}>"


def rating_text(rows: Sequence[RatingRow], player: int) -> str:
    """A player's rating and rank among `rows` (a game's ratings, as `/leaderboard` shows
    them by default)."""
    mine = next((r.rating for r in rows if r.player_id == player), None)
    if mine is None:
        return "Not rated yet"
    ranked = [r.player_id for r in rows if r.rating.ranked]
    shown = rating(mine.points)
    if player not in ranked:
        return f"Rating {shown} · ranked after {MIN_GAMES} rated games ({mine.played} so far)"
    return f"Rating {shown} · rank {ranked.index(player) + 1} of {len(ranked)}"


class Scoreboard(commands.Cog):
    def __init__(self, bot: ParlourBot) -> None:
        self.bot = bot

    @app_commands.command(name="scoreboard", extras={"public": True})
    @app_commands.guild_only()
    @app_commands.describe(game="Which game's standings")
    @app_commands.choices(game=GAME_CHOICES)
    async def scoreboard(self, interaction: Interaction, game: str) -> None:
        """This server's standings for a game: wins minus losses, then points."""
        presenter = self.bot.presenters.get(game)
        rows = await self.bot.service.storage.standings(guild_id(interaction), game)
        embed = discord.Embed(title=f"{presenter.title} — scoreboard", colour=presenter.colour)
        if not rows:
            embed.description = "No finished games yet."
        else:
            lines = []
            for rank, row in enumerate(rows[:TOP], start=1):
                extra = "".join(
                    f" · {title} {row.stats.get(key, 0)}"
                    for key, title in presenter.stat_columns.items()
                )
                lines.append(
                    f"**{rank}.** {_who(row)} — {row.wins} W / {row.losses} L · "
                    f"{row.points} pts{extra}"
                )
            embed.description = "\n".join(lines)
        await Reply.of(interaction).send(embed=embed)

    @app_commands.command(name="stats")
    @app_commands.guild_only()
    @app_commands.describe(user="Whose record to show")
    async def stats(self, interaction: Interaction, user: discord.User) -> None:
        """One member's record in this server, across every game."""
        storage = self.bot.service.storage
        per_game = await storage.player_stats(guild_id(interaction), user.id)
        embed = discord.Embed(title=f"{user.display_name} — record")
        if not per_game:
            embed.description = "No finished games yet."
        for game, row in per_game.items():
            if game not in self.bot.presenters:
                continue  # a game this version no longer offers
            presenter = self.bot.presenters.get(game)
            extra = "".join(
                f"\n{title}: {row.stats.get(key, 0)}"
                for key, title in presenter.stat_columns.items()
            )
            rated = rating_text(await storage.ratings(guild_id(interaction), game), user.id)
            embed.add_field(
                name=presenter.title,
                value=f"{row.played} played · {row.wins} W / {row.losses} L\n"
                f"{row.points} points{extra}\n{rated}",
            )
        await Reply.of(interaction).private(embed=embed)


async def setup(bot: ParlourBot) -> None:
    await bot.add_cog(Scoreboard(bot))
