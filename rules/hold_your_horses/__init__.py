"""Hold Your Horses: the dice horse race with private hands (docs/rules/hold_your_horses.md)."""

from rules.hold_your_horses.engine import HoldYourHorses

ENGINE = HoldYourHorses()

__all__ = ["ENGINE", "HoldYourHorses"]
