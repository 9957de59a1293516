"""Discord's error answers for the fake Discord: API errors, injected faults, rate limits.

Kept apart from ``fake_discord`` so that the fake's model of Discord (guilds, channels,
messages, the gateway) stays readable. Nothing here knows that model: the fake decides when
to answer with what, these build the answers.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]

# Error codes worth injecting (the fake also answers most of them by itself).
UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
UNKNOWN_INTERACTION = 10062
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
THREAD_ARCHIVED = 50083
MAX_EDITS_TO_OLD_MESSAGES = 30046

#: Discord's messages for those codes, used when ``inject`` is given a code but no message.
MESSAGES = {
    UNKNOWN_CHANNEL: "Unknown Channel",
    UNKNOWN_MESSAGE: "Unknown Message",
    UNKNOWN_INTERACTION: "Unknown interaction",
    MISSING_ACCESS: "Missing Access",
    MISSING_PERMISSIONS: "Missing Permissions",
    THREAD_ARCHIVED: "Thread is archived",
    MAX_EDITS_TO_OLD_MESSAGES: "Maximum number of edits to messages older than 1 hour reached. "
    "Try again later",
}


class ApiError(Exception):
    """A Discord error answer: HTTP status, Discord's JSON error body, extra headers."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: JSON | None = None,
        *,
        headers: dict[str, str] | None = None,
        body: JSON | None = None,
    ) -> None:
        super().__init__(f"{status} {message} (code {code})")
        self.status = status
        self.body: JSON = {"message": message, "code": code} if body is None else body
        if errors is not None:
            self.body["errors"] = errors
        self.headers: dict[str, str] = dict(headers or {})


def bucket_hash(method: str, route: str) -> str:
    """A stable stand-in for Discord's opaque ``X-RateLimit-Bucket`` of one route."""
    return hashlib.sha1(f"{method} {route}".encode()).hexdigest()[:16]


def rate_limit_headers(limit: int, remaining: int, reset_after: float, bucket: str) -> JSON:
    """The bucket headers Discord sends with answers of a rate-limited route."""
    # Rounded up to the millisecond: a client sleeping this long finds the bucket reset.
    reset_after = math.ceil(reset_after * 1000) / 1000
    return {
        "X-RateLimit-Limit": str(limit),
        "X-RateLimit-Remaining": str(remaining),
        "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
        "X-RateLimit-Reset-After": f"{reset_after:.3f}",
        "X-RateLimit-Bucket": bucket,
    }


def too_many_requests(
    retry_after: float, bucket: str, *, scope: str = "user", limit: int = 1
) -> ApiError:
    """Discord's 429: ``retry_after`` in the body and the headers, so discord.py waits it out.

    discord.py takes a 429 without a ``Via`` header for a Cloudflare ban and gives up at
    once: Discord's answers all come through Google's front end, which adds one.
    """
    headers = {
        **rate_limit_headers(limit, 0, retry_after, bucket),
        "Retry-After": str(max(1, math.ceil(retry_after))),
        "X-RateLimit-Scope": scope,
        "Via": "1.1 google",
    }
    body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": False}
    return ApiError(429, 0, "", headers=headers, body=body)


def globally_limited(retry_after: float) -> ApiError:
    """Discord's 429 for a bot over its global rate limit (50 requests a second, every
    route together): ``X-RateLimit-Global`` set, ``"global": true`` in the body, no bucket."""
    headers = {
        "Retry-After": str(max(1, math.ceil(retry_after))),
        "X-RateLimit-Global": "true",
        "X-RateLimit-Scope": "global",
        "Via": "1.1 google",
    }
    body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": True}
    return ApiError(429, 0, "", headers=headers, body=body)


@dataclass(eq=False)
class Injection:
    """A planted answer for REST requests; made by ``FakeDiscord.inject``.

    It matches a request by method and by ``re.fullmatch`` of the path after ``/api/v10``.
    """

    method: str
    pattern: re.Pattern[str]
    status: int = 400
    code: int = 0
    message: str = ""
    #: How many requests it answers before it removes itself; None: until ``remove()``.
    times: int | None = 1
    delay: float = 0.0
    hang: bool = False
    retry_after: float | None = None
    #: Requests it matched so far.
    hits: int = 0
    #: No longer matching: used up, or removed.
    removed: bool = False
    _held: list[asyncio.Future[None]] = field(default_factory=list, repr=False)
    _on_remove: Callable[[Injection], None] | None = field(default=None, repr=False)

    def matches(self, method: str, path: str) -> bool:
        return (
            not self.removed
            and method.upper() == self.method.upper()
            and self.pattern.fullmatch(path) is not None
        )

    @property
    def held(self) -> int:
        """Requests held open right now (``hang=True``), waiting for ``release()``."""
        return sum(1 for f in self._held if not f.done())

    def release(self) -> None:
        """Let the requests held so far through, to be handled normally.

        Later matching requests are held again, until the injection is used up or removed.
        """
        held, self._held = self._held, []
        for future in held:
            if not future.done():
                future.set_result(None)

    def remove(self) -> None:
        """Stop matching; requests still held are released (handled normally)."""
        self.removed = True
        self.release()
        if self._on_remove is not None:
            self._on_remove(self)

    def error(self, route: str) -> ApiError:
        """The answer for a matched request (when it is not a hang)."""
        if self.retry_after is not None:
            return too_many_requests(self.retry_after, bucket_hash(self.method, route))
        message = self.message or MESSAGES.get(self.code, "Injected error")
        return ApiError(self.status, self.code, message)

    def hold(self) -> asyncio.Future[None]:
        """Hold a request: the future is done on ``release()`` (or ``remove()``)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._held.append(future)
        return future


class FixedWindow:
    """Discord's rate limit buckets: at most ``limit`` uses per window of ``period`` seconds.

    A window opens with the first use after the previous one ended, as the
    ``X-RateLimit-Reset-After`` header describes it.
    """

    def __init__(self) -> None:
        self._windows: dict[Any, tuple[float, int]] = {}

    def take(self, key: Any, limit: int, period: float) -> tuple[bool, int, float]:
        """Use one slot of ``key``'s bucket: (allowed, remaining, seconds until the reset)."""
        now = time.monotonic()
        start, used = self._windows.get(key, (now, 0))
        if now >= start + period:
            start, used = now, 0
        reset_after = start + period - now
        if used >= limit:
            return False, 0, reset_after
        self._windows[key] = (start, used + 1)
        return True, limit - used - 1, reset_after
