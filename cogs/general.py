"""`/games`, `/help` and the server admins' `/settings`."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import __version__
from bot.client import Interaction, ParlourBot
from bot.language.command_translator import spoken_command
from bot.language.i18n import N_, _, language_name, languages, ngettext
from bot.language.wording import format_duration, number
from bot.storage import ACTIVE, LOBBY
from bot.table.notifier import Notify, notify_line
from bot.ui.command_sync import mention
from bot.ui.permissions import require_manager
from bot.ui.replies import Reply
from cogs.options import TURN_TIMER_CHOICES, guild_id

NOT_MANAGER = N_("Only members who can manage the server may change its settings.")

HELP = N_("""\
**Start a game:** `/<game> new` opens a lobby here. Others click **Join** (or the host \
clicks **Add bot**), then the host clicks **Start**: the game gets its own thread.
**Play:** click the buttons and menus under the board in the game's thread. Only the \
player whose turn it is can move; everyone else gets a private note. Your cards, bets or \
mission are behind the 🔒 button, seen only by you.
**See:** `/games` (games in this server), `/scoreboard` (standings per game), \
`/stats` (one member's record), `/history` (finished games), `/replay` (one of them, move \
by move).
**Your turn:** `/my-games` lists your games here, those waiting for you first; \
`/settings me` chooses how your turn reaches you (a ping, a DM, quietly or not at all).
**Seasons:** `/season show` shows the current season; `/leaderboard` ranks its players \
(`season:all-time` for every game ever).
**Admins:** `/settings turn-timer` sets the default turn timer for new games, \
`/settings language` the language of their boards; `/season start` and `/season end` run \
seasons.""")
PRIVACY_HELP = N_(
    "**Privacy:** `{privacy}` says what Parlour keeps about you; `{my_data}` sends you a copy; "
    "`{forget_me}` removes it."
)


DM_RULES = N_(
    "No DM while you are playing a game (a click in it in the last two minutes), and at most "
    "one a minute: turns in between come together in the next."
)
TEXT_BOARD_SETTING = N_("📝 Text board after each of your moves, in every server: {state}.")
NOTIFY_CHOICES = [
    app_commands.Choice(name="a ping in the game's thread (the default)", value=Notify.PING.value),
    app_commands.Choice(name="a direct message", value=Notify.DM.value),
    app_commands.Choice(name="quietly: named in the thread, no ping", value=Notify.QUIET.value),
    app_commands.Choice(name="not at all", value=Notify.NONE.value),
]

HOSTS = "host"  # `/settings language`'s choice for "whoever opens the game"
LANGUAGE_CHOICES = [
    app_commands.Choice(name="the host's language", value=HOSTS),
    *(app_commands.Choice(name=language_name(c, c), value=c) for c in languages()),
]


def command_of(game: str) -> str:
    """A game's slash command group: its registry name with hyphens (`/horse-collar`)."""
    return "/" + game.replace("_", "-")


class General(commands.Cog):
    """`/games`, `/help` and the server admins' `/settings`."""

    def __init__(self, bot: ParlourBot) -> None:
        """The commands read `bot`'s storage and presenters."""
        self.bot = bot

    @app_commands.command(name="games")
    @app_commands.guild_only()
    async def games(self, interaction: Interaction) -> None:
        """List the games being played or waiting for players in this server."""
        storage = self.bot.storage
        lines = []
        for status in (ACTIVE, LOBBY):
            for row in await storage.games(status=status, guild_id=guild_id(interaction)):
                if row.game not in self.bot.presenters:
                    continue  # a game this version no longer offers
                title = self.bot.presenters.get(row.game).title
                seats = await storage.seats(row.id)
                players = ", ".join(s.name for s in seats)
                where = (
                    f"<#{row.thread_id}>"
                    if status == ACTIVE and row.thread_id
                    else _("lobby in {channel}").format(channel=f"<#{row.channel_id}>")
                )
                broken = _(" — ⚠️ can't be continued (see the bot's log)") if row.broken else ""
                lines.append(f"**{title} #{row.id}** — {players} — {where}{broken}")
        text = "\n".join(lines[:25]) or _("No games right now. `/help` lists the games to start.")
        embed = discord.Embed(title=_("Games in this server"), description=text)
        await Reply.of(interaction).private(embed=embed)

    @app_commands.command(name="help")
    async def help(self, interaction: Interaction) -> None:
        """How to use Parlour."""
        games = "\n".join(
            f"• **{p.title}**: {mention(command_of(p.game) + ' new')}"
            f" · {mention(command_of(p.game) + ' rules')}"
            for p in self.bot.presenters
        )
        privacy = _(PRIVACY_HELP).format(
            privacy=spoken_command("/privacy"),
            my_data=spoken_command("/my-data"),
            forget_me=spoken_command("/forget-me"),
        )
        embed = discord.Embed(
            title=_("Parlour — tabletop games in chat"),
            description=_("**Games:**") + f"\n{games}\n{_(HELP)}\n{privacy}",
        )
        embed.set_footer(text=f"Parlour {__version__}")
        await Reply.of(interaction).private(embed=embed)

    # Open to every member, for `/settings me`: the server's own settings check that the
    # member may manage the server (Discord's permissions apply to a whole command group).
    settings = app_commands.Group(
        name="settings", description="Parlour's settings: yours, and the server's", guild_only=True
    )

    @settings.command(name="me")
    @app_commands.rename(text_board="text-board")
    @app_commands.describe(
        notify="How your turn in this server's games reaches you",
        text_board="The text board after each of your moves, in every server",
    )
    @app_commands.choices(notify=NOTIFY_CHOICES)
    async def me(
        self, interaction: Interaction, notify: str | None = None, text_board: bool | None = None
    ) -> None:
        """Your own settings: how your turn reaches you here, the text board."""
        server = guild_id(interaction)
        notifier = self.bot.notifier
        if notify is not None:
            await notifier.set(server, interaction.user.id, Notify(notify))
        if text_board is not None:
            await self.bot.play.reading.set_default(interaction.user.id, text_board)
        chosen = await notifier.setting(server, interaction.user.id)
        lines = [notify_line(chosen)]
        if chosen is Notify.DM:
            lines.append(_(DM_RULES))
        wanted = await self.bot.play.reading.wanted(interaction.user.id)
        state = _("on") if wanted else _("off")
        lines.append(_(TEXT_BOARD_SETTING).format(state=state))
        await Reply.of(interaction).private("\n".join(lines))

    @settings.command(name="turn-timer")
    @app_commands.describe(timer="How long a player may take before the AI plays their turn")
    @app_commands.choices(timer=TURN_TIMER_CHOICES)
    async def turn_timer(self, interaction: Interaction, timer: int) -> None:
        """Set the default turn timer for new games in this server."""
        require_manager(interaction, NOT_MANAGER)
        await self.bot.storage.set_guild_turn_timer(guild_id(interaction), timer)
        done = _("New games in this server now have a turn timer of {timer}.")
        await Reply.of(interaction).private(done.format(timer=format_duration(timer)))

    @settings.command(name="season-min-games")
    @app_commands.describe(games="Season games a player needs to be ranked (default: 3)")
    async def season_min_games(
        self, interaction: Interaction, games: app_commands.Range[int, 1, 100]
    ) -> None:
        """Set how many season games a player needs to be ranked in this server's seasons."""
        require_manager(interaction, NOT_MANAGER)
        await self.bot.storage.set_season_min_games(guild_id(interaction), games)
        done = ngettext(
            "Players of this server's seasons are now ranked after {n} season game.",
            "Players of this server's seasons are now ranked after {n} season games.",
            games,
        )
        await Reply.of(interaction).private(done.format(n=number(games)))

    @settings.command(name="language")
    @app_commands.describe(language="The language of boards, lobbies and results")
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(self, interaction: Interaction, language: str) -> None:
        """Set the language of new games' public messages in this server."""
        require_manager(interaction, NOT_MANAGER)
        chosen = None if language == HOSTS else language
        await self.bot.storage.set_guild_language(guild_id(interaction), chosen)
        if chosen is None:
            done = _("New games in this server now speak their host's language.")
        else:
            done = _("New games in this server are now played in {language}.").format(
                language=language_name(chosen)
            )
        await Reply.of(interaction).private(done)


async def setup(bot: ParlourBot) -> None:
    """Load `/games`, `/help` and `/settings` (discord.py's extension entry point)."""
    await bot.add_cog(General(bot))
