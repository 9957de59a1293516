"""A tournament stored straight through storage, for the tests that need one to exist: two
rounds of Cock & Bull duels unless a test says otherwise."""

from __future__ import annotations

from typing import Any

from bot.storage import Storage
from bot.storage.tournaments import TournamentRow

EVENT: dict[str, Any] = {
    "guild_id": 1 << 22,
    "channel_id": 77,
    "host_id": 5,
    "game": "cock_and_bull",
    "options": {},
    "rounds": 2,
    "table_size": 2,
    "starts_at": 2.0,
    "checkin_at": None,
    "ready_window": 300.0,
    "rated": True,
    "seed": 1,
    "now": 1.0,
}


async def create_event(storage: Storage, **changes: Any) -> TournamentRow:
    """An event stored as `EVENT` says, with `changes` to its columns (and `now`)."""
    return await storage.create_tournament(**EVENT | changes)
