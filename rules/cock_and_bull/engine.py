"""Cock & Bull rules (docs/rules/cock_and_bull.md).

Chance is split from resolution so tests can pass dice in: `apply` rolls, then hands the
faces to `resolve_start_die` or `resolve_roll`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from random import Random

from rules.cock_and_bull import ai
from rules.cock_and_bull.actions import (
    COLOUR_ACTIONS,
    DECLINE,
    FLIP,
    PLACE,
    POINT,
    REMOVE,
    ROLL,
    TAKE,
    Verb,
    parse_colour,
)
from rules.cock_and_bull.options import OPTIONS
from rules.cock_and_bull.state import (
    ARMS_POINTS,
    EMPTY,
    FLYING_MONKEY_POINTS,
    MANTLE_TOP,
    ChipPlaced,
    ChipRemoved,
    ChoiceNeeded,
    CockAndBullState,
    Colour,
    ColourChosen,
    DiceRolled,
    Face,
    FirstTurnWon,
    GameResult,
    GameWon,
    Group,
    MantleScored,
    MatchWon,
    NextGameStarted,
    Phase,
    PointsDeclined,
    RollKind,
    Rules,
    StartDieRolled,
    StartRollTied,
    TurnLost,
    WinKind,
    fresh_board,
    group_of,
    roll_kind,
)
from rules.core import Action, Event, IllegalAction, Options, Outcome, PlayerId, Step
from rules.engine_base import EngineBase
from rules.seats import Resigned, resigned_last

STATE_VERSION = 1
UNIFORM_DIE = (Face.COCK, Face.COCK, Face.BULL, Face.BULL, Face.MONKEY, Face.MONKEY)
WEIGHTED_DIE = (Face.COCK, Face.COCK, Face.COCK, Face.BULL, Face.BULL, Face.MONKEY)
PLAYERS = 2


def parse_rules(options: Options, players: int | range = PLAYERS) -> Rules:
    """The house rules `options` choose (`OPTIONS`), checked; missing ones are the defaults.

    Raises:
        IllegalAction: For a value an option does not take, worded for the host.
    """
    chosen = OPTIONS.resolve(options, players)
    return Rules(
        weighted_dice=chosen.text("dice") == "weighted",
        optional_points=chosen.flag("optional_points"),
        best_of=chosen.number("best_of"),
        point_limit=chosen.number("point_limit"),
    )


def _opponent_wins(state: CockAndBullState, player: PlayerId) -> Step[CockAndBullState]:
    """A resignation ends the match: the opponent wins it, whatever the score."""
    opponent = state.players[1 - state.seat_of(player)]
    over = replace(state, phase=Phase.OVER, pending_group=None, pending_points=0)
    return Step(over, (Resigned(player, winners=(opponent,)),))


class CockAndBull(EngineBase[CockAndBullState]):
    """The Cock & Bull engine (see `rules.core.Engine`)."""

    name = "cock_and_bull"
    title = "Cock & Bull"
    min_players = PLAYERS
    max_players = PLAYERS
    options = OPTIONS
    state_type = CockAndBullState
    state_version = STATE_VERSION
    ai_choice = staticmethod(ai.choose)
    resign_rule = staticmethod(_opponent_wins)

    # --- the engine interface ------------------------------------------------------------

    def initial_state(
        self, seats: Sequence[PlayerId], options: Options, rng: Random
    ) -> CockAndBullState:
        """A match for two: both roll one die for the first turn."""
        if len(seats) != PLAYERS or seats[0] == seats[1]:
            raise IllegalAction("Cock & Bull is for exactly two players.")
        return CockAndBullState(
            v=STATE_VERSION,
            players=(seats[0], seats[1]),
            rules=parse_rules(options),
            game_no=1,
            wins=(0, 0),
            match_points=(0, 0),
            flying_monkeys=(0, 0),
            le_pews=(0, 0),
            results=(),
        )

    def to_act(self, state: CockAndBullState) -> frozenset[PlayerId]:
        """Both players while either has a first-turn die to roll; the roller otherwise."""
        if state.phase is Phase.OVER:
            return frozenset()
        if state.phase is Phase.START_ROLL:
            return frozenset(
                p for p, r in zip(state.players, state.start_rolls, strict=True) if r is None
            )
        return frozenset({state.players[state.current]})

    def legal_actions(self, state: CockAndBullState, player: PlayerId) -> Sequence[Action]:
        """Roll, or the choice the last roll left: colour, place/flip, remove/point,
        take/decline."""
        if player not in self.to_act(state):
            return ()
        return {
            Phase.START_ROLL: (ROLL,),
            Phase.ROLL: (ROLL,),
            Phase.CHOOSE_COLOUR: COLOUR_ACTIONS,
            Phase.PLACE_OR_FLIP: (PLACE, FLIP),
            Phase.REMOVE_OR_POINT: (REMOVE, POINT),
            Phase.TAKE_OR_DECLINE: (TAKE, DECLINE),
        }[state.phase]

    def play(
        self, state: CockAndBullState, player: PlayerId, action: Action, rng: Random
    ) -> Step[CockAndBullState]:
        """Roll (the dice come from `rng`) or make the choice on offer; a resignation hands
        the match to the opponent (`resign_rule`)."""
        return _BY_VERB[Verb(action.verb)](self, state, state.seat_of(player), action, rng)

    def outcome(self, state: CockAndBullState) -> Outcome | None:
        """The match's result: places by games won (then points), scores are match points,
        with Flying Monkeys, Le Pews and games won as stats."""
        if state.phase is not Phase.OVER:
            return None
        winner = match_winner(state)
        places = {p: (1 if seat == winner else 2) for seat, p in enumerate(state.players)}
        outcome = Outcome(
            places=places,
            scores=dict(zip(state.players, state.match_points, strict=True)),
            stats={
                p: {
                    "flying_monkeys": state.flying_monkeys[seat],
                    "le_pews": state.le_pews[seat],
                    "games_won": state.wins[seat],
                }
                for seat, p in enumerate(state.players)
            },
        )
        return resigned_last(outcome, state.seating)

    # --- one handler per verb (`_BY_VERB`) ---------------------------------------------------

    def _roll(
        self, state: CockAndBullState, seat: int, action: Action, rng: Random
    ) -> Step[CockAndBullState]:
        die = WEIGHTED_DIE if state.rules.weighted_dice else UNIFORM_DIE
        if state.phase is Phase.START_ROLL:
            return self.resolve_start_die(state, seat, rng.choice(die))
        return self.resolve_roll(state, (rng.choice(die), rng.choice(die)))

    def _colour(
        self, state: CockAndBullState, seat: int, action: Action, rng: Random
    ) -> Step[CockAndBullState]:
        colour = parse_colour(action)
        red = seat if colour is Colour.RED else 1 - seat
        new = replace(state, red=red, phase=Phase.ROLL)
        return Step(new, (ColourChosen(state.players[seat], colour),))

    def _place_or_flip(
        self, state: CockAndBullState, seat: int, action: Action, rng: Random
    ) -> Step[CockAndBullState]:
        assert state.pending_group is not None  # set with Phase.PLACE_OR_FLIP
        return self._place(state, seat, state.pending_group, flip=action.verb == Verb.FLIP)

    def _remove(
        self, state: CockAndBullState, seat: int, action: Action, rng: Random
    ) -> Step[CockAndBullState]:
        spot = _removable_spot(state, 1 - seat)
        assert spot is not None  # REMOVE is offered only when there is one
        spots = tuple(EMPTY if i == spot else o for i, o in enumerate(state.spots))
        new = _back_to_rolling(replace(state, spots=spots))
        return Step(new, (ChipRemoved(state.players[seat], spot),))

    def _one_point(
        self, state: CockAndBullState, seat: int, action: Action, rng: Random
    ) -> Step[CockAndBullState]:
        return self._offer_points(state, seat, 1)

    def _take(
        self, state: CockAndBullState, seat: int, action: Action, rng: Random
    ) -> Step[CockAndBullState]:
        return self._score(state, seat, state.pending_points)

    def _decline(
        self, state: CockAndBullState, seat: int, action: Action, rng: Random
    ) -> Step[CockAndBullState]:
        events: tuple[Event, ...] = (PointsDeclined(state.players[seat], state.pending_points),)
        return Step(_back_to_rolling(state), events)

    # --- resolution with the dice passed in ------------------------------------------------

    def resolve_start_die(
        self, state: CockAndBullState, seat: int, face: Face
    ) -> Step[CockAndBullState]:
        """One player's die for the first turn; when both have rolled, decide or re-roll."""
        rolls = list(state.start_rolls)
        rolls[seat] = face
        events: list[Event] = [StartDieRolled(state.players[seat], face)]
        first, second = rolls
        if first is None or second is None:
            return Step(replace(state, start_rolls=(first, second)), tuple(events))
        if first == second:  # equal faces: both roll again
            events.append(StartRollTied(first))
            return Step(replace(state, start_rolls=(None, None)), tuple(events))
        winner = 0 if first.rank > second.rank else 1
        events.append(FirstTurnWon(state.players[winner]))
        new = replace(state, start_rolls=(first, second), phase=Phase.CHOOSE_COLOUR, current=winner)
        return Step(new, tuple(events))

    def resolve_roll(
        self, state: CockAndBullState, dice: tuple[Face, Face]
    ) -> Step[CockAndBullState]:
        """The player to act rolled `dice`: apply the table of rolls."""
        seat = state.current
        player = state.players[seat]
        state = replace(state, last_roll=dice)
        rolled = DiceRolled(player, dice)
        kind = roll_kind(dice)
        if kind is RollKind.TURN_LOST:
            other = 1 - seat
            new = replace(state, current=other)
            return Step(new, (rolled, TurnLost(player, state.players[other])))
        if kind is RollKind.PAIR:
            group = next(g for g in Group if g.face is dice[0])
            step = self._pair(state, seat, group)
        else:  # Cock + Bull
            step = self._cock_and_bull(state, seat)
        return Step(step.state, (rolled, *step.events))

    # --- the rolls -------------------------------------------------------------------------

    def _pair(self, state: CockAndBullState, seat: int, group: Group) -> Step[CockAndBullState]:
        owners = [state.spots[s] for s in group.spots]
        if all(o == seat for o in owners):  # the group is already yours: mantle points
            return self._offer_points(state, seat, group.points)
        can_place = EMPTY in owners
        can_flip = (1 - seat) in owners
        if can_place and can_flip:
            new = replace(state, phase=Phase.PLACE_OR_FLIP, pending_group=group)
            return Step(new, (ChoiceNeeded(state.players[seat], Phase.PLACE_OR_FLIP),))
        return self._place(state, seat, group, flip=can_flip)

    def _cock_and_bull(self, state: CockAndBullState, seat: int) -> Step[CockAndBullState]:
        if _removable_spot(state, 1 - seat) is None:  # nothing to remove: it is +1
            return self._offer_points(state, seat, 1)
        new = replace(state, phase=Phase.REMOVE_OR_POINT)
        return Step(new, (ChoiceNeeded(state.players[seat], Phase.REMOVE_OR_POINT),))

    def _place(
        self, state: CockAndBullState, seat: int, group: Group, *, flip: bool
    ) -> Step[CockAndBullState]:
        wanted = (1 - seat) if flip else EMPTY
        spot = next(s for s in group.spots if state.spots[s] == wanted)
        spots = tuple(seat if i == spot else o for i, o in enumerate(state.spots))
        new = replace(state, spots=spots)
        placed = ChipPlaced(state.players[seat], spot, flipped=flip)
        if all(o == seat for o in spots):
            won = self._end_game(new, seat, WinKind.CHIP_IN)
            return Step(won.state, (placed, *won.events))
        return Step(_back_to_rolling(new), (placed,))

    def _offer_points(
        self, state: CockAndBullState, seat: int, points: int
    ) -> Step[CockAndBullState]:
        if not state.rules.optional_points:
            return self._score(state, seat, points)
        new = replace(state, phase=Phase.TAKE_OR_DECLINE, pending_points=points)
        return Step(new, (ChoiceNeeded(state.players[seat], Phase.TAKE_OR_DECLINE),))

    def _score(self, state: CockAndBullState, seat: int, points: int) -> Step[CockAndBullState]:
        total = min(MANTLE_TOP, state.mantle[seat] + points)
        mantle = tuple(total if s == seat else m for s, m in enumerate(state.mantle))
        new = replace(state, mantle=(mantle[0], mantle[1]))
        scored = MantleScored(state.players[seat], total - state.mantle[seat], total)
        if total == MANTLE_TOP:
            won = self._end_game(new, seat, WinKind.PEG_OUT)
            return Step(won.state, (scored, *won.events))
        return Step(_back_to_rolling(new), (scored,))

    # --- end of a game and of the match ----------------------------------------------------

    def _end_game(
        self, state: CockAndBullState, winner: int, kind: WinKind
    ) -> Step[CockAndBullState]:
        scores = _game_scores(state, winner, kind)
        loser = 1 - winner
        result = GameResult(
            game_no=state.game_no,
            winner=winner,
            kind=kind,
            scores=scores,
            flying_monkey=kind is WinKind.CHIP_IN and state.mantle[winner] == 0,
            le_pew=scores[loser] == 0,
        )
        wins = _bump(state.wins, winner)
        state = replace(
            state,
            wins=wins,
            match_points=(state.match_points[0] + scores[0], state.match_points[1] + scores[1]),
            flying_monkeys=_bump(state.flying_monkeys, winner)
            if result.flying_monkey
            else state.flying_monkeys,
            le_pews=_bump(state.le_pews, loser) if result.le_pew else state.le_pews,
            results=(*state.results, result),
            pending_group=None,
            pending_points=0,
        )
        events: list[Event] = [GameWon(state.players[winner], state.players[loser], result)]
        if _match_decided(state):
            leader = match_winner(state)
            events.append(MatchWon(state.players[leader], state.wins, state.match_points))
            return Step(replace(state, phase=Phase.OVER), tuple(events))
        nxt = replace(fresh_board(state), game_no=state.game_no + 1)
        events.append(NextGameStarted(nxt.game_no))
        return Step(nxt, tuple(events))


Handler = Callable[[CockAndBull, CockAndBullState, int, Action, Random], Step[CockAndBullState]]
_BY_VERB: dict[Verb, Handler] = {
    Verb.ROLL: CockAndBull._roll,
    Verb.COLOUR: CockAndBull._colour,
    Verb.PLACE: CockAndBull._place_or_flip,
    Verb.FLIP: CockAndBull._place_or_flip,
    Verb.REMOVE: CockAndBull._remove,
    Verb.POINT: CockAndBull._one_point,
    Verb.TAKE: CockAndBull._take,
    Verb.DECLINE: CockAndBull._decline,
}


def _back_to_rolling(state: CockAndBullState) -> CockAndBullState:
    """Every roll but a losing mix lets the player roll again."""
    return replace(state, phase=Phase.ROLL, pending_group=None, pending_points=0)


def _removable_spot(state: CockAndBullState, owner: int) -> int | None:
    """The spot an opponent's chip must be removed from: Bend first, then Field, then Crown
    ("the Cocks protect the Bulls and the Crown; the Bulls protect the Crown")."""
    for group in Group:
        for spot in group.spots:
            if state.spots[spot] == owner:
                return spot
    return None


def _game_scores(state: CockAndBullState, winner: int, kind: WinKind) -> tuple[int, int]:
    def score(seat: int) -> int:
        if kind is WinKind.CHIP_IN:
            # 18 for the Arms plus mantle points; a peg never placed: the Flying Monkey, 54.
            arms = FLYING_MONKEY_POINTS if state.mantle[winner] == 0 else ARMS_POINTS
            return state.mantle[seat] + (arms if seat == winner else 0)
        # Peg-out: both score their mantle plus their own chips on the Arms.
        return state.mantle[seat] + sum(group_of(s).points for s in state.chips_of(seat))

    return score(0), score(1)


def _bump(pair: tuple[int, int], seat: int) -> tuple[int, int]:
    return (pair[0] + (seat == 0), pair[1] + (seat == 1))


def _match_decided(state: CockAndBullState) -> bool:
    rules = state.rules
    if rules.point_limit:
        # Played to a point limit: ends after the game in which someone reaches it.
        return max(state.match_points) >= rules.point_limit
    return max(state.wins) > rules.best_of // 2


def match_winner(state: CockAndBullState) -> int:
    """The seat that wins a finished match: the opponent of a player who resigned; else more
    games won ("winning is the first aim"), then more points; in a point-limit match, more
    points. A full tie goes to the winner of the last game."""
    if state.seating.resigned:
        return 1 - state.seat_of(state.seating.resigned[0])
    if state.rules.point_limit:
        key = [(state.match_points[s], state.wins[s]) for s in (0, 1)]
    else:
        key = [(state.wins[s], state.match_points[s]) for s in (0, 1)]
    if key[0] == key[1]:
        return state.results[-1].winner
    return 0 if key[0] > key[1] else 1
