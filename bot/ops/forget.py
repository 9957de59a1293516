"""Forgetting, for privacy: a member's personal data removed on request (`/forget-me`,
`python -m bot forget-user`), and a server's data on request (`forget-server`) or 30 days
after the bot was removed from it (`purge_departed`).

A forgotten member's games in play are resigned first (their seat plays out as each game's
rules say), their lobbies left or cancelled; then `Storage.forget_player` swaps their id
for a fresh stand-in in each of their games (found through their seats, changed where the
data model holds a player id, states walked by their type hints), so finished games still
replay, the others' results stand, and their games can't be linked to each other by it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from bot.errors import GameUnreadable, UserError
from bot.language.i18n import N_, _
from bot.language.wording import FORMER_PLAYER, STAND_INS
from bot.service import GameService
from bot.shards import Shards
from bot.storage import ABANDONED, ACTIVE, FINISHED, LOBBY, Storage
from rules.codec import player_renamed
from rules.seats import RESIGN

log = logging.getLogger(__name__)

CANT_FORGET_YET = N_(
    "Parlour can't forget this member yet: one of their games was saved in a form this version "
    "of Parlour can't read. Nothing was changed; the bot's admin can find which game in its log."
)
RETENTION = 30 * 86400.0  # seconds a server's data is kept after the bot was removed
PURGE_EVERY = 3600.0  # seconds between looks for servers whose time is up


@dataclass
class Forgotten:
    """What forgetting a member did."""

    games: int = 0  # games whose records now name a former player
    resigned: list[int] = field(default_factory=list)  # games in play: their boards to show
    lobbies: list[int] = field(default_factory=list)  # lobbies left (or, hosted, cancelled)


async def forget_member(service: GameService, storage: Storage, player_id: int) -> Forgotten:
    """Resign `player_id`'s games in play, take them out of lobbies (through `service`, as
    their clicks would), then remove their personal data from `storage`'s records of every
    server.

    Raises:
        UserError: When one of their games can't be loaded by this version (its player ids
            can't be found by its structure): before anything is changed.
    """
    await _check_readable(service, storage, player_id)
    done = Forgotten()
    for row in await storage.games(status=ACTIVE, player_id=player_id):
        try:
            if player_id not in (await service.table(row.id)).resigned:
                await service.seat_action(row.id, player_id, RESIGN)
                done.resigned.append(row.id)
        except (UserError, GameUnreadable) as e:  # over meanwhile, or unplayable: forget it
            log.info("forgetting a member: game %d not resigned (%s)", row.id, e)
    for row in await storage.games(status=LOBBY, player_id=player_id):
        with contextlib.suppress(UserError):  # started or closed meanwhile
            if row.host_id == player_id:
                await service.cancel(row.id, player_id)
            else:
                await service.leave(row.id, player_id)
            done.lobbies.append(row.id)
    # Games still in play after the resignation (a seat the rules play on): their moves wait
    # while the ids are swapped, then read the swapped seats and state, not this process's
    # copy, which would write the member's id back. Other processes see the game's revision
    # counted up, and read it afresh too.
    playing = sorted(row.id for row in await storage.games(status=ACTIVE, player_id=player_id))
    async with contextlib.AsyncExitStack() as held:
        for game_id in playing:
            await held.enter_async_context(service.lock(game_id))
        try:
            done.games = await storage.forget_player(
                player_id, FORMER_PLAYER, partial(_restated, service), _stand_in
            )
        except GameUnreadable as e:  # one they only hosted or ended: the rewrite is undone
            log.warning("forgetting a member refused: %s", e.reason)
            raise UserError(_(CANT_FORGET_YET)) from e
        service.forget_cached(playing)
    return done


async def _check_readable(service: GameService, storage: Storage, player_id: int) -> None:
    """Refuse (UserError) to forget a member one of whose saved games this version can't
    load, before their games are resigned and their lobbies left."""
    for status in (ACTIVE, FINISHED, ABANDONED):
        for row in await storage.games(status=status, player_id=player_id):
            if row.state is None:
                continue
            try:
                _restated(service, row.game, row.state, player_id, player_id)
            except GameUnreadable as e:
                log.warning("forgetting a member refused: game %d is %s", row.id, e.reason)
                raise UserError(_(CANT_FORGET_YET)) from e


def _restated(
    service: GameService, game: str, state: Mapping[str, Any], old: int, new: int
) -> Mapping[str, Any]:
    """A saved state with player `old` made `new`, through the game's engine: loaded, the
    fields its type hints mark as player ids changed, dumped again.

    Raises:
        GameUnreadable: For a state this version can't load (nothing is forgotten then: the
            transaction is undone).
    """
    if game not in service.engines:
        raise GameUnreadable(f"a game without an engine ({game!r})")
    engine = service.engine(game)
    try:
        loaded = engine.load(state)
    except Exception as e:  # as `GameService.table`: another version's state, or a corrupted one
        raise GameUnreadable(f"a {game} state this version can't load: {e!r}") from e
    return engine.dump(player_renamed(loaded, old, new))


def _stand_in() -> int:
    """A random stand-in id: 16 digits, never a Discord id (`STAND_INS`)."""
    return STAND_INS.start + secrets.randbelow(len(STAND_INS))


async def purge_departed(
    storage: Storage,
    shards: Shards | None = None,
    *,
    present: Callable[[int], object] | None = None,
    now: float | None = None,
) -> list[int]:
    """Delete the data of every server the bot was removed from more than `RETENTION` ago
    (of `shards`' servers only, when given); the servers deleted. With `present` (whether
    the bot is in a server now, once connected), a server it was removed from while it was
    offline is noticed, and one it was added back to is kept."""
    moment = time.time() if now is None else now

    def ours(guild_id: int) -> bool:
        return shards is None or shards.owns(guild_id)

    if present is not None:
        for guild_id in await storage.guilds_with_data():
            if ours(guild_id) and not present(guild_id):
                await storage.guild_left(guild_id, moment)  # no-op if known already
        for guild_id in await storage.guilds_left_before(moment + 1):
            if present(guild_id):
                await storage.guild_back(guild_id)
    purged = []
    for guild_id in await storage.guilds_left_before(moment - RETENTION):
        if ours(guild_id):
            games = await storage.forget_guild(guild_id)
            log.info(
                "server %d: its data deleted, 30 days after the bot left (%d games)",
                guild_id,
                games,
            )
            purged.append(guild_id)
    return purged


async def purge_forever(
    ready: Callable[[], Awaitable[object]],
    purge: Callable[[], Awaitable[object]],
    every: float = PURGE_EVERY,
) -> None:
    """Once `ready` (the bot knows its servers), run `purge` and again every `every`
    seconds, logging (not raising) its failures."""
    await ready()
    while True:
        try:
            await purge()
        except Exception:
            log.exception("deleting departed servers' data failed; trying again later")
        await asyncio.sleep(every)
