"""Winner's Circle's house rules, the variants of docs/rules/winners_circle.md: all off by
default; the slash command, the lobby and `/winners-circle rules` offer them from here."""

from __future__ import annotations

from rules.options import OptionSet, flag

OPTIONS = OptionSet(
    (
        flag(
            "royal_turf",
            "Royal Turf cards",
            "Royal Turf cards: each horse is driven by one of its own three cards",
        ),
        flag(
            "hidden_bets",
            "Hidden bets",
            "Chips 0, 1, 1, 2 in four rounds; values secret until the race ends",
        ),
        flag(
            "crowded_field",
            "Crowded field",
            "Horses may share a space, and all start on space 36",
        ),
        flag(
            "alternative_payouts",
            "Alternative payouts",
            "The payout table counts the chips on a horse, not the bets",
        ),
    )
)
