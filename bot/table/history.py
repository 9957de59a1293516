"""A server's finished games, newest first, a page at a time (for `/history`).

Each entry says when the game finished, who played, how it ended (the result line of its
final board, in the reader's language) and where its thread is. Abandoned and cancelled
games never finished, so they are not history.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.errors import GameUnreadable
from bot.language.i18n import _
from bot.language.wording import listing, mention
from bot.service import GameService
from bot.storage import MAX_ID, Storage
from bot.table.board import prompt_here
from bot.table.presenters import Presenters

PAGE_SIZE = 5


def reachable(number: int, player_id: int | None) -> bool:
    """True if page `number` of a list of `player_id`'s games is one a database can be asked
    for: a forged button may name a page or a member past SQLite's and PostgreSQL's integers."""
    offset_fits = 0 <= number <= (MAX_ID - PAGE_SIZE - 1) // PAGE_SIZE
    return offset_fits and (player_id is None or 0 < player_id <= MAX_ID)


@dataclass(frozen=True)
class Entry:
    """One finished game as `/history` lists it."""

    game_id: int
    title: str
    finished_at: float
    players: str
    result: str
    thread_url: str | None


@dataclass(frozen=True)
class Page:
    """One page of `/history`, newest games first."""

    number: int  # 0 for the newest games
    entries: list[Entry]
    more: bool  # older games follow


async def history_page(
    service: GameService,
    storage: Storage,
    presenters: Presenters,
    guild_id: int,
    number: int,
    *,
    game: str | None = None,
    player_id: int | None = None,
    between: tuple[float, float] | None = None,
) -> Page:
    """Page `number` of `guild_id`'s finished games (of `game`, with `player_id`, finished
    `between` two times, if given)."""
    rows = await storage.finished_games(
        guild_id,
        game=game,
        player_id=player_id,
        between=between,
        limit=PAGE_SIZE + 1,  # one more tells whether there is a next page
        offset=number * PAGE_SIZE,
    )
    entries = []
    for row, finished_at in rows[:PAGE_SIZE]:
        if row.game not in presenters:
            continue  # a game this version no longer offers
        presenter = presenters.get(row.game)
        try:
            table = await service.table(row.id)
            result = prompt_here(table, service.engine(row.game), presenter)
        except GameUnreadable:
            result = _("(saved by another version of Parlour)")
            table = None
        seats = table.seats if table is not None else await storage.seats(row.id)
        names = {s.player_id: s.name for s in seats}
        entries.append(
            Entry(
                game_id=row.id,
                title=presenter.title,
                finished_at=finished_at,
                players=listing([mention(s.player_id, names) for s in seats]),
                result=result,
                thread_url=(
                    f"https://discord.com/channels/{guild_id}/{row.thread_id}"
                    if row.thread_id
                    else None
                ),
            )
        )
    return Page(number, entries, more=len(rows) > PAGE_SIZE)
