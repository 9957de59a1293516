"""Hold Your Horses' house rules (docs/rules/hold_your_horses.md): each default is the rules
file's; the slash command, the lobby and `/hold-your-horses rules` offer them from here."""

from __future__ import annotations

from rules.hold_your_horses.state import Track
from rules.options import OptionSet, choice, flag, number

MAX_RACES = 10
MIN_TOKENS = 12  # one token for each player at the largest table
MAX_TOKENS = 600

OPTIONS = OptionSet(
    (
        # Decision: the board's lengths are not public, so the track is a preset.
        choice(
            "track",
            "Track",
            "How long each horse's track is",
            default=Track.CLASSIC.value,
            choices=[
                (Track.CLASSIC.value, "classic (2 and 12 need 3 steps, 7 17)"),
                (Track.EVEN.value, "even (every horse equally likely to win)"),
                (Track.SHORT.value, "short (a quicker race)"),
            ],
        ),
        flag(
            "escalating_scratches",
            "Escalating scratches",
            "Scratches cost 1, 2, 3, 4 tokens a card, in scratch order",
        ),
        number("races", "Races", "How many races make a game", default=5, low=1, high=MAX_RACES),
        number(
            "tokens",
            "Tokens",
            "Tokens divided among the players before each race",
            default=60,
            low=MIN_TOKENS,
            high=MAX_TOKENS,
        ),
        flag(
            "autoplay",
            "Autoplay",
            "The bot rolls for everyone at a steady pace: sit back and watch",
        ),
    )
)
