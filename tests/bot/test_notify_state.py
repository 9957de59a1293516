"""What the notifier keeps across restarts (migration 014), on both backends: a turn's DM is
kept once per turn, claimed once, and paces the member's next, and goes when its game ends;
a refusal's note is given once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.storage import ABANDONED, NewGame, ResultRow, SeatRow, Storage, open_storage
from bot.storage.notify_state import StoredDm
from rules.core import Action

ANA, LEO = 11, 12
GUILD = 1 << 22


@pytest.fixture
async def storage(database_url: str) -> AsyncIterator[Storage]:
    storage = await open_storage(database_url)
    yield storage
    await storage.close()


def dm(game: int, step: int, *, reminder: bool = False, user: int = ANA) -> StoredDm:
    return StoredDm(user, game, GUILD, 100 + game, step, reminder, f"turn {step}", "ping")


async def started(storage: Storage, sent_at: float) -> int:
    """A game of Ana and Leo in play, its first turn's DM sent to Ana at `sent_at` and
    waiting for Leo; returns its id."""
    game_id = await storage.create_game(
        NewGame(
            game="hold_your_horses",
            guild_id=GUILD,
            channel_id=2,
            host=SeatRow(0, ANA, "Ana", False, 0),
            options={},
            seed="s",
            now=10.0,
        )
    )
    await storage.add_seat(game_id, SeatRow(1, LEO, "Leo", False, 1))
    await storage.start_game(game_id, {}, None, 10.0)
    await storage.queue_dm(dm(game_id, 0))
    await storage.queue_dm(dm(game_id, 0, user=LEO))
    await storage.settle_dms(ANA, fresh=[], claim=[(game_id, 0, False)], drop=[], now=sent_at)
    return game_id


def waiting_games(dms: list[StoredDm]) -> set[int]:
    return {d.game_id for d in dms}


async def test_a_game_s_dms_go_when_its_last_move_finishes_it(storage: Storage) -> None:
    other, game_id = await started(storage, 20.0), await started(storage, 25.0)
    results = [
        ResultRow(player, False, place, 0, place == 1, {}, place - 1)
        for player, place in ((ANA, 1), (LEO, 2))
    ]
    await storage.record_action(
        game_id,
        step=0,
        revision=0,
        player_id=ANA,
        action=Action("end"),
        by_ai=False,
        state={},
        deadline=None,
        results=results,
        now=30.0,
    )
    assert waiting_games(await storage.waiting_dms()) == {other}  # the other game's stay
    assert await storage.last_dm_at(ANA) == 20.0  # the DM sent about it went too
    # A turn announced just before the last move, kept only now: not kept.
    assert not await storage.queue_dm(dm(game_id, 2))
    assert waiting_games(await storage.waiting_dms()) == {other}


async def test_a_game_s_dms_go_when_it_is_abandoned_and_not_before(storage: Storage) -> None:
    other, game_id = await started(storage, 20.0), await started(storage, 25.0)
    await storage.update_game(game_id, 30.0, deadline=None)  # bookkeeping: the game goes on
    assert waiting_games(await storage.waiting_dms()) == {other, game_id}
    await storage.update_game(game_id, 40.0, status=ABANDONED, deadline=None)
    assert waiting_games(await storage.waiting_dms()) == {other}
    assert await storage.last_dm_at(ANA) == 20.0
    assert not await storage.queue_dm(dm(game_id, 2, user=LEO))


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
