"""Winner's Circle (Royal Turf): bet on horses, then race them (docs/rules/winners_circle.md)."""

from rules.winners_circle.engine import WinnersCircle

ENGINE = WinnersCircle()

__all__ = ["ENGINE", "WinnersCircle"]
