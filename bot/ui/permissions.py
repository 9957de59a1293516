"""Commands for server managers: Discord's default permissions hide them from other members,
but a server may hand them to anyone (Server Settings → Integrations), so each one checks
again when it runs."""

from __future__ import annotations

from typing import Any

import discord

from bot.errors import UserError
from bot.language.i18n import _


def require_manager(interaction: discord.Interaction[Any], refusal: str) -> None:
    """Refuse (`refusal`, a message marked with `N_`, in the member's language) a member
    without Manage Server."""
    if not interaction.permissions.manage_guild:
        raise UserError(_(refusal))
