"""Risk: world domination for 2–6 players (docs/rules/risk.md)."""

from rules.risk.engine import Risk

ENGINE = Risk()

__all__ = ["ENGINE", "Risk"]
