"""`bench.load_tournament` sorts a stretch's requests to Discord by token and kind, groups
the event's table openings by round, and judges the figures against the issue's limits.
Nothing here is timed."""

from __future__ import annotations

from collections import Counter
from typing import Any

from bench.load import Window
from bench.load_tournament import (
    Requests,
    Stretch,
    first_clicks,
    limits,
    round_starts,
    sort_requests,
)
from tests.e2e.fake_model import RestCall

CHANNEL, CARD, THREAD, OTHER_THREAD = 10, 20, 30, 40


def call(method: str, path: str, at: float, route: str = "", response: Any = None) -> RestCall:
    return RestCall(method, path, {}, at=at, route=route or path, response=response)


CALLS = [
    call("POST", "/interactions/1/tok/callback", 1.0),
    call("POST", "/webhooks/9/tok", 1.1),
    call("POST", f"/channels/{CHANNEL}/threads", 2.0, response={"id": str(THREAD)}),
    call("POST", f"/channels/{THREAD}/messages", 2.1),  # the ping
    call("POST", f"/channels/{THREAD}/messages", 2.2),  # the first board
    call("POST", f"/channels/{THREAD}/messages", 5.0),  # after the first click (at 3.0)
    call("PATCH", f"/channels/{CHANNEL}/messages/{CARD}", 6.0),
    call("PATCH", f"/channels/{CHANNEL}/messages/{CARD + 1}", 7.0),  # another message
    call("POST", f"/channels/{CHANNEL}/messages", 8.0),  # the final post
]


def test_a_tables_thread_and_its_posts_before_its_first_click_are_its_opening() -> None:
    sorted_ = sort_requests(CALLS, {THREAD, OTHER_THREAD}, {THREAD: 3.0}, CARD)
    assert sorted_.interaction.total() == 2
    assert sorted_.openings == Counter(
        {f"POST /channels/{CHANNEL}/threads": 1, f"POST /channels/{THREAD}/messages": 2}
    )
    assert sorted_.card_edits == [6.0]
    assert sorted_.other == Counter(
        {
            f"POST /channels/{THREAD}/messages": 1,
            f"PATCH /channels/{CHANNEL}/messages/{CARD + 1}": 1,
            f"POST /channels/{CHANNEL}/messages": 1,
        }
    )
    assert sorted_.bot_token == 7 and sorted_.per_move(8) == 0.5  # openings aside


def test_a_request_refused_by_the_global_limit_is_counted_once_made_again() -> None:
    refused = call("PATCH", f"/channels/{CHANNEL}/messages/{CARD}", 5.5)
    refused.status = 429
    sorted_ = sort_requests([refused, *CALLS], {THREAD}, {THREAD: 3.0}, CARD)
    assert sorted_.card_edits == [6.0]


def test_a_thread_never_clicked_is_all_opening() -> None:
    sorted_ = sort_requests(CALLS, {THREAD}, {}, CARD)
    assert sorted_.openings.total() == 4


def test_each_channels_first_click_is_kept() -> None:
    class Click:
        def __init__(self, channel_id: int, sent_at: float) -> None:
            self.channel_id, self.sent_at = channel_id, sent_at

    clicks: list[Any] = [Click(THREAD, 3.0), Click(THREAD, 4.0), Click(CHANNEL, 1.0)]
    assert first_clicks(clicks) == {THREAD: 3.0, CHANNEL: 1.0}


def test_openings_are_grouped_by_their_threads_round() -> None:
    later = [
        call("POST", f"/channels/{CHANNEL}/threads", 10.0, response={"id": str(OTHER_THREAD)}),
        call("POST", f"/channels/{OTHER_THREAD}/messages", 10.5),
        call("POST", f"/channels/{OTHER_THREAD}/messages", 11.5),
    ]
    openings = sort_requests([*CALLS, *later], {THREAD, OTHER_THREAD}, {THREAD: 3.0}, CARD)
    starts = round_starts(openings.opening_calls, {THREAD: 1, OTHER_THREAD: 2})
    assert [(s.round, s.tables, s.requests) for s in starts] == [(1, 1, 3), (2, 1, 3)]
    assert [round(s.seconds, 3) for s in starts] == [0.2, 1.5]


def stretch(moves: int, card_edits: int, p99_ms: float) -> Stretch:
    answers = [5.0] * 98 + [p99_ms] * 2
    got = Window(10.0, answers, 0, moves, Counter(), 0, 1.0, 1.0, 0.0)
    requests = Requests(card_edits=[float(n) for n in range(card_edits)])
    return Stretch("a stretch", 2, 10.0, got, 10.0, 0, requests, 0)


def test_the_limits_hold_up_to_a_tenth_of_a_request_a_move_and_100_ms() -> None:
    ordinary = stretch(100, 0, 20.0)
    held = limits(ordinary, stretch(100, 10, 100.0))
    assert [row[-1] for row in held] == ["holds", "holds"]
    exceeded = limits(ordinary, stretch(100, 11, 100.4))
    assert [row[-1] for row in exceeded] == ["exceeded", "exceeded"]
    assert exceeded[0][2] == "+0.110" and "(ordinary games: 20 ms)" in str(exceeded[1][2])
