"""Hold Your Horses rules (docs/rules/hold_your_horses.md).

The only decision is Roll. Everything else — payments, scratches, moves, payouts, the
re-division of tokens and the next deal — follows inside `apply`, reported by events.
Chance is split from resolution so tests can pass dice and decks in: `apply` rolls and
shuffles, `start` and `resolve_roll` take the results.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from random import Random

from rules.core import N_, Action, Event, IllegalAction, Options, Outcome, PlayerId, Step
from rules.engine_base import EngineBase
from rules.hold_your_horses import ai
from rules.hold_your_horses.actions import ROLL, Verb
from rules.hold_your_horses.options import OPTIONS
from rules.hold_your_horses.state import (
    DECK,
    HORSES,
    SCRATCHES,
    CardsDealt,
    GameWon,
    HandDealt,
    HoldYourHorsesState,
    HorseMoved,
    HorseScratched,
    Payment,
    Payout,
    Phase,
    Race,
    RaceStarted,
    RaceWon,
    Roll,
    RollResult,
    Rules,
    ScratchFinePaid,
    ScratchRerolled,
    TokensDivided,
    Track,
    leaders,
    totals,
)
from rules.seats import ai_plays_on, one_seat_each, resigned_last

STATE_VERSION = 1
PLAYERS = range(2, 13)

Deck = Sequence[int]


def parse_rules(options: Options, players: int | range = PLAYERS) -> Rules:
    """The house rules `options` choose (`OPTIONS`), checked; missing ones are the defaults.

    Raises:
        IllegalAction: For a value an option does not take, worded for the host.
    """
    chosen = OPTIONS.resolve(options, players)
    return Rules(
        track=Track(chosen.text("track")),
        escalating_scratches=chosen.flag("escalating_scratches"),
        races=chosen.number("races"),
        tokens=chosen.number("tokens"),
        autoplay=chosen.flag("autoplay"),
    )


def shuffled_deck(rng: Random) -> list[int]:
    """The 44 cards in a random order (the top card first)."""
    deck = list(DECK)
    rng.shuffle(deck)
    return deck


def roll_dice(rng: Random) -> tuple[int, int]:
    """Two six-sided dice."""
    return rng.randint(1, 6), rng.randint(1, 6)


class HoldYourHorses(EngineBase[HoldYourHorsesState]):
    """The Hold Your Horses engine (see `rules.core.Engine`)."""

    name = "hold_your_horses"
    title = "Hold Your Horses"
    min_players = PLAYERS.start
    max_players = PLAYERS.stop - 1
    options = OPTIONS
    state_type = HoldYourHorsesState
    state_version = STATE_VERSION
    ai_choice = staticmethod(ai.choose)
    resign_rule = staticmethod(ai_plays_on)
    not_your_turn = N_("It is not your roll.")
    unavailable = N_("The only move is to roll the dice.")

    # --- the engine interface ------------------------------------------------------------

    def initial_state(
        self, seats: Sequence[PlayerId], options: Options, rng: Random
    ) -> HoldYourHorsesState:
        """A new game with race 1 dealt from a shuffled deck: see `start`."""
        return self.start(seats, options, shuffled_deck(rng))

    def to_act(self, state: HoldYourHorsesState) -> frozenset[PlayerId]:
        """The roller, until the last race is won."""
        if state.phase is Phase.OVER:
            return frozenset()
        return frozenset({state.players[state.roller]})

    def legal_actions(self, state: HoldYourHorsesState, player: PlayerId) -> Sequence[Action]:
        """Roll, for the roller."""
        return (ROLL,) if player in self.to_act(state) else ()

    def play(
        self, state: HoldYourHorsesState, player: PlayerId, action: Action, rng: Random
    ) -> Step[HoldYourHorsesState]:
        """Roll the dice (from `rng`); everything the roll causes follows. A resigner's seat
        is rolled for by the AI to the end (`resign_rule`)."""
        return _BY_VERB[Verb(action.verb)](self, state, action, rng)

    def outcome(self, state: HoldYourHorsesState) -> Outcome | None:
        """Places by total winnings over the races (equal totals share a place)."""
        if state.phase is not Phase.OVER:
            return None
        scores = totals(state)
        outcome = Outcome(
            # Equal totals share a place ("equal totals share the win").
            places={p: 1 + sum(t > scores[s] for t in scores) for s, p in enumerate(state.players)},
            scores=dict(zip(state.players, scores, strict=True)),
            stats={
                p: {
                    "races_cashed": sum(race[s] > 0 for race in state.grid),
                    "best_race": max(race[s] for race in state.grid),
                }
                for s, p in enumerate(state.players)
            },
        )
        return resigned_last(outcome, state.seating)

    # --- one handler per verb (`_BY_VERB`) ---------------------------------------------------

    def _roll(
        self, state: HoldYourHorsesState, action: Action, rng: Random
    ) -> Step[HoldYourHorsesState]:
        # The next deck is shuffled only when this roll ends a race and another follows.
        return self.resolve_roll(state, roll_dice(rng), lambda: shuffled_deck(rng))

    # --- chance passed in ------------------------------------------------------------------

    def start(self, seats: Sequence[PlayerId], options: Options, deck: Deck) -> HoldYourHorsesState:
        """A new game with race 1 dealt from `deck` (top card first); the host (first seat)
        rolls first."""
        if len(seats) not in PLAYERS:
            raise IllegalAction("Hold Your Horses is for 2 to 12 players.")
        one_seat_each(seats)
        rules = parse_rules(options, len(seats))
        state = HoldYourHorsesState(
            v=STATE_VERSION,
            players=tuple(seats),
            rules=rules,
            race=Race(number=1, first_roller=0),
            last_finished=None,
            phase=Phase.SCRATCH,
            roller=0,
            hands=(),
            discards=(),
            tokens=(0,) * len(seats),
            pot=0,
            grid=(),
        )
        return _set_up_race(state, state.race, deck).state

    def resolve_roll(
        self,
        state: HoldYourHorsesState,
        dice: tuple[int, int],
        next_deck: Callable[[], Deck] | None = None,
    ) -> Step[HoldYourHorsesState]:
        """The roller threw `dice`. `next_deck` deals the next race if this roll wins one
        that is not the last."""
        roller = state.players[state.roller]
        if state.phase is Phase.SCRATCH:
            return _scratch_roll(state, roller, dice)
        return _race_roll(state, roller, dice, next_deck)


Handler = Callable[[HoldYourHorses, HoldYourHorsesState, Action, Random], Step[HoldYourHorsesState]]
_BY_VERB: dict[Verb, Handler] = {Verb.ROLL: HoldYourHorses._roll}


# --- scratches -------------------------------------------------------------------------------


def _scratch_roll(
    state: HoldYourHorsesState, roller: PlayerId, dice: tuple[int, int]
) -> Step[HoldYourHorsesState]:
    horse = sum(dice)
    if horse in state.race.scratched:  # the same player rolls again
        state = _with_roll(state, Roll(roller, dice, RollResult.REROLLED))
        return Step(state, (ScratchRerolled(roller, dice, horse=horse),))
    race = replace(state.race, scratched=(*state.race.scratched, horse))
    state = replace(state, race=race)
    price = state.price(horse)
    # Every holder pays per card and discards them: payments are public, like the discards.
    tokens = list(state.tokens)
    payments = []
    for seat, hand in enumerate(state.hands):
        cards = hand.count(horse)
        if cards:
            paid = min(cards * price, tokens[seat])  # nobody goes below 0
            tokens[seat] -= paid
            payments.append(Payment(state.players[seat], cards, cards * price, paid))
    paid = sum(p.paid for p in payments)
    pot = state.pot + paid
    state = replace(
        _with_roll(state, Roll(roller, dice, RollResult.SCRATCHED, paid)),
        hands=tuple(tuple(c for c in hand if c != horse) for hand in state.hands),
        discards=tuple(sorted(state.discards + (horse,) * sum(p.cards for p in payments))),
        tokens=tuple(tokens),
        pot=pot,
    )
    events: list[Event] = [
        HorseScratched(
            roller,
            dice,
            horse=horse,
            order=len(race.scratched),
            price=price,
            payments=tuple(payments),
            pot=pot,
        )
    ]
    if len(race.scratched) < SCRATCHES:
        return Step(replace(state, roller=_left_of(state, state.roller)), tuple(events))
    # After the fourth scratch the dice go back to the race's first roller.
    state = replace(state, phase=Phase.RACE, roller=race.first_roller)
    first = state.players[race.first_roller]
    events.append(RaceStarted(roller, dice, race=race.number, next_roller=first))
    return Step(state, tuple(events))


# --- the race --------------------------------------------------------------------------------


def _race_roll(
    state: HoldYourHorsesState,
    roller: PlayerId,
    dice: tuple[int, int],
    next_deck: Callable[[], Deck] | None,
) -> Step[HoldYourHorsesState]:
    horse = sum(dice)
    seat = state.roller
    state = replace(state, roller=_left_of(state, seat))  # play passes left either way
    if horse in state.race.scratched:
        price = state.price(horse)
        paid = min(price, state.tokens[seat])  # a player who cannot pay pays what they have
        state = replace(
            _with_roll(state, Roll(roller, dice, RollResult.FINED, paid)),
            tokens=_add(state.tokens, seat, -paid),
            pot=state.pot + paid,
        )
        payment = Payment(roller, 0, price, paid)
        return Step(state, (ScratchFinePaid(roller, dice, horse, payment, pot=state.pot),))
    index = horse - HORSES[0]
    position = state.race.positions[index] + 1
    positions = tuple(position if i == index else p for i, p in enumerate(state.race.positions))
    finish = state.rules.track.finish(horse)
    result = RollResult.MOVED if position < finish else RollResult.WON
    roll = Roll(roller, dice, result)
    state = _with_roll(state, roll)
    state = replace(state, race=replace(state.race, positions=positions))
    moved = HorseMoved(roller, dice, horse=horse, position=position, finish=finish)
    if result is RollResult.MOVED:
        return Step(state, (moved,))
    won = _race_won(state, roll, horse, next_deck)
    return Step(won.state, (moved, *won.events))


def _race_won(
    state: HoldYourHorsesState, roll: Roll, horse: int, next_deck: Callable[[], Deck] | None
) -> Step[HoldYourHorsesState]:
    """Holders split the pot by cards: each card earns ⌊pot / winning cards in hands⌋, the
    remainder stays in the pot. All 44 cards are dealt and a winner was never scratched, so
    its four cards are all in hands."""
    held = [hand.count(horse) for hand in state.hands]
    share = state.pot // sum(held)
    won = tuple(cards * share for cards in held)
    carried = state.pot - sum(won)
    race = replace(state.race, winner=horse, payouts=won, carried=carried)
    state = replace(
        state,
        race=race,
        last_finished=race,
        tokens=tuple(t + w for t, w in zip(state.tokens, won, strict=True)),
        pot=carried,
        grid=(*state.grid, won),
    )
    payouts = tuple(
        Payout(p, cards, w) for p, cards, w in zip(state.players, held, won, strict=True) if cards
    )
    events: list[Event] = [
        RaceWon(
            roll.player,
            roll.dice,
            race=race.number,
            horse=horse,
            pot=carried + sum(won),
            payouts=payouts,
            carried=carried,
        )
    ]
    if race.number == state.rules.races:
        scores = totals(state)
        events.append(GameWon(leaders(state), tuple(zip(state.players, scores, strict=True))))
        return Step(replace(state, phase=Phase.OVER), tuple(events))
    if next_deck is None:
        raise ValueError("a race that is not the last needs the next deck")
    # In later races the first roller moves one seat left.
    nxt = Race(number=race.number + 1, first_roller=_left_of(state, race.first_roller))
    dealt = _set_up_race(state, nxt, next_deck())
    return Step(dealt.state, (*events, *dealt.events))


# --- set-up of each race -----------------------------------------------------------------


def _set_up_race(state: HoldYourHorsesState, race: Race, deck: Deck) -> Step[HoldYourHorsesState]:
    """Collect and divide the tokens evenly (the rest, and the carried pot, in the pot), then
    deal all 44 cards one at a time from the first roller round the table."""
    if sorted(deck) != list(DECK):
        raise ValueError("a deal needs the 44 cards, each horse four times")
    n = len(state.players)
    collected = state.rules.tokens - state.pot  # the pot carried over stays in the pot
    each = collected // n
    pot = state.pot + collected % n
    dealt: list[list[int]] = [[] for _ in range(n)]
    for i, card in enumerate(deck):
        dealt[(race.first_roller + i) % n].append(card)
    hands = tuple(tuple(sorted(hand)) for hand in dealt)
    state = replace(
        state,
        race=race,
        phase=Phase.SCRATCH,
        roller=race.first_roller,
        hands=hands,
        discards=(),
        tokens=(each,) * n,
        pot=pot,
    )
    events: list[Event] = [
        TokensDivided(race.number, each, pot),
        CardsDealt(
            race.number,
            state.players[race.first_roller],
            tuple((p, len(hand)) for p, hand in zip(state.players, hands, strict=True)),
        ),
    ]
    events += [
        HandDealt(race.number, p, hand, visible_to=frozenset({p}))
        for p, hand in zip(state.players, hands, strict=True)
    ]
    return Step(state, tuple(events))


def _with_roll(state: HoldYourHorsesState, roll: Roll) -> HoldYourHorsesState:
    return replace(state, race=replace(state.race, last_roll=roll))


def _left_of(state: HoldYourHorsesState, seat: int) -> int:
    return (seat + 1) % len(state.players)


def _add(values: tuple[int, ...], seat: int, amount: int) -> tuple[int, ...]:
    return tuple(v + amount if i == seat else v for i, v in enumerate(values))
