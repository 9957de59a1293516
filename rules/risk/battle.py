"""Battles (docs/rules/risk.md, "Attacks"): rolling is split from resolving so tests pass
dice in."""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

MAX_ATTACK_DICE = 3
MAX_DEFEND_DICE = 2


def resolve_battle(
    attacker_dice: tuple[int, ...], defender_dice: tuple[int, ...]
) -> tuple[int, int]:
    """(attacker losses, defender losses): the highest dice are compared, then the second
    highest; each pair costs the lower side one army, and ties go to the defender."""
    return losses(sorted(attacker_dice, reverse=True), sorted(defender_dice, reverse=True))


def losses(attack: Sequence[int], defence: Sequence[int]) -> tuple[int, int]:
    """`resolve_battle` of dice already high to low (as `roll` gives them)."""
    pairs = min(len(attack), len(defence))  # 1 or 2: the defender rolls at most 2
    won = (attack[0] > defence[0]) + (pairs > 1 and attack[1] > defence[1])
    return pairs - won, won


def max_attack_dice(armies: int) -> int:
    """1–3 dice, at most one fewer than the armies on the attacking territory."""
    return min(MAX_ATTACK_DICE, armies - 1)


def max_defend_dice(armies: int) -> int:
    """1 or 2 dice, 2 only with at least 2 armies."""
    return min(MAX_DEFEND_DICE, armies)


def roll(rng: Random, count: int) -> tuple[int, ...]:
    """`count` dice, high to low."""
    return tuple(sorted((rng.randint(1, 6) for _ in range(count)), reverse=True))


Battle = tuple[tuple[int, ...], tuple[int, ...], int, int]
"""A roll: the attacker's dice and the defender's (high to low), and `losses` of the two."""


def roll_battle(rng: Random, attack: int, defend: int) -> Battle:
    """The attacker's roll of `attack` dice, then the defender's of `defend`, and what they
    cost each side (the engine rolls with `_fast.roll_battle`, the same rolls: Rule 1)."""
    attack_dice = roll(rng, attack)
    defend_dice = roll(rng, defend)
    return (attack_dice, defend_dice, *losses(attack_dice, defend_dice))
