"""Horse Collar: table shuffleboard, a physics simulation of aimed shots
(docs/rules/horse_collar.md)."""

from rules.horse_collar.engine import HorseCollar

ENGINE = HorseCollar()

__all__ = ["ENGINE", "HorseCollar"]
