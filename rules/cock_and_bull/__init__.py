"""Cock & Bull: the two-player dice duel (shared/rules/cock-and-bull.md)."""

from rules.cock_and_bull.engine import CockAndBull

ENGINE = CockAndBull()

__all__ = ["ENGINE", "CockAndBull"]
