"""The lobby message of a game: who is in, the house rules, and the lobby's buttons.

Built here and nowhere else, because the lobby is redrawn from several places: its own
clicks, the start of the game, and its end (the result, or why it ended).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.language.i18n import _, game_language, speaking
from bot.language.wording import format_duration, mention
from bot.service import LoadedGame
from bot.storage import ACTIVE, CANCELLED, FINISHED, LOBBY
from bot.table.presenter import Presenter
from bot.ui.components import GameButton, view_of
from bot.ui.custom_ids import ButtonId, TableVerb
from rules.core import Engine

# The lobby's verbs, and Rematch (on a finished game's final board: a new lobby for the game).
LOBBY_VERBS = frozenset(
    {
        TableVerb.JOIN,
        TableVerb.LEAVE,
        TableVerb.ADD_BOT,
        TableVerb.START,
        TableVerb.CANCEL,
        TableVerb.REMATCH,
    }
)


def side_names(table: LoadedGame, presenter: Presenter[Any]) -> Sequence[str]:
    """The sides players join, when the game is played by sides."""
    return [_(side) for side in presenter.sides[: table.side_count]]


def lobby_embed(
    table: LoadedGame, engine: Engine[Any], presenter: Presenter[Any], note: str = ""
) -> discord.Embed:
    """The lobby message, in the game's language (`note` is worded by the caller)."""
    with speaking(game_language(table.row.options)):
        return _lobby_embed(table, engine, presenter, note)


def _lobby_embed(
    table: LoadedGame, engine: Engine[Any], presenter: Presenter[Any], note: str
) -> discord.Embed:
    status = table.row.status
    thread = table.row.thread_id
    lines = {
        LOBBY: _(
            "Hosted by {host}. Click **Join** to play; the host clicks **Start** when "
            "everyone is in."
        ).format(host=mention(table.row.host_id, table.names)),
        ACTIVE: _("The game is on in {thread}.").format(thread=f"<#{thread}>")
        if thread
        else _("The game is on."),
        FINISHED: _("This game is over."),
        CANCELLED: _("The host cancelled this game."),
    }
    embed = discord.Embed(
        title=f"{presenter.title} · #{table.row.id}",
        description=lines.get(status, _("This game was abandoned."))
        + (f"\n{note}" if note else ""),
        colour=presenter.colour,
    )
    count = f"{engine.min_players}" + (
        f"–{engine.max_players}" if engine.max_players != engine.min_players else ""
    )
    embed.add_field(
        name=_("Players ({seated}; needs {count})").format(seated=len(table.seats), count=count),
        value=_players(table, presenter) or "—",
    )
    rules = presenter.describe_options(table.row.options)
    timer = format_duration(int(table.row.options.get("turn_timer", 0)))
    rules.append(_("Turn timer: {timer}").format(timer=timer))
    embed.add_field(name=_("House rules"), value="\n".join(rules))
    return embed


def _players(table: LoadedGame, presenter: Presenter[Any]) -> str:
    sides = side_names(table, presenter)
    if not sides:
        return "\n".join(mention(s.player_id, table.names) for s in table.seats)
    return "\n".join(
        f"**{name}:** "
        + (", ".join(mention(s.player_id, table.names) for s in table.seats if s.side == i) or "—")
        for i, name in enumerate(sides)
    )


def lobby_view(
    table: LoadedGame, engine: Engine[Any], presenter: Presenter[Any]
) -> discord.ui.View:
    """The lobby's buttons, in the game's language."""
    with speaking(game_language(table.row.options)):
        return _lobby_view(table, engine, presenter)


def _lobby_view(
    table: LoadedGame, engine: Engine[Any], presenter: Presenter[Any]
) -> discord.ui.View:
    full = len(table.seats) >= engine.max_players

    def button(
        verb: TableVerb, label: str, style: discord.ButtonStyle, off: bool = False, arg: str = ""
    ) -> GameButton:
        bid = ButtonId(table.row.game, table.row.id, None, verb, arg)
        return GameButton(bid, label=label, style=style, disabled=off)

    joins = [
        button(
            TableVerb.JOIN,
            _("Join {side}").format(side=name),
            discord.ButtonStyle.success,
            full,
            str(i),
        )
        for i, name in enumerate(side_names(table, presenter))
    ] or [button(TableVerb.JOIN, _("Join"), discord.ButtonStyle.success, full)]
    # Five buttons a row: with four sides, the joins take the first row.
    return view_of(
        [
            *joins,
            button(TableVerb.LEAVE, _("Leave"), discord.ButtonStyle.secondary),
            button(TableVerb.ADD_BOT, _("Add bot"), discord.ButtonStyle.secondary, full),
            button(TableVerb.START, _("Start"), discord.ButtonStyle.primary),
            button(TableVerb.CANCEL, _("Cancel"), discord.ButtonStyle.danger),
        ]
    )


def rematch_button(table: LoadedGame) -> GameButton:
    """The final board's Rematch button (anyone in the server may click it)."""
    bid = ButtonId(table.row.game, table.row.id, None, TableVerb.REMATCH)
    return GameButton(bid, label=_("Rematch"), style=discord.ButtonStyle.success, emoji="🔁")
