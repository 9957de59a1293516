"""`/leaderboard`: a server's players by skill rating (`bot.ratings`), and
`/recompute-ratings`, for server managers: the server's stored results rated again from the
first (after an upgrade, an option change or a fix)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import Interaction, ParlourBot
from bot.ratings import AI_PLAYER, MIN_GAMES, SCALE
from bot.replies import Reply
from bot.storage import RatingRow
from bot.wording import count, rating
from cogs.options import guild_id
from cogs.scoreboard import GAME_CHOICES, TOP

NOT_RATED = (
    "No rated games yet. Games finished before ratings began are rated once a server manager "
    "runs `/recompute-ratings`."
)


def rated_name(row: RatingRow) -> str:
    """A rated player as a leaderboard names them (a mention shows as the name)."""
    return "🤖 AI" if row.player_id == AI_PLAYER else f"<@{row.player_id}>"


def leaderboard_embed(title: str, colour: int, rows: list[RatingRow], bots: bool) -> discord.Embed:
    embed = discord.Embed(title=f"{title} — leaderboard", colour=colour)
    if not rows:
        embed.description = NOT_RATED
        return embed
    top = [r for r in rows if r.rating.ranked]
    lines = [
        f"**{n}.** {rated_name(r)} — **{rating(r.rating.points)}** · {r.rating.played} played · "
        f"{r.rating.wins} W"
        for n, r in enumerate(top[:TOP], start=1)
    ]
    waiting = len(rows) - len(top)
    notes = [f"A player needs {MIN_GAMES} rated games to be ranked"]
    if waiting:
        notes[0] += f": {count(waiting, 'player', 'players')} not ranked yet"
    notes.append(f"Rating: (μ − 3σ) × {SCALE}, OpenSkill's Plackett–Luce model")
    if not bots:
        notes.append("The AI is hidden")
    embed.description = "\n".join(lines) or f"Nobody has played {MIN_GAMES} rated games yet."
    embed.set_footer(text=". ".join(notes) + ".")
    return embed


class Leaderboard(commands.Cog):
    def __init__(self, bot: ParlourBot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard", extras={"public": True})
    @app_commands.guild_only()
    @app_commands.describe(
        game="Which game's ratings",
        bots="Rank the AI (every bot seat plays as it) among the players (default: yes)",
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def leaderboard(self, interaction: Interaction, game: str, bots: bool = True) -> None:
        """This server's players by skill rating in a game, the surest first."""
        presenter = self.bot.presenters.get(game)
        rows = await self.bot.service.storage.ratings(guild_id(interaction), game, with_ai=bots)
        embed = leaderboard_embed(presenter.title, presenter.colour, rows, bots)
        await Reply.of(interaction).send(embed=embed)

    @app_commands.command(name="recompute-ratings")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def recompute(self, interaction: Interaction) -> None:
        """Rate this server's finished games again, in the order they finished."""
        games = await self.bot.service.storage.recompute_ratings(guild_id(interaction))
        await Reply.of(interaction).private(
            f"Ratings recomputed from {count(games, 'finished game', 'finished games')}."
        )


async def setup(bot: ParlourBot) -> None:
    await bot.add_cog(Leaderboard(bot))
