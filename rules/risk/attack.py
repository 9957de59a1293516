"""Attacks (docs/rules/risk.md, "2. Attacks"): a roll at a time or a blitz to a stop
level, the defender's dice when they choose them, the capture and the armies that move in,
and a player eliminated, whose cards go to the victor."""

from __future__ import annotations

from random import Random
from typing import Any

from rules.core import Action, Event, IllegalAction, PlayerId, Step
from rules.risk._fast import roll_battle
from rules.risk.actions import BACK, attack_from, attack_to
from rules.risk.battle import Battle, losses, max_attack_dice, max_defend_dice, roll
from rules.risk.missions import effective_mission
from rules.risk.queries import alive, attack_sources, attack_targets, two_player
from rules.risk.state import (
    INDEX,
    NEUTRAL,
    SLUGS,
    ArmiesMovedIn,
    AttackStopped,
    BattleRolled,
    CardsHandedOver,
    DefenceNeeded,
    Elimination,
    MissionChanged,
    Phase,
    PlayerEliminated,
    RiskState,
    TerritoryCaptured,
    WinKind,
    changed_at,
    evolve,
    evolved,
)
from rules.risk.turn import check_mission, finish

TRADE_DOWN_CARDS = 6  # an elimination bringing the victor to 6+ forces trades at once


def needs_defender_choice(state: RiskState) -> bool:
    """`defender_chooses`: a player (never the neutral army, rolled at the maximum) with a
    real choice (2 or more armies) picks the dice."""
    return (
        state.rules.defender_chooses
        and state.owner(state.target) != NEUTRAL
        and state.armies_on(state.target) >= 2
    )


def attack_path(state: RiskState, player: PlayerId, source: str, target: str) -> tuple[Action, ...]:
    """The actions that choose the attack `source` -> `target` from wherever the player is in
    the attack phase (undoing a different pending choice first): for `/risk attack from: to:`.
    Raises IllegalAction, with a message for the player, if that attack is not possible now."""
    if state.phase is not Phase.ATTACK or state.player != player:
        raise IllegalAction("You can attack only in the attack phase of your turn.")
    if source not in attack_sources(state, player):
        raise IllegalAction("You can attack only from your territory with 2 or more armies.")
    if target not in attack_targets(state, source):
        raise IllegalAction("You can attack only an enemy territory next to it.")
    if (state.source, state.target) == (source, target):
        return ()
    backs: tuple[Action, ...] = ()
    if state.source == source:
        backs = (BACK,) if state.target else ()
    else:
        backs = (BACK,) * ((state.source != "") + (state.target != ""))
        backs += (attack_from(source),)
    return (*backs, attack_to(target))


# --- rolling ----------------------------------------------------------------------------------


def attack(
    state: RiskState,
    source: str,
    target: str,
    dice: int,
    stop: int,
    rng: Random,
    keep: int | None = None,
) -> Step[RiskState]:
    """Roll once (`stop` 0) or blitz from `source` to `target` (the attack selected, or an
    assault's): roll with the most dice until the territory falls or the source is down to
    `stop`. A defender who chooses is asked before each roll. An assault's capture moves in
    all but `keep` at once (see `_attack_over`).

    The rolls count armies in a list and the state is copied once, at the end: a roll that
    takes nothing cannot complete the attacker's mission (it changes no owner and takes
    none of their armies), so only a capture is checked (`check_mission`)."""
    events: list[Event] = []
    s, t = INDEX[source], INDEX[target]
    attacker, defender = state.players[state.current], state.owners[t]
    asks = state.rules.defender_chooses and defender != NEUTRAL
    armies = list(state.armies)
    rolled = False
    while True:
        if asks and armies[t] >= 2:  # `needs_defender_choice`, with the armies counted here
            events.append(DefenceNeeded(attacker, defender, source, target, dice))
            changes: dict[str, Any] = {"blitz_stop": stop}
            if rolled:
                changes = _rolled(source, target, armies, stop)
            changes.update(source=source, target=target, phase=Phase.DEFEND, attack_dice=dice)
            return Step(evolved(state, changes), tuple(events))
        events.append(
            _roll_result(state, s, t, armies, roll_battle(rng, dice, max_defend_dice(armies[t])))
        )
        rolled = True
        if _ends_attack(armies, s, t):
            return check_mission(_attack_over(state, s, t, armies, dice, events, keep))
        if armies[s] <= stop or not stop:
            if stop:
                events.append(AttackStopped(attacker, source, target, armies[s]))
            return Step(evolved(state, _rolled(source, target, armies, 0)), tuple(events))
        dice = max_attack_dice(armies[s])


def defend(state: RiskState, dice: int, rng: Random) -> Step[RiskState]:
    """The defender's dice against the attacker's waiting roll; a blitz then goes on."""
    step = check_mission(battle(state, roll(rng, state.attack_dice), roll(rng, dice)))
    more = _blitz_goes_on(step.state)
    if not more:
        events = list(step.events)
        if more is False:
            s = step.state
            events.append(AttackStopped(s.player, s.source, s.target, s.armies_on(s.source)))
        return Step(_blitz_over(step.state), tuple(events))
    after = step.state
    dice_now = max_attack_dice(after.armies_on(after.source))
    rest = attack(after, after.source, after.target, dice_now, after.blitz_stop, rng)
    return Step(rest.state, step.events + rest.events)


def battle(
    state: RiskState, attack_dice: tuple[int, ...], defend_dice: tuple[int, ...]
) -> Step[RiskState]:
    """One roll of the selected attack with these dice, and a capture if the target fell."""
    source, target = state.source, state.target
    armies = list(state.armies)
    attack = tuple(sorted(attack_dice, reverse=True))
    defence = tuple(sorted(defend_dice, reverse=True))
    s, t = INDEX[source], INDEX[target]
    rolled = _roll_result(state, s, t, armies, (attack, defence, *losses(attack, defence)))
    if _ends_attack(armies, s, t):
        return _attack_over(state, s, t, armies, len(attack_dice), [rolled])
    return Step(evolved(state, _rolled(source, target, armies, state.blitz_stop)), (rolled,))


def _roll_result(
    state: RiskState, s: int, t: int, armies: list[int], rolled: Battle
) -> BattleRolled:
    """One roll of territory `s` against `t`: its losses taken from `armies`, and the event."""
    attack_dice, defend_dice, lost, taken = rolled
    armies[s] -= lost
    armies[t] -= taken
    return BattleRolled(
        state.players[state.current],
        state.owners[t],
        SLUGS[s],
        SLUGS[t],
        attack_dice,
        defend_dice,
        lost,
        taken,
        armies[s],
        armies[t],
    )


def _ends_attack(armies: list[int], s: int, t: int) -> bool:
    """Whether a roll that left `armies` ends the attack from `s` on `t` (`_attack_over`)."""
    return not armies[t] or armies[s] < 2


def _rolled(source: str, target: str, armies: list[int], stop: int) -> dict[str, Any]:
    """The changes rolls of the attack `source` -> `target` made, leaving these armies (and
    selected the attack still `source` -> `target`, "" when it is over)."""
    return {
        "armies": tuple(armies),
        "phase": Phase.ATTACK,
        "last_battle": (source, target),
        "attack_dice": 0,
        "blitz_stop": stop,
        "source": source,
        "target": target,
    }


def _blitz_over(state: RiskState) -> RiskState:
    """`blitz_stop` back to 0 (most rolls end with it there already: no copy then)."""
    return evolve(state, blitz_stop=0) if state.blitz_stop else state


def _blitz_goes_on(state: RiskState) -> bool | None:
    """None: no blitz going on (or it ended with a capture); False: it stops here."""
    if not state.blitz_stop or state.phase is not Phase.ATTACK or not state.target:
        return None
    armies = state.armies_on(state.source)
    return armies > state.blitz_stop and armies >= 2


# --- capturing --------------------------------------------------------------------------------


def _attack_over(
    state: RiskState,
    s: int,
    t: int,
    armies: list[int],
    dice: int,
    events: list[Event],
    keep: int | None = None,
) -> Step[RiskState]:
    """After a roll of `dice` from territory `s` that left `armies` and ended the attack
    (`events` so far): no armies left to attack with, or `t` is taken and the dice move in
    at once (more may follow in MOVE_IN). One copy of the state, unless a player is
    eliminated.

    An assault (`keep` given) moves in all but `keep` at the capture, as `move_in` would,
    without the MOVE_IN state in between; unless there are secret missions, which are
    checked in it."""
    if armies[t]:  # the attacker is down to 1
        changes = _rolled(SLUGS[s], SLUGS[t], armies, 0)
        changes.update(source="", target="")
        return Step(evolved(state, changes), tuple(events))
    seat = state.current
    me = state.players[seat]
    source, target = SLUGS[s], SLUGS[t]
    victim = state.owners[t]
    armies[s] -= dice
    armies[t] = dice
    owners = changed_at(state.owners, t, me)
    events.append(TerritoryCaptured(me, victim, source, target, dice))
    captured = {
        "owners": owners,
        "conquered": True,
        "captures": changed_at(state.captures, seat, state.captures[seat] + 1),
    }
    if victim != NEUTRAL and victim not in owners:  # their last territory (no claims now)
        eliminated = _eliminate(
            evolved(state, _rolled(source, target, armies, 0) | captured), victim
        )
        state, captured = eliminated.state, {}
        events += eliminated.events
        if len(alive(state)) == 1:
            kind = WinKind.ELIMINATION if two_player(state) else WinKind.DOMINATION
            won = finish(state, kind, (me,))
            return Step(won.state, (*events, *won.events))
    if armies[s] > 1 and keep is not None and not state.missions:
        events.append(_moved_in(state, s, t, armies, max(armies[s] - keep, 0)))
        after = _after_capture(state)
    elif armies[s] > 1:
        after = {"source": source, "target": target, "phase": Phase.MOVE_IN, "move_min": dice}
    else:
        after = _after_capture(state)
    changes = _rolled(source, target, armies, 0)  # the armies that moved in with the capture too
    changes.update(captured)
    changes.update(after)
    return Step(evolved(state, changes), tuple(events))


def move_in(state: RiskState, total: int) -> Step[RiskState]:
    """After a capture: `total` armies in all (the dice rolled among them) move in."""
    armies = list(state.armies)
    s, t = INDEX[state.source], INDEX[state.target]
    moved = _moved_in(state, s, t, armies, total - state.move_min)
    after = evolve(state, **_after_capture(state), armies=tuple(armies), move_min=0)
    return Step(after, (moved,))


def _moved_in(state: RiskState, s: int, t: int, armies: list[int], extra: int) -> ArmiesMovedIn:
    """`extra` armies follow the capture of `t` from `s` (in `armies`), and the event."""
    armies[s] -= extra
    armies[t] += extra
    return ArmiesMovedIn(state.player, SLUGS[s], SLUGS[t], extra, armies[s], armies[t])


def _after_capture(state: RiskState) -> dict[str, Any]:
    """The changes that go back to attacking once a capture's armies have moved in; after an
    elimination's trade-down, to trading to 4 or fewer cards and placing those armies first."""
    back_to_attack: dict[str, Any] = {"source": "", "target": "", "phase": Phase.ATTACK}
    if state.resume_attack:
        return back_to_attack | {"phase": Phase.REINFORCE, "to_place": 0}
    return back_to_attack


def assault(
    state: RiskState, source: str, target: str, stop: int, keep: int, rng: Random
) -> Step[RiskState]:
    """A blitz from `source` on `target` to `stop` with the most dice, and after a capture
    everything but `keep` moves in (at least 1; the dice rolled always move in). A mission the
    blitz completes is checked after each roll, as in the blitz; one the move completes, by
    the engine after this action, as after `move_in`."""
    dice = max_attack_dice(state.armies[INDEX[source]])
    blitzed = attack(state, source, target, dice, stop, rng, keep)
    after = blitzed.state
    if after.phase is not Phase.MOVE_IN:  # over, or moved in at the capture
        return blitzed
    behind = after.armies[INDEX[after.source]]  # the dice have moved in already
    moved = move_in(after, after.move_min + max(behind - keep, 0))
    return Step(moved.state, blitzed.events + moved.events)


# --- eliminating ------------------------------------------------------------------------------


def _eliminate(state: RiskState, victim: PlayerId) -> Step[RiskState]:
    """The victor takes the victim's cards; 6 or more means trading down at once. A destroy
    mission aimed at the victim, held by anyone else, becomes "occupy 24"."""
    me = state.player
    seat = state.current
    victim_seat = state.seat_of(victim)
    taken = state.hands[victim_seat]
    hand = state.hands[seat] + taken
    before = [effective_mission(state, s) for s in range(len(state.players))]
    hands = changed_at(changed_at(state.hands, victim_seat, ()), seat, hand)
    state = evolve(
        state,
        hands=hands,
        eliminated=(*state.eliminated, Elimination(victim, me, state.turn)),
        eliminations=changed_at(state.eliminations, seat, state.eliminations[seat] + 1),
        resume_attack=len(hand) >= TRADE_DOWN_CARDS,
    )
    events: list[Event] = [PlayerEliminated(victim, me, len(taken))]
    if taken:
        events.append(
            CardsHandedOver(
                victim, me, taken, state.resume_attack, visible_to=frozenset({me, victim})
            )
        )
    for s, p in enumerate(state.players):
        after = effective_mission(state, s)
        if after is not None and after != before[s] and p not in (me, victim):
            events.append(MissionChanged(p, after, visible_to=frozenset({p})))
    return Step(state, tuple(events))
