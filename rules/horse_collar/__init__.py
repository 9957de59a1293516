"""Horse Collar: table shuffleboard, a physics simulation of aimed shots
(shared/rules/horse-collar.md)."""

from rules.horse_collar.engine import HorseCollar

ENGINE = HorseCollar()

__all__ = ["ENGINE", "HorseCollar"]
