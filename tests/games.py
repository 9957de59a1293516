"""Every game as the tests play it: one `GameTestSpec` per game, read by every per-game check.

A new game adds one entry to `TEST_SPECS` (docs/ADDING_A_GAME.md); `tests/test_games.py`
holds the entries to the games of `rules.registry.ENGINES`, and `missing` names whatever an
entry leaves out, so a game is never silently left unchecked.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from cogs.cock_and_bull import CockAndBullPresenter
from cogs.hold_your_horses import HoldYourHorsesPresenter
from cogs.horse_collar import HorseCollarPresenter
from cogs.risk import RiskPresenter
from cogs.winners_circle import WinnersCirclePresenter
from rules.core import PlayerId
from tests.e2e.driver import COCK_AND_BULL_CHOICES
from tests.e2e.storm import Spec
from tests.images.pictures import (
    Names,
    Pictures,
    board,
    cock_and_bull_pictures,
    hold_your_horses_pictures,
    horse_collar_pictures,
    payout,
    race_over,
    race_won,
    risk_pictures,
    scoring_grid,
    winners_circle_pictures,
)
from tests.rules.golden import Sample

RULES = Path(__file__).resolve().parent.parent / "docs" / "rules"
# What the player to act picks in a Risk storm, so that random play ends in a few hundred
# clicks: automatic placing, blitzes, and the end of each phase.
RISK_PREFERS = ("Auto", "Blitz", "End attacks", "End turn", re.compile(r"^Move in \d+ \(all\)"))
RISK_PANEL = "My cards & mission"


@dataclass(frozen=True)
class Reading:
    """A whole AI game read through the 📝 text board and the alt text
    (`tests/bot/test_reading.py`): its seats (bots below 0) and options."""

    seats: tuple[PlayerId, ...]
    options: Mapping[str, Any]


@dataclass(frozen=True)
class GameTestSpec:
    """One game's tables for the per-game checks; each says which test reads it."""

    # Golden playthroughs recorded and replayed, per option set (tests/rules/test_golden.py):
    # every declared option appears with each of its non-default values in some sample;
    # options that only change a game's length are set short where another is the point.
    samples: tuple[Sample, ...]
    # Members clicking at random through the fake Discord (tests/e2e/test_click_storm.py,
    # test_spanish_games.py and bench.runtime).
    storm: Spec
    # Whole games played for the work done per move (tests/e2e/test_budgets.py).
    budgets: tuple[Spec, ...]
    # Pictures a move may draw (test_budgets.py): the board's, once; where a chapter's
    # closing board shows how it ended (a shot's replay, a race's finish or payout), the move
    # that ends it draws that and the next board's still.
    pictures_per_move: int
    # Pictures measured at a phone's width, by title (tests/images/test_phone.py).
    phone: Mapping[str, Callable[[], bytes]]
    # Every picture a state shows, drawn and sent (tests/images/test_palettes.py, test_words.py).
    palette: Callable[[Any, Names], Pictures]
    # A whole AI game read through the text board and alt text (tests/bot/test_reading.py).
    reading: Reading
    # States the palette check takes besides its spread: those with a picture of their own.
    palette_also: Callable[[Any], bool] = lambda state: False


TEST_SPECS: dict[str, GameTestSpec] = {
    "cock_and_bull": GameTestSpec(
        samples=(
            Sample("defaults", {}, tables=(2,), seeds=2),
            Sample("weighted-optional-points", {"dice": "weighted", "optional_points": True}, (2,)),
            Sample("best-of-3", {"best_of": 3}, (2,), shortest_of=4),
            Sample("best-of-5", {"best_of": 5}, (2,), shortest_of=4),
            Sample("point-limit", {"point_limit": 30}, (2,)),
        ),
        storm=Spec("cock_and_bull", prefer=COCK_AND_BULL_CHOICES),
        budgets=(Spec("cock_and_bull"),),
        pictures_per_move=1,
        phone={"Cock & Bull": board(CockAndBullPresenter(), 2, 30)},
        palette=cock_and_bull_pictures,
        reading=Reading((1, 2), {}),
    ),
    "hold_your_horses": GameTestSpec(
        samples=(
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
        storm=Spec("hold_your_horses", {"races": 1}, humans=2, bots=1),
        budgets=(Spec("hold_your_horses", {"races": 1}),),
        pictures_per_move=2,
        phone={
            "Hold Your Horses": board(HoldYourHorsesPresenter(), 3, 40),
            "Hold Your Horses, a race won": race_won,
            "Hold Your Horses, the scoring grid": scoring_grid,
        },
        palette=hold_your_horses_pictures,
        reading=Reading((1, 2, -1), {"races": 1}),
    ),
    "winners_circle": GameTestSpec(
        samples=(
            Sample("defaults", {}, tables=(2,)),
            Sample("royal-turf-crowded", {"royal_turf": True, "crowded_field": True}, (3,)),
            Sample("hidden-alternative", {"hidden_bets": True, "alternative_payouts": True}, (2,)),
        ),
        storm=Spec("winners_circle", humans=2, bots=1, panel="My chips"),
        budgets=(
            Spec("winners_circle", panel="My chips"),
            Spec("winners_circle", {"hidden_bets": True}, panel="My chips"),
        ),
        pictures_per_move=2,
        phone={
            "Winner's Circle": board(WinnersCirclePresenter(), 3, 30),
            "Winner's Circle, a race paid out": payout,
        },
        palette=winners_circle_pictures,
        palette_also=race_over,
        reading=Reading((1, 2, 3), {"hidden_bets": True}),
    ),
    "horse_collar": GameTestSpec(
        samples=(
            Sample("defaults", {}, tables=(2,)),
            Sample("pairs-one-frame", {"frames": 1}, tables=(4,)),
            Sample("three-sides-short-target", {"sides": 3, "target": 21}, tables=(3,)),
            Sample("small-table-long-foul", {"table": 12, "foul_line": "long", "frames": 1}, (2,)),
            Sample(
                "fast-corner-13", {"board_speed": "fast", "corner_hanger": 13, "frames": 2}, (2,)
            ),
            Sample(
                "slow-hickey-shorts-count",
                {"board_speed": "slow", "hickey": 2, "short_weight_voids_turn": False, "frames": 2},
                (2,),
            ),
        ),
        storm=Spec("horse_collar", {"frames": 1, "target": 11}, humans=1, bots=1),
        budgets=(Spec("horse_collar", {"frames": 1, "target": 11}),),
        pictures_per_move=2,
        phone={"Horse Collar": board(HorseCollarPresenter(), 2, 6)},
        palette=horse_collar_pictures,
        reading=Reading((1, 2), {"frames": 1, "target": 11}),
    ),
    "risk": GameTestSpec(
        # A world war is long: the samples stop after a round, but for one Secret Mission
        # game played to its end (the shorter of two: trades, an elimination, a mission).
        samples=(
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
        storm=Spec(
            "risk", {"turn_limit": 1}, humans=2, bots=1, prefer=RISK_PREFERS, panel=RISK_PANEL
        ),
        budgets=(Spec("risk", {"turn_limit": 1}, prefer=RISK_PREFERS, panel=RISK_PANEL),),
        pictures_per_move=1,
        phone={"Risk": board(RiskPresenter(), 3, 300)},
        palette=risk_pictures,
        reading=Reading((1, 2, 3), {"turn_limit": 2}),
    ),
}

STORMS = tuple(spec.storm for spec in TEST_SPECS.values())


def lists(spec: GameTestSpec) -> dict[str, tuple[Any, ...] | Mapping[str, Any]]:
    """The spec's tables that list things (samples, specs, pictures), by name: none may be
    empty."""
    tables = {f.name: getattr(spec, f.name) for f in fields(spec)}
    return {name: table for name, table in tables.items() if isinstance(table, tuple | dict)}


def missing(game: str, spec: GameTestSpec) -> list[str]:
    """What `game`'s test spec leaves out, each by its name: an empty table, a table made
    for another game, or its rules page (`docs/rules/<game>.md`, listed in the index)."""
    found = [name for name, table in lists(spec).items() if not table]
    games = {spec.storm.game, *(s.game for s in spec.budgets)}
    found += [f"storm/budgets of {other}" for other in sorted(games - {game})]
    if not (RULES / f"{game}.md").is_file():
        found.append(f"docs/rules/{game}.md")
    if f"]({game}.md)" not in (RULES / "README.md").read_text():
        found.append(f"docs/rules/README.md's link to {game}.md")
    return found
