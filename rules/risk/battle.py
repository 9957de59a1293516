"""Battles (docs/rules/risk.md, "Attacks"): rolling is split from resolving so tests pass
dice in."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
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
    """`count` dice, high to low. A die is 3 random bits drawn until they are below 6, plus
    one: the very draws `randint(1, 6)` and `choice` of a face make (one `_randbelow(6)`
    each), so saved games replay; drawn here without their layers of calls, and sorted by
    looking the draws up (`_SORTED`)."""
    return _SORTED[count][_draws(rng, count)]


Battle = tuple[tuple[int, ...], tuple[int, ...], int, int]
"""A roll: the attacker's dice and the defender's (high to low), and `losses` of the two."""


def roll_battle(rng: Random, attack: int, defend: int) -> Battle:
    """`roll(rng, attack)`, then `roll(rng, defend)` (the same draws, in one call), and what
    they cost each side: looked up by the draws (`_BATTLES`)."""
    return _BATTLES[attack][defend][_draws(rng, attack + defend)]


def _draws(rng: Random, count: int) -> int:
    """`count` draws of 0-5, packed 3 bits apiece, the first highest."""
    bits = rng.getrandbits
    drawn = 0
    for _ in range(count):
        r = bits(3)
        while r >= 6:
            r = bits(3)
        drawn = drawn << 3 | r
    return drawn


def _sorted_faces(count: int) -> list[tuple[int, ...]]:
    """For `count` draws of 0-5 packed 3 bits apiece (the first highest), their faces high
    to low; the packings no roll makes (a draw of 6 or 7) stay empty."""
    faces: list[tuple[int, ...]] = [()] * (1 << 3 * count)
    for draws in product(range(6), repeat=count):
        packed = sum(r << 3 * (count - 1 - k) for k, r in enumerate(draws))
        faces[packed] = tuple(sorted((r + 1 for r in draws), reverse=True))
    return faces


_SORTED = {count: _sorted_faces(count) for count in range(1, MAX_ATTACK_DICE + 1)}


def _battles(attack: int, defend: int) -> list[Battle]:
    """For the draws of `attack` dice then `defend` dice, packed as `_draws` packs them, the
    roll they make (`_NO_ROLL` for the packings no roll makes: a draw of 6 or 7)."""
    shift = 3 * defend
    battles = [_NO_ROLL] * (1 << 3 * (attack + defend))
    for high, attack_faces in enumerate(_SORTED[attack]):
        for low, defend_faces in enumerate(_SORTED[defend]):
            if attack_faces and defend_faces:
                rolled = losses(attack_faces, defend_faces)
                battles[high << shift | low] = (attack_faces, defend_faces, *rolled)
    return battles


_NO_ROLL: Battle = ((), (), 0, 0)
# Every roll of a battle, looked up by attacking and defending dice and then the draws (10,836
# rolls, 1.1 MB, made in 6 ms): quicker than sorting and comparing dice at each roll.
_BATTLES = [
    [[] if not (a and d) else _battles(a, d) for d in range(MAX_DEFEND_DICE + 1)]
    for a in range(MAX_ATTACK_DICE + 1)
]
