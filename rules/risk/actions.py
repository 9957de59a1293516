"""Risk's actions: one vocabulary for the engine, the AI, the presenter and the tests.

Action logs and the custom ids on old Discord messages carry `<verb>[:<arg>]`, so a verb and
the form of its argument never change. A choice with several parts is made as sub-steps, so
that every menu is small and offers legal choices only:

- set-up: `claim:<territory>`; `place_on:<territory>` then `place:<armies>`;
  `neutral_on:<territory>` (two players); `auto` places the rest sensibly;
- reinforcements: `trade:<cards>` trades a set, `bonus:<territory>` first chooses where its
  +2 goes; then `place_on` and `place` as in the set-up, or `auto`;
- attacks: `attack_from:<territory>`, `attack_to:<territory>`, then `roll:<dice>` or
  `blitz:<stop level>`; `defend:<dice>` (house rule `defender_chooses`); after a capture
  `move_in:<armies>`, counting the armies that moved in with the capture; `end_attacks`;
- fortify: `fortify_from:<territory>`, `fortify_to:<territory>`, then `fortify:<armies>`;
  `end_turn`;
- `back` undoes the last part of a choice.

Two coarse verbs make a whole decision in one action, for players that decide it at once (the
bench's random players, scripts): `place_at:<territory>,<armies>` is `place_on` then `place`;
`assault:<from>,<to>,<stop level>,<keep>` is `attack_from`, `attack_to`, `blitz:<stop level>`
and, after a capture, a `move_in` that leaves `keep` armies behind (or as near as the rules
allow: the dice rolled always move in, one army always stays). They are accepted wherever their
first sub-step is (`place_at` as the place is chosen; `assault` before an attack is chosen, and
not when a defender would choose dice), but never offered (`COARSE_VERBS`): menus stay small.

A territory is its slug ("eastern_australia", `map.slugify`), a number is written in decimal,
and cards are their numbers (`cards.py`) joined by commas ("3,17,42").
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from functools import lru_cache
from typing import NamedTuple

from rules.core import Action


class Verb(enum.StrEnum):
    """Every verb of the game, in the order of a turn."""

    CLAIM = "claim"
    PLACE_ON = "place_on"
    PLACE = "place"
    PLACE_AT = "place_at"
    NEUTRAL_ON = "neutral_on"
    AUTO = "auto"
    TRADE = "trade"
    BONUS = "bonus"
    ATTACK_FROM = "attack_from"
    ATTACK_TO = "attack_to"
    ROLL = "roll"
    BLITZ = "blitz"
    ASSAULT = "assault"
    DEFEND = "defend"
    MOVE_IN = "move_in"
    END_ATTACKS = "end_attacks"
    FORTIFY_FROM = "fortify_from"
    FORTIFY_TO = "fortify_to"
    FORTIFY = "fortify"
    END_TURN = "end_turn"
    BACK = "back"


AUTO = Action(Verb.AUTO)
END_ATTACKS = Action(Verb.END_ATTACKS)
END_TURN = Action(Verb.END_TURN)
BACK = Action(Verb.BACK)

PRIVATE_VERBS = frozenset({Verb.TRADE, Verb.BONUS})
"""Verbs whose argument reveals a secret (which cards, or a territory shown on a card held):
offered in the player's private panel."""

COARSE_VERBS = frozenset({Verb.PLACE_AT, Verb.ASSAULT})
"""Verbs for a whole decision in one action: accepted by the engine, never offered (their
sub-steps are)."""


# --- by the form of the argument ---------------------------------------------------------------


def territory_action(verb: Verb, territory: str) -> Action:
    """`<verb>:<territory>`, for a verb whose argument is a territory's slug."""
    return Action(verb, territory)


def number_action(verb: Verb, number: int) -> Action:
    """`<verb>:<number>`, for a verb whose argument is a number of armies or dice."""
    return Action(verb, str(number))


def plain_number(text: str) -> int | None:
    """The number `text` writes as `number_action` does ("7"; not "07", "+7" or " 7")."""
    try:
        n = int(text)
    except ValueError:
        return None
    return n if str(n) == text else None


def parse_territory(action: Action) -> str:
    """The territory a territory verb's action names."""
    return action.arg


def parse_number(action: Action) -> int:
    """The number a number verb's action gives."""
    return int(action.arg)


def trade(cards: Iterable[int]) -> Action:
    """Trade these cards, a set, in this order: when no `bonus` was chosen, the +2 goes on
    the first card's territory that the player holds."""
    return Action(Verb.TRADE, ",".join(str(c) for c in cards))


def parse_trade(action: Action) -> tuple[int, ...]:
    """The cards a `trade` action trades, in its order."""
    return tuple(int(part) for part in action.arg.split(","))


# --- one constructor per verb with an argument -------------------------------------------------


def claim(territory: str) -> Action:
    """Claim set-up: claim an unclaimed territory."""
    return territory_action(Verb.CLAIM, territory)


def place_on(territory: str) -> Action:
    """Choose one's own territory to place set-up armies or reinforcements on."""
    return territory_action(Verb.PLACE_ON, territory)


def place(armies: int) -> Action:
    """Place this many armies on the territory chosen."""
    return number_action(Verb.PLACE, armies)


def neutral_on(territory: str) -> Action:
    """Two players' set-up: put a neutral army on this neutral territory."""
    return territory_action(Verb.NEUTRAL_ON, territory)


def bonus(territory: str) -> Action:
    """Before trading: the +2 of a traded card goes on this territory, if the set shows it."""
    return territory_action(Verb.BONUS, territory)


def attack_from(territory: str) -> Action:
    """Choose the territory to attack from."""
    return territory_action(Verb.ATTACK_FROM, territory)


def attack_to(territory: str) -> Action:
    """Choose the territory to attack."""
    return territory_action(Verb.ATTACK_TO, territory)


def roll(dice: int) -> Action:
    """Attack once with this many dice."""
    return number_action(Verb.ROLL, dice)


def blitz(stop: int) -> Action:
    """Roll with the most dice until the territory falls or the attack is down to `stop`."""
    return number_action(Verb.BLITZ, stop)


def defend(dice: int) -> Action:
    """House rule `defender_chooses`: defend with this many dice."""
    return number_action(Verb.DEFEND, dice)


def move_in(armies: int) -> Action:
    """After a capture: this many armies in the captured territory, the dice's included."""
    return number_action(Verb.MOVE_IN, armies)


def fortify_from(territory: str) -> Action:
    """Choose the territory to move armies from."""
    return territory_action(Verb.FORTIFY_FROM, territory)


def fortify_to(territory: str) -> Action:
    """Choose the territory to move them to."""
    return territory_action(Verb.FORTIFY_TO, territory)


def fortify(armies: int) -> Action:
    """Move this many armies, ending the turn."""
    return number_action(Verb.FORTIFY, armies)


# --- the coarse verbs (`COARSE_VERBS`) ---------------------------------------------------------


class Assault(NamedTuple):
    """A whole attack: blitz from `source` to `target` until it falls or `source` is down to
    `stop`; after a capture, move in everything but `keep`."""

    source: str
    target: str
    stop: int
    keep: int


def place_at(territory: str, armies: int) -> Action:
    """`place_on(territory)` then `place(armies)`, in one action."""
    return Action(Verb.PLACE_AT, f"{territory},{armies}")


def parse_place_at(action: Action) -> tuple[str, int]:
    """The territory and the armies a (legal) `place_at` action names."""
    placed = written_place_at(action.arg)
    if placed is None:
        raise ValueError(f"not a place_at argument: {action.arg!r}")
    return placed


@lru_cache(maxsize=1024)
def written_place_at(arg: str) -> tuple[str, int] | None:
    """The territory and the armies `arg` names if it is written as `place_at` writes it
    (the armies in plain decimal), else None. Kept: a game writes the same few hundred again
    and again, and the engine reads each twice (checking it, then applying it)."""
    territory, comma, armies = arg.partition(",")
    number = plain_number(armies)
    return None if not comma or number is None else (territory, number)


def assault(source: str, target: str, stop: int = 1, keep: int = 1) -> Action:
    """A whole attack (`Assault`) in one action."""
    return Action(Verb.ASSAULT, f"{source},{target},{stop},{keep}")


def parse_assault(action: Action) -> Assault:
    """The attack a (legal) `assault` action names."""
    planned = written_assault(action.arg)
    if planned is None:
        raise ValueError(f"not an assault argument: {action.arg!r}")
    return planned


@lru_cache(maxsize=1024)
def written_assault(arg: str) -> Assault | None:
    """The attack `arg` names if it is written as `assault` writes it (four parts, the
    numbers in plain decimal), else None; kept, as `written_place_at`."""
    parts = arg.split(",")
    if len(parts) != 4:
        return None
    source, target, stop, keep = parts
    stop_level, kept = plain_number(stop), plain_number(keep)
    if stop_level is None or kept is None:
        return None
    return Assault(source, target, stop_level, kept)
