"""Persistence: one interface (`base.Storage`), SQLite (the default) or PostgreSQL behind it.
All SQL lives in this package."""

from bot.storage.base import (
    ABANDONED,
    ACTIVE,
    CANCELLED,
    FINISHED,
    LOBBY,
    MAX_ID,
    TABLES,
    GameRow,
    LoggedAction,
    RatingRow,
    ResultRow,
    SeatRow,
    StaleStep,
    StandingRow,
    Storage,
    migrations,
)
from bot.storage.open import DatabaseUnavailable, open_storage

__all__ = [
    "ABANDONED",
    "ACTIVE",
    "CANCELLED",
    "FINISHED",
    "LOBBY",
    "MAX_ID",
    "TABLES",
    "DatabaseUnavailable",
    "GameRow",
    "LoggedAction",
    "RatingRow",
    "ResultRow",
    "SeatRow",
    "StaleStep",
    "StandingRow",
    "Storage",
    "migrations",
    "open_storage",
]
