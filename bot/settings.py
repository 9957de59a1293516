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

T = TypeVar("T")


class SettingsError(Exception):
    """A setting has a value the bot can't use; the message names it and what it may be."""


def default_cache_dir(env: Mapping[str, str] = os.environ) -> str:
    """`$XDG_CACHE_HOME/parlour`, or `~/.cache/parlour`."""
    base = env.get("XDG_CACHE_HOME", "").strip() or str(Path.home() / ".cache")
    return str(Path(base) / "parlour")


@dataclass(frozen=True)
class Settings:
    token: str | None
    database_path: str = "parlour.sqlite3"
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    api_base: str | None = None  # e.g. http://127.0.0.1:8080/api/v10 (an emulator or proxy)
    gateway_url: str | None = None  # e.g. ws://127.0.0.1:8080/gateway
    game_seed: str | None = None  # a fixed seed for reproducible demos and tests
    bot_move_delay: float = 1.0  # seconds between a bot's moves, so players can follow them
    autoplay_pace: float = 1.2  # seconds between rolls under autoplay: ≤ 1 board edit a second
    cache_dir: str | None = None  # pictures' static layers; None: kept in memory only
    metrics_port: int | None = None  # serve /metrics and /healthz there; None: off
    metrics_host: str = "127.0.0.1"

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> Settings:
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
        return cls(
            token=text("DISCORD_TOKEN"),
            database_path=text("DATABASE_PATH") or cls.database_path,
            dev_guild_id=parsed("DEV_GUILD_ID", _snowflake, "a server id (digits)", None),
            log_level=level,
            api_base=text("DISCORD_API_BASE"),
            gateway_url=text("DISCORD_GATEWAY_URL"),
            game_seed=text("GAME_SEED"),
            bot_move_delay=parsed(
                "BOT_MOVE_DELAY", _seconds, "seconds, 0 or more (e.g. 1)", cls.bot_move_delay
            ),
            autoplay_pace=parsed(
                "AUTOPLAY_PACE", _seconds, "seconds, 0 or more (e.g. 1.2)", cls.autoplay_pace
            ),
            cache_dir=text("CACHE_DIR") or default_cache_dir(env),
            metrics_port=parsed("METRICS_PORT", _port, "a TCP port, 1 to 65535", None),
            metrics_host=text("METRICS_HOST") or cls.metrics_host,
        )


def _seconds(text: str) -> float:
    value = float(text)
    if not 0 <= value < 86400:
        raise ValueError(text)
    return value


def _port(text: str) -> int:
    value = int(text)
    if not 0 < value < 65536:
        raise ValueError(text)
    return value


def _snowflake(text: str) -> int:
    if not text.isdigit():
        raise ValueError(text)
    return int(text)
