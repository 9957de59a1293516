"""Persistence: one interface (`base.Storage`, a query mixin per resource), SQLite (the
default) or PostgreSQL behind it. All SQL lives in this package."""

from bot.storage.base import Storage, migrations
from bot.storage.games import StaleStep
from bot.storage.open import DatabaseUnavailable, open_storage
from bot.storage.rows import (
    ABANDONED,
    ACTIVE,
    CANCELLED,
    FINISHED,
    LOBBY,
    MAX_ID,
    UNRATED,
    GameRow,
    LoggedAction,
    NewGame,
    RatingRow,
    ResultRow,
    SeasonRow,
    SeasonStanding,
    SeatRow,
    StandingRow,
)
from bot.storage.seasons import SeasonRunning
from bot.storage.tables import TABLES

__all__ = [
    "ABANDONED",
    "ACTIVE",
    "CANCELLED",
    "FINISHED",
    "LOBBY",
    "MAX_ID",
    "TABLES",
    "UNRATED",
    "DatabaseUnavailable",
    "GameRow",
    "LoggedAction",
    "NewGame",
    "RatingRow",
    "ResultRow",
    "SeasonRow",
    "SeasonRunning",
    "SeasonStanding",
    "SeatRow",
    "StaleStep",
    "StandingRow",
    "Storage",
    "migrations",
    "open_storage",
]
