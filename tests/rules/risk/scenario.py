"""Building Risk positions for scenario tests: who holds what, with how many armies."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rules.core import Action, Event, Options, PlayerId, Step, setup_rng, step_rng
from rules.risk import ENGINE
from rules.risk.cards import ALL_CARDS
from rules.risk.engine import parse_rules
from rules.risk.state import INDEX, SLUGS, Phase, RiskState

ANA, BOB, CY = 1001, 1002, -3  # seats 0, 1, 2 (Cy is a bot seat)
WILD, WILD2 = 42, 43


def card(slug: str) -> int:
    return INDEX[slug]


def position(
    board: Mapping[str, tuple[PlayerId, int]],
    *,
    players: tuple[PlayerId, ...] = (ANA, BOB, CY),
    rest: PlayerId = CY,
    phase: Phase = Phase.ATTACK,
    hands: Mapping[PlayerId, tuple[int, ...]] | None = None,
    options: Options | None = None,
    **fields: Any,
) -> RiskState:
    """A main-phase position in Ana's turn (round 1), with the house rules `options`: the
    territories in `board` as given, every other one `rest`'s with 1 army. Cards not in a
    hand are in the deck; no missions are dealt unless given."""
    state = ENGINE.initial_state(players, {}, setup_rng("scenario"))
    owners = [rest] * len(SLUGS)
    armies = [1] * len(SLUGS)
    for slug, (owner, count) in board.items():
        owners[INDEX[slug]] = owner
        armies[INDEX[slug]] = count
    held = dict(hands or {})
    in_hands = {c for h in held.values() for c in h}
    n = len(players)
    values: dict[str, Any] = {
        "players": players,
        "rules": parse_rules(options or {}, len(players)),
        "owners": tuple(owners),
        "armies": tuple(armies),
        "hands": tuple(held.get(p, ()) for p in players),
        "deck": tuple(c for c in ALL_CARDS if c not in in_hands),
        "discard": (),
        "setup_left": (0,) * n,
        "neutral_left": 0,
        "phase": phase,
        "current": 0,
        "round": 1,
        "turn": 1,
        "captures": (0,) * n,
        "eliminations": (0,) * n,
        "trades": (0,) * n,
    }
    return replace(state, **{**values, **fields})


def act(state: RiskState, player: PlayerId, action: Action, seed: int = 0) -> Step[RiskState]:
    return ENGINE.apply(state, player, action, step_rng("scenario", seed))


def acts(state: RiskState, player: PlayerId, *actions: Action) -> tuple[RiskState, list[Event]]:
    """Several actions (`attack_from("ukraine")`, `END_TURN`), collecting the events."""
    events: list[Event] = []
    for n, action in enumerate(actions):
        step = act(state, player, action, seed=n)
        state = step.state
        events += step.events
    return state, events


def legal(state: RiskState, player: PlayerId) -> list[Action]:
    """The legal actions, in the engine's order."""
    return list(ENGINE.legal_actions(state, player))


def of_type(events: list[Event] | tuple[Event, ...], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]
