"""The Risk engine's speed-ups, fenced here so that the rules everywhere else read plainly.

`bench/versus_pyrisk.py` holds the engine to pyrisk's speed; each speed-up below bought a
few per cent of a game there, more than its plain form could give back. Each is a rule:
what it may assume, what its callers must guarantee, and the test that holds it. (A state
is copied with `rules.frozen.replaced`, whose docstring is its contract; `state.Phase` is
hashed by identity, so the phase tables of `legal.py` are looked up in C.)

Rule 1: `roll_battle(rng, attack, defend)` is `battle.roll_battle`: the attacker's dice,
then the defender's, exactly as that many calls of `rng.randint(1, 6)` roll them. A die is
`Random._randbelow(6)` + 1, three bits from `getrandbits` drawn again while they are 6 or
7: what CPython's `randint` does for a `random.Random`, which callers must pass (the
engine's seeded generators are). So a seed rolls the dice saved games were rolled with and
leaves the generator where `randint` would. The draws, packed three bits apiece, look the
whole roll up (faces high to low, and the losses) in `_BATTLES`, built once at import, so
no roll sorts or compares dice. Tested by tests/rules/risk/test_fast.py (the same rolls as
`battle.roll_battle`, the generator in the same place after).

Rule 2: the verbs the one-action legality check (`_fast_legal.py`) compares most, and the
phases `to_act` compares, are module globals here (`PLACE_AT` is `Verb.PLACE_AT`, `OVER` is
`Phase.OVER`): Python 3.11 reads a member through `EnumType`'s `__getattr__` hook, several
times the cost of a global. They may be used only inside the fence, where the member itself
would be, with `is` or `==`; the rule modules write `Phase.X` and `Verb.X`. Tested by
tests/rules/risk/test_fast.py (each global is its member).

Rule 3: `to_act(state)` is `Risk.to_act`: nobody once the game is over, the defender while
they choose their dice, else the player whose (set-up) turn it is. `EngineBase.apply` asks
it before every action, so it is the engine's own, bound as a `staticmethod` (no frame of a
method around it), with the phases as Rule 2's globals. Tested by
tests/rules/risk/test_fast.py (its answer against the plain rule over every phase of
seeded games).
"""

from __future__ import annotations

from itertools import product
from random import Random

from rules.core import PlayerId
from rules.risk.actions import Verb
from rules.risk.battle import MAX_ATTACK_DICE, MAX_DEFEND_DICE, Battle, losses
from rules.risk.state import Phase, RiskState

PLACE_AT, ATTACK_FROM, ASSAULT = Verb.PLACE_AT, Verb.ATTACK_FROM, Verb.ASSAULT
OVER, DEFEND = Phase.OVER, Phase.DEFEND
_NOBODY: frozenset[PlayerId] = frozenset()


def to_act(state: RiskState) -> frozenset[PlayerId]:
    """`Risk.to_act`: who acts now, one player or nobody (Rule 3)."""
    phase = state.phase
    if phase is OVER:
        return _NOBODY
    if phase is DEFEND:
        return frozenset((state.owner(state.target),))
    return frozenset((state.players[state.current],))


def roll_battle(rng: Random, attack: int, defend: int) -> Battle:
    """`battle.roll_battle(rng, attack, defend)`, drawn and looked up (Rule 1)."""
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
    """For `count` draws of 0-5 packed as `_draws` packs them, their faces high to low; the
    packings no roll makes (a draw of 6 or 7) stay empty."""
    faces: list[tuple[int, ...]] = [()] * (1 << 3 * count)
    for draws in product(range(6), repeat=count):
        packed = sum(r << 3 * (count - 1 - k) for k, r in enumerate(draws))
        faces[packed] = tuple(sorted((r + 1 for r in draws), reverse=True))
    return faces


def _battles(attack: int, defend: int) -> list[Battle]:
    """For the draws of `attack` dice then `defend` dice, packed as `_draws` packs them, the
    roll they make (an empty one for the packings no roll makes)."""
    shift = 3 * defend
    battles: list[Battle] = [((), (), 0, 0)] * (1 << 3 * (attack + defend))
    for high, attack_faces in enumerate(_SORTED[attack]):
        for low, defend_faces in enumerate(_SORTED[defend]):
            if attack_faces and defend_faces:
                battles[high << shift | low] = (
                    attack_faces,
                    defend_faces,
                    *losses(attack_faces, defend_faces),
                )
    return battles


_SORTED = {count: _sorted_faces(count) for count in range(1, MAX_ATTACK_DICE + 1)}
# Every roll of a battle (10,836 of them), by attacking dice, defending dice, then the draws.
_BATTLES = [
    [_battles(a, d) if a and d else [] for d in range(MAX_DEFEND_DICE + 1)]
    for a in range(MAX_ATTACK_DICE + 1)
]
