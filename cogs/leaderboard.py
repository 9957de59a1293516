"""`/leaderboard`: a server's players by skill rating (`bot.ratings`), all-time or in a season
(`cogs.seasons`), and
`/recompute-ratings`, for server managers: the server's stored results rated again from the
first (after an upgrade, an option change or a fix)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import Interaction, ParlourBot
from bot.errors import UserError
from bot.language.command_translator import spoken_command
from bot.language.i18n import N_, _, ngettext
from bot.language.wording import number, rating
from bot.ratings import AI_PLAYER, MIN_GAMES, SCALE
from bot.storage import RatingRow, SeasonRow
from bot.ui.permissions import require_manager
from bot.ui.replies import Reply
from cogs.options import guild_id
from cogs.scoreboard import GAME_CHOICES, TOP
from cogs.seasons import BOARD_TOP, NO_SUCH_SEASON, season_board_embed

NOT_MANAGER = N_("Only members who can manage the server can recompute its ratings.")

CURRENT, ALL_TIME = N_("current"), N_("all-time")  # `season:` words, English or translated
BAD_SEASON = N_("`{season}` is not a season: give current, all-time or a season's number.")
NOT_RATED = N_(
    "No rated games yet. Games finished before ratings began are rated once a server manager "
    "runs `{command}`."
)


def rated_name(row: RatingRow) -> str:
    """A rated player as a leaderboard names them (a mention shows as the name)."""
    return "🤖 " + _("AI") if row.player_id == AI_PLAYER else f"<@{row.player_id}>"


def leaderboard_embed(title: str, colour: int, rows: list[RatingRow], bots: bool) -> discord.Embed:
    """A game's leaderboard (`title`, `colour`) from its `rows` of ratings: the top `TOP` ranked,
    then a note on who is not ranked yet; `bots` says whether the AI is among them."""
    embed = discord.Embed(title=_("{game} — leaderboard").format(game=title), colour=colour)
    if not rows:
        embed.description = _(NOT_RATED).format(command=spoken_command("/recompute-ratings"))
        return embed
    top = [r for r in rows if r.rating.ranked]
    line = _("**{rank}.** {player} — **{rating}** · {played} · {wins} W")
    lines = [
        line.format(
            rank=n,
            player=rated_name(r),
            rating=rating(r.rating.points),
            played=ngettext("{n} played", "{n} played", r.rating.played).format(
                n=number(r.rating.played)
            ),
            wins=number(r.rating.wins),
        )
        for n, r in enumerate(top[:TOP], start=1)
    ]
    waiting = len(rows) - len(top)
    if waiting:
        needs = ngettext(
            "A player needs {needed} rated games to be ranked: {n} player not ranked yet",
            "A player needs {needed} rated games to be ranked: {n} players not ranked yet",
            waiting,
        )
    else:
        needs = _("A player needs {needed} rated games to be ranked")
    notes = [needs.format(needed=MIN_GAMES, n=number(waiting))]
    notes.append(
        _("Rating: (μ − 3σ) × {scale}, OpenSkill's Plackett–Luce model").format(scale=SCALE)
    )
    if not bots:
        notes.append(_("The AI is hidden"))
    nobody = _("Nobody has played {needed} rated games yet.").format(needed=MIN_GAMES)
    embed.description = "\n".join(lines) or nobody
    embed.set_footer(text=". ".join(notes) + ".")
    return embed


class Leaderboard(commands.Cog):
    """`/leaderboard`, and the admins' `/recompute-ratings`."""

    def __init__(self, bot: ParlourBot) -> None:
        """The commands read and recompute `bot`'s stored ratings."""
        self.bot = bot

    @app_commands.command(name="leaderboard", extras={"public": True})
    @app_commands.guild_only()
    @app_commands.describe(
        game="Which game's ratings",
        bots="Rank the AI (every bot seat plays as it) among the players (default: yes)",
        season="current, a season's number, or all-time (default: the current season if any)",
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def leaderboard(
        self, interaction: Interaction, game: str, bots: bool = True, season: str | None = None
    ) -> None:
        """This server's players by skill rating in a game, the surest first."""
        presenter = self.bot.presenters.get(game)
        guild = guild_id(interaction)
        chosen = await self._season(guild, season)
        if chosen is not None:
            storage = self.bot.storage
            min_games = await storage.season_min_games(guild)
            standings = await storage.season_board(chosen, game, min_games, top=BOARD_TOP)
            embed = season_board_embed(
                chosen, presenter.title, presenter.colour, standings, min_games
            )
        else:
            rows = await self.bot.storage.ratings(guild, game, with_ai=bots)
            embed = leaderboard_embed(presenter.title, presenter.colour, rows, bots)
        await Reply.of(interaction).send(embed=embed)

    async def _season(self, guild: int, season: str | None) -> SeasonRow | None:
        """The season a `/leaderboard` asks for (None: all-time): by default the running
        one, if any."""
        storage = self.bot.storage
        word = (season or "").strip().lower()
        if not word:
            return await storage.running_season(guild)
        if word in {ALL_TIME, _(ALL_TIME).lower()}:
            return None
        if word in {CURRENT, _(CURRENT).lower()}:
            running = await storage.running_season(guild)
            if running is None:
                raise UserError(_("No season is running in this server."))
            return running
        if not word.isdecimal() or len(word) > 9:
            raise UserError(_(BAD_SEASON).format(season=season[:40] if season else ""))
        found = await storage.season(guild, int(word))
        if found is None:
            raise UserError(_(NO_SUCH_SEASON).format(number=int(word)))
        return found

    @app_commands.command(name="recompute-ratings")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def recompute(self, interaction: Interaction) -> None:
        """Rate this server's finished games again, in the order they finished."""
        require_manager(interaction, NOT_MANAGER)
        games = await self.bot.storage.recompute_ratings(guild_id(interaction))
        done = ngettext(
            "Ratings recomputed from {n} finished game.",
            "Ratings recomputed from {n} finished games.",
            games,
        )
        await Reply.of(interaction).private(done.format(n=number(games)))


async def setup(bot: ParlourBot) -> None:
    """Load `/leaderboard` and `/recompute-ratings` (discord.py's extension entry point)."""
    await bot.add_cog(Leaderboard(bot))
