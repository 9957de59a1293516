"""Winner's Circle rules (docs/rules/winners_circle.md).

Chance is split from resolution so tests can pass it in: `line_up` takes the cards in draw
order, `resolve_roll` the rolled symbol. The only other draw, the first bettor of races 2
and 3 among players tied for the most money, takes a `Random` in `resolve_move`.
The actions are described in `actions.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from random import Random

from rules.core import N_, Action, Event, IllegalAction, Options, Outcome, PlayerId, Step
from rules.engine_base import EngineBase
from rules.seats import ai_plays_on, one_seat_each, resigned_last
from rules.winners_circle import ai
from rules.winners_circle.actions import (
    NEXT_RACE,
    ROLL,
    Verb,
    bet_action,
    chips_left,
    move_action,
    parse_bet,
    parse_move,
)
from rules.winners_circle.cards import (
    DIE,
    HORSE_CARDS,
    HORSES,
    ROYAL_TURF_CARDS,
    Symbol,
    card,
)
from rules.winners_circle.options import OPTIONS
from rules.winners_circle.payout import settle
from rules.winners_circle.state import (
    PLACES,
    RACES,
    TRACK,
    Bet,
    BetPlaced,
    BetsRevealed,
    CardsTurnedUp,
    DieRolled,
    FirstBettorChosen,
    GameWon,
    HiddenBetPlaced,
    HiddenChipChosen,
    HorseFinished,
    HorseMoved,
    LastMove,
    PaceHorseSet,
    PayoutMade,
    Phase,
    RaceEnded,
    RacePrepared,
    RaceResult,
    RaceSettled,
    RaceStarted,
    Rules,
    WinnersCircleState,
)
from rules.winners_circle.track import becomes_pace, hindmost, landing

STATE_VERSION = 1
PLAYERS = range(2, 7)


def parse_rules(options: Options, players: int | range = PLAYERS) -> Rules:
    """The house rules `options` choose (`OPTIONS`), checked; missing ones are the defaults.

    Raises:
        IllegalAction: For a value an option does not take, worded for the host.
    """
    chosen = OPTIONS.resolve(options, players)
    return Rules(
        royal_turf=chosen.flag("royal_turf"),
        hidden_bets=chosen.flag("hidden_bets"),
        crowded_field=chosen.flag("crowded_field"),
        alternative_payouts=chosen.flag("alternative_payouts"),
    )


def line_up(
    rules: Rules, drawn: Sequence[int]
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]:
    """Race preparation with the cards in draw order: the card for each horse, each horse's
    start progress, the cards left for later races, and how many were set aside.

    Horse cards go to gates 1–7 in turn and gate g's horse stands on space 37 − g. Royal Turf
    cards go to their own horse's gate and that horse on the next start space (36, 35, …); a
    card of a horse already placed is set aside and shuffled back (it stays in the deck). In a
    crowded field every horse starts on space 36.
    """
    gates = [0] * len(HORSES)
    starts = [0] * len(HORSES)
    kept: list[int] = []
    set_aside = 0
    placed = 0
    for n, card_id in enumerate(drawn):
        if placed == len(HORSES):
            kept.extend(drawn[n:])
            break
        horse = card(card_id).horse if rules.royal_turf else placed + 1
        if gates[horse - 1]:
            kept.append(card_id)
            set_aside += 1
            continue
        gates[horse - 1] = card_id
        starts[horse - 1] = TRACK if rules.crowded_field else TRACK - placed
        placed += 1
    if placed < len(HORSES):
        raise ValueError("not enough cards for seven horses")
    return tuple(gates), tuple(starts), tuple(kept), set_aside


class WinnersCircle(EngineBase[WinnersCircleState]):
    """The Winner's Circle engine (see `rules.core.Engine`)."""

    name = "winners_circle"
    title = "Winner's Circle"
    min_players = PLAYERS.start
    max_players = PLAYERS.stop - 1
    options = OPTIONS
    state_type = WinnersCircleState
    state_version = STATE_VERSION
    ai_choice = staticmethod(ai.choose)
    resign_rule = staticmethod(ai_plays_on)

    # --- the engine interface ------------------------------------------------------------

    def initial_state(
        self, seats: Sequence[PlayerId], options: Options, rng: Random
    ) -> WinnersCircleState:
        """Race 1 prepared from the shuffled deck; a random player bets first."""
        if len(seats) not in PLAYERS:
            raise IllegalAction("Winner's Circle is for 2 to 6 players.")
        one_seat_each(seats)
        rules = parse_rules(options, len(seats))
        deck = tuple(c.id for c in (ROYAL_TURF_CARDS if rules.royal_turf else HORSE_CARDS))
        first = rng.randrange(len(seats))  # race 1: a random player bets first
        empty = WinnersCircleState(
            v=STATE_VERSION,
            players=tuple(seats),
            rules=rules,
            race=0,
            phase=Phase.RACE_OVER,
            current=first,
            first_bettor=first,
            money=(0,) * len(seats),  # Decision: everyone starts with 0
            deck=deck,
            gates=(),
            progress=(),
            face_up=(),
            winners_backed=(0,) * len(seats),
            lasts_backed=(0,) * len(seats),
        )
        return self.prepare_race(empty, rng.sample(deck, len(deck))).state

    def to_act(self, state: WinnersCircleState) -> frozenset[PlayerId]:
        """The player whose bet, roll, move or next race it is."""
        if state.phase is Phase.OVER:
            return frozenset()
        return frozenset({state.players[state.current]})

    def legal_actions(self, state: WinnersCircleState, player: PlayerId) -> Sequence[Action]:
        """Bets (each horse once, with a chip still held), roll, the face-up horses to move,
        or the next race."""
        if player not in self.to_act(state):
            return ()
        if state.phase is Phase.BETTING:
            backed = {b.horse for b in state.bets_of(player)}
            chips = sorted(set(chips_left(state, player)))
            return tuple(bet_action(state, h, c) for h in HORSES if h not in backed for c in chips)
        if state.phase is Phase.ROLL:
            return (ROLL,)
        if state.phase is Phase.MOVE:
            return tuple(move_action(h) for h in state.running() if state.is_face_up(h))
        return (NEXT_RACE,)

    def play(
        self, state: WinnersCircleState, player: PlayerId, action: Action, rng: Random
    ) -> Step[WinnersCircleState]:
        """Bet, roll (the die from `rng`), move, or start the next race (shuffled by `rng`).
        A resigner's seat is played out by the AI (`resign_rule`)."""
        return _BY_VERB[Verb(action.verb)](self, state, action, rng)

    def refusal(self, state: WinnersCircleState, action: Action) -> IllegalAction:
        """Why the player to act may not take `action`: what the phase wants instead."""
        return IllegalAction(_refusal(state, action))

    def outcome(self, state: WinnersCircleState) -> Outcome | None:
        """Places by money after the three races (equal money shares a place)."""
        if state.phase is not Phase.OVER:
            return None
        outcome = Outcome(
            places={
                p: 1 + sum(m > state.money[s] for m in state.money)
                for s, p in enumerate(state.players)
            },
            scores=dict(zip(state.players, state.money, strict=True)),
            stats={
                p: {
                    "winners_backed": state.winners_backed[s],
                    "lasts_backed": state.lasts_backed[s],
                }
                for s, p in enumerate(state.players)
            },
        )
        return resigned_last(outcome, state.seating)

    # --- one handler per verb (`_BY_VERB`) ---------------------------------------------------

    def _bet(
        self, state: WinnersCircleState, action: Action, rng: Random
    ) -> Step[WinnersCircleState]:
        return self.place_bet(state, *parse_bet(action))

    def _roll(
        self, state: WinnersCircleState, action: Action, rng: Random
    ) -> Step[WinnersCircleState]:
        return self.resolve_roll(state, rng.choice(DIE), rng)

    def _move_horse(
        self, state: WinnersCircleState, action: Action, rng: Random
    ) -> Step[WinnersCircleState]:
        return self.resolve_move(state, parse_move(action), rng)

    def _next_race(
        self, state: WinnersCircleState, action: Action, rng: Random
    ) -> Step[WinnersCircleState]:
        return self.prepare_race(state, rng.sample(state.deck, len(state.deck)))

    # --- 1. preparation ------------------------------------------------------------------

    def prepare_race(
        self, state: WinnersCircleState, drawn: Sequence[int]
    ) -> Step[WinnersCircleState]:
        """Start the next race with the cards left, shuffled into draw order `drawn`."""
        gates, starts, deck, set_aside = line_up(state.rules, drawn)
        race = state.race + 1
        new = replace(
            state,
            race=race,
            phase=Phase.BETTING,
            current=state.first_bettor,
            deck=deck,
            gates=gates,
            progress=starts,
            face_up=(True,) * len(HORSES),
            finished=(),
            pace=0,
            bets=(),
            rolled=None,
            last_move=None,
        )
        prepared = RacePrepared(
            race=race,
            cards=tuple(card(c) for c in gates),
            starts=tuple((s - 1) % TRACK + 1 for s in starts),
            set_aside=set_aside,
        )
        return Step(new, (prepared,))

    # --- 2. bets -------------------------------------------------------------------------

    def place_bet(
        self, state: WinnersCircleState, horse: int, chip: int
    ) -> Step[WinnersCircleState]:
        """The player to act puts `chip` on `horse`; clockwise, one chip each per round."""
        player = state.players[state.current]
        bets = (*state.bets, Bet(player, horse, chip))
        events: list[Event] = []
        if state.rules.hidden_bets:
            events.append(HiddenBetPlaced(player, horse))
            events.append(HiddenChipChosen(player, horse, chip, visible_to=frozenset({player})))
        else:
            events.append(BetPlaced(player, horse, chip))
        seats = len(state.players)
        if len(bets) < seats * len(state.rules.chips):
            new = replace(state, bets=bets, current=(state.current + 1) % seats)
            return Step(new, tuple(events))
        # Bets are in: the first bettor starts the race.
        new = replace(state, bets=bets, phase=Phase.ROLL, current=state.first_bettor)
        events.append(RaceStarted(state.race, state.players[state.first_bettor]))
        return Step(new, tuple(events))

    # --- 3. the race ---------------------------------------------------------------------

    def resolve_roll(
        self, state: WinnersCircleState, symbol: Symbol, rng: Random
    ) -> Step[WinnersCircleState]:
        """The player to act rolled `symbol`. With a single face-up card there is nothing to
        choose, so that horse moves at once."""
        player = state.players[state.current]
        choices = tuple(h for h in state.running() if state.is_face_up(h))
        rolled = DieRolled(player, symbol, choices)
        new = replace(state, phase=Phase.MOVE, rolled=symbol)
        if len(choices) > 1:
            return Step(new, (rolled,))
        step = self._move(new, choices[0], forced=True, rng=rng)
        return Step(step.state, (rolled, *step.events))

    def resolve_move(
        self, state: WinnersCircleState, horse: int, rng: Random
    ) -> Step[WinnersCircleState]:
        """The player to act moves `horse` (face up) by the rolled symbol. `rng` only breaks
        a tie for the most money when this move ends a race."""
        return self._move(state, horse, forced=False, rng=rng)

    def _move(
        self, state: WinnersCircleState, horse: int, *, forced: bool, rng: Random
    ) -> Step[WinnersCircleState]:
        assert state.rolled is not None  # set by resolve_roll with Phase.MOVE
        player = state.players[state.current]
        move = landing(state, horse, state.rolled)
        events: list[Event] = [
            HorseMoved(
                player=player,
                horse=horse,
                symbol=state.rolled,
                wanted=move.wanted,
                moved=move.moved,
                from_space=state.space(horse),
                to_space=move.space,
                finished=move.finishes,
                forced=forced,
            )
        ]
        i = horse - 1
        new = replace(
            state,
            progress=(*state.progress[:i], move.end, *state.progress[i + 1 :]),
            # Its card turns face down: it has had its move this cycle.
            face_up=(*state.face_up[:i], False, *state.face_up[i + 1 :]),
            rolled=None,
            last_move=LastMove(player, horse, state.rolled, move.start, move.end),
        )
        if becomes_pace(state, move):
            new = replace(new, pace=horse)
            events.append(PaceHorseSet(horse))
        if move.finishes:  # its card leaves play
            new = replace(new, finished=(*new.finished, horse))
            events.append(HorseFinished(horse, len(new.finished)))
            if len(new.finished) == PLACES:
                end = self._end_race(new, rng)
                return Step(end.state, (*events, *end.events))
        running = new.running()
        if not any(new.is_face_up(h) for h in running):
            # Every card still in play is face down: all turn face up.
            new = replace(new, face_up=tuple(h in running for h in HORSES))
            events.append(CardsTurnedUp(running))
        new = replace(new, phase=Phase.ROLL, current=(state.current + 1) % len(state.players))
        return Step(new, tuple(events))

    # --- 4. paying out -------------------------------------------------------------------

    def _end_race(self, state: WinnersCircleState, rng: Random) -> Step[WinnersCircleState]:
        finish = (state.finished[0], state.finished[1], state.finished[2])
        last = hindmost(state)
        events: list[Event] = [RaceEnded(state.race, finish, last, state.pace)]
        if state.rules.hidden_bets:
            events.append(BetsRevealed(state.race, state.bets))
        lines, money = settle(
            state.players,
            state.money,
            state.bets,
            finish,
            state.pace,
            last,
            state.rules,
            state.race,
        )
        events.extend(PayoutMade(state.race, state.race == RACES, line) for line in lines)
        events.append(RaceSettled(state.race, money))
        new = replace(
            state,
            money=money,
            results=(*state.results, RaceResult(state.race, finish, last, state.pace, money)),
            winners_backed=_tally(state, state.winners_backed, (finish[0],)),
            lasts_backed=_tally(state, state.lasts_backed, last),
            rolled=None,
        )
        if state.race == RACES:
            richest = max(money)
            winners = tuple(p for p, m in zip(state.players, money, strict=True) if m == richest)
            events.append(GameWon(winners, money))
            return Step(replace(new, phase=Phase.OVER), tuple(events))
        # Races 2 and 3: the player with the most money bets first (random among ties).
        richest_seats = [s for s, m in enumerate(money) if m == max(money)]
        first = rng.choice(richest_seats)
        events.append(
            FirstBettorChosen(
                state.race + 1, state.players[first], tuple(state.players[s] for s in richest_seats)
            )
        )
        new = replace(new, phase=Phase.RACE_OVER, current=first, first_bettor=first)
        return Step(new, tuple(events))


Handler = Callable[[WinnersCircle, WinnersCircleState, Action, Random], Step[WinnersCircleState]]
_BY_VERB: dict[Verb, Handler] = {
    Verb.BET: WinnersCircle._bet,
    Verb.HIDDEN_BET: WinnersCircle._bet,
    Verb.ROLL: WinnersCircle._roll,
    Verb.MOVE: WinnersCircle._move_horse,
    Verb.NEXT_RACE: WinnersCircle._next_race,
}


def _tally(
    state: WinnersCircleState, counts: tuple[int, ...], horses: tuple[int, ...]
) -> tuple[int, ...]:
    """`counts` (by seat) plus each player's chips on `horses` this race."""
    return tuple(
        n + sum(b.horse in horses for b in state.bets_of(p))
        for n, p in zip(counts, state.players, strict=True)
    )


def _refusal(state: WinnersCircleState, action: Action) -> str:
    """Why an action by the player to act is refused, in their words."""
    if state.phase is Phase.BETTING and action.verb in (Verb.BET, Verb.HIDDEN_BET):
        return N_("You can bet on each horse once, with a chip you still have.")
    if state.phase is Phase.MOVE and action.verb == Verb.MOVE:
        return N_("Choose a horse whose card is still face up.")
    return {
        Phase.BETTING: N_("Place a bet: choose a horse and a chip."),
        Phase.ROLL: N_("Roll the die first."),
        Phase.MOVE: N_("Choose a horse to move."),
        Phase.RACE_OVER: N_("Start the next race."),
        Phase.OVER: N_("The game is over."),
    }[state.phase]
