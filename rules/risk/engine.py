"""Risk rules (docs/rules/risk.md): the engine, a dispatcher from each verb to its phase's
rules.

The rules are read by phase: `setup.py` (the roll for first, dealing or claiming, placing the
set-up armies), `turn.py` (cards and reinforcements, the fortify, the end of a turn, and how
the game is won), `attack.py` (rolls and blitzes, captures, eliminations) and `resign.py`.
The actions are described in `actions.py`: every choice with several parts is made as
sub-steps, so each menu is small and legal-only, and `back` undoes the last part (or, never
offered, at once with a coarse verb: `place_at`, `assault`). What each phase offers, and why
anything else is refused, is `legal.py`'s: every "how many" the rules leave free (`place`,
`move_in`, `fortify`) takes any legal number (`queries.how_many`). A traded set's +2 goes on
the territory chosen with `bonus` if the set shows it, else on the first card's the player
holds. Chance is split from resolution: `apply` rolls, `resolve_roll` takes the dice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random

from rules.codec import Upgrade
from rules.core import Action, Event, IllegalAction, Options, Outcome, PlayerId, Step
from rules.engine_base import EngineBase
from rules.risk import ai
from rules.risk._fast import to_act
from rules.risk._fast_legal import is_legal
from rules.risk.actions import (
    Verb,
    parse_assault,
    parse_number,
    parse_place_at,
    parse_territory,
    parse_trade,
)
from rules.risk.attack import (
    assault,
    attack,
    attack_path,
    battle,
    defend,
    move_in,
    needs_defender_choice,
)
from rules.risk.battle import max_attack_dice
from rules.risk.legal import legal_actions, refusal
from rules.risk.options import OPTIONS
from rules.risk.queries import army_count, must_trade, placeable, territory_count, trade_options
from rules.risk.resign import resign
from rules.risk.setup import (
    claim,
    initial_state,
    parse_rules,
    place_neutral,
    roll_for_first,
    setup_place,
)
from rules.risk.state import INDEX, PLAYERS, STATE_VERSION, Phase, RiskState, evolve
from rules.risk.turn import (
    TERRITORY_BONUS,
    check_mission,
    end_attacks,
    end_turn,
    fortify,
    reinforce,
    trade,
)
from rules.seats import resigned_last

__all__ = [
    "TERRITORY_BONUS",
    "UPGRADES",
    "Risk",
    "attack_path",
    "needs_defender_choice",
    "parse_rules",
    "roll_for_first",
]

UPGRADES: dict[int, Upgrade] = {
    1: lambda data: {**data, "bonus_pick": ""},  # version 1 had no +2 choice: none was made
}
"""How a stored state of an older version becomes the next (`rules.codec.load_state`)."""


class Risk(EngineBase[RiskState]):
    """The Risk engine (see `rules.core.Engine`)."""

    name = "risk"
    title = "Risk"
    min_players = PLAYERS.start
    max_players = PLAYERS.stop - 1
    options = OPTIONS
    state_type = RiskState
    state_version = STATE_VERSION
    upgrades = UPGRADES
    ai_choice = staticmethod(ai.choose)
    resign_rule = staticmethod(resign)

    # --- the engine interface ------------------------------------------------------------

    def initial_state(self, seats: Sequence[PlayerId], options: Options, rng: Random) -> RiskState:
        """The roll for first (which also orders the seats), the deck shuffled, missions dealt;
        then the territories dealt or left to claim, or the two-player piles with the neutral
        army (`setup.initial_state`)."""
        return initial_state(seats, options, rng)

    to_act = staticmethod(to_act)
    """The player whose (set-up) turn it is, or the defender choosing dice (`_fast.to_act`)."""

    def legal_actions(self, state: RiskState, player: PlayerId) -> Sequence[Action]:
        """What the phase and the choice made so far allow, in the order a board offers it
        (see `actions.py`)."""
        if player not in self.to_act(state):
            return ()
        return legal_actions(state)

    def play(
        self, state: RiskState, player: PlayerId, action: Action, rng: Random
    ) -> Step[RiskState]:
        """One action (dice and reshuffles from `rng`); then the player whose turn it is wins
        if their secret mission is complete. A resignation is `resign.resign`'s
        (`resign_rule`)."""
        step = _BY_VERB[action.verb](state, action, rng)
        return check_mission(step) if state.missions else step  # Secret Mission Risk only

    def out_of_turn(self, state: RiskState) -> IllegalAction:
        """While a defender chooses their dice, everyone else waits for them."""
        if state.phase is Phase.DEFEND:
            return IllegalAction("Waiting for the defender to choose their dice.")
        return super().out_of_turn(state)

    def is_legal(self, state: RiskState, player: PlayerId, action: Action) -> bool:
        """`_fast_legal.is_legal`: the same answer as `action in legal_actions`, without listing
        them all."""
        return is_legal(state, action)

    def refusal(self, state: RiskState, action: Action) -> IllegalAction:
        """Why the action is refused, from what the phase and choice so far allow."""
        return refusal(state, action)

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
        return check_mission(battle(state, attack_dice, defend_dice))


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
    if state.phase is Phase.REINFORCE:
        return reinforce(state, placement)
    return setup_place(state, placement)


def _auto(state: RiskState, action: Action, rng: Random) -> Step[RiskState]:
    """The Auto button: the AI's sensible choice for the rest of this part of the set-up or
    of the reinforcements (trading first when the player must)."""
    me = state.player
    if state.phase is Phase.SETUP_CLAIM:
        return claim(state, ai.claim_choice(state, me))
    if state.phase is Phase.SETUP_NEUTRAL:
        return place_neutral(state, INDEX[ai.neutral_choice(state, me)])
    if state.phase is Phase.SETUP_PLACE:
        step = setup_place(state, ai.placement_plan(state, me, placeable(state)))
        if step.state.phase is Phase.SETUP_NEUTRAL and step.state.player == me:
            neutral = place_neutral(step.state, INDEX[ai.neutral_choice(step.state, me)])
            return Step(neutral.state, step.events + neutral.events)
        return step
    events: list[Event] = []
    while must_trade(state):
        traded = trade(state, trade_options(state, me)[0])
        state = traded.state
        events += traded.events
    placed = reinforce(state, ai.placement_plan(state, me, state.to_place))
    return Step(placed.state, (*events, *placed.events))


def _blitz(state: RiskState, action: Action, rng: Random) -> Step[RiskState]:
    """A blitz rolls the most dice from the first roll on."""
    dice = max_attack_dice(state.armies_on(state.source))
    return attack(state, state.source, state.target, dice, parse_number(action), rng)


def _assault(state: RiskState, action: Action, rng: Random) -> Step[RiskState]:
    """`attack_from`, `attack_to`, `blitz` and, after a capture, `move_in` in one, with the
    same dice (`attack.assault`)."""
    return assault(state, *parse_assault(action), rng)


Handler = Callable[[RiskState, Action, Random], Step[RiskState]]
_BY_VERB: dict[str, Handler] = {  # by the verb's text: an action's plain str finds it
    Verb.CLAIM: lambda state, action, rng: claim(state, parse_territory(action)),
    Verb.PLACE_ON: _choose_source,
    Verb.PLACE: _place,
    Verb.PLACE_AT: _place_at,
    Verb.NEUTRAL_ON: lambda state, action, rng: place_neutral(
        state, INDEX[parse_territory(action)]
    ),
    Verb.AUTO: _auto,
    Verb.TRADE: lambda state, action, rng: trade(state, parse_trade(action)),
    Verb.BONUS: lambda state, action, rng: Step(
        evolve(state, bonus_pick=parse_territory(action)), ()
    ),
    Verb.ATTACK_FROM: _choose_source,
    Verb.ATTACK_TO: _choose_target,
    Verb.ROLL: lambda state, action, rng: attack(
        state, state.source, state.target, parse_number(action), 0, rng
    ),
    Verb.BLITZ: _blitz,
    Verb.ASSAULT: _assault,
    Verb.DEFEND: lambda state, action, rng: defend(state, parse_number(action), rng),
    Verb.MOVE_IN: lambda state, action, rng: move_in(state, parse_number(action)),
    Verb.END_ATTACKS: lambda state, action, rng: end_attacks(state, rng),
    Verb.FORTIFY_FROM: _choose_source,
    Verb.FORTIFY_TO: _choose_target,
    Verb.FORTIFY: lambda state, action, rng: fortify(state, parse_number(action), rng),
    Verb.END_TURN: lambda state, action, rng: end_turn(state, rng),
    Verb.BACK: _back,
}
