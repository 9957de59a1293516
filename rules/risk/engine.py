"""Risk rules (docs/rules/risk.md).

The actions are described in `actions.py`: every choice with several parts is made as
sub-steps, so each menu is small and legal-only, and `back` undoes the last part (or, never
offered, at once with a coarse verb: `place_at`, `assault`). What each
phase offers, and why anything else is refused, is `legal.py`'s: every "how many" the rules
leave free (`place`, `move_in`, `fortify`) takes any legal number (`queries.how_many`). A
traded set's +2 goes on the territory chosen with `bonus` if the set shows it, else on the
first card's the player holds. Chance is split from resolution: `apply` rolls,
`resolve_roll` takes the dice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from random import Random
from typing import Any, ClassVar

from rules.codec import Upgrade, dump_state, load_state
from rules.core import Action, Event, IllegalAction, Options, Outcome, PlayerId, Step
from rules.risk import ai, cards
from rules.risk.actions import (
    BACK,
    Verb,
    attack_from,
    attack_to,
    parse_assault,
    parse_number,
    parse_place_at,
    parse_territory,
    parse_trade,
)
from rules.risk.battle import Battle, losses, max_attack_dice, max_defend_dice, roll, roll_battle
from rules.risk.legal import is_legal, legal_actions, refusal
from rules.risk.missions import effective_mission, is_complete, mission_deck
from rules.risk.options import OPTIONS
from rules.risk.queries import (
    alive,
    army_count,
    attack_sources,
    attack_targets,
    bonus_territory,
    can_fortify,
    must_trade,
    placeable,
    reinforcement,
    territory_count,
    trade_options,
)
from rules.risk.state import (
    INDEX,
    NEUTRAL,
    PLAYERS,
    SLUGS,
    ArmiesMovedIn,
    ArmiesPlaced,
    AttacksEnded,
    AttackStopped,
    BattleRolled,
    CardDrawn,
    CardReceived,
    CardsHandedOver,
    CardsTraded,
    DeckReshuffled,
    DefenceNeeded,
    Elimination,
    Fortified,
    GameWon,
    Mission,
    MissionChanged,
    MissionCompleted,
    Phase,
    PlayerEliminated,
    RiskState,
    Rules,
    SetupFinished,
    SetupMode,
    TerritoryCaptured,
    TerritoryClaimed,
    TurnEnded,
    TurnStarted,
    WinKind,
    evolve,
    evolved,
)
from rules.seats import SEAT_VERBS, Resigned, ai_plays_on, apply_seat_action, resigned_last

STATE_VERSION = 2  # 2: `bonus_pick` (a stored version 1 state is upgraded by `load`)
START_ARMIES = {3: 35, 4: 30, 5: 25, 6: 20}
TWO_PLAYER_ARMIES = 40  # each player and the neutral army
TWO_PLAYER_SETUP_TURN = 2  # own armies per set-up turn, then one neutral
TRADE_DOWN_CARDS = 6  # an elimination bringing the victor to 6+ forces trades at once
TERRITORY_BONUS = 2


UPGRADES: dict[int, Upgrade] = {
    1: lambda data: {**data, "bonus_pick": ""},  # version 1 had no +2 choice: none was made
}
"""How a stored state of an older version becomes the next (`rules.codec.load_state`)."""


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


class Risk:
    """The Risk engine (see `rules.core.Engine`)."""

    name: ClassVar[str] = "risk"
    title: ClassVar[str] = "Risk"
    min_players: ClassVar[int] = PLAYERS.start
    max_players: ClassVar[int] = PLAYERS.stop - 1

    # --- the engine interface ------------------------------------------------------------

    def validate_options(self, options: Options, players: int | None = None) -> None:
        """Refuse options no table (or no table of `players`) could play, such as secret
        missions for two (see `Engine.validate_options`)."""
        parse_rules(options, PLAYERS if players is None else players)

    def initial_state(self, seats: Sequence[PlayerId], options: Options, rng: Random) -> RiskState:
        """The roll for first (which also orders the seats), the deck shuffled, missions dealt;
        then the territories dealt or left to claim, or the two-player piles with the neutral
        army."""
        if len(seats) not in PLAYERS:
            raise IllegalAction("Risk is for 2 to 6 players.")
        if len(set(seats)) != len(seats):
            raise IllegalAction("A player cannot take two seats.")
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

    def to_act(self, state: RiskState) -> frozenset[PlayerId]:
        """The player whose (set-up) turn it is, or the defender choosing dice."""
        actor = _actor(state)
        return frozenset() if actor is None else _alone(actor)

    def legal_actions(self, state: RiskState, player: PlayerId) -> Sequence[Action]:
        """What the phase and the choice made so far allow, in the order a board offers it
        (see `actions.py`)."""
        if player not in self.to_act(state):
            return ()
        return legal_actions(state)

    def apply(
        self, state: RiskState, player: PlayerId, action: Action, rng: Random
    ) -> Step[RiskState]:
        """One action (dice and reshuffles from `rng`); then the player whose turn it is wins
        if their secret mission is complete. A resignation is `_resign`'s (`rules.seats`)."""
        if action.verb in SEAT_VERBS:  # `is_seat_action`, without a call: every action
            over = state.phase is Phase.OVER
            return apply_seat_action(
                state, player, action, seats=state.players, over=over, resign=_resign
            )
        if player != _actor(state):
            if player not in state.players:
                raise IllegalAction("You are not playing in this game.")
            if state.phase is Phase.OVER:
                raise IllegalAction("The game is over.")
            if state.phase is Phase.DEFEND:
                raise IllegalAction("Waiting for the defender to choose their dice.")
            raise IllegalAction("It is not your turn.")
        if not is_legal(state, action):
            raise refusal(state, action)
        step = _BY_VERB[action.verb](state, action, rng)
        return _check_mission(step) if step.state.missions else step  # no call without: hot

    def outcome(self, state: RiskState) -> Outcome | None:
        """Places: the winners, then the players left by territories and armies, then the
        eliminated, the later the better; scores are territories held."""
        if state.phase is not Phase.OVER:
            return None
        out_order = [e.victim for e in state.eliminated]

        def key(p: PlayerId) -> tuple[int, ...]:
            if p in state.winners:
                return (0, 0, 0)
            if p in out_order:  # the later eliminated, the better
                return (2, -out_order.index(p), 0)
            return (1, -territory_count(state, p), -army_count(state, p))

        ranked = sorted(state.players, key=key)
        places = {p: 1 + sum(key(q) < key(p) for q in ranked) for p in ranked}
        outcome = Outcome(
            places=places,
            scores={p: territory_count(state, p) for p in state.players},
            stats={
                p: {
                    "territories": territory_count(state, p),
                    "captures": state.captures[seat],
                    "eliminations": state.eliminations[seat],
                    "sets_traded": state.trades[seat],
                }
                for seat, p in enumerate(state.players)
            },
        )
        return resigned_last(outcome, state.seating)

    def dump(self, state: RiskState) -> dict[str, Any]:
        """The state as JSON (see `Engine.dump`)."""
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> RiskState:
        """The state `dump` stored, a version-1 state upgraded (see `Engine.load`)."""
        return load_state(RiskState, data, STATE_VERSION, self.title, UPGRADES)

    def choose(self, state: RiskState, player: PlayerId, rng: Random) -> Action:
        """The AI's action (`ai.choose`)."""
        return ai.choose(state, player, rng)

    def ai_seats(self, state: RiskState) -> frozenset[PlayerId]:
        """Seats the AI plays now: those handed to it, and resigners' under `resign_to_ai`
        (see `Engine.ai_seats`); a neutral resigner's seat is out of the game."""
        return frozenset(p for p in state.seating.ai_seats if not state.is_out(p))

    # --- resolution with the dice passed in ----------------------------------------------

    def resolve_roll(
        self, state: RiskState, attack_dice: tuple[int, ...], defend_dice: tuple[int, ...]
    ) -> Step[RiskState]:
        """One roll of the selected attack (source -> target) with these dice (a mission it
        completes wins at once)."""
        return _check_mission(_battle(state, attack_dice, defend_dice))


# The phases the hot paths test, as globals: `Phase.OVER` goes through the enum's metaclass,
# 60 ns a read against a global's 13 (Python 3.11), and every action reads several.
_OVER, _DEFEND, _ATTACK, _MOVE_IN, _REINFORCE, _SETUP_PLACE = (
    Phase.OVER,
    Phase.DEFEND,
    Phase.ATTACK,
    Phase.MOVE_IN,
    Phase.REINFORCE,
    Phase.SETUP_PLACE,
)


@lru_cache(maxsize=1024)
def _alone(player: PlayerId) -> frozenset[PlayerId]:
    """`frozenset({player})`, kept: `to_act` answers it at every step."""
    return frozenset((player,))


def _actor(state: RiskState) -> PlayerId | None:
    """Who acts now (`Risk.to_act`'s one player), None once the game is over."""
    phase = state.phase
    if phase is _OVER:
        return None
    if phase is _DEFEND:
        return state.owner(state.target)
    return state.players[state.current]  # `state.player`, without a property's call: hot


# --- set-up -----------------------------------------------------------------------------------


def _two_player(state: RiskState) -> bool:
    return len(state.players) == 2


def _put(state: RiskState, placements: Sequence[tuple[int, int]]) -> tuple[int, ...]:
    armies = list(state.armies)
    for i, n in placements:
        armies[i] += n
    return tuple(armies)


def _claim(state: RiskState, slug: str) -> Step[RiskState]:
    i = INDEX[slug]
    me = state.player
    armies = _with(state.armies, i, 1)
    claimed: dict[str, Any] = {
        "owners": _with(state.owners, i, me),
        "armies": armies,
        "setup_left": _with(state.setup_left, state.current, state.setup_left[state.current] - 1),
    }
    event = TerritoryClaimed(me, slug)
    nxt = _next_seat(state, state.current)
    if 0 in armies:  # some territory is unclaimed
        claimed["current"] = nxt
        return Step(evolved(state, claimed), (event,))
    # All 42 claimed: the rest of the armies go on in turn, from the next player on.
    step = _next_setup_turn(state, nxt, claimed)
    return Step(step.state, (event, *step.events))


def _setup_place(state: RiskState, placements: Sequence[tuple[int, int]]) -> Step[RiskState]:
    """One set-up turn's placing, then the next player's turn (two players: their 2, then
    a neutral army). Rules, "Set-up": the claim set-up places "one army at a time"; our
    Decision (the `/risk rules` text) is any number on one territory a turn, in both set-ups
    (`queries.placeable`), as saved claim games were played."""
    me = state.player
    armies = _put(state, placements)
    total = sum([n for _, n in placements])
    left = state.setup_left[state.current] - total
    two = _two_player(state)
    to_place = state.to_place - total if two else 0
    placed = {
        "armies": armies,
        "setup_left": _with(state.setup_left, state.current, left),
        "source": "",
        "to_place": to_place,
    }
    events = tuple([ArmiesPlaced(me, me, SLUGS[i], n, armies[i], left) for i, n in placements])
    if two:
        if to_place > 0 and left > 0:
            return Step(evolved(state, placed), events)
        if state.neutral_left > 0:
            return Step(evolved(state, placed | {"phase": Phase.SETUP_NEUTRAL}), events)
    step = _next_setup_turn(state, (state.current + 1) % len(state.players), placed)
    return Step(step.state, events + step.events)


def _place_neutral(state: RiskState, i: int) -> Step[RiskState]:
    armies = _with(state.armies, i, state.armies[i] + 1)
    left = state.neutral_left - 1
    placed = ArmiesPlaced(state.player, NEUTRAL, SLUGS[i], 1, armies[i], left)
    changes = {"armies": armies, "neutral_left": left}
    step = _next_setup_turn(state, (state.current + 1) % len(state.players), changes)
    return Step(step.state, (placed, *step.events))


def _next_setup_turn(
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
            placed.update(current=s, phase=_SETUP_PLACE, to_place=budget, source="")
            return Step(evolved(state, placed), ())
    if placed:
        state = evolved(state, placed)
    first = _next_seat(state, n - 1)  # the first player, unless they resigned
    started = _start_turn(state, first, 1)
    return Step(started.state, (SetupFinished(state.players[first]), *started.events))


def _auto(state: RiskState) -> Step[RiskState]:
    """The Auto button: the AI's sensible choice for the rest of this part of the set-up or
    of the reinforcements (trading first when the player must)."""
    me = state.player
    if state.phase is Phase.SETUP_CLAIM:
        return _claim(state, ai.claim_choice(state, me))
    if state.phase is Phase.SETUP_NEUTRAL:
        return _place_neutral(state, INDEX[ai.neutral_choice(state, me)])
    if state.phase is Phase.SETUP_PLACE:
        step = _setup_place(state, ai.placement_plan(state, me, placeable(state)))
        if step.state.phase is Phase.SETUP_NEUTRAL and step.state.player == me:
            neutral = _place_neutral(step.state, INDEX[ai.neutral_choice(step.state, me)])
            return Step(neutral.state, step.events + neutral.events)
        return step
    events: list[Event] = []
    while must_trade(state):
        traded = _trade(state, trade_options(state, me)[0])
        state = traded.state
        events += traded.events
    placed = _reinforce(state, ai.placement_plan(state, me, state.to_place))
    return Step(placed.state, (*events, *placed.events))


# --- reinforcements and cards -----------------------------------------------------------------


def _trade(state: RiskState, traded: tuple[int, ...]) -> Step[RiskState]:
    me = state.player
    seat = state.current
    number = state.sets_traded + 1
    value = cards.set_value(number)
    armies = state.armies
    # The +2 on a traded card's territory the player holds, at most once a turn: the one
    # they chose (`bonus`), else the first such card's in the action's order.
    bonus = bonus_territory(state, traded)
    if bonus:
        armies = _with(armies, INDEX[bonus], armies[INDEX[bonus]] + TERRITORY_BONUS)
    hand = tuple(c for c in state.hands[seat] if c not in traded)
    state = evolve(
        state,
        armies=armies,
        hands=_with(state.hands, seat, hand),
        discard=state.discard + tuple(traded),
        sets_traded=number,
        trades=_with(state.trades, seat, state.trades[seat] + 1),
        to_place=state.to_place + value,
        bonus_used=state.bonus_used or bool(bonus),
        bonus_pick="" if bonus else state.bonus_pick,
    )
    return Step(state, (CardsTraded(me, traded, number, value, bonus),))


def _reinforce(state: RiskState, placements: Sequence[tuple[int, int]]) -> Step[RiskState]:
    me = state.players[state.current]  # `state.player`, without a property's call: hot
    armies = _put(state, placements)
    left = state.to_place - sum([n for _, n in placements])
    events = tuple([ArmiesPlaced(me, me, SLUGS[i], n, armies[i], left) for i, n in placements])
    changes = {"armies": armies, "to_place": left, "source": ""}
    if not left:  # all placed before attacking (after a trade-down: attack on)
        changes.update(phase=_ATTACK, resume_attack=False)
    return Step(evolved(state, changes), events)


# --- attacks ----------------------------------------------------------------------------------


def _attack(
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
    none of their armies), so only a capture is checked (`_check_mission`)."""
    events: list[Event] = []
    s, t = INDEX[source], INDEX[target]
    attacker, defender = state.players[state.current], state.owners[t]
    asks = state.rules.defender_chooses and defender != NEUTRAL
    armies = list(state.armies)
    rolled = False
    while True:
        if asks and armies[t] >= 2:  # `needs_defender_choice`
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
        if not armies[t] or armies[s] < 2:  # `_ends_attack`, without a call: the hot loop
            ended = _attack_over(state, s, t, armies, dice, events, keep)
            return _check_mission(ended) if state.missions else ended
        if armies[s] <= stop or not stop:
            if stop:
                events.append(AttackStopped(attacker, source, target, armies[s]))
            return Step(evolved(state, _rolled(source, target, armies, 0)), tuple(events))
        dice = max_attack_dice(armies[s])


def _roll_result(
    state: RiskState, s: int, t: int, armies: list[int], rolled: Battle
) -> BattleRolled:
    """One roll of territory `s` against `t`: its losses taken from `armies`, and the event."""
    attack_dice, defend_dice, lost, taken = rolled
    armies[s] -= lost
    armies[t] -= taken
    return BattleRolled(  # in field order: named arguments cost half as much again
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
    owners = _with(state.owners, t, me)
    events.append(TerritoryCaptured(me, victim, source, target, dice))
    captured = {
        "owners": owners,
        "conquered": True,
        "captures": _with(state.captures, seat, state.captures[seat] + 1),
    }
    if victim != NEUTRAL and victim not in owners:  # their last territory (no claims now)
        eliminated = _eliminate(
            evolved(state, _rolled(source, target, armies, 0) | captured), victim
        )
        state, captured = eliminated.state, {}
        events += eliminated.events
        if len(alive(state)) == 1:
            kind = WinKind.ELIMINATION if _two_player(state) else WinKind.DOMINATION
            won = _finish(state, kind, (me,))
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


def _rolled(source: str, target: str, armies: list[int], stop: int) -> dict[str, Any]:
    """The changes rolls of the attack `source` -> `target` made, leaving these armies (and
    selected the attack still `source` -> `target`, "" when it is over)."""
    return {
        "armies": tuple(armies),
        "phase": _ATTACK,
        "last_battle": (source, target),
        "attack_dice": 0,
        "blitz_stop": stop,
        "source": source,
        "target": target,
    }


def _defend(state: RiskState, dice: int, rng: Random) -> Step[RiskState]:
    """The defender's dice against the attacker's waiting roll; a blitz then goes on."""
    step = _check_mission(_battle(state, roll(rng, state.attack_dice), roll(rng, dice)))
    more = _blitz_goes_on(step.state)
    if not more:
        events = list(step.events)
        if more is False:
            s = step.state
            events.append(AttackStopped(s.player, s.source, s.target, s.armies_on(s.source)))
        return Step(_blitz_over(step.state), tuple(events))
    after = step.state
    dice_now = max_attack_dice(after.armies_on(after.source))
    rest = _attack(after, after.source, after.target, dice_now, after.blitz_stop, rng)
    return Step(rest.state, step.events + rest.events)


def _battle(
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


def _blitz_over(state: RiskState) -> RiskState:
    """`blitz_stop` back to 0 (most rolls end with it there already: no copy then)."""
    return evolve(state, blitz_stop=0) if state.blitz_stop else state


def _blitz_goes_on(state: RiskState) -> bool | None:
    """None: no blitz going on (or it ended with a capture); False: it stops here."""
    if not state.blitz_stop or state.phase is not Phase.ATTACK or not state.target:
        return None
    armies = state.armies_on(state.source)
    return armies > state.blitz_stop and armies >= 2


def _eliminate(state: RiskState, victim: PlayerId) -> Step[RiskState]:
    """The victor takes the victim's cards; 6 or more means trading down at once. A destroy
    mission aimed at the victim, held by anyone else, becomes "occupy 24"."""
    me = state.player
    seat = state.current
    victim_seat = state.seat_of(victim)
    taken = state.hands[victim_seat]
    hand = state.hands[seat] + taken
    before = [effective_mission(state, s) for s in range(len(state.players))]
    hands = _with(_with(state.hands, victim_seat, ()), seat, hand)
    state = evolve(
        state,
        hands=hands,
        eliminated=(*state.eliminated, Elimination(victim, me, state.turn)),
        eliminations=_with(state.eliminations, seat, state.eliminations[seat] + 1),
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


def _move_in(state: RiskState, total: int) -> Step[RiskState]:
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


def _after_capture(state: RiskState) -> Mapping[str, Any]:
    """The changes that go back to attacking once a capture's armies have moved in."""
    return _TRADE_DOWN_FIRST if state.resume_attack else _BACK_TO_ATTACK


# Read only (a new dict for every capture cost more than the rest of the changes):
_BACK_TO_ATTACK: Mapping[str, Any] = {"source": "", "target": "", "phase": Phase.ATTACK}
# After an elimination's trade-down: trade to 4 or fewer and place those armies first.
_TRADE_DOWN_FIRST: Mapping[str, Any] = {**_BACK_TO_ATTACK, "phase": Phase.REINFORCE, "to_place": 0}


def _end_attacks(state: RiskState, rng: Random) -> Step[RiskState]:
    ended = AttacksEnded(state.player)
    state = evolve(state, source="", target="")
    if not can_fortify(state, state.player):
        step = _end_turn(state, rng)
        return Step(step.state, (ended, *step.events))
    return Step(evolve(state, phase=Phase.FORTIFY), (ended,))


# --- fortify and the end of a turn ------------------------------------------------------------


def _fortify(state: RiskState, count: int, rng: Random) -> Step[RiskState]:
    s, t = INDEX[state.source], INDEX[state.target]
    armies = list(state.armies)
    armies[s] -= count
    armies[t] += count
    moved = Fortified(state.player, state.source, state.target, count)
    step = _end_turn(evolve(state, armies=tuple(armies)), rng)
    return Step(step.state, (moved, *step.events))


def _end_turn(state: RiskState, rng: Random) -> Step[RiskState]:
    # A mission completed by this turn's last move (a fortify) wins now, during the turn
    # (rules, "Secret Mission Risk": "wins at once (during their turn)"), before the turn
    # passes and the next player's mission is looked at.
    won = _mission_won(state)
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
            hands = _with(hands, seat, hand)
            events += [CardDrawn(me, len(hand)), CardReceived(me, card, visible_to=frozenset({me}))]
        state = evolve(state, deck=deck, discard=discard, hands=hands)
    after = _next_turn(state, seat)
    return Step(after.state, (*events, *after.events))


def _next_seat(state: RiskState, seat: int) -> int:
    """The seat after `seat` in turn order that is still in the game."""
    n = len(state.players)
    if not state.eliminated:  # everyone still plays: a claim and most turns' ends
        return (seat + 1) % n
    return next(
        (seat + k) % n for k in range(1, n + 1) if not state.is_out(state.players[(seat + k) % n])
    )


def _next_turn(state: RiskState, seat: int) -> Step[RiskState]:
    """`seat`'s turn is over: the next player's turn, or the end at the turn limit."""
    nxt = _next_seat(state, seat)
    new_round = nxt <= seat
    if new_round and state.rules.turn_limit and state.round >= state.rules.turn_limit:
        standings = {p: (territory_count(state, p), army_count(state, p)) for p in alive(state)}
        best = max(standings.values())
        return _finish(
            state, WinKind.TURN_LIMIT, tuple(p for p in alive(state) if standings[p] == best)
        )
    return _start_turn(state, nxt, state.round + new_round)


def _start_turn(state: RiskState, seat: int, round_number: int) -> Step[RiskState]:
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


# --- resigning (`rules.seats`) ---------------------------------------------------------------


def _resign(state: RiskState, player: PlayerId) -> Step[RiskState]:
    """Two players: the opponent wins. More: the resigner's territories turn neutral and the
    game goes on, or under `resign_to_ai` the AI plays their armies on."""
    if _two_player(state):
        opponent = next(p for p in state.players if p != player)
        won = _finish(state, WinKind.RESIGNATION, (opponent,))
        return Step(won.state, (Resigned(player, (opponent,)), *won.events))
    if state.rules.resign_to_ai:
        return ai_plays_on(state, player)
    return _check_mission(_to_neutral(state, player))


def _to_neutral(state: RiskState, player: PlayerId) -> Step[RiskState]:
    """The resigner is out: their territories keep their armies under the neutral flag, their
    cards go to the discard pile, and a turn of theirs passes to the next player."""
    seat = state.seat_of(player)
    state = evolve(
        state,
        owners=tuple(NEUTRAL if o == player else o for o in state.owners),
        discard=state.discard + state.hands[seat],
        hands=_with(state.hands, seat, ()),
        setup_left=_with(state.setup_left, seat, 0),
        eliminated=(*state.eliminated, Elimination(player, NEUTRAL, state.turn)),
    )
    left = alive(state)
    if len(left) == 1:
        won = _finish(state, WinKind.RESIGNATION, left)
        return Step(won.state, (Resigned(player, left), *won.events))
    resigned = Resigned(player)
    if state.phase is Phase.DEFEND and state.owner(state.target) == NEUTRAL:
        # They were choosing dice: the attacker rolls again, against the neutral army.
        return Step(evolve(state, phase=Phase.ATTACK, attack_dice=0), (resigned,))
    if state.player != player:
        return Step(state, (resigned,))
    state = evolve(state, source="", target="", attack_dice=0, move_min=0, blitz_stop=0)
    if state.phase is Phase.SETUP_CLAIM:
        passed = Step(evolve(state, current=_next_seat(state, seat)), ())
    elif state.phase is Phase.SETUP_PLACE:
        passed = _next_setup_turn(state, seat)
    else:
        passed = _next_turn(state, seat)
    return Step(passed.state, (resigned, *passed.events))


# --- the end ----------------------------------------------------------------------------------


def _finish(state: RiskState, kind: WinKind, winners: tuple[PlayerId, ...]) -> Step[RiskState]:
    state = evolve(
        state, phase=Phase.OVER, win=kind, winners=winners, source="", target="", blitz_stop=0
    )
    return Step(state, (GameWon(winners, kind),))


def _check_mission(step: Step[RiskState]) -> Step[RiskState]:
    """After every action: the player whose turn it now is wins if their mission is complete.

    Rules, "Secret Mission Risk": the first to complete their mission wins at once, during
    their turn, "including by another player's action that completes it, checked on the
    owner's turn". So the turn's player is checked after each of their own moves (and a
    defender's dice, which resolve in their turn); a turn's last move is checked in
    `_end_turn` before the turn passes; and a mission completed by someone else (a "destroy"
    card whose colour another player eliminated, now "occupy 24") is checked when its owner's
    turn starts, which is also after an action: the one that ended the turn before.
    """
    if not step.state.missions:  # no Secret Mission Risk: nothing to look at
        return step
    won = _mission_won(step.state)
    return step if won is None else Step(won.state, (*step.events, *won.events))


def _mission_won(state: RiskState) -> Step[RiskState] | None:
    """The turn's player reveals a completed mission and wins; None if they do not."""
    if not state.missions or state.phase is Phase.OVER or state.round == 0:
        return None
    if not is_complete(state, state.current):
        return None
    mission = effective_mission(state, state.current)
    assert mission is not None  # is_complete is False without a mission
    won = _finish(state, WinKind.MISSION, (state.player,))
    return Step(won.state, (MissionCompleted(state.player, mission), *won.events))


def _with(values: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    changed = list(values)  # a list and back: half the time of slices put together
    changed[i] = value
    return tuple(changed)


# --- one handler per verb (`_BY_VERB`) --------------------------------------------------------


def _choose_source(state: RiskState, action: Action, rng: Random) -> Step[RiskState]:
    """The first part of a choice: where to place, attack from or move from."""
    return Step(evolve(state, source=parse_territory(action)), ())


def _choose_target(state: RiskState, action: Action, rng: Random) -> Step[RiskState]:
    """The second part: the territory to attack or to move to."""
    return Step(evolve(state, target=parse_territory(action)), ())


def _back(state: RiskState, action: Action, rng: Random) -> Step[RiskState]:
    """Undo the last part chosen: the target, else the source."""
    if state.target:
        return Step(evolve(state, target=""), ())
    return Step(evolve(state, source=""), ())


def _place(state: RiskState, action: Action, rng: Random) -> Step[RiskState]:
    """Armies on the territory chosen: reinforcements, or a set-up turn's."""
    return _place_armies(state, state.source, parse_number(action))


def _place_at(state: RiskState, action: Action, rng: Random) -> Step[RiskState]:
    """`place_on` and `place` in one: no copy with the place chosen is made."""
    return _place_armies(state, *parse_place_at(action))


def _place_armies(state: RiskState, territory: str, armies: int) -> Step[RiskState]:
    placement = ((INDEX[territory], armies),)
    if state.phase is _REINFORCE:
        return _reinforce(state, placement)
    return _setup_place(state, placement)


def _blitz(state: RiskState, action: Action, rng: Random) -> Step[RiskState]:
    """A blitz rolls the most dice from the first roll on."""
    dice = max_attack_dice(state.armies_on(state.source))
    return _attack(state, state.source, state.target, dice, parse_number(action), rng)


def _assault(state: RiskState, action: Action, rng: Random) -> Step[RiskState]:
    """`attack_from`, `attack_to`, `blitz` and, after a capture, `move_in` in one, with the
    same dice: everything moves in but `keep` (at least 1; the dice rolled always move in).
    A mission the blitz completes is checked after each roll, as in the blitz; one the move
    completes, by `apply` after this action, as after `move_in`."""
    source, target, stop, keep = parse_assault(action)
    dice = max_attack_dice(state.armies[INDEX[source]])
    blitzed = _attack(state, source, target, dice, stop, rng, keep)
    after = blitzed.state
    if after.phase is not _MOVE_IN:  # over, or moved in at the capture
        return blitzed
    behind = after.armies[INDEX[after.source]]  # the dice have moved in already
    moved = _move_in(after, after.move_min + max(behind - keep, 0))
    return Step(moved.state, blitzed.events + moved.events)


Handler = Callable[[RiskState, Action, Random], Step[RiskState]]
_BY_VERB: dict[str, Handler] = {  # by the verb's text: an action's plain str finds it
    Verb.CLAIM: lambda state, action, rng: _claim(state, parse_territory(action)),
    Verb.PLACE_ON: _choose_source,
    Verb.PLACE: _place,
    Verb.PLACE_AT: _place_at,
    Verb.NEUTRAL_ON: lambda state, action, rng: _place_neutral(
        state, INDEX[parse_territory(action)]
    ),
    Verb.AUTO: lambda state, action, rng: _auto(state),
    Verb.TRADE: lambda state, action, rng: _trade(state, parse_trade(action)),
    Verb.BONUS: lambda state, action, rng: Step(
        evolve(state, bonus_pick=parse_territory(action)), ()
    ),
    Verb.ATTACK_FROM: _choose_source,
    Verb.ATTACK_TO: _choose_target,
    Verb.ROLL: lambda state, action, rng: _attack(
        state, state.source, state.target, parse_number(action), 0, rng
    ),
    Verb.BLITZ: _blitz,
    Verb.ASSAULT: _assault,
    Verb.DEFEND: lambda state, action, rng: _defend(state, parse_number(action), rng),
    Verb.MOVE_IN: lambda state, action, rng: _move_in(state, parse_number(action)),
    Verb.END_ATTACKS: lambda state, action, rng: _end_attacks(state, rng),
    Verb.FORTIFY_FROM: _choose_source,
    Verb.FORTIFY_TO: _choose_target,
    Verb.FORTIFY: lambda state, action, rng: _fortify(state, parse_number(action), rng),
    Verb.END_TURN: lambda state, action, rng: _end_turn(state, rng),
    Verb.BACK: _back,
}
