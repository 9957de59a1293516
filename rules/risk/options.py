"""Risk's house rules (docs/rules/risk.md): each default is the rules file's; the slash
command, the lobby and `/risk rules` offer them from here."""

from __future__ import annotations

from rules.options import OptionSet, OptionValue, choice, flag, number
from rules.risk.state import PLAYERS, SetupMode

MAX_TURN_LIMIT = 200
MISSION_DECKS = (12, 14)  # the US deck, and with the two "... and one more continent" cards
THREE_OR_MORE = range(3, PLAYERS.stop)  # "Two players": no missions, territories dealt


def setup_tables(setup: OptionValue) -> range:
    """The tables a set-up suits: two players always deal (with a neutral army)."""
    return THREE_OR_MORE if setup == SetupMode.CLAIM.value else PLAYERS


def mission_tables(missions: OptionValue) -> range:
    """The tables Secret Mission Risk suits: 3 to 6 players."""
    return THREE_OR_MORE if missions else PLAYERS


OPTIONS = OptionSet(
    (
        # Decision: deal is the default for chat, as in most online play.
        choice(
            "setup",
            "Set-up",
            "Deal the territories at random (default) or claim them one by one",
            default=SetupMode.DEAL.value,
            choices=[
                (SetupMode.DEAL.value, "deal (quick)"),
                (SetupMode.CLAIM.value, "claim (classic)"),
            ],
            tables=setup_tables,
            misfit="Two players always deal the territories (with a neutral army).",
        ),
        choice(
            "missions",
            "Secret missions",
            "Secret Mission Risk (3–6 players): 12 or 14 mission cards",
            default=0,
            choices=[(0, "off (conquer the world)")]
            + [(n, f"{n} missions") for n in MISSION_DECKS],
            tables=mission_tables,
            misfit="Secret Mission Risk is for 3 to 6 players.",
        ),
        flag(
            "defender_chooses",
            "Defender chooses dice",
            "The defender picks 1 or 2 dice (otherwise rolled at the most)",
        ),
        flag(
            "connected_fortify",
            "Connected fortify",
            "Fortify along any chain of your territories, not just next door",
        ),
        number(
            "turn_limit",
            "Turn limit",
            "End after this many rounds: most territories wins (0 = play it out)",
            default=0,
            low=0,
            high=MAX_TURN_LIMIT,
            zero="none",
        ),
        flag(
            "resign_to_ai",
            "Resign to the AI",
            "A resigner's armies play on under the AI (otherwise they turn neutral)",
        ),
    )
)
