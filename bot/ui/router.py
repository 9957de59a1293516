"""Every interaction's way in: answered within Discord's 3 seconds, whatever is behind it.

The router runs a handler and, if the handler has not answered by the deadline (2.5 s after
Discord created the interaction), defers it, so the player never sees "This interaction
failed"; the handler's answer then arrives as an edit or a follow-up (see `Reply`). Player
mistakes (`UserError`) are answered privately; anything else is logged and answered with a
short apology. The router also counts the clicks in flight, so background work can give way
to them, and refuses new ones while the bot shuts down.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.errors import UserError
from bot.language.i18n import N_, _, language_of, speaking
from bot.metrics import Metrics
from bot.ui.replies import Reply

log = logging.getLogger(__name__)

ANSWER_BY = 2.5  # seconds after Discord created the interaction: its limit is 3
GENERIC_ERROR = N_("Something went wrong on our side; your move was not applied. Please try again.")
SHUTTING_DOWN = N_("Parlour is restarting; please click again in a few seconds.")
OLD_BUTTON = N_(
    "This button is from an older version of the game. Use the latest board in the game's "
    "thread (`/games` links to it)."
)
MOVED_ON = N_("That board has moved on since you saw it: use it as it is now.")
OLD_BOX = N_("That box is no longer open. Use the latest board in the game's thread.")

Handler = Callable[[Reply], Awaitable[None]]


class Router:
    """Runs every interaction's handler within Discord's deadline, and counts those in flight."""

    def __init__(self, metrics: Metrics, *, answer_by: float = ANSWER_BY) -> None:
        """`answer_by`: seconds after Discord created an interaction by which it is deferred, if
        still unanswered."""
        self._metrics = metrics
        self._answer_by = answer_by
        self._in_flight: set[asyncio.Task[None]] = set()
        self._idle = asyncio.Event()
        self._idle.set()
        self.closing = False

    @property
    def busy(self) -> bool:
        """True while a player's interaction is being handled."""
        return bool(self._in_flight)

    async def quiet(self, at_most: float) -> None:
        """Wait until no interaction is being handled, or `at_most` seconds: background
        work calls this first, so a live click never waits behind it for long."""
        if self._in_flight:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._idle.wait(), at_most)

    async def handle(self, reply: Reply, handler: Handler, *, on_error: bool = True) -> None:
        """Run `handler`, deferring its interaction if it has not answered in time. With
        `on_error`, errors are answered here; without, they propagate (the command tree
        answers them in its own `on_error`). Whatever the handler words is in the clicker's
        language unless it says otherwise (a public message speaks the game's)."""
        with speaking(language_of(reply.interaction.locale)):
            await self._handle(reply, handler, on_error=on_error)

    async def _handle(self, reply: Reply, handler: Handler, *, on_error: bool) -> None:
        if self.closing:
            reply.outcome = "shutting_down"
            await reply.private(_(SHUTTING_DOWN))
            self._count(reply)
            return
        task = asyncio.ensure_future(self._run(reply, handler) if on_error else handler(reply))
        self._in_flight.add(task)
        self._idle.clear()
        try:
            done, _pending = await asyncio.wait({task}, timeout=self._budget(reply.interaction))
            if not done and not reply.answered:
                log.info("interaction %s: slow answer, deferred", reply.interaction.id)
                await reply.defer()
            await task
        finally:
            self._in_flight.discard(task)
            if not self._in_flight:
                self._idle.set()
            self._count(reply)

    def _count(self, reply: Reply) -> None:
        kind = reply.interaction.type.name
        self._metrics.interactions.labels(kind, reply.outcome).inc()
        if reply.answered_at is not None:
            self._metrics.answer_seconds.labels(kind).observe(reply.answered_at - reply.received)

    async def _run(self, reply: Reply, handler: Handler) -> None:
        try:
            await handler(reply)
        except UserError as e:
            reply.outcome = "refused"
            await reply.private(str(e))
        except Exception:
            reply.outcome = "error"
            log.exception("interaction %s failed", reply.interaction.id)
            await reply.private(_(GENERIC_ERROR))

    def _budget(self, interaction: discord.Interaction[Any]) -> float:
        """Seconds left before the deferral must go out: the deadline counts from when
        Discord created the interaction (its id's timestamp), not from when it reached us."""
        age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        return min(self._answer_by, max(0.2, self._answer_by - age))

    async def close(self, grace: float) -> None:
        """Stop taking interactions; give those in flight `grace` seconds to finish (their
        moves are saved already: what is cut short is only shown later)."""
        self.closing = True
        if self._in_flight:
            await asyncio.wait(set(self._in_flight), timeout=grace)
