"""What the notifier keeps across restarts (migration 014), on both backends: a turn's DM is
kept once per turn, claimed once, and paces the member's next; a refusal's note is given
once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.storage import Storage, open_storage
from bot.storage.notify_state import StoredDm

ANA, LEO = 11, 12
GUILD = 1 << 22


@pytest.fixture
async def storage(database_url: str) -> AsyncIterator[Storage]:
    storage = await open_storage(database_url)
    yield storage
    await storage.close()


def dm(game: int, step: int, *, reminder: bool = False, user: int = ANA) -> StoredDm:
    return StoredDm(user, game, GUILD, 100 + game, step, reminder, f"turn {step}", "ping")


async def test_a_turn_is_kept_once_a_later_one_replaces_it_and_the_reminder_comes_once(
    storage: Storage,
) -> None:
    assert await storage.queue_dm(dm(1, 5))
    assert not await storage.queue_dm(dm(1, 5))  # the same turn announced again
    assert await storage.queue_dm(dm(1, 5, reminder=True))  # its timer's reminder
    assert not await storage.queue_dm(dm(1, 5))  # the turn again, after its reminder
    assert not await storage.queue_dm(dm(1, 5, reminder=True))
    assert not await storage.queue_dm(dm(1, 4))  # an older turn, late
    assert await storage.queue_dm(dm(1, 9))  # the next turn
    assert await storage.queue_dm(dm(1, 9, user=LEO))  # another member's
    assert await storage.queue_dm(dm(2, 1))  # another game's
    waiting = await storage.waiting_dms()
    assert [(d.user_id, d.game_id, d.step, d.line) for d in waiting] == [
        (ANA, 1, 9, "turn 9"),
        (ANA, 2, 1, "turn 1"),
        (LEO, 1, 9, "turn 9"),
    ]


async def test_a_dm_is_claimed_once_and_paces_the_next(storage: Storage) -> None:
    assert await storage.last_dm_at(ANA) is None
    await storage.queue_dm(dm(1, 5))
    await storage.queue_dm(dm(2, 3))
    claims = [
        storage.settle_dms(ANA, fresh=[], claim=[(1, 5, False)], drop=[], now=50.0 + n)
        for n in range(4)
    ]
    results = await asyncio.gather(*claims)
    assert sorted(len(claimed) for _kept, claimed in results) == [0, 0, 0, 1]
    # A fresh turn kept and claimed at once, one dropped (the member came back), an old
    # one's claim refused (a newer turn replaced it).
    kept, claimed = await storage.settle_dms(
        ANA,
        fresh=[dm(3, 7), dm(1, 5)],
        claim=[(3, 7, False), (2, 2, False)],
        drop=[(2, 3, False)],
        now=60.0,
    )
    assert (kept, claimed) == ({3}, {3})
    assert await storage.waiting_dms() == []
    assert await storage.last_dm_at(ANA) == 60.0
    assert not await storage.queue_dm(dm(2, 3))  # dropped is done with, as sent is
    assert await storage.last_dm_at(LEO) is None


async def test_a_refusal_is_told_once_until_the_member_chooses_again(storage: Storage) -> None:
    assert await storage.dms_refused(ANA, GUILD, 10.0)  # to be told
    assert await storage.dms_refused(ANA, GUILD, 20.0)  # not told yet: still to be
    assert [(r.user_id, r.refused_at, r.told) for r in await storage.refusals()] == [
        (ANA, 20.0, False)
    ]
    told = await asyncio.gather(*(storage.claim_refusal_note(ANA) for _ in range(3)))
    assert sorted(told) == [False, False, True]
    assert not await storage.dms_refused(ANA, GUILD, 30.0)  # told already
    assert not await storage.claim_refusal_note(ANA)
    await storage.clear_refusal(ANA)  # chose again: DMs tried afresh
    assert await storage.refusals() == []
    assert await storage.dms_refused(ANA, GUILD, 40.0)
