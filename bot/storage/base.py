"""The storage interface: one `Storage` composed of the query mixins, one per resource, and
its migrations.

A backend (`sqlite.py`, `postgres.py`) subclasses `Storage` and supplies connections that
speak `Conn` (SQL with `?` placeholders), a transaction, its migrations' bookkeeping and the
dialect fragments the mixins declare; every query lives in a mixin, written once for both:

- `games.py`: games, seats and the action log (a move is one transaction);
- `ratings.py`: a finished game's results and the ratings they move (`season_play.py`: the
  running season's too);
- `seasons.py`: a server's seasons, their boards, and their end;
- `tournaments.py`: a server's tournaments, their entrants, rounds, tables and places;
- `standings.py`: results summed per player;
- `guilds.py`: server and member settings, the bot's state;
- `notify_state.py`: the notifier's DMs and refusals, kept across restarts;
- `privacy.py`: a member or a server forgotten;
- `tables.py`: whole tables, for `copy-db`.

Migrations are the numbered files in `migrations/<backend>/`, the same numbers on both
backends.
"""

from __future__ import annotations

from abc import abstractmethod
from importlib import resources
from typing import ClassVar

from bot.storage.games import Games
from bot.storage.guilds import Guilds
from bot.storage.notify_state import NotifyState
from bot.storage.privacy import Privacy
from bot.storage.seasons import Seasons
from bot.storage.standings import Standings
from bot.storage.tables import Tables
from bot.storage.tournaments import Tournaments


def migrations(backend: str) -> list[tuple[int, str]]:
    """The numbered migration scripts of a backend, in order."""
    files = resources.files("bot") / "migrations" / backend
    found = [
        (int(f.name.split("_", 1)[0]), f.read_text())
        for f in files.iterdir()
        if f.name.endswith(".sql")
    ]
    return sorted(found)


class Storage(Games, Seasons, Tournaments, Standings, Guilds, NotifyState, Privacy, Tables):
    """Games, seats, the action log, results and ratings, seasons, tournaments, settings, the
    notifier's state, forgetting and whole tables, on one backend."""

    backend: ClassVar[str]  # names the folder of its migrations

    @abstractmethod
    async def schema_version(self) -> int:
        """The number of the last migration applied (0: none)."""

    @abstractmethod
    async def _apply_migration(self, number: int, sql: str) -> None:
        """Apply one migration and record its number, in one transaction; nothing if a
        concurrent start applied it already."""

    @abstractmethod
    async def close(self) -> None:
        """Close the connections (and release what the backend holds)."""

    async def migrate(self) -> None:
        """Apply every migration newer than the database's schema, in order."""
        current = await self.schema_version()
        for number, sql in migrations(self.backend):
            if number > current:
                await self._apply_migration(number, sql)
