"""The board publisher: after any state change, the game's board shows the latest saved step.

The database remembers which step (and chapter) each board shows. `publish` brings a board
up to date from whatever it shows now: with the events of the moves it has been handed, or,
when it fell further behind (a crash between "saved" and "shown", a failed edit), with the
events rebuilt from the action log. So whoever calls it — a click, a bot, a timer, start-up,
the reconciler — the result is the same, and nothing a player saw saved is ever left unshown.

Work for one game is queued, never contended: one worker per game publishes, and requests
that arrive meanwhile are folded into its next round. No lock is held across a Discord call.

A chapter (a race, a Risk turn) ends by closing its board (the final picture, no buttons)
and posting a new one. A board deleted by a moderator is posted again; a deleted thread ends
the game. Any other failure leaves the board behind for a retry, with growing pauses.

The turn's ping goes out with the board (`bot.table.pings`), and a game's end is shown by
`bot.table.endings`.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import itertools
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.errors import GameUnreadable
from bot.metrics import Metrics
from bot.scheduler import Scheduler
from bot.service import GameService, LoadedGame, Played
from bot.storage import ACTIVE, FINISHED, Storage
from bot.table.board import Board, build_board, prompt_of
from bot.table.endings import Endings
from bot.table.notifier import Notifier
from bot.table.pictures import PictureWorkers
from bot.table.pings import Pings, thread_of
from bot.table.presenter import Picture
from bot.table.presenters import Presenters
from bot.ui.replies import Reply
from rules.core import Event, PlayerId

log = logging.getLogger(__name__)

UNKNOWN_MESSAGE, UNKNOWN_CHANNEL = 10008, 10003  # Discord's codes for a deleted message/thread
THREAD_ARCHIVED = 50083  # an edit in an archived thread
OLD_MESSAGE_EDITS = 30046  # too many edits of a message older than an hour
EDIT_AGE_LIMIT = 3600.0  # seconds: a board older than this is replaced, not edited
RETRY_AFTER = (2.0, 5.0, 15.0, 60.0, 300.0)  # seconds before the n-th retry of a failed board
GIVE_UP_AFTER = 3  # failures that are not Discord's (a picture that can't be drawn)


@dataclass
class _Request:
    played: Played | None
    reply: Reply | None
    repair: bool
    done: asyncio.Future[None]


class Catch(enum.Enum):
    """How the board catches up with the saved game."""

    FIRST = "first"  # the game's first board
    MOVES = "moves"  # the moves just made, handed in: narrated, their new player pinged
    REPLAYED = "replayed"  # it fell behind (a crash, a failed edit): narrated from the log
    REFRESH = "refresh"  # saved by an earlier version: redrawn as it is now


@dataclass(frozen=True)
class _Span:
    """What happened between the shown step and the saved one."""

    catch: Catch
    events: tuple[Event, ...] = ()
    before: Any | None = None  # the state the board shows; None when not known
    was_to_act: frozenset[PlayerId] = frozenset()


class ThreadGone(Exception):
    """The game's thread was deleted: the game cannot go on."""


class BoardPublisher:
    """Keeps every game's board at its latest saved step, one worker per game (see the module)."""

    def __init__(
        self,
        client: discord.Client,
        service: GameService,
        storage: Storage,
        presenters: Presenters,
        scheduler: Scheduler,
        metrics: Metrics,
        notifier: Notifier,
        pictures: PictureWorkers,
    ) -> None:
        """Nothing runs until the first `publish`: then the game gets a worker of its own.
        `notifier` says how each member hears of their turn, and sends the DMs; `pictures` draws
        the boards."""
        self._client = client
        self._notifier = notifier
        self._metrics = metrics
        self._service = service
        self._presenters = presenters
        self._scheduler = scheduler
        self._pictures = pictures
        self._pending: dict[int, list[_Request]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._failures: dict[int, int] = {}  # games whose last publish failed: how often
        self._pings = Pings(client, service, presenters, notifier)
        self._endings = Endings(
            client, service, storage, presenters, scheduler, pictures, self._pings, self._edit
        )
        self.game_ended = self._endings.game_ended  # told of each game's end, by its id

    async def publish(
        self,
        game_id: int,
        *,
        played: Played | None = None,
        reply: Reply | None = None,
        repair: bool = False,
    ) -> None:
        """Bring `game_id`'s board up to date; answer `reply`'s click with it if it can.

        `played` is a move just saved (its events narrate the board); `repair` says the
        board may have missed moves, so the player to act is pinged again. Returns once the
        board is shown, or once showing it failed (a retry is then scheduled)."""
        done = asyncio.get_running_loop().create_future()
        self._pending.setdefault(game_id, []).append(_Request(played, reply, repair, done))
        if game_id not in self._workers:
            self._workers[game_id] = asyncio.create_task(self._work(game_id))
        await asyncio.shield(done)

    @property
    def busy(self) -> bool:
        """True while some board is being published."""
        return bool(self._workers)

    async def close(self, grace: float) -> None:
        """Let boards being published finish for up to `grace` seconds, then stop: a board
        left behind is brought up to date at the next start."""
        workers = set(self._workers.values())
        if workers:
            await asyncio.wait(workers, timeout=grace)
        for worker in workers:
            worker.cancel()
        await asyncio.gather(*workers, return_exceptions=True)

    async def _work(self, game_id: int) -> None:
        try:
            while requests := self._pending.pop(game_id, None):
                try:
                    await self._sync(game_id, requests)
                except Exception as error:
                    await self._failed(game_id, error)
                for request in requests:
                    if request.reply is not None:
                        await request.reply.defer()  # every click gets an answer
                    if not request.done.done():
                        request.done.set_result(None)
        finally:
            self._workers.pop(game_id, None)

    async def _failed(self, game_id: int, error: Exception) -> None:
        count = self._failures.get(game_id, 0) + 1
        self._failures[game_id] = count
        if not isinstance(error, discord.HTTPException) and count >= GIVE_UP_AFTER:
            log.error("game %s: board can't be shown", game_id, exc_info=error)
            self._failures.pop(game_id, None)
            await self.set_aside(game_id, f"board can't be shown: {error!r}")
            return
        delay = RETRY_AFTER[min(count, len(RETRY_AFTER)) - 1]
        log.warning("game %s: board not shown (%r); retry in %.0f s", game_id, error, delay)
        self._scheduler.at((game_id, "publish"), delay, lambda: self.publish(game_id, repair=True))

    # --- one round ---------------------------------------------------------------------------

    async def _sync(self, game_id: int, requests: Sequence[_Request]) -> None:
        played = [r.played for r in requests if r.played is not None]
        latest = max(played, key=lambda p: p.table.row.step).table if played else None
        try:
            table = await self._service.table(game_id, known=latest)
        except GameUnreadable as e:
            if not e.marked:
                await self.set_aside(game_id, e.reason)
            return
        row = table.row
        if row.state is None or row.thread_id is None or row.status not in (ACTIVE, FINISHED):
            return
        if not row.behind and row.board_message_id is not None:
            self._failures.pop(game_id, None)
            return  # shown already (another round, or another caller, got there first)
        span = await self._span(table, played)
        # Clicks in the game's thread (not Start in the lobby's channel): their follow-ups
        # land there.
        replies = [
            r.reply
            for r in requests
            if r.reply is not None and r.reply.interaction.channel_id == row.thread_id
        ]
        clicked = next((r for r in replies if r.can_edit_clicked), None)
        over = self._service.engine(row.game).outcome(table.state) is not None
        pinged, text = self._turn_ping(table, span, over, repair=any(r.repair for r in requests))
        audience = await self._notifier.audience(row.guild_id, row.id, pinged)
        # The first board carries the first ping itself: one message fewer, and no deletion.
        first_ping = (
            self._pings.parts(audience, text, table.names) if span.catch is Catch.FIRST else None
        )
        try:
            board_id = await self._show(table, span, clicked, first_ping)
        except ThreadGone:
            await self._endings.thread_gone(table)
            return
        presenter = self._presenters.get(row.game)
        # What else the clicks caused goes out as their follow-ups, off the bot's global limit.
        voice = next((r for r in reversed(replies) if r.answered and r.token_fresh), None)
        ping: dict[str, int | None] = {}
        if over and table.row.ping_message_id is not None:
            await self._pings.delete(table, forget=False)  # nobody's turn any more
            ping = {"ping_message_id": None}
        elif not over and first_ping is None:
            ping = await self._pings.send(table, audience, text, voice)
        if over:
            # Before the board is marked shown: a crash between the two shows the final
            # board again at the next start and posts the result again, rather than never.
            await self._endings.finish(table, voice)
        # One write for the board and its ping. A crash before it leaves the board behind,
        # shown again (and the player to act pinged again) at the next start.
        await self._service.mark_shown(
            game_id, row.step, presenter.chapter(table.state), board_id, **ping
        )
        self._failures.pop(game_id, None)
        self._pings.send_dms(table, audience, text, board_id)

    def _turn_ping(
        self, table: LoadedGame, span: _Span, over: bool, *, repair: bool
    ) -> tuple[set[PlayerId], str]:
        """Who to ping and what to say: nobody once the game is over or when the board is
        only redrawn; the humans whose turn began with these moves (not those who were to
        act already); after a repair, whoever is to act (they may never have been told)."""
        if over or span.catch is Catch.REFRESH:
            return set(), ""  # nobody's turn began
        told = span.was_to_act if span.catch is Catch.MOVES and not repair else frozenset()
        return self._pings.turn_ping(table, first=span.catch is Catch.FIRST, told=told)

    async def _span(self, table: LoadedGame, hints: Sequence[Played]) -> _Span:
        """The events since the shown step: from the moves handed in when they reach back
        that far, else rebuilt from the log."""
        shown = table.row.shown_step
        if shown is None:
            return _Span(Catch.FIRST)
        if shown < 0:
            return _Span(Catch.REFRESH)
        chain = sorted(hints, key=lambda p: p.from_step)
        while chain and chain[0].from_step < shown:
            chain.pop(0)  # shown already
        if chain and chain[0].from_step == shown and _contiguous(chain, table.row.step):
            events = tuple(e for p in chain for e in p.events)
            return _Span(Catch.MOVES, events, chain[0].before, chain[0].was_to_act)
        replayed = await self._service.replay_since(table, shown)
        return _Span(Catch.REPLAYED, replayed.events, replayed.before)

    async def _show(
        self,
        table: LoadedGame,
        span: _Span,
        clicked: Reply | None,
        first_ping: dict[str, Any] | None,
    ) -> int:
        """Edit (or close and replace) the board; returns the id of the board now up.
        `first_ping`: the content and mentions a new game's first board carries."""
        row = table.row
        presenter = self._presenters.get(row.game)
        shown_chapter = (
            presenter.chapter(span.before) if span.before is not None else row.shown_chapter
        )
        old = row.board_message_id
        if old is None:
            board = await self._board(table, span.events)
            return await self._post(table, board, clicked, first_ping)
        if shown_chapter is not None and shown_chapter != presenter.chapter(table.state):
            closing = await self._board(table, span.events, closing=True)
            if not await self._edit_if_possible(table, old, closing, clicked):
                await self._strip(table, old)
            # The same state, so the same picture, drawn once (unless the closing one shows
            # the chapter's end: a replay, a payout).
            still = None if presenter.pictures_events else closing.picture
            return await self._post(table, await self._board(table, (), picture=still), clicked)
        board = await self._board(table, span.events)
        if _older_than(old, EDIT_AGE_LIMIT) or not await self._edit_if_possible(
            table, old, board, clicked
        ):
            # Gone, or too old to edit (Discord limits edits of messages over an hour old):
            # a fresh board, and the old one loses its buttons if Discord still lets us.
            await self._strip(table, old)
            board.file.reset()
            return await self._post(table, board, clicked)
        return old

    async def _edit_if_possible(
        self,
        table: LoadedGame,
        message_id: int,
        board: Board,
        clicked: Reply | None,
        *,
        unarchive: bool = True,
    ) -> bool:
        """Edit the board; False if Discord will not (the message is gone, or old and edited
        too often). An archived thread is unarchived and the edit tried once more."""
        try:
            await self._edit(table, message_id, board, clicked)
        except discord.HTTPException as e:
            self._metrics.board_edit_failures.labels(str(e.code)).inc()
            if e.code == THREAD_ARCHIVED and unarchive:
                await self._unarchive(table)
                board.file.reset()
                return await self._edit_if_possible(table, message_id, board, None, unarchive=False)
            if e.code in (UNKNOWN_MESSAGE, OLD_MESSAGE_EDITS):
                log.info("game %s: board %s can't be edited (%s)", table.row.id, message_id, e.code)
                return False
            raise
        return True

    async def _strip(self, table: LoadedGame, message_id: int) -> None:
        """Take the buttons off a board that is being replaced (best effort: a click on it
        is refused anyway, since only the current board takes moves)."""
        with contextlib.suppress(discord.HTTPException):
            await self._thread(table).get_partial_message(message_id).edit(view=None)

    async def _unarchive(self, table: LoadedGame) -> None:
        """A thread archived for lack of activity (a slow game) is opened again."""
        log.info("game %s: thread archived; unarchiving it", table.row.id)
        thread = await self._client.fetch_channel(table.row.thread_id or 0)
        if isinstance(thread, discord.Thread):
            await thread.edit(archived=False)

    async def _board(
        self,
        table: LoadedGame,
        events: Sequence[Event],
        *,
        closing: bool = False,
        picture: Picture | None = None,
    ) -> Board:
        engine = self._service.engine(table.row.game)
        presenter = self._presenters.get(table.row.game)
        prompt = None if closing else prompt_of(table, engine, presenter)
        return await build_board(self._pictures, table, engine, presenter, prompt, events, picture)

    async def _edit(
        self, table: LoadedGame, message_id: int, board: Board, clicked: Reply | None
    ) -> None:
        """Edit the board message: as the answer to the click made on it when there is one."""
        parts: dict[str, Any] = {
            "content": None,  # a first board's ping, said once
            "embed": board.embed,
            "attachments": [board.file],
            "view": board.view,
        }
        if (
            clicked is not None
            and clicked.message_id == message_id
            and not clicked.in_private_panel
            and await clicked.update(**parts)
        ):
            return
        board.file.reset()  # a failed answer may have read the picture already
        message = self._thread(table).get_partial_message(message_id)
        try:
            await message.edit(**parts)
        except discord.NotFound as e:
            if e.code == UNKNOWN_CHANNEL:
                raise ThreadGone from e
            raise

    async def _post(
        self,
        table: LoadedGame,
        board: Board,
        clicked: Reply | None = None,
        ping: dict[str, Any] | None = None,
    ) -> int:
        """Post a new board: as a follow-up of the click that led to it when there is one."""
        parts: dict[str, Any] = {"embed": board.embed, "file": board.file, "view": board.view}
        parts.update(ping or {})
        message: discord.Message | None = None
        if clicked is not None and clicked.answered:
            message = await clicked.announce(**parts)
            board.file.reset()
        try:
            if message is None:
                message = await self._thread(table).send(**parts)
        except discord.NotFound as e:
            raise ThreadGone from e
        # At once: a crash before the round ends must not lead to a second new board.
        await self._service.set_ids(table.row.id, board_message_id=message.id)
        return message.id

    def _thread(self, table: LoadedGame) -> discord.PartialMessageable:
        return thread_of(self._client, table)

    async def board_deleted(self, game_id: int) -> None:
        """A moderator deleted the board: post it again (a cleanup must not end a game)."""
        log.info("game %s: board message deleted; posting it again", game_id)
        await self._service.set_ids(game_id, board_message_id=None)
        await self.publish(game_id, repair=True)

    async def thread_deleted(self, game_id: int) -> None:
        """A moderator deleted the game's thread: the game ends there."""
        await self._endings.thread_gone(await self._service.table(game_id))

    # --- pings and endings, for the table's other parts -------------------------------------

    async def ping(
        self, table: LoadedGame, players: Iterable[PlayerId], text: str, *, reminder: bool = False
    ) -> None:
        """One short message about `players`' turn (`Pings.ping`)."""
        await self._pings.ping(table, players, text, reminder=reminder)

    async def ended(self, table: LoadedGame, note: str) -> None:
        """A game ended before its end (`Endings.ended`)."""
        await self._endings.ended(table, note)

    async def edit_lobby(self, table: LoadedGame, note: str) -> None:
        """Redraw the lobby message (`Endings.edit_lobby`)."""
        await self._endings.edit_lobby(table, note)

    async def set_aside(self, game_id: int, reason: str) -> None:
        """Set aside a game this version can't load or show (`Endings.set_aside`)."""
        await self._endings.set_aside(game_id, reason)


def _older_than(message_id: int, seconds: float) -> bool:
    """True if the message (its id says when it was posted) is older than `seconds`."""
    age = discord.utils.utcnow() - discord.utils.snowflake_time(message_id)
    return age.total_seconds() > seconds


def _contiguous(chain: Sequence[Played], to_step: int) -> bool:
    """True if the moves follow each other without a gap and end at `to_step`."""
    return all(a.table.row.step == b.from_step for a, b in itertools.pairwise(chain)) and (
        chain[-1].table.row.step == to_step
    )
