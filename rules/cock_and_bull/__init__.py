"""Cock & Bull: the two-player dice duel (docs/rules/cock_and_bull.md)."""

from rules.cock_and_bull.engine import CockAndBull

ENGINE = CockAndBull()

__all__ = ["ENGINE", "CockAndBull"]
