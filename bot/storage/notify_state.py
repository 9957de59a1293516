"""What the notifier must not forget across a restart (migration 014): each DM member's last
turn announced per game, and whether its DM went out (`notify_dms`); members whose DMs
Discord refused, and whether they were told (`notify_refusals`).

A DM is claimed here (`settle_dms`) just before it is sent, so a process killed after the
claim never sends it again: at most one DM per turn, across kills and processes. A game's
DMs go when it ends (`forget_game_dms`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.storage.conn import Conn, Connected

# A DM's key: the game, the step its turn began at, and whether it is the timer's reminder.
DmKey = tuple[int, int, bool]


@dataclass(frozen=True)
class StoredDm:
    """A DM waiting to go out, as stored."""

    user_id: int
    game_id: int
    guild_id: int
    thread_id: int
    step: int
    reminder: bool
    line: str
    fallback: str


@dataclass(frozen=True)
class Refusal:
    """A member whose DM was refused, when, and whether they were told."""

    user_id: int
    refused_at: float
    told: bool


async def forget_notify_state(db: Conn, user_id: int) -> None:
    """Within a forgetting transaction: a member's DMs and refusal, in every server."""
    await db.execute("DELETE FROM notify_dms WHERE user_id = ?", user_id)
    await db.execute("DELETE FROM notify_refusals WHERE user_id = ?", user_id)


async def forget_guild_notify_state(db: Conn, guild_id: int) -> None:
    """Within a forgetting transaction: the DMs about a server's games, and the refusals
    met in them."""
    await db.execute("DELETE FROM notify_dms WHERE guild_id = ?", guild_id)
    await db.execute("DELETE FROM notify_refusals WHERE guild_id = ?", guild_id)


async def forget_game_dms(db: Conn, game_id: int) -> None:
    """Within the transaction that ends a game: its members' DMs, waiting or sent. Deleted
    there, not by a later chore (the one chore purges servers the bot left): no turn of the
    game comes again, so from then on nothing would read or replace them."""
    await db.execute("DELETE FROM notify_dms WHERE game_id = ?", game_id)


async def _queue(db: Conn, dm: StoredDm) -> bool:
    """Keep a turn's DM as waiting; False (nothing changed) when this turn was announced to
    the member already: the same step again (a board posted again), or the turn after its
    reminder, or when its game has ended (a note announced just before the last move must
    not outlive `forget_game_dms`). A later turn of the game replaces the earlier, sent or
    not."""
    changed = await db.execute(
        "INSERT INTO notify_dms (game_id, user_id, guild_id, thread_id, step, reminder,"
        " line, fallback, status, sent_at) SELECT ?, ?, ?, ?, ?, ?, ?, ?, 'waiting', NULL"
        " WHERE NOT EXISTS (SELECT 1 FROM games WHERE id = ?"
        " AND status IN ('finished', 'cancelled', 'abandoned'))"
        " ON CONFLICT (game_id, user_id) DO UPDATE SET guild_id = excluded.guild_id,"
        " thread_id = excluded.thread_id, step = excluded.step,"
        " reminder = excluded.reminder, line = excluded.line,"
        " fallback = excluded.fallback, status = 'waiting', sent_at = NULL"
        " WHERE excluded.step > notify_dms.step OR (excluded.step = notify_dms.step"
        " AND excluded.reminder > notify_dms.reminder)",
        dm.game_id,
        dm.user_id,
        dm.guild_id,
        dm.thread_id,
        dm.step,
        int(dm.reminder),
        dm.line,
        dm.fallback,
        dm.game_id,
    )
    return changed > 0


class NotifyState(Connected):
    """The notifier's DMs and refusals, kept."""

    async def queue_dm(self, dm: StoredDm) -> bool:
        """Keep a turn's DM as waiting; False (nothing changed) when this turn was announced
        to the member already (see `_queue`)."""
        async with self._statement() as db:
            return await _queue(db, dm)

    async def settle_dms(
        self,
        user_id: int,
        *,
        fresh: Iterable[StoredDm],
        claim: Iterable[DmKey],
        drop: Iterable[DmKey],
        now: float,
    ) -> tuple[set[int], set[int]]:
        """In one transaction: a member's `fresh` DMs kept as waiting (see `_queue`), those
        to `claim` marked sent at `now`, before they are, and those to `drop` dropped (the
        member was back at the table first). Returns the games of the fresh DMs kept, and of
        those claimed (not another process's already, nor replaced by a newer turn)."""
        kept: set[int] = set()
        claimed: set[int] = set()
        async with self._transaction() as db:
            for dm in fresh:
                if await _queue(db, dm):
                    kept.add(dm.game_id)
            for status, keys in (("sent", claim), ("dropped", drop)):
                for game_id, step, reminder in keys:
                    changed = await db.execute(
                        "UPDATE notify_dms SET status = ?, sent_at = ? WHERE game_id = ?"
                        " AND user_id = ? AND step = ? AND reminder = ? AND status = 'waiting'",
                        status,
                        now if status == "sent" else None,
                        game_id,
                        user_id,
                        step,
                        int(reminder),
                    )
                    if changed and status == "sent":
                        claimed.add(game_id)
        return kept, claimed

    async def last_dm_at(self, user_id: int) -> float | None:
        """When the member's last DM was sent (unix seconds), if ever."""
        row = await self._read.fetchone(
            "SELECT MAX(sent_at) FROM notify_dms WHERE user_id = ?", user_id
        )
        return None if row is None or row[0] is None else float(row[0])

    async def waiting_dms(self) -> list[StoredDm]:
        """Every DM still waiting (folded, or not sent when the bot stopped)."""
        rows = await self._read.fetch(
            "SELECT user_id, game_id, guild_id, thread_id, step, reminder, line, fallback"
            " FROM notify_dms WHERE status = 'waiting' ORDER BY user_id, game_id"
        )
        return [
            StoredDm(
                int(r["user_id"]),
                int(r["game_id"]),
                int(r["guild_id"]),
                int(r["thread_id"]),
                int(r["step"]),
                bool(r["reminder"]),
                str(r["line"]),
                str(r["fallback"]),
            )
            for r in rows
        ]

    async def dms_refused(self, user_id: int, guild_id: int, now: float) -> bool:
        """Discord refused a DM to the member at `now`, in a game of `guild_id`; True if
        they are still to be told (not told of an earlier refusal)."""
        async with self._transaction() as db:
            row = await db.fetchone(
                "INSERT INTO notify_refusals (user_id, guild_id, refused_at, told)"
                " VALUES (?, ?, ?, 0) ON CONFLICT (user_id) DO UPDATE SET"
                " guild_id = excluded.guild_id, refused_at = excluded.refused_at"
                " RETURNING told",
                user_id,
                guild_id,
                now,
            )
        return row is not None and not row[0]

    async def refusals(self) -> list[Refusal]:
        """Every member whose DMs were refused."""
        rows = await self._read.fetch(
            "SELECT user_id, refused_at, told FROM notify_refusals ORDER BY user_id"
        )
        return [Refusal(int(r[0]), float(r[1]), bool(r[2])) for r in rows]

    async def claim_refusal_note(self, user_id: int) -> bool:
        """True once per refusal: the member is to be told now (no other click, in this
        process or another, tells them too)."""
        async with self._statement() as db:
            return (
                await db.execute(
                    "UPDATE notify_refusals SET told = 1 WHERE user_id = ? AND told = 0", user_id
                )
                > 0
            )

    async def clear_refusal(self, user_id: int) -> None:
        """The member chose again how their turn reaches them: DMs are tried afresh."""
        async with self._statement() as db:
            await db.execute("DELETE FROM notify_refusals WHERE user_id = ?", user_id)
