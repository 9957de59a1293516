"""Settings from the environment (or a `.env` file in the working directory)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass


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

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> Settings:
        def text(name: str) -> str | None:
            value = env.get(name, "").strip()
            return value or None

        guild = text("DEV_GUILD_ID")
        delay = text("BOT_MOVE_DELAY")
        pace = text("AUTOPLAY_PACE")
        return cls(
            token=text("DISCORD_TOKEN"),
            database_path=text("DATABASE_PATH") or cls.database_path,
            dev_guild_id=int(guild) if guild else None,
            log_level=(text("LOG_LEVEL") or cls.log_level).upper(),
            api_base=text("DISCORD_API_BASE"),
            gateway_url=text("DISCORD_GATEWAY_URL"),
            game_seed=text("GAME_SEED"),
            bot_move_delay=float(delay) if delay else cls.bot_move_delay,
            autoplay_pace=float(pace) if pace else cls.autoplay_pace,
        )
