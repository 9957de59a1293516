"""Which games are recorded: per game, its option sets and the tables they are played at.

Every declared option appears with each of its non-default values in some sample (checked by
`test_golden.py`); options that only change a game's length (races, frames) are set short
where another option is the point, to keep the files small. Each sample records one game per
table size and seed (a long match: the shortest of a few seeds).
"""

from __future__ import annotations

from tests.rules.golden import Sample

SAMPLES: dict[str, tuple[Sample, ...]] = {
    "cock_and_bull": (
        Sample("defaults", {}, tables=(2,), seeds=2),
        Sample("weighted-optional-points", {"dice": "weighted", "optional_points": True}, (2,)),
        Sample("best-of-3", {"best_of": 3}, (2,), shortest_of=4),
        Sample("best-of-5", {"best_of": 5}, (2,), shortest_of=4),
        Sample("point-limit", {"point_limit": 30}, (2,)),
    ),
    "hold_your_horses": (
        Sample("defaults", {}, tables=(2,)),
        Sample("one-race-full-table", {"races": 1}, tables=(12,)),
        Sample("even-track", {"track": "even", "races": 1}, tables=(4,)),
        Sample(
            "short-track-escalating",
            {"track": "short", "escalating_scratches": True, "races": 2},
            (5,),
        ),
        Sample("few-tokens-autoplay", {"tokens": 12, "autoplay": True, "races": 1}, (3,)),
    ),
    "winners_circle": (
        Sample("defaults", {}, tables=(2,)),
        Sample("royal-turf-crowded", {"royal_turf": True, "crowded_field": True}, (3,)),
        Sample("hidden-alternative", {"hidden_bets": True, "alternative_payouts": True}, (2,)),
    ),
    "horse_collar": (
        Sample("defaults", {}, tables=(2,)),
        Sample("pairs-one-frame", {"frames": 1}, tables=(4,)),
        Sample("three-sides-short-target", {"sides": 3, "target": 21}, tables=(3,)),
        Sample("small-table-long-foul", {"table": 12, "foul_line": "long", "frames": 1}, (2,)),
        Sample("fast-corner-13", {"board_speed": "fast", "corner_hanger": 13, "frames": 2}, (2,)),
        Sample(
            "slow-hickey-shorts-count",
            {"board_speed": "slow", "hickey": 2, "short_weight_voids_turn": False, "frames": 2},
            (2,),
        ),
    ),
    # A world war is long: the samples stop after a round, but for one Secret Mission game
    # played to its end (the shorter of two: trades, an elimination, a mission completed).
    "risk": (
        Sample("deal", {"turn_limit": 1}, tables=(2,)),
        Sample("claim-missions-12", {"setup": "claim", "missions": 12, "turn_limit": 1}, (3,)),
        Sample("missions-14-to-the-end", {"missions": 14}, (3,), shortest_of=2),
        Sample(
            "defender-chooses-connected-fortify",
            {"defender_chooses": True, "connected_fortify": True, "turn_limit": 1},
            (5,),
        ),
        # Only a resignation reads it, and the AI never resigns: recorded to show that
        # the option alone changes no game.
        Sample("resign-to-ai", {"resign_to_ai": True, "turn_limit": 1}, (3,)),
    ),
}
