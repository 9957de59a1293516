"""The season clock: each season ends at its stored UTC time, or at the next start when that
time passed while the bot was down, and its card is posted once.

The end itself is `Storage.end_season`, one transaction that only one caller can win (the
clock of any shard's process, or `/season end`); the card is claimed before it is posted and
marked done with its message's id after, so a restart posts only the cards not yet posted,
and one whose earlier try was cut short is looked for in its channel before it is posted.
Each process looks after its own shards' servers, as recovery does.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from bot.shards import Shards
from bot.storage import SeasonRow, Storage

log = logging.getLogger(__name__)

LOOK_EVERY = 60.0  # seconds between looks at most: a season ends within this of its time
CARD_CLAIM = 600.0  # seconds a process has to post a card before another may try again
Announce = Callable[[SeasonRow, bool], Awaitable[int | None]]
"""Posts an ended season's card (after looking whether an earlier try posted it already,
when told); the message's id (None: nowhere to post, logged)."""


class SeasonClock:
    """Ends the seasons that fall due and posts their cards."""

    def __init__(
        self,
        storage: Storage,
        *,
        shards: Shards | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """Watch `storage`'s seasons of `shards`' servers (all when None) by `clock`."""
        self.storage = storage
        self.shards = shards
        self.clock = clock
        self.announce: Announce | None = None  # set by the seasons cog as it loads
        self._wake = asyncio.Event()
        # A claim on a card from before this process started is a dead predecessor's: a
        # server's seasons are looked after by the one process of its shard.
        self._started = clock()

    def wake(self) -> None:
        """Look now (a season was started or ended by a command)."""
        self._wake.set()

    async def end_now(self, guild_id: int, number: int) -> SeasonRow | None:
        """`/season end`: end the season now, if it still runs (None: it does not, nothing
        changed); its card follows at once."""
        ended = await self.storage.end_season(guild_id, number, self.clock(), due_only=False)
        if ended is not None:
            self.wake()
        return ended

    async def run_forever(self, ready: Callable[[], Awaitable[object]]) -> None:
        """Once `ready` (the servers' channels known, to post in), look at once — seasons
        due while the bot was down end now — then whenever a season falls due, at least
        every `LOOK_EVERY` seconds or when woken."""
        await ready()
        while True:
            delay = LOOK_EVERY
            try:
                await self.tick()
                following = await self.storage.next_season_end(self.shards)
                if following is not None:
                    delay = min(delay, max(0.0, following - self.clock()))
            except Exception:  # a database hiccup: the next look tries again
                log.exception("season clock: a look failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), delay)
            self._wake.clear()

    async def tick(self) -> None:
        """End every season that is due, then post every card not posted yet."""
        now = self.clock()
        for season in await self.storage.seasons_due(now, self.shards):
            ended = await self.storage.end_season(
                season.guild_id, season.number, now, due_only=True
            )
            if ended is not None:
                log.info("season %d of server %d ended", ended.number, ended.guild_id)
        for season in await self.storage.cards_to_post(self.shards):
            await self._post(season)

    async def _post(self, season: SeasonRow) -> None:
        if self.announce is None:
            return  # the cog is not loaded: the card waits for a process that has it
        now = self.clock()
        stale = max(self._started, now - CARD_CLAIM)
        if not await self.storage.claim_card(season.guild_id, season.number, now, stale):
            return  # another process is posting it
        # Tried before (a process killed meanwhile): it may have posted the card already.
        message_id = await self.announce(season, season.card_claimed_at is not None)
        await self.storage.card_posted(season.guild_id, season.number, message_id)
