"""The lobby message of a game: who is in, the house rules, and the lobby's buttons.

Built here and nowhere else, because the lobby is redrawn from several places: its own
clicks, the start of the game, and its end (the result, or why it ended).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.components import GameButton, view_of
from bot.custom_ids import ButtonId
from bot.presenter import Presenter
from bot.service import Table
from bot.storage import ACTIVE, CANCELLED, FINISHED, LOBBY
from bot.wording import format_duration, mention
from rules.core import Engine

REMATCH = "rematch"  # on a finished game's final board: a new lobby for the same game
LOBBY_VERBS = frozenset({"join", "leave", "add_bot", "start", "cancel", REMATCH})


def side_names(table: Table, presenter: Presenter) -> Sequence[str]:
    """The sides players join, when the game is played by sides."""
    return presenter.sides[: table.side_count] if presenter.sides else ()


def lobby_embed(
    table: Table, engine: Engine[Any], presenter: Presenter, note: str = ""
) -> discord.Embed:
    status = table.row.status
    lines = {
        LOBBY: f"Hosted by <@{table.row.host_id}>. Click **Join** to play; "
        "the host clicks **Start** when everyone is in.",
        ACTIVE: "The game is on"
        + (f" in <#{table.row.thread_id}>." if table.row.thread_id else "."),
        FINISHED: "This game is over.",
        CANCELLED: "The host cancelled this game.",
    }
    embed = discord.Embed(
        title=f"{presenter.title} · #{table.row.id}",
        description=lines.get(status, "This game was abandoned.") + (f"\n{note}" if note else ""),
        colour=presenter.colour,
    )
    count = f"{engine.min_players}" + (
        f"–{engine.max_players}" if engine.max_players != engine.min_players else ""
    )
    embed.add_field(
        name=f"Players ({len(table.seats)}; needs {count})",
        value=_players(table, presenter) or "—",
    )
    rules = presenter.describe_options(table.row.options)
    rules.append(f"Turn timer: {format_duration(int(table.row.options.get('turn_timer', 0)))}")
    embed.add_field(name="House rules", value="\n".join(rules))
    return embed


def _players(table: Table, presenter: Presenter) -> str:
    sides = side_names(table, presenter)
    if not sides:
        return "\n".join(mention(s.player_id, table.names) for s in table.seats)
    return "\n".join(
        f"**{name}:** "
        + (", ".join(mention(s.player_id, table.names) for s in table.seats if s.side == i) or "—")
        for i, name in enumerate(sides)
    )


def lobby_view(table: Table, engine: Engine[Any], presenter: Presenter) -> discord.ui.View:
    full = len(table.seats) >= engine.max_players

    def button(
        verb: str, label: str, style: discord.ButtonStyle, off: bool = False, arg: str = ""
    ) -> GameButton:
        bid = ButtonId(table.row.game, table.row.id, None, verb, arg)
        return GameButton(bid, label=label, style=style, disabled=off)

    joins = [
        button("join", f"Join {name}", discord.ButtonStyle.success, full, str(i))
        for i, name in enumerate(side_names(table, presenter))
    ] or [button("join", "Join", discord.ButtonStyle.success, full)]
    # Five buttons a row: with four sides, the joins take the first row.
    return view_of(
        [
            *joins,
            button("leave", "Leave", discord.ButtonStyle.secondary),
            button("add_bot", "Add bot", discord.ButtonStyle.secondary, full),
            button("start", "Start", discord.ButtonStyle.primary),
            button("cancel", "Cancel", discord.ButtonStyle.danger),
        ]
    )


def rematch_button(table: Table) -> GameButton:
    """The final board's Rematch button (anyone in the server may click it)."""
    bid = ButtonId(table.row.game, table.row.id, None, REMATCH)
    return GameButton(bid, label="Rematch", style=discord.ButtonStyle.success, emoji="🔁")
