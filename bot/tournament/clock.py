"""The tournament clock: every event's scheduled work, from the absolute UTC times stored
with it, done once, at its time or at the next start when it fell due while the bot was
down — the check-in ping, the start, the ready windows — and the work a table's end
brings: its places stored, the next round dealt and seated, the final standings posted.

Each look (`tick`) reads what is due from the database, so nothing is armed in memory that
a restart could lose; each step is a storage transaction only one caller wins (the clock of
the process looking after the server's shard, or a command). What Discord shows is the
`Desk`'s, set by the tournaments cog as it loads: the check-in ping is claimed before it is
sent (sent at most once), the final post claimed and then marked done with its message's id
(as a season's card), a table's thread made once its game is seated.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from bot.service import LoadedGame, Played
from bot.shards import Shards
from bot.storage.tournaments import FINISHED, RUNNING, SIGNUP, TableRow, TournamentRow
from bot.tournament.events import TournamentService

log = logging.getLogger(__name__)

LOOK_EVERY = 60.0  # seconds between looks at most (a game's end wakes the clock at once)
FINAL_CLAIM = 600.0  # seconds a process has to post the final standings before another tries


class Desk(Protocol):
    """What Discord shows of an event (the tournaments cog)."""

    async def show_card(self, event: TournamentRow) -> None:
        """Redraw the event's sign-up card (at most once every few seconds)."""

    async def ping_check_in(self, event: TournamentRow) -> None:
        """Tell the entrants that check-in is open."""

    async def open_table(self, event: TournamentRow, table: TableRow, game: LoadedGame) -> None:
        """Give a started table's game its thread (if it has none), ping its members and
        show its first board."""

    async def handed_to_ai(self, played: Played) -> None:
        """Show a table's board after the AI took a member's seat, and let it play on."""

    async def post_final(self, event: TournamentRow, tried_before: bool) -> int | None:
        """Post the final standings (looking first whether an earlier try posted them, when
        told); the message's id (None: nowhere to post)."""


class TournamentClock:
    """Does every event's work as it falls due (see the module)."""

    def __init__(self, events: TournamentService, *, shards: Shards | None = None) -> None:
        """Tend the events `events` runs, of `shards`' servers (all when None)."""
        self.service = events
        self.storage = events.storage
        self.shards = shards
        self.desk: Desk | None = None  # set by the tournaments cog as it loads
        self._wake = asyncio.Event()
        self._tending = asyncio.Lock()  # one look at a time: a command wakes, never tends
        # A claim on a final post from before this process started is a dead predecessor's.
        self._started = events.clock()

    def wake(self) -> None:
        """Look now (an event changed, a game ended)."""
        self._wake.set()

    async def run_forever(self, ready: Callable[[], Awaitable[object]]) -> None:
        """Once `ready` (the servers known, to post in), look at once — work due while the
        bot was down is done now — then at the next time due, at least every `LOOK_EVERY`
        seconds, or when woken."""
        await ready()
        while True:
            delay = LOOK_EVERY
            try:
                await self.tick()
                following = await self.storage.next_tournament_time(self.shards)
                if following is not None:
                    delay = min(delay, max(0.0, following - self.service.clock()))
            except Exception:  # a database or Discord hiccup: the next look tries again
                log.exception("tournament clock: a look failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), delay)
            self._wake.clear()

    async def tick(self) -> None:
        """Do every event's due work, once."""
        async with self._tending:
            for table in await self.storage.ready_due(self.service.clock(), self.shards):
                try:
                    for played in await self.service.look_at_ready(table):
                        if self.desk is not None:
                            await self.desk.handed_to_ai(played)
                except Exception:  # one table's trouble must not stop the others'
                    log.exception("tournament %d: a ready window failed", table.tournament_id)
            for event in await self.storage.tournaments_to_tend(self.shards):
                try:
                    await self._tend(event)
                except Exception:  # one event's trouble must not stop the others'
                    log.exception("tournament %d: its work failed", event.id)

    async def _tend(self, event: TournamentRow) -> None:
        now = self.service.clock()
        if event.state == SIGNUP:
            desk = self.desk  # without the cog, the ping waits for a process that has it
            if (
                desk is not None
                and event.checking_in(now)
                and await self.storage.claim_checkin_ping(event.id)
            ):
                await desk.ping_check_in(event)
            if now >= event.starts_at:
                started = await self.service.start(event)
                if started is not None and started.state == RUNNING:
                    await self.service.deal_next(started)
        event = await self.service.event(event.id)
        if event.state == RUNNING:
            await self._play(event)
            event = await self.service.event(event.id)
        if event.state == FINISHED and not event.final_done and self.desk is not None:
            await self._post_final(event)
            event = await self.service.event(event.id)
        if event.card_revision < event.revision and self.desk is not None:
            await self.desk.show_card(event)

    async def _play(self, event: TournamentRow) -> None:
        """The current round's ended tables scored, the next round dealt when it is over,
        and every table of the (new) round seated."""
        await self.service.collect(event)
        if await self.service.advance(event) is not None:
            event = await self.service.event(event.id)
        if event.state != RUNNING:
            return
        for table in await self.storage.round_tables(event.id, event.round):
            if table.result_done:
                continue
            if table.game_id is not None:
                game = await self.service.games.table(table.game_id)
                if game.row.thread_id is not None and game.row.state is not None:
                    continue  # seated and shown: the table runtime plays it
            game = await self.service.seat(event, table)
            seated = await self.storage.table_of_game(game.row.id)  # with its ready window
            if self.desk is not None and seated is not None:
                await self.desk.open_table(event, seated, game)

    async def _post_final(self, event: TournamentRow) -> None:
        assert self.desk is not None
        now = self.service.clock()
        stale = max(self._started, now - FINAL_CLAIM)
        if not await self.storage.claim_final(event.id, now, stale):
            return  # another process is posting it
        message_id = await self.desk.post_final(event, event.final_claimed_at is not None)
        await self.storage.final_posted(event.id, message_id)
