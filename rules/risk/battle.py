"""Battles (shared/rules/risk.md, "Attacks"): rolling is split from resolving so tests pass
dice in."""

from __future__ import annotations

from random import Random

MAX_ATTACK_DICE = 3
MAX_DEFEND_DICE = 2


def resolve_battle(
    attacker_dice: tuple[int, ...], defender_dice: tuple[int, ...]
) -> tuple[int, int]:
    """(attacker losses, defender losses): the highest dice are compared, then the second
    highest; each pair costs the lower side one army, and ties go to the defender."""
    attack = sorted(attacker_dice, reverse=True)
    defence = sorted(defender_dice, reverse=True)
    attacker_losses = defender_losses = 0
    for a, d in zip(attack, defence, strict=False):
        if a > d:
            defender_losses += 1
        else:
            attacker_losses += 1
    return attacker_losses, defender_losses


def max_attack_dice(armies: int) -> int:
    """1–3 dice, at most one fewer than the armies on the attacking territory."""
    return min(MAX_ATTACK_DICE, armies - 1)


def max_defend_dice(armies: int) -> int:
    """1 or 2 dice, 2 only with at least 2 armies."""
    return min(MAX_DEFEND_DICE, armies)


FACES = (1, 2, 3, 4, 5, 6)


def roll(rng: Random, count: int) -> tuple[int, ...]:
    """`count` dice, high to low. `choice` of a face draws exactly what `randint(1, 6)` did
    (both take one `_randbelow(6)`), so saved games replay, with fewer calls a die."""
    return tuple(sorted([rng.choice(FACES) for _ in range(count)], reverse=True))
