"""A member's games in a server, a page at a time (for `/my-games`): those waiting for them
first (what is asked, how long the timer leaves), then the others, then their lobbies, each
with a link to its board (or lobby message)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot.errors import GameUnreadable, UserError
from bot.language.i18n import _, ngettext
from bot.language.wording import without_mentions
from bot.service import GameService
from bot.storage import ACTIVE, LOBBY, GameRow, Storage
from bot.table.board import prompt_here
from bot.table.notifier import board_url
from bot.table.presenters import Presenters

PAGE_SIZE = 8


@dataclass(frozen=True)
class MyGame:
    """One game as `/my-games` lists it."""

    waiting: bool  # the member is to act
    deadline: float | None  # when the AI plays for them, if waiting under a turn timer
    game_id: int
    line: str


@dataclass(frozen=True)
class MyGamesPage:
    """One page of a member's games: those waiting for them first."""

    number: int  # 0 for the first page
    pages: int
    games: list[MyGame]
    waiting: int  # games waiting for the member, on every page


async def my_games_page(
    service: GameService,
    storage: Storage,
    presenters: Presenters,
    guild_id: int,
    player_id: int,
    page: int,
) -> MyGamesPage:
    """Page `page` of `player_id`'s games in `guild_id` (UserError for a page past the end)."""
    games: list[MyGame] = []
    for row in await storage.games(status=ACTIVE, guild_id=guild_id, player_id=player_id):
        if row.game in presenters:
            games.append(await _active(service, presenters, row, player_id))
    for row in await storage.games(status=LOBBY, guild_id=guild_id, player_id=player_id):
        if row.game in presenters:
            games.append(_lobby(presenters, row))
    games.sort(key=lambda g: (not g.waiting, g.deadline or math.inf, g.game_id))
    pages = max(1, math.ceil(len(games) / PAGE_SIZE))
    if page >= pages:
        past = ngettext(
            "There is no page {page}: your games fill {n} page. Use the command again.",
            "There is no page {page}: your games fill {n} pages. Use the command again.",
            pages,
        )
        raise UserError(past.format(page=page + 1, n=pages))
    shown = games[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]
    return MyGamesPage(page, pages, shown, sum(g.waiting for g in games))


async def _active(
    service: GameService, presenters: Presenters, row: GameRow, player_id: int
) -> MyGame:
    presenter = presenters.get(row.game)
    title = f"**{presenter.title} #{row.id}**"
    link = _link(row)
    try:
        table = await service.table(row.id)
    except GameUnreadable:
        return MyGame(False, None, row.id, f"{title} — ⚠️ " + _("can't be continued") + link)
    engine = service.engine(row.game)
    if table.state is None:
        return MyGame(False, None, row.id, f"{title}{link}")
    waiting = engine.outcome(table.state) is None and player_id in (
        engine.to_act(table.state) - table.autoplayed
    )
    asked = without_mentions(prompt_here(table, engine, presenter), table.names)
    line = f"{title} — {asked}"
    deadline = row.deadline if waiting else None
    if deadline is not None:
        line += " · ⏰ " + _("the AI plays for you {when}").format(when=f"<t:{int(deadline)}:R>")
    return MyGame(waiting, deadline, row.id, line + link)


def _lobby(presenters: Presenters, row: GameRow) -> MyGame:
    title = f"**{presenters.get(row.game).title} #{row.id}**"
    where = ""
    if row.lobby_message_id is not None:
        url = board_url(row.guild_id, row.channel_id, row.lobby_message_id)
        where = f" · [{_('lobby')}]({url})"
    return MyGame(False, None, row.id, f"{title} — " + _("waiting for players") + where)


def _link(row: GameRow) -> str:
    if row.thread_id is None:
        return ""
    if row.board_message_id is None:
        return f" · <#{row.thread_id}>"
    return f" · [{_('board')}]({board_url(row.guild_id, row.thread_id, row.board_message_id)})"
