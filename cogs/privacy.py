"""`/privacy`, `/my-data` and `/forget-me`: what Parlour keeps about a member, a copy of it,
and forgetting it on request (docs/PRIVACY.md is the full note).

`/forget-me` asks first; its buttons (`fm1:<owner>:<yes|no>`) name the member who asked, so
only they can confirm, and they work across a restart.
"""

from __future__ import annotations

import gzip
import io
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import Interaction, ParlourBot
from bot.errors import UserError
from bot.language.command_translator import spoken_command
from bot.language.i18n import N_, _, ngettext
from bot.ops.export import as_json, member_data
from bot.ops.forget import forget_member
from bot.storage import LOBBY
from bot.table.lobby_card import lobby_embed, lobby_view
from bot.ui.components import ParlourButton
from bot.ui.custom_ids import ForgetId
from bot.ui.replies import Reply

log = logging.getLogger(__name__)

ATTACHMENT_LIMIT = 10 * 1024 * 1024  # bytes: what Discord takes from a bot in any server

PRIVACY = N_("""\
**What Parlour keeps about you**
• Your Discord id and display name, in each game you join: to seat you and show the board.
• Your moves, results, standings and ratings in each server: for replays, `{scoreboard}`, \
`{stats}` and `{history}`.
Nothing else: not your messages, not your email.
**For how long:** while the bot is in the server. When the bot is removed from a server, \
that server's data is deleted 30 days later (unless it is added back).
**To get a copy:** `{my_data}` sends you a file of it, from every server, that only you see.
**To have it removed:** `{forget_me}` removes your id, name, results and ratings from every \
server. Your games in play are resigned; finished games stay, with you as “Former player”.
Messages already posted in Discord (boards, results) stay in their channels: the server's \
moderators can delete them.""")
ASK = N_("""\
This removes your personal data from Parlour in every server: your id and name in every \
game, your results, standings and ratings. Your games in play are resigned; finished games \
stay, with you as “Former player”. It can't be undone. Go ahead?""")


class ForgetButton(ParlourButton[ForgetId], kind=ForgetId):
    """The "Forget me" or "Keep my data" under `/forget-me`'s question: its click goes to the
    `ForgetId` route."""


class Privacy(commands.Cog):
    """`/privacy`, `/my-data` and `/forget-me`, and the answer to `/forget-me`'s question
    (`ForgetId`)."""

    def __init__(self, bot: ParlourBot) -> None:
        """The cog of `bot`."""
        self.bot = bot

    @app_commands.command(name="privacy")
    async def privacy(self, interaction: Interaction) -> None:
        """What Parlour keeps about you, and how to have it removed."""
        text = _(PRIVACY).format(
            scoreboard=spoken_command("/scoreboard"),
            stats=spoken_command("/stats"),
            history=spoken_command("/history"),
            forget_me=spoken_command("/forget-me"),
            my_data=spoken_command("/my-data"),
        )
        await Reply.of(interaction).private(embed=discord.Embed(description=text))

    @app_commands.command(name="my-data")
    async def my_data(self, interaction: Interaction) -> None:
        """Get a copy of your data in Parlour, from every server (a file only you see)."""
        data = await member_data(self.bot.storage, interaction.user.id)
        text = as_json(data).encode()
        name = "parlour-my-data.json"
        if len(text) > ATTACHMENT_LIMIT:  # years of games: JSON shrinks ten times or more
            text, name = gzip.compress(text, mtime=0), name + ".gz"
        if len(text) > ATTACHMENT_LIMIT:
            raise UserError(
                _(
                    "Your data is too large for a file on Discord: ask the bot's admin for "
                    "a copy (they can make it with `python -m bot export-user`)."
                )
            )
        games = ngettext(
            "Your data in Parlour, from every server: {n} game, your moves, results, ratings "
            "and settings. Other players' hidden cards and bets are not in it.",
            "Your data in Parlour, from every server: {n} games, your moves, results, "
            "ratings and settings. Other players' hidden cards and bets are not in it.",
            len(data["games"]),
        ).format(n=len(data["games"]))
        file = discord.File(io.BytesIO(text), filename=name)
        await Reply.of(interaction).private(games, file=file)

    @app_commands.command(name="forget-me")
    async def forget_me(self, interaction: Interaction) -> None:
        """Remove your data from Parlour in every server (asks first)."""
        me = interaction.user.id
        view = discord.ui.View(timeout=None)
        danger = discord.ButtonStyle.danger
        view.add_item(ForgetButton(ForgetId(me, "yes"), label=_("Forget me"), style=danger))
        view.add_item(ForgetButton(ForgetId(me, "no"), label=_("Keep my data")))
        await Reply.of(interaction).private(_(ASK), view=view)

    async def answer(self, reply: Reply, fid: ForgetId) -> None:
        """The answer to `/forget-me`'s question (its asker's alone): forget them, or not."""
        if reply.user_id != fid.owner:
            mine = _("This question is someone else's: use `{command}` for your own.")
            raise UserError(mine.format(command=spoken_command("/forget-me")))
        if fid.choice != "yes":
            await reply.update(content=_("Nothing was changed."), view=None)
            return
        done = await forget_member(self.bot.service, self.bot.storage, fid.owner)
        self.bot.notifier.forget(fid.owner)  # how their turn reaches them, in memory too
        self.bot.replays.forget_all()  # replays built before name the member
        for game_id in done.resigned:
            # Narrated from the log, as it is now: the board names a former player.
            await self.bot.publisher.publish(game_id)
            self.bot.autopilot.after(await self.bot.service.table(game_id))
        for game_id in done.lobbies:
            await self._redraw_lobby(game_id)
        games = ngettext(
            "Parlour has forgotten you: {n} game now names you “Former player”.",
            "Parlour has forgotten you: {n} games now name you “Former player”.",
            done.games,
        ).format(n=done.games)
        await reply.update(content=games, view=None)

    async def _redraw_lobby(self, game_id: int) -> None:
        """The lobby message without the member: open, or closed if they hosted it."""
        table = await self.bot.service.table(game_id)
        if table.row.lobby_message_id is None:
            return
        engine = self.bot.service.engine(table.row.game)
        presenter = self.bot.presenters.get(table.row.game)
        view = lobby_view(table, engine, presenter) if table.row.status == LOBBY else None
        channel = self.bot.get_partial_messageable(table.row.channel_id)
        message = channel.get_partial_message(table.row.lobby_message_id)
        try:
            await message.edit(embed=lobby_embed(table, engine, presenter), view=view)
        except discord.HTTPException:  # deleted meanwhile: nothing left to redraw
            log.info("game %s: lobby message gone, not updated", game_id)


async def setup(bot: ParlourBot) -> None:
    """Load the cog, and route its question's answers to it."""
    cog = Privacy(bot)
    bot.clicks.add(ForgetId, cog.answer)
    bot.add_dynamic_items(ForgetButton)
    await bot.add_cog(cog)
