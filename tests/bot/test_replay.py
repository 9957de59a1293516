"""The replay viewer's plumbing: its stateless button ids and its chapter jumps."""

from __future__ import annotations

import pytest

from bot.table.replay import Replay
from bot.ui.custom_ids import MAX_LENGTH, PageId, ViewerId, is_parlour_id

BIG = 2**63 - 1  # the largest ids there are: a Discord snowflake, a game id


def test_viewer_and_page_ids_round_trip_within_discords_limit() -> None:
    vid = ViewerId(BIG, BIG, 99_999, "ch_back")
    pid = PageId(BIG, 9_999, "hold_your_horses", BIG, "back")
    for ident, kind in ((vid, ViewerId), (pid, PageId)):
        text = ident.encode()
        assert len(text) <= MAX_LENGTH and is_parlour_id(text)
        assert kind.parse(text) == ident
    assert PageId.parse(PageId(1, 0, None, None, "on").encode()) == PageId(1, 0, None, None, "on")


@pytest.mark.parametrize("text", ["rv1:1:2:x:on", "hp1:1:0:Risk:-:on", "rv1:1:2:3"])
def test_malformed_ids_are_refused(text: str) -> None:
    assert not is_parlour_id(text)
    with pytest.raises(ValueError):
        (ViewerId if text.startswith("rv1") else PageId).parse(text)


def replay(last: int, starts: list[int]) -> Replay:
    return Replay(
        table=None,  # type: ignore[arg-type]  # the jumps read nothing of the game
        states=[None] * (last + 1),
        moves=[],
        events=[],
        chapter_starts=starts,
    )


def test_chapter_jumps_land_on_chapter_starts() -> None:
    r = replay(20, [0, 5, 12])
    assert [r.chapter_index(s) for s in (0, 4, 5, 11, 12, 20)] == [0, 0, 1, 1, 2, 2]
    assert [r.chapter_on(s) for s in (0, 4, 5, 12, 19)] == [5, 5, 12, 20, 20]
    # Back: to the start of this chapter, or of the one before from a chapter's start.
    assert [r.chapter_back(s) for s in (0, 3, 5, 7, 12, 20)] == [0, 0, 0, 5, 5, 12]
    assert r.chapter_ends() == [4, 11, 20]
    assert (r.clamp(-3), r.clamp(25)) == (0, 20)
