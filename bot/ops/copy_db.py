"""`python -m bot copy-db --to postgresql://…`: a SQLite database's every table copied into
an empty PostgreSQL one, then every copied game replayed from its seed and action log and
compared with its stored state. The bot must be stopped (the SQLite file's lock says so)."""

from __future__ import annotations

from collections.abc import Callable

from bot.errors import GameUnreadable
from bot.service import GameService
from bot.storage import TABLES, Storage, open_storage
from bot.storage.url import redacted
from rules.registry import ENGINES


class CopyRefused(Exception):
    """The copy can't be made or did not verify; the message says why."""


async def copy_db(source_url: str, target_url: str, say: Callable[[str], None]) -> None:
    """Copy `source_url` into `target_url` and verify it by replay; CopyRefused if the
    target holds games already or a copied game does not replay to its stored state."""
    source = await open_storage(source_url)
    try:
        target = await open_storage(target_url)
        try:
            await _copy(source, target, redacted(target_url), say)
        finally:
            await target.close()
    finally:
        await source.close()


async def _copy(source: Storage, target: Storage, where: str, say: Callable[[str], None]) -> None:
    held = await target.count_games()
    if held:
        raise CopyRefused(f"{where} holds {held} games already: copy into an empty database.")
    tables = {table: await source.table_rows(table) for table in TABLES}
    await target.insert_rows(tables)
    for table in TABLES:
        copied = len(await target.table_rows(table))
        if copied != len(tables[table]):
            raise CopyRefused(f"{table}: {len(tables[table])} rows read but {copied} written.")
    say("copied " + ", ".join(f"{len(rows)} {table}" for table, rows in tables.items()))
    replayed, unreadable = await verify(target)
    say(f"replayed {replayed} games from their seeds and logs: every one matches its state")
    if unreadable:
        say(f"not replayed (this version can't load them, as before the copy): {unreadable}")


async def verify(storage: Storage) -> tuple[int, list[int]]:
    """Replay every started game from its seed and log and compare it with its stored
    state: how many matched, and the ids of games this version cannot load. CopyRefused
    names the games that differ."""
    service = GameService(storage, ENGINES)
    replayed, unreadable, differ = 0, list[int](), list[int]()
    for row in await storage.table_rows("games"):
        if row["state"] is None:
            continue  # a lobby: nothing played yet
        try:
            table = await service.table(row["id"])
        except GameUnreadable:
            unreadable.append(row["id"])
            continue
        try:
            same = await service.replay(row["id"]) == table.state
        except Exception:  # a log the engine refuses to replay: it does not match either
            same = False
        if same:
            replayed += 1
        else:
            differ.append(row["id"])
    if differ:
        raise CopyRefused(f"games {differ} do not replay to their stored state.")
    return replayed, unreadable
