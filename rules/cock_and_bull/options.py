"""Cock & Bull's house rules (docs/rules/cock_and_bull.md): each default is the rules
file's; the slash command, the lobby and `/cock-and-bull rules` offer them from here."""

from __future__ import annotations

from rules.options import OptionSet, choice, flag, number

MAX_POINT_LIMIT = 500

OPTIONS = OptionSet(
    (
        # Decision: uniform dice; the house option gives each die 3 Cocks, 2 Bulls, 1 Monkey.
        choice(
            "dice",
            "Dice",
            "Uniform dice (2 of each face) or weighted (3 Cocks, 2 Bulls, 1 Monkey)",
            default="uniform",
            choices=[
                ("uniform", "uniform (2 Cocks, 2 Bulls, 2 Monkeys)"),
                ("weighted", "weighted (3 Cocks, 2 Bulls, 1 Monkey)"),
            ],
        ),
        flag(
            "optional_points",
            "Optional points",
            "Let players decline Mantle points (2011 tournament rule)",
        ),
        choice(
            "best_of",
            "Match",
            "Play a match: best of 1, 3 or 5 games",
            default=1,
            choices=[(n, f"best of {n}") for n in (1, 3, 5)],
        ),
        number(
            "point_limit",
            "Point limit",
            "Or play the match to this many points (0 = off)",
            default=0,
            low=0,
            high=MAX_POINT_LIMIT,
            zero="off",
        ),
    )
)
