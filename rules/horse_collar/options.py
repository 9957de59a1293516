"""Horse Collar's house rules (docs/rules/horse_collar.md): each default is the rules
file's; the slash command, the lobby and `/horse-collar rules` offer them from here."""

from __future__ import annotations

from rules.horse_collar.geometry import TABLE_FEET, FoulLine
from rules.horse_collar.state import SIDE_SIZES, BoardSpeed
from rules.options import OptionSet, OptionValue, choice, flag, number

MAX_TARGET = 500
MAX_STAKE = 1000
MAX_FRAMES = 50


def side_tables(sides: OptionValue) -> set[int]:
    """The tables `sides` sides can be made of: sides of 1, 2 or 4 players each."""
    return {int(sides) * size for size in SIDE_SIZES}


OPTIONS = OptionSet(
    (
        # Decision: 2 (standard) up to 4 sides, shooting in order.
        number(
            "sides",
            "Sides",
            "How many sides play (2 to 4); a side is 1, 2 or 4 players",
            default=2,
            low=2,
            high=4,
            tables=side_tables,
            misfit="{players} players cannot make {value} equal sides of 1, 2 or 4 players.",
        ),
        number(
            "target",
            "Target",
            "The score to reach; the frame is still finished (default 51)",
            default=51,
            low=1,
            high=MAX_TARGET,
        ),
        number(
            "table",
            "Table",
            "The table's cabinet length in feet (9 to 22)",
            default=22,
            low=TABLE_FEET.start,
            high=TABLE_FEET.stop - 1,
        ),
        choice(
            "foul_line",
            "Foul line",
            "Which foul line a weight must pass",
            default=FoulLine.SHORT.value,
            choices=[
                (FoulLine.SHORT.value, "short (nearest the shooter)"),
                (FoulLine.LONG.value, "long (nearest the target end)"),
            ],
        ),
        choice(
            "corner_hanger",
            "Corner hanger",
            "What a corner hanger (over the end and a side) is worth",
            default=26,
            choices=[(26, "26 points"), (13, "13 points (like a hanger)")],
        ),
        flag(
            "short_weight_voids_turn",
            "Short weight voids the turn",
            "A short weight left on the board voids the turn",
            default=True,
        ),
        choice(
            "board_speed",
            "Board speed",
            "How far a weight slides: fast, medium or slow",
            default=BoardSpeed.MEDIUM.value,
            choices=[(s.value, f"{s.value} (μ {s.mu:.2f})") for s in BoardSpeed],
        ),
        number(
            "hickey",
            "Hickey jar",
            "The Hickey stake a side's players pay when their turn scores nothing (0: off)",
            default=0,
            low=0,
            high=MAX_STAKE,
            zero="off",
        ),
        number(
            "frames",
            "Frame limit",
            "End the game after this many frames, a quick game (0: play to the target)",
            default=0,
            low=0,
            high=MAX_FRAMES,
            zero="none",
        ),
    )
)
