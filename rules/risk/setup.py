"""The set-up of Risk (docs/rules/risk.md, "Set-up"): the house rules chosen, the roll for
first, the cards and missions dealt; then the territories dealt or claimed one at a time, and
the set-up armies placed in turn (two players: with a neutral army) until the first turn."""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any

from rules.core import IllegalAction, Options, PlayerId, Step
from rules.risk import cards
from rules.risk.missions import mission_deck
from rules.risk.options import OPTIONS
from rules.risk.queries import two_player
from rules.risk.state import (
    INDEX,
    NEUTRAL,
    PLAYERS,
    SLUGS,
    STATE_VERSION,
    ArmiesPlaced,
    Mission,
    Phase,
    RiskState,
    Rules,
    SetupFinished,
    SetupMode,
    TerritoryClaimed,
    changed_at,
    evolve,
    evolved,
    with_armies,
)
from rules.risk.turn import next_seat, start_turn
from rules.seats import one_seat_each

START_ARMIES = {3: 35, 4: 30, 5: 25, 6: 20}
TWO_PLAYER_ARMIES = 40  # each player and the neutral army
TWO_PLAYER_SETUP_TURN = 2  # own armies per set-up turn, then one neutral


def parse_rules(options: Options, players: int | range = PLAYERS) -> Rules:
    """The house rules `options` choose (`OPTIONS`), checked; missing ones are the defaults.

    Raises:
        IllegalAction: For a value an option does not take, or one the table's size (or no
            size of `players`) may not play, worded for the host.
    """
    chosen = OPTIONS.resolve(options, players)
    return Rules(
        setup=SetupMode(chosen.text("setup")),
        missions=chosen.number("missions"),
        defender_chooses=chosen.flag("defender_chooses"),
        connected_fortify=chosen.flag("connected_fortify"),
        turn_limit=chosen.number("turn_limit"),
        resign_to_ai=chosen.flag("resign_to_ai"),
    )


def roll_for_first(
    seats: Sequence[PlayerId], rng: Random
) -> tuple[PlayerId, tuple[tuple[PlayerId, int], ...]]:
    """Everyone rolls a die; those tied for highest roll again until one is highest.
    Returns the winner and every roll in order."""
    rolls: list[tuple[PlayerId, int]] = []
    rolling = list(seats)
    while len(rolling) > 1:
        dice = [(p, rng.randint(1, 6)) for p in rolling]
        rolls += dice
        top = max(d for _, d in dice)
        rolling = [p for p, d in dice if d == top]
    return rolling[0], tuple(rolls)


def initial_state(seats: Sequence[PlayerId], options: Options, rng: Random) -> RiskState:
    """The roll for first (which also orders the seats), the deck shuffled, missions dealt;
    then the territories dealt or left to claim, or the two-player piles with the neutral
    army (see `Risk.initial_state`)."""
    if len(seats) not in PLAYERS:
        raise IllegalAction("Risk is for 2 to 6 players.")
    one_seat_each(seats)
    if NEUTRAL in seats:
        raise IllegalAction("Player id 0 is reserved for the neutral army.")
    rules = parse_rules(options, len(seats))
    winner, start_rolls = roll_for_first(seats, rng)
    first = list(seats).index(winner)
    # The highest roller places first and takes the first turn; play goes round the table.
    players = tuple(seats[first:]) + tuple(seats[:first])
    n = len(players)
    deck = list(cards.ALL_CARDS)
    rng.shuffle(deck)
    missions: tuple[Mission, ...] = ()
    if rules.missions:
        mission_cards = list(mission_deck(n, rules.missions))
        rng.shuffle(mission_cards)
        missions = tuple(mission_cards[:n])
    base = RiskState(
        v=STATE_VERSION,
        players=players,
        rules=rules,
        start_rolls=start_rolls,
        owners=(NEUTRAL,) * len(SLUGS),
        armies=(0,) * len(SLUGS),
        deck=tuple(deck),
        hands=((),) * n,
        discard=(),
        missions=missions,
        setup_left=(0,) * n,
        phase=Phase.SETUP_CLAIM,
        current=0,
        captures=(0,) * n,
        eliminations=(0,) * n,
        trades=(0,) * n,
    )
    territories = list(range(len(SLUGS)))
    rng.shuffle(territories)
    if n == 2:
        # Three piles of 14: one per player, one neutral; one army on each territory.
        owners = [NEUTRAL] * len(SLUGS)
        for k, t in enumerate(territories):
            owners[t] = (players[0], players[1], NEUTRAL)[k // 14]
        left = TWO_PLAYER_ARMIES - 14
        return evolve(
            base,
            owners=tuple(owners),
            armies=(1,) * len(SLUGS),
            setup_left=(left, left),
            neutral_left=left,
            phase=Phase.SETUP_PLACE,
            to_place=TWO_PLAYER_SETUP_TURN,
        )
    start = START_ARMIES[n]
    if rules.setup is SetupMode.CLAIM:
        return evolve(base, setup_left=(start,) * n)
    # Dealt round the table from the first player, as evenly as possible.
    owners = [NEUTRAL] * len(SLUGS)
    for k, t in enumerate(territories):
        owners[t] = players[k % n]
    held = [owners.count(p) for p in players]
    return evolve(
        base,
        owners=tuple(owners),
        armies=(1,) * len(SLUGS),
        setup_left=tuple(start - h for h in held),
        phase=Phase.SETUP_PLACE,
    )


# --- claiming and placing ---------------------------------------------------------------------


def claim(state: RiskState, slug: str) -> Step[RiskState]:
    """The player claims an unclaimed territory with one army; once all 42 are claimed, the
    rest of the set-up armies are placed in turn."""
    i = INDEX[slug]
    me = state.player
    armies = changed_at(state.armies, i, 1)
    claimed: dict[str, Any] = {
        "owners": changed_at(state.owners, i, me),
        "armies": armies,
        "setup_left": changed_at(
            state.setup_left, state.current, state.setup_left[state.current] - 1
        ),
    }
    event = TerritoryClaimed(me, slug)
    nxt = next_seat(state, state.current)
    if 0 in armies:  # some territory is unclaimed
        claimed["current"] = nxt
        return Step(evolved(state, claimed), (event,))
    # All 42 claimed: the rest of the armies go on in turn, from the next player on.
    step = next_setup_turn(state, nxt, claimed)
    return Step(step.state, (event, *step.events))


def setup_place(state: RiskState, placements: Sequence[tuple[int, int]]) -> Step[RiskState]:
    """One set-up turn's placing, then the next player's turn (two players: their 2, then
    a neutral army). Rules, "Set-up": the claim set-up places "one army at a time"; our
    Decision (the `/risk rules` text) is any number on one territory a turn, in both set-ups
    (`queries.placeable`), as saved claim games were played."""
    me = state.player
    armies = with_armies(state, placements)
    total = sum(n for _, n in placements)
    left = state.setup_left[state.current] - total
    two = two_player(state)
    to_place = state.to_place - total if two else 0
    placed = {
        "armies": armies,
        "setup_left": changed_at(state.setup_left, state.current, left),
        "source": "",
        "to_place": to_place,
    }
    events = tuple(ArmiesPlaced(me, me, SLUGS[i], n, armies[i], left) for i, n in placements)
    if two:
        if to_place > 0 and left > 0:
            return Step(evolved(state, placed), events)
        if state.neutral_left > 0:
            return Step(evolved(state, placed | {"phase": Phase.SETUP_NEUTRAL}), events)
    step = next_setup_turn(state, (state.current + 1) % len(state.players), placed)
    return Step(step.state, events + step.events)


def place_neutral(state: RiskState, i: int) -> Step[RiskState]:
    """Two players: after their own armies, the player puts one neutral army on territory
    `i`."""
    armies = changed_at(state.armies, i, state.armies[i] + 1)
    left = state.neutral_left - 1
    placed = ArmiesPlaced(state.player, NEUTRAL, SLUGS[i], 1, armies[i], left)
    changes = {"armies": armies, "neutral_left": left}
    step = next_setup_turn(state, (state.current + 1) % len(state.players), changes)
    return Step(step.state, (placed, *step.events))


def next_setup_turn(
    state: RiskState, seat: int, placed: dict[str, Any] | None = None
) -> Step[RiskState]:
    """After the changes `placed` (made in the same copy of `state`, into which the dict is
    taken and added to): the next player with set-up armies left places, in turn; when all
    are placed, the first player starts the first turn."""
    placed = placed or {}
    setup_left = placed.get("setup_left", state.setup_left)
    n = len(state.players)
    for k in range(n):
        s = (seat + k) % n
        if setup_left[s] > 0:
            budget = min(TWO_PLAYER_SETUP_TURN, setup_left[s]) if n == 2 else 0
            placed.update(current=s, phase=Phase.SETUP_PLACE, to_place=budget, source="")
            return Step(evolved(state, placed), ())
    if placed:
        state = evolved(state, placed)
    first = next_seat(state, n - 1)  # the first player, unless they resigned
    started = start_turn(state, first, 1)
    return Step(started.state, (SetupFinished(state.players[first]), *started.events))
