"""Risk's slash commands: `/risk new`, `/risk rules` and `/risk attack from: to:`."""

from __future__ import annotations

from collections.abc import Sequence

from discord import app_commands

from bot.client import Interaction
from bot.errors import UserError, refused
from bot.language.i18n import _
from bot.service import LoadedGame
from bot.ui.replies import Reply
from cogs.game_cog import GameCog, GameSpec
from cogs.risk.presenter import RiskPresenter
from cogs.risk.words import GAME, RULES_SUMMARY, name_of
from rules.core import IllegalAction
from rules.risk import ENGINE
from rules.risk.engine import attack_path
from rules.risk.map import TERRITORIES
from rules.risk.queries import (
    attack_sources,
    attack_targets,
)


class RiskCog(GameCog, group_name="risk"):
    """Risk: the classic game of world domination, for 2–6 players."""

    presenter = RiskPresenter
    lobby = "Open a Risk lobby in this channel (2–6 players; 2 play with a neutral army)."
    summary = RULES_SUMMARY

    @app_commands.command(name="attack")
    @app_commands.describe(source="Your territory to attack from", target="The enemy next to it")
    @app_commands.rename(source="from", target="to")
    async def attack(self, interaction: Interaction, source: str, target: str) -> None:
        """Pick an attack by name (in the game's thread); then roll or blitz on the board."""
        table = await self._my_game(interaction)
        try:
            path = attack_path(table.state, interaction.user.id, source, target)
        except IllegalAction as e:
            raise refused(e) from e
        reply = Reply.of(interaction)
        await self.bot.play.command(reply, table.row.id, path)
        line = _("Attacking {target} from {source}: roll or blitz on the board.")
        await reply.private(line.format(target=name_of(target), source=name_of(source)))

    @attack.autocomplete("source")
    async def _sources(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        table = await self.bot.service.game_in_thread(interaction.channel_id or 0)
        if table is None or table.row.game != GAME:
            return []
        return _choices(attack_sources(table.state, interaction.user.id), current)

    @attack.autocomplete("target")
    async def _targets(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        table = await self.bot.service.game_in_thread(interaction.channel_id or 0)
        source = getattr(interaction.namespace, "from", None)
        if table is None or table.row.game != GAME or source not in TERRITORIES:
            return []
        return _choices(attack_targets(table.state, source), current)

    async def _my_game(self, interaction: Interaction) -> LoadedGame:
        table = await self.bot.service.game_in_thread(interaction.channel_id or 0)
        if table is None or table.row.game != GAME:
            raise UserError(_("Use this in the thread of a Risk game that is being played."))
        return table


def _choices(slugs: Sequence[str], typed: str) -> list[app_commands.Choice[str]]:
    """Autocomplete: the legal territories whose name contains what was typed (25 at most)."""
    typed = typed.casefold()
    return [
        app_commands.Choice(name=name_of(s), value=s)
        for s in slugs
        if typed in name_of(s).casefold()
    ][:25]


SPEC = GameSpec(ENGINE, RiskPresenter, RiskCog)
