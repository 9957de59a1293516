"""The AI generals (rules/risk/ai.py): their choices, and that they win and finish games."""

from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any

import pytest

from rules.core import Action, PlayerId, setup_rng, step_rng
from rules.risk import ENGINE
from rules.risk.actions import (
    AUTO,
    BACK,
    END_ATTACKS,
    Verb,
    attack_from,
    attack_to,
    bonus,
    defend,
    fortify,
    fortify_from,
    fortify_to,
    move_in,
    parse_number,
    roll,
)
from rules.risk.ai import win_probability
from rules.risk.map import CONTINENTS
from rules.risk.state import CardsTraded, Phase, RiskState, WinKind
from tests.rules.risk.scenario import ANA, BOB, acts, card, legal, of_type, position

AI_VS_RANDOM_GAMES = 100
AI_VS_RANDOM_ROUNDS = 30  # the turn limit, so a game against a turtling random player ends
SIX_AI_GAMES = 6
SIX_AI_GUARD = 150  # rounds: only a guard, the games should end well before


def ai(state: RiskState, player: PlayerId = ANA) -> Action:
    action = ENGINE.choose(state, player, Random(0))
    assert action in ENGINE.legal_actions(state, player)
    return action


# --- odds -------------------------------------------------------------------------------------


def test_win_probability_matches_the_dice() -> None:
    assert win_probability(2, 1) == pytest.approx(15 / 36)  # one die against one
    # Three dice against one (855/1296), else two (125/216), else one (15/36).
    p3, p2, p1 = 855 / 1296, 125 / 216, 15 / 36
    assert win_probability(4, 1) == pytest.approx(p3 + (1 - p3) * (p2 + (1 - p2) * p1))
    assert win_probability(1, 1) == 0.0
    assert win_probability(20, 5) > 0.95 > 0.05 > win_probability(3, 10)


# --- its choices ------------------------------------------------------------------------------


def test_attacks_with_good_odds_only() -> None:
    strong = position({"ukraine": (ANA, 10), "scandinavia": (ANA, 1)}, rest=BOB)
    assert ai(strong) == attack_from("ukraine")
    weak = position({"ukraine": (ANA, 2), "ural": (BOB, 8)}, rest=ANA)
    assert ai(weak) == END_ATTACKS


def test_goes_for_the_territory_that_completes_a_continent() -> None:
    """From Siam Ana can take India (Asia, hers to nothing) or Indonesia, the last of
    Australia she lacks: Australia it is."""
    board = {t: (ANA, 1) for t in CONTINENTS["australia"].territories}
    board |= {"siam": (ANA, 9), "indonesia": (BOB, 2), "india": (BOB, 2), "china": (BOB, 2)}
    state = position(board, rest=BOB)
    assert ai(state) == attack_from("siam")
    chosen, _ = acts(state, ANA, attack_from("siam"))
    assert ai(chosen) == attack_to("indonesia")
    rolling, _ = acts(chosen, ANA, attack_to("indonesia"))
    assert ai(rolling) == roll(3)


def test_undoes_a_choice_it_would_not_make() -> None:
    state = position({"ukraine": (ANA, 10), "scandinavia": (ANA, 2)}, rest=BOB)
    chosen, _ = acts(state, ANA, attack_from("scandinavia"))
    assert ai(chosen) == BACK


def test_trades_a_set_when_it_has_one() -> None:
    hand = (card("alaska"), card("alberta"), card("peru"), card("western_united_states"))
    state = position(
        {"alaska": (ANA, 1)}, rest=BOB, phase=Phase.REINFORCE, to_place=3, hands={ANA: hand}
    )
    assert ai(state).verb == Verb.TRADE


def test_puts_a_trades_two_armies_on_the_front() -> None:
    """Ana's set shows Venezuela (quiet, behind her lines) and Peru (facing Bob's
    Argentina): the +2 goes on Peru, though Venezuela's card comes first."""
    board = {t: (ANA, 3) for t in ("central_america", "venezuela", "peru", "brazil")}
    hand = (card("venezuela"), card("peru"), card("argentina"))
    state = position(board, rest=BOB, phase=Phase.REINFORCE, to_place=3, hands={ANA: hand})
    assert ai(state) == bonus("peru")
    chosen, _ = acts(state, ANA, bonus("peru"))
    assert ai(chosen).verb == Verb.TRADE
    traded, events = acts(chosen, ANA, ai(chosen))
    assert of_type(events, CardsTraded)[0].bonus_territory == "peru"
    assert traded.armies_on("peru") == 5


def test_places_on_the_front_not_the_interior() -> None:
    """Ana holds all of Australia; only Indonesia borders anyone (Siam)."""
    board = {t: (ANA, 1) for t in CONTINENTS["australia"].territories}
    board["siam"] = (BOB, 6)
    state = position(board, rest=BOB, phase=Phase.REINFORCE, to_place=5)
    assert ai(state) == AUTO
    placed, _ = acts(state, ANA, AUTO)
    assert placed.armies_on("indonesia") == 6
    assert placed.armies_on("eastern_australia") == 1


def test_fortifies_from_the_interior_toward_the_front() -> None:
    board = {t: (ANA, 1) for t in CONTINENTS["australia"].territories}
    board["eastern_australia"] = (ANA, 9)
    state = position(board, rest=BOB, phase=Phase.FORTIFY)
    first = ai(state)
    assert first == fortify_from("eastern_australia")
    picked, _ = acts(state, ANA, first)
    nxt = ai(picked)
    assert nxt in (fortify_to("new_guinea"), fortify_to("western_australia"))  # nearer Indonesia
    chosen, _ = acts(picked, ANA, nxt)
    assert ai(chosen) == fortify(8)


def test_connected_fortify_goes_straight_to_the_front() -> None:
    board = {t: (ANA, 1) for t in CONTINENTS["australia"].territories}
    board["eastern_australia"] = (ANA, 9)
    state = position(board, rest=BOB, phase=Phase.FORTIFY, options={"connected_fortify": True})
    picked, _ = acts(state, ANA, ai(state))
    assert ai(picked) == fortify_to("indonesia")


def test_defends_with_two_dice() -> None:
    state = position(
        {"ukraine": (ANA, 10), "ural": (BOB, 5)},
        options={"defender_chooses": True},
        source="ukraine",
        target="ural",
    )
    asked, _ = acts(state, ANA, roll(3))
    assert ai(asked, BOB) == defend(2)


def test_moves_everything_forward_out_of_the_interior() -> None:
    board = {t: (ANA, 1) for t in CONTINENTS["australia"].territories}
    board["indonesia"] = (ANA, 10)
    board["siam"] = (BOB, 1)
    state = position(board, rest=BOB, source="indonesia", target="siam")
    captured = ENGINE.resolve_roll(state, (6, 6, 6), (1,)).state
    assert captured.phase is Phase.MOVE_IN
    assert ai(captured) == move_in(max(parse_number(a) for a in legal(captured, ANA)))


# --- whole games ------------------------------------------------------------------------------


def play(seats: tuple[PlayerId, ...], bots: set[PlayerId], seed: str, **options: Any) -> RiskState:
    state = ENGINE.initial_state(seats, options, setup_rng(seed))
    picker = Random(f"{seed}:picker")
    for n in range(100_000):
        acting = ENGINE.to_act(state)
        if not acting:
            return state
        player = min(acting)
        if player in bots:
            action = ENGINE.choose(state, player, Random(n))
        else:
            action = picker.choice(list(ENGINE.legal_actions(state, player)))
        assert isinstance(action, Action)
        state = ENGINE.apply(state, player, action, step_rng(seed, n)).state
    raise AssertionError("no end")


def test_the_ai_beats_a_random_player_95_times_in_100() -> None:
    wins: Counter[object] = Counter()
    for i in range(AI_VS_RANDOM_GAMES):
        bot, rand = (-1, 1001) if i % 2 else (1001, -1)  # either seat
        state = play((bot, rand), {bot}, f"duel-{i}", turn_limit=AI_VS_RANDOM_ROUNDS)
        wins["ai" if state.winners == (bot,) else "random"] += 1
        wins[state.win] += 1
    assert wins["ai"] >= 95, wins


def test_six_ai_generals_finish_their_games() -> None:
    rounds = []
    kinds = Counter()
    for i in range(SIX_AI_GAMES):
        seats = tuple(range(-1, -7, -1))
        state = play(seats, set(seats), f"six-{i}", turn_limit=SIX_AI_GUARD)
        rounds.append(state.round)
        kinds[state.win] += 1
    assert kinds[WinKind.DOMINATION] >= SIX_AI_GAMES - 1, (kinds, rounds)
    assert max(rounds) < SIX_AI_GUARD


def test_six_ai_generals_with_secret_missions_finish() -> None:
    kinds = Counter()
    for i in range(SIX_AI_GAMES):
        seats = tuple(range(-1, -7, -1))
        state = play(seats, set(seats), f"missions-{i}", turn_limit=SIX_AI_GUARD, missions=14)
        kinds[state.win] += 1
    assert kinds[WinKind.TURN_LIMIT] <= 1, kinds
