"""📝 Text board: the whole position as text, for a member who reads with a screen reader.

A private message for the clicker, in their language: whose turn, then the game's own
lines (`Presenter.text_board`: short lines, no tables drawn in characters), then what only
the clicker may see (their hand, their mission: `Presenter.private`), and below it the very
moves the board offers them, with the board's custom ids — a click there is checked and
played exactly as the board's button would be, and the message is redrawn as the answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.language.i18n import _
from bot.language.speech import spoken
from bot.language.wording import without_mentions
from bot.service import LoadedGame
from bot.storage import ACTIVE
from bot.table.board import box_buttons, components, peek_button, prompt_here, public_offers
from bot.table.presenter import Presenter
from bot.ui.components import GameButton, view_of
from bot.ui.custom_ids import ButtonId, TableVerb
from rules.core import Engine, PlayerId

TEXT_MAX = 4096  # an embed description's limit


def text_board(
    table: LoadedGame,
    engine: Engine[Any],
    presenter: Presenter[Any],
    viewer: PlayerId,
    *,
    default: bool,
    news: Sequence[str] = (),
) -> tuple[discord.Embed, discord.ui.View]:
    """The text board of `table` for `viewer`, in the language spoken (the viewer's), with
    their moves; `default` says whether they get it after each of their moves."""
    names, state = table.names, table.state
    # No "▶" before the prompt: a screen reader says "play button".
    lines = [*news, without_mentions(prompt_here(table, engine, presenter), names)]
    lines += presenter.text_board(state, names, viewer if viewer in names else None)
    if viewer in names and is_live(table, engine):
        secret = presenter.private(state, viewer, names)
        lines += ["", _("Only you see this:"), secret] if secret else []
    text = spoken("\n".join(lines))
    if len(text) > TEXT_MAX:
        text = text[: TEXT_MAX - 1] + "…"
    title = _("Text board · {game} #{id} · move {step}")
    embed = discord.Embed(
        title=spoken(title.format(game=presenter.title, id=table.row.id, step=table.row.step)),
        description=text,
        colour=presenter.colour,
    )
    return embed, view_of(_items(table, engine, presenter, viewer, default=default))


def _items(
    table: LoadedGame,
    engine: Engine[Any],
    presenter: Presenter[Any],
    viewer: PlayerId,
    *,
    default: bool,
) -> list[discord.ui.Item[Any]]:
    """The board's moves for `viewer` (none once the game is over or for a watcher), and
    the text board's own buttons: read it again, and show it after each of my moves."""
    row = table.row
    refresh = GameButton(
        ButtonId(row.game, row.id, None, TableVerb.TEXT), label=_("Read again"), emoji="🔄"
    )
    toggle = GameButton(
        ButtonId(row.game, row.id, None, TableVerb.TEXT_DEFAULT, "off" if default else "on"),
        label=_("Stop showing this after my moves")
        if default
        else _("Show this after each of my moves"),
        emoji="📝",
    )
    mine = viewer in engine.to_act(table.state) and viewer not in (table.autoplayed - table.bots)
    if not mine or not is_live(table, engine):
        return components(table, [], [refresh, toggle])
    offers, boxes = public_offers(engine, presenter, table.state, {viewer})
    extra = [*box_buttons(table, boxes), *peek_button(table, presenter), refresh, toggle]
    return components(table, offers, extra)


def is_live(table: LoadedGame, engine: Engine[Any]) -> bool:
    """True while the game is played: not over, nor ended before its end."""
    return table.row.status == ACTIVE and engine.outcome(table.state) is None


def is_text_board(custom_ids: Sequence[str]) -> bool:
    """True when a private message's components are a text board's (its "Read again")."""
    for custom_id in custom_ids:
        try:
            if ButtonId.parse(custom_id).verb == TableVerb.TEXT:
                return True
        except ValueError:
            continue
    return False
