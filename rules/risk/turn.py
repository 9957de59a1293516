"""A turn of Risk (docs/rules/risk.md, "A turn"): trading cards and placing the
reinforcements, the end of the attacks, the one fortify, the card for a turn with a capture,
the next player's turn; and how the game is won: every action is followed by a look at the
turn's player's secret mission, and a turn limit may end the game."""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from rules.core import Event, PlayerId, Step
from rules.risk import cards
from rules.risk.missions import effective_mission, is_complete
from rules.risk.queries import (
    alive,
    army_count,
    bonus_territory,
    can_fortify,
    must_trade,
    reinforcement,
    territory_count,
)
from rules.risk.state import (
    INDEX,
    SLUGS,
    ArmiesPlaced,
    AttacksEnded,
    CardDrawn,
    CardReceived,
    CardsTraded,
    DeckReshuffled,
    Fortified,
    GameWon,
    MissionCompleted,
    Phase,
    RiskState,
    TurnEnded,
    TurnStarted,
    WinKind,
    changed_at,
    evolve,
    evolved,
    with_armies,
)

TERRITORY_BONUS = 2


# --- the start of a turn ----------------------------------------------------------------------


def start_turn(state: RiskState, seat: int, round_number: int) -> Step[RiskState]:
    """`seat`'s turn, in round `round_number`, starts with its reinforcements."""
    player = state.players[seat]
    r = reinforcement(state, player)
    state = evolve(
        state,
        round=round_number,
        current=seat,
        phase=Phase.REINFORCE,
        turn=state.turn + 1,
        to_place=r.total,
        source="",
        target="",
        conquered=False,
        bonus_used=False,
        bonus_pick="",
        resume_attack=False,
        blitz_stop=0,
    )
    must = must_trade(state)
    return Step(state, (TurnStarted(player, state.round, state.turn, r, must),))


# --- reinforcements and cards -----------------------------------------------------------------


def trade(state: RiskState, traded: tuple[int, ...]) -> Step[RiskState]:
    """The player trades a set of cards for armies to place."""
    me = state.player
    seat = state.current
    number = state.sets_traded + 1
    value = cards.set_value(number)
    armies = state.armies
    # The +2 on a traded card's territory the player holds, at most once a turn: the one
    # they chose (`bonus`), else the first such card's in the action's order.
    bonus = bonus_territory(state, traded)
    if bonus:
        armies = changed_at(armies, INDEX[bonus], armies[INDEX[bonus]] + TERRITORY_BONUS)
    hand = tuple(c for c in state.hands[seat] if c not in traded)
    state = evolve(
        state,
        armies=armies,
        hands=changed_at(state.hands, seat, hand),
        discard=state.discard + tuple(traded),
        sets_traded=number,
        trades=changed_at(state.trades, seat, state.trades[seat] + 1),
        to_place=state.to_place + value,
        bonus_used=state.bonus_used or bool(bonus),
        bonus_pick="" if bonus else state.bonus_pick,
    )
    return Step(state, (CardsTraded(me, traded, number, value, bonus),))


def reinforce(state: RiskState, placements: Sequence[tuple[int, int]]) -> Step[RiskState]:
    """Reinforcements placed, (territory index, armies) each; all placed, the attacks begin."""
    me = state.players[state.current]
    armies = with_armies(state, placements)
    left = state.to_place - sum(n for _, n in placements)
    events = tuple(ArmiesPlaced(me, me, SLUGS[i], n, armies[i], left) for i, n in placements)
    changes = {"armies": armies, "to_place": left, "source": ""}
    if not left:  # all placed before attacking (after a trade-down: attack on)
        changes.update(phase=Phase.ATTACK, resume_attack=False)
    return Step(evolved(state, changes), events)


# --- the end of the attacks and the fortify ---------------------------------------------------


def end_attacks(state: RiskState, rng: Random) -> Step[RiskState]:
    """The player stops attacking: on to the fortify, or the turn ends if none is possible."""
    ended = AttacksEnded(state.player)
    state = evolve(state, source="", target="")
    if not can_fortify(state, state.player):
        step = end_turn(state, rng)
        return Step(step.state, (ended, *step.events))
    return Step(evolve(state, phase=Phase.FORTIFY), (ended,))


def fortify(state: RiskState, count: int, rng: Random) -> Step[RiskState]:
    """The turn's one fortify: `count` armies from the source chosen to the target; the turn
    ends."""
    s, t = INDEX[state.source], INDEX[state.target]
    armies = list(state.armies)
    armies[s] -= count
    armies[t] += count
    moved = Fortified(state.player, state.source, state.target, count)
    step = end_turn(evolve(state, armies=tuple(armies)), rng)
    return Step(step.state, (moved, *step.events))


# --- the end of a turn ------------------------------------------------------------------------


def end_turn(state: RiskState, rng: Random) -> Step[RiskState]:
    """The turn ends: a card if the player captured a territory, then the next player's turn."""
    # A mission completed by this turn's last move (a fortify) wins now, during the turn
    # (rules, "Secret Mission Risk": "wins at once (during their turn)"), before the turn
    # passes and the next player's mission is looked at.
    won = mission_won(state)
    if won is not None:
        return won
    me = state.player
    seat = state.current
    events: list[Event] = [TurnEnded(me)]
    if state.conquered:  # one card for a turn with at least one capture
        deck, discard, hands = state.deck, state.discard, state.hands
        if not deck and discard:
            shuffled = list(discard)
            rng.shuffle(shuffled)
            deck, discard = tuple(shuffled), ()
            events.append(DeckReshuffled(len(deck)))
        if deck:
            card, deck = deck[0], deck[1:]
            hand = hands[seat] + (card,)
            hands = changed_at(hands, seat, hand)
            events += [CardDrawn(me, len(hand)), CardReceived(me, card, visible_to=frozenset({me}))]
        state = evolve(state, deck=deck, discard=discard, hands=hands)
    after = next_turn(state, seat)
    return Step(after.state, (*events, *after.events))


def next_seat(state: RiskState, seat: int) -> int:
    """The seat after `seat` in turn order that is still in the game."""
    n = len(state.players)
    if not state.eliminated:  # everyone still plays: a claim and most turns' ends
        return (seat + 1) % n
    return next(
        (seat + k) % n for k in range(1, n + 1) if not state.is_out(state.players[(seat + k) % n])
    )


def next_turn(state: RiskState, seat: int) -> Step[RiskState]:
    """`seat`'s turn is over: the next player's turn, or the end at the turn limit."""
    nxt = next_seat(state, seat)
    new_round = nxt <= seat
    if new_round and state.rules.turn_limit and state.round >= state.rules.turn_limit:
        standings = {p: (territory_count(state, p), army_count(state, p)) for p in alive(state)}
        best = max(standings.values())
        return finish(
            state, WinKind.TURN_LIMIT, tuple(p for p in alive(state) if standings[p] == best)
        )
    return start_turn(state, nxt, state.round + new_round)


# --- the end of the game ----------------------------------------------------------------------


def finish(state: RiskState, kind: WinKind, winners: tuple[PlayerId, ...]) -> Step[RiskState]:
    """The game is over: `winners` won, by `kind`."""
    state = evolve(
        state, phase=Phase.OVER, win=kind, winners=winners, source="", target="", blitz_stop=0
    )
    return Step(state, (GameWon(winners, kind),))


def check_mission(step: Step[RiskState]) -> Step[RiskState]:
    """After every action: the player whose turn it now is wins if their mission is complete.

    Rules, "Secret Mission Risk": the first to complete their mission wins at once, during
    their turn, "including by another player's action that completes it, checked on the
    owner's turn". So the turn's player is checked after each of their own moves (and a
    defender's dice, which resolve in their turn); a turn's last move is checked in
    `end_turn` before the turn passes; and a mission completed by someone else (a "destroy"
    card whose colour another player eliminated, now "occupy 24") is checked when its owner's
    turn starts, which is also after an action: the one that ended the turn before.
    """
    if not step.state.missions:  # no Secret Mission Risk: nothing to look at
        return step
    won = mission_won(step.state)
    return step if won is None else Step(won.state, (*step.events, *won.events))


def mission_won(state: RiskState) -> Step[RiskState] | None:
    """The turn's player reveals a completed mission and wins; None if they do not."""
    if not state.missions or state.phase is Phase.OVER or state.round == 0:
        return None
    if not is_complete(state, state.current):
        return None
    mission = effective_mission(state, state.current)
    assert mission is not None  # is_complete is False without a mission
    won = finish(state, WinKind.MISSION, (state.player,))
    return Step(won.state, (MissionCompleted(state.player, mission), *won.events))
