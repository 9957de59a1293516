"""Settings from the environment (or a `.env` file in the working directory).

A bad value is refused with one line naming the setting and what it may be
(`SettingsError`), never a traceback.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from bot.log_format import FORMATS as LOG_FORMATS
from bot.shards import Shards
from bot.storage.url import ALLOWED, redacted, sqlite_path

T = TypeVar("T")


class SettingsError(Exception):
    """A setting has a value the bot can't use; the message names it and what it may be."""


def default_cache_dir(env: Mapping[str, str] = os.environ) -> str:
    """`$XDG_CACHE_HOME/parlour`, or `~/.cache/parlour`."""
    base = env.get("XDG_CACHE_HOME", "").strip() or str(Path.home() / ".cache")
    return str(Path(base) / "parlour")


# Every name `Settings.from_env` reads (and `.env.example` documents): a key of the
# settings file outside these has no effect, and `check` says so.
NAMES = frozenset(
    {
        "DISCORD_TOKEN",
        "DATABASE_URL",
        "DATABASE_PATH",
        "DEV_GUILD_ID",
        "LOG_LEVEL",
        "LOG_FORMAT",
        "CONNECT_RETRIES",
        "DISCORD_API_BASE",
        "DISCORD_GATEWAY_URL",
        "GAME_SEED",
        "BOT_MOVE_DELAY",
        "AUTOPLAY_PACE",
        "NOTIFY_WATCHING",
        "NOTIFY_DM_EVERY",
        "CACHE_DIR",
        "XDG_CACHE_HOME",
        "METRICS_PORT",
        "METRICS_HOST",
        "SHARD_COUNT",
        "SHARD_IDS",
        "PICTURE_WORKERS",
    }
)


def settings_file(env: Mapping[str, str] = os.environ) -> Path:
    """The file the settings are read from: the one `ENV_FILE` names (a service), else
    `.env` in the working directory (where the admin runs the bot)."""
    named = env.get("ENV_FILE", "").strip()
    return Path(named) if named else Path.cwd() / ".env"


@dataclass(frozen=True)
class Settings:
    """What the bot runs with, read by `from_env` (each setting is explained in `.env.example`)."""

    token: str | None
    database_url: str = "sqlite:///parlour.sqlite3"
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    log_format: str = "text"  # or "json": one object per line, for log collectors
    connect_retries: int = 5  # tries to reach Discord again at start before giving up
    api_base: str | None = None  # e.g. http://127.0.0.1:8080/api/v10 (an emulator or proxy)
    gateway_url: str | None = None  # e.g. ws://127.0.0.1:8080/gateway
    game_seed: str | None = None  # a fixed seed for reproducible demos and tests
    bot_move_delay: float = 1.0  # seconds between a bot's moves, so players can follow them
    autoplay_pace: float = 1.2  # seconds between rolls under autoplay: ≤ 1 board edit a second
    notify_watching: float = 120.0  # seconds after a click a member counts as watching a game
    notify_dm_every: float = 60.0  # seconds: at most one turn DM per member (Discord's advice)
    cache_dir: str | None = None  # pictures' static layers; None: kept in memory only
    metrics_port: int | None = None  # serve /metrics and /healthz there; None: off
    metrics_host: str = "127.0.0.1"
    shards: Shards | None = None  # None: one process, not sharded
    picture_workers: int = 0  # processes drawing boards; 0: a thread of the bot's process

    @property
    def sqlite_path(self) -> str | None:
        """The SQLite file, or None on PostgreSQL."""
        return sqlite_path(self.database_url)

    def shown(self) -> list[str]:
        """Each setting as `NAME=value`, as the bot resolved it, secrets hidden (the token;
        passwords in URLs), paths absolute."""
        shards = self.shards
        return [
            f"DISCORD_TOKEN={'(set, hidden)' if self.token else '(not set)'}",
            f"DATABASE_URL={redacted(self.database_url)}",
            f"DEV_GUILD_ID={self.dev_guild_id or ''}",
            f"LOG_LEVEL={self.log_level}",
            f"LOG_FORMAT={self.log_format}",
            f"CONNECT_RETRIES={self.connect_retries}",
            f"DISCORD_API_BASE={redacted(self.api_base or '')}",
            f"DISCORD_GATEWAY_URL={redacted(self.gateway_url or '')}",
            f"GAME_SEED={self.game_seed or ''}",
            f"BOT_MOVE_DELAY={self.bot_move_delay}",
            f"AUTOPLAY_PACE={self.autoplay_pace}",
            f"NOTIFY_WATCHING={self.notify_watching}",
            f"NOTIFY_DM_EVERY={self.notify_dm_every}",
            f"CACHE_DIR={os.path.abspath(self.cache_dir) if self.cache_dir else ''}",
            f"METRICS_PORT={self.metrics_port or '(off)'}",
            f"METRICS_HOST={self.metrics_host}",
            f"SHARD_COUNT={shards.count if shards else ''}",
            f"SHARD_IDS={','.join(map(str, shards.ids)) if shards else ''}",
            f"PICTURE_WORKERS={self.picture_workers}",
        ]

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> Settings:
        """The settings in `env`; a SettingsError names the first bad value."""

        def text(name: str) -> str | None:
            value = env.get(name, "").strip()
            return value or None

        def parsed(name: str, parse: Callable[[str], T], allowed: str, default: T) -> T:
            value = text(name)
            if value is None:
                return default
            try:
                return parse(value)
            except ValueError:
                raise SettingsError(f"{name}={value!r} is not valid: {allowed}.") from None

        level = (text("LOG_LEVEL") or cls.log_level).upper()
        if level not in {"DEBUG", "INFO", "WARNING", "ERROR"}:
            raise SettingsError(f"LOG_LEVEL={level!r} is not valid: DEBUG, INFO, WARNING or ERROR.")
        form = (text("LOG_FORMAT") or cls.log_format).lower()
        if form not in LOG_FORMATS:
            raise SettingsError(f"LOG_FORMAT={form!r} is not valid: text or json.")
        return cls(
            token=text("DISCORD_TOKEN"),
            database_url=_database_url(text("DATABASE_URL"), text("DATABASE_PATH")),
            dev_guild_id=parsed("DEV_GUILD_ID", _snowflake, "a server id (digits)", None),
            log_level=level,
            log_format=form,
            connect_retries=parsed(
                "CONNECT_RETRIES", _retries, "a number of tries, 0 to 100", cls.connect_retries
            ),
            api_base=text("DISCORD_API_BASE"),
            gateway_url=text("DISCORD_GATEWAY_URL"),
            game_seed=text("GAME_SEED"),
            bot_move_delay=parsed(
                "BOT_MOVE_DELAY", _seconds, "seconds, 0 or more (e.g. 1)", cls.bot_move_delay
            ),
            autoplay_pace=parsed(
                "AUTOPLAY_PACE", _seconds, "seconds, 0 or more (e.g. 1.2)", cls.autoplay_pace
            ),
            notify_watching=parsed(
                "NOTIFY_WATCHING", _seconds, "seconds, 0 or more (e.g. 120)", cls.notify_watching
            ),
            notify_dm_every=parsed(
                "NOTIFY_DM_EVERY", _seconds, "seconds, 0 or more (e.g. 60)", cls.notify_dm_every
            ),
            cache_dir=text("CACHE_DIR") or default_cache_dir(env),
            metrics_port=parsed("METRICS_PORT", _port, "a TCP port, 1 to 65535", None),
            metrics_host=text("METRICS_HOST") or cls.metrics_host,
            shards=_shards(text("SHARD_COUNT"), text("SHARD_IDS")),
            picture_workers=parsed(
                "PICTURE_WORKERS", _workers, "a number of processes, 0 to 8", _default_workers()
            ),
        )


def _database_url(url: str | None, path: str | None) -> str:
    if url is None:
        return f"sqlite:///{path}" if path else Settings.database_url
    if path is not None:
        raise SettingsError(
            "DATABASE_URL and DATABASE_PATH are both set: keep one "
            "(DATABASE_PATH=<file> is DATABASE_URL=sqlite:///<file>)."
        )
    try:
        sqlite_path(url)
    except ValueError:
        raise SettingsError(f"DATABASE_URL={redacted(url)!r} is not valid: {ALLOWED}.") from None
    return url


def _shards(count_text: str | None, ids_text: str | None) -> Shards | None:
    if count_text is None:
        if ids_text is not None:
            raise SettingsError(
                f"SHARD_IDS={ids_text!r} needs SHARD_COUNT: set how many shards there are in all."
            )
        return None
    if not count_text.isdigit() or int(count_text) < 1:
        raise SettingsError(
            f"SHARD_COUNT={count_text!r} is not valid: a number of shards, 1 or more (e.g. 2)."
        )
    count = int(count_text)
    if ids_text is None:
        return Shards(count, tuple(range(count)))  # every shard in this one process
    ids = [int(p) if p.isdigit() else -1 for p in map(str.strip, ids_text.split(","))]
    if not all(0 <= i < count for i in ids) or len(set(ids)) != len(ids):
        raise SettingsError(
            f"SHARD_IDS={ids_text!r} is not valid: shard numbers from 0 to {count - 1} "
            f"(SHARD_COUNT={count}), separated by commas (e.g. 0,1)."
        )
    return Shards(count, tuple(sorted(ids)))


def _seconds(text: str) -> float:
    value = float(text)
    if not 0 <= value < 86400:
        raise ValueError(text)
    return value


def _retries(text: str) -> int:
    value = int(text)
    if not 0 <= value <= 100:
        raise ValueError(text)
    return value


def _workers(text: str) -> int:
    value = int(text)
    if not 0 <= value <= 8:
        raise ValueError(text)
    return value


MAX_DEFAULT_WORKERS = 4  # each worker holds its own picture caches (about 130 MB)


def _default_workers() -> int:
    """A drawing process for every core but the event loop's (up to 4), when there is a
    second core. A board now takes a few milliseconds: one worker per spare core keeps up,
    and a worker more than the cores only competes with the event loop for its core (on 2
    cores, `bench.load` at 100 moves a second used more CPU a move with 2 workers than with
    1, and answered slower)."""
    cores = os.cpu_count() or 1
    return min(cores - 1, MAX_DEFAULT_WORKERS) if cores > 1 else 0


def _port(text: str) -> int:
    value = int(text)
    if not 0 < value < 65536:
        raise ValueError(text)
    return value


def _snowflake(text: str) -> int:
    if not text.isdigit():
        raise ValueError(text)
    return int(text)
