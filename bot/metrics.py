"""What an admin watches: Prometheus metrics, and a health check for a process supervisor.

The figures are always counted (a few dictionary updates per click); they are served over
HTTP only when `METRICS_PORT` is set: `/metrics` in Prometheus' text format (the
`prometheus-client` library), `/healthz` answering 200 while the bot is connected to
Discord's gateway and its database answers, 503 otherwise. The server is aiohttp's (which
discord.py runs on already), on the bot's own event loop, so a scrape reads the live state.

Besides Parlour's own figures: the process's (`process_*`: start time, CPU, memory, open
files) and Python's (`python_info`), the version (`parlour_build_info`), and Discord's 429
answers by scope, counted from discord.py's HTTP requests (`rate_limit_trace`).
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Awaitable, Callable, Mapping
from types import SimpleNamespace

import aiohttp
from aiohttp import web
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    Info,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)

from bot import __version__

log = logging.getLogger(__name__)

ANSWER_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 3.0, 5.0)
LAG_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
DATABASE_TIMEOUT = 2.0  # seconds: a database slower than this to answer counts as down
# X-RateLimit-Scope of Discord's 429s; "cloudflare" for one without Discord's `Via` header (an
# IP ban); anything else counts as "other", so that the label stays a short list.
RATE_LIMIT_SCOPES = ("user", "global", "shared", "cloudflare")


class MetricsUnavailable(Exception):
    """The metrics server can't listen where METRICS_HOST and METRICS_PORT say."""


class Metrics:
    """The bot's figures, in a registry of their own (not the library's global one, so
    that several bots in one test process do not mix)."""

    def __init__(self) -> None:
        """Register every figure, each starting from zero."""
        self.registry = CollectorRegistry()
        r = self.registry
        self.interactions = Counter(
            "parlour_interactions",
            "Interactions handled, by kind (component, application_command, modal_submit) "
            "and outcome (ok, refused, error, shutting_down)",
            ["kind", "outcome"],
            registry=r,
        )
        self.answer_seconds = Histogram(
            "parlour_answer_seconds",
            "Seconds from receiving an interaction to its first response (Discord allows 3)",
            ["kind"],
            buckets=ANSWER_BUCKETS,
            registry=r,
        )
        self.board_edit_failures = Counter(
            "parlour_board_edit_failures",
            "Board edits Discord refused, by its JSON error code (0: none given)",
            ["code"],
            registry=r,
        )
        self.loop_lag = Histogram(
            "parlour_event_loop_lag_seconds",
            "How late the event loop ran a 50 ms beat",
            buckets=LAG_BUCKETS,
            registry=r,
        )
        self.gc_pause = Histogram(
            "parlour_gc_pause_seconds",
            "Seconds each garbage collection held the bot, by generation (2: a full one)",
            ["generation"],
            buckets=LAG_BUCKETS,
            registry=r,
        )
        self.gateway_latency = Gauge(
            "parlour_gateway_latency_seconds",
            "Time between the gateway's heartbeat and its acknowledgement (NaN before the first)",
            registry=r,
        )
        self.games_active = Gauge(
            "parlour_games_active", "Games being played, by title", ["game"], registry=r
        )
        self.guilds = Gauge(
            "parlour_guilds", "Servers the bot is in (on this process's shards)", registry=r
        )
        self.rate_limited = Counter(
            "parlour_discord_rate_limited",
            "Discord's 429 answers, by scope (user, global, shared; cloudflare: a ban by IP)",
            ["scope"],
            registry=r,
        )
        Info("parlour_build", "The running Parlour's version", registry=r).info(
            {"version": __version__}
        )
        ProcessCollector(registry=r)  # process_*: start time, CPU seconds, memory, open files
        PlatformCollector(registry=r)  # python_info: the interpreter's version

    def rate_limit_trace(self) -> aiohttp.TraceConfig:
        """An aiohttp trace for discord.py's HTTP session (`Client(http_trace=...)`) that counts
        each 429 Discord answers, by its scope."""
        trace = aiohttp.TraceConfig()

        async def ended(
            _: aiohttp.ClientSession, __: SimpleNamespace, params: aiohttp.TraceRequestEndParams
        ) -> None:
            response = params.response
            if response.status == 429:
                self.rate_limited.labels(rate_limit_scope(response.headers)).inc()

        trace.on_request_end.append(ended)
        return trace

    def render(self) -> bytes:
        """Every figure in Prometheus' text format, as `/metrics` serves it."""
        return generate_latest(self.registry)


class MetricsServer:
    """`/metrics` and `/healthz` on `port`. `connected` says whether the gateway is up;
    `database_ok` pings the database; `refresh` updates the figures read at scrape time."""

    def __init__(
        self,
        metrics: Metrics,
        *,
        connected: Callable[[], bool],
        database_ok: Callable[[], Awaitable[object]],
        refresh: Callable[[], Awaitable[None]],
    ) -> None:
        """A server not listening yet: `start` opens it."""
        self._metrics = metrics
        self._connected = connected
        self._database_ok = database_ok
        self._refresh = refresh
        self._runner: web.AppRunner | None = None

    async def start(self, host: str, port: int) -> None:
        """Listen on `host`:`port`; `/metrics` and `/healthz` answer from now on."""
        app = web.Application()
        app.router.add_get("/metrics", self._scrape)
        app.router.add_get("/healthz", self._health)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        try:
            await web.TCPSite(self._runner, host, port).start()
        except OSError as e:  # the port taken, or an address this machine doesn't have
            await self.stop()
            raise MetricsUnavailable(
                f"METRICS_PORT={port} can't be used on METRICS_HOST={host!r}: "
                f"{e.strerror or e}. Choose a free port, or an address of this machine."
            ) from e
        log.info("metrics on http://%s:%d/metrics, health on /healthz", host, port)

    async def stop(self) -> None:
        """Stop listening; stopping a server that never started does nothing."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _scrape(self, _: web.Request) -> web.Response:
        try:
            await asyncio.wait_for(self._refresh(), DATABASE_TIMEOUT)
        except Exception as e:  # the figures kept in memory are still worth serving
            log.warning("metrics: games not counted (%r)", e)
        body = self._metrics.render()
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _health(self, _: web.Request) -> web.Response:
        problems = []
        if not self._connected():
            problems.append("not connected to Discord's gateway")
        try:
            await asyncio.wait_for(self._database_ok(), DATABASE_TIMEOUT)
        except Exception as e:
            problems.append(f"database does not answer ({e!r})")
        if problems:
            return web.Response(status=503, text="; ".join(problems) + "\n")
        return web.Response(text="ok\n")


def rate_limit_scope(headers: Mapping[str, str]) -> str:
    """The scope of a 429, as Discord's headers give it (discord.py's test for a Cloudflare
    ban: no `Via` header)."""
    if "Via" not in headers:
        return "cloudflare"
    scope = headers.get("X-RateLimit-Scope", "global" if headers.get("X-RateLimit-Global") else "")
    return scope if scope in RATE_LIMIT_SCOPES else "other"


def finite_or_nan(value: float) -> float:
    """discord.py's latency is `inf`/`nan` before the first heartbeat: show it as NaN."""
    return value if math.isfinite(value) else math.nan
