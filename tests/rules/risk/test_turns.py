"""A turn (docs/rules/risk.md, "A turn"): reinforcements, cards, eliminations, fortify, the
end of a turn and of the game."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.core import IllegalAction
from rules.risk import ENGINE
from rules.risk.actions import (
    AUTO,
    BACK,
    END_TURN,
    Verb,
    attack_from,
    attack_to,
    bonus,
    fortify,
    fortify_from,
    fortify_to,
    move_in,
    parse_trade,
    place,
    place_on,
    roll,
    trade,
)
from rules.risk.cards import ALL_CARDS, is_set, set_value, sets_in
from rules.risk.map import CONTINENTS, TERRITORIES
from rules.risk.queries import reinforcement, trade_options
from rules.risk.state import (
    NEUTRAL,
    ArmiesPlaced,
    BattleRolled,
    CardDrawn,
    CardReceived,
    CardsHandedOver,
    CardsTraded,
    DeckReshuffled,
    Elimination,
    Fortified,
    GameWon,
    Phase,
    PlayerEliminated,
    RiskState,
    TurnStarted,
    WinKind,
)
from tests.rules.risk.scenario import (
    ANA,
    BOB,
    CY,
    WILD,
    WILD2,
    act,
    acts,
    card,
    legal,
    of_type,
    position,
)

ASIA = CONTINENTS["asia"].territories
AUSTRALIA = CONTINENTS["australia"].territories
INFANTRY = ("alaska", "alberta", "western_united_states")  # three of a kind
MIXED = ("alaska", "greenland", "quebec")  # infantry, cavalry, artillery


def ana_holds(slugs: tuple[str, ...] | list[str], armies: int = 1) -> dict[str, tuple[int, int]]:
    return {s: (ANA, armies) for s in slugs}


# --- reinforcements ---------------------------------------------------------------------------


@pytest.mark.parametrize(("count", "armies"), [(1, 3), (8, 3), (11, 3), (12, 4), (14, 4), (20, 6)])
def test_territories_divided_by_three_at_least_three(count: int, armies: int) -> None:
    # Spread over continents so none is held wholly (skipping one territory of each).
    spread = [
        s
        for s in TERRITORIES
        if s not in ("alaska", "venezuela", "iceland", "egypt", "ural", "siam")
    ]
    state = position(ana_holds(spread[:count]), rest=BOB)
    r = reinforcement(state, ANA)
    assert (r.from_territories, r.from_continents, r.total) == (armies, 0, armies)


def test_continent_bonuses_are_added() -> None:
    state = position(ana_holds(AUSTRALIA + ASIA), rest=BOB)  # 16 territories
    r = reinforcement(state, ANA)
    assert r.continents == ("asia", "australia")
    assert (r.from_territories, r.from_continents, r.total) == (5, 9, 14)


def test_a_turn_starts_with_the_reinforcements_announced() -> None:
    state = position(ana_holds(AUSTRALIA), rest=BOB, players=(BOB, ANA, CY))
    after, events = acts(state, BOB, END_TURN)
    (started,) = of_type(events, TurnStarted)
    assert started.player == ANA and started.reinforcement.total == 5  # 3 + Australia's 2
    assert after.phase is Phase.REINFORCE and after.to_place == 5 and after.player == ANA


def test_reinforcements_are_placed_before_attacking() -> None:
    state = position(ana_holds(["ukraine", "ural"]), rest=BOB, phase=Phase.REINFORCE, to_place=5)
    assert not {a.verb for a in legal(state, ANA)} & {Verb.ATTACK_FROM, Verb.END_ATTACKS}
    assert place_on("ukraine") in legal(state, ANA) and AUTO in legal(state, ANA)
    picked, _ = acts(state, ANA, place_on("ukraine"))
    assert legal(picked, ANA) == [place(1), place(2), place(3), place(4), place(5), BACK]
    some, events = acts(picked, ANA, place(3))
    assert of_type(events, ArmiesPlaced)[0].total == 4
    assert some.phase is Phase.REINFORCE and some.to_place == 2
    done, _ = acts(some, ANA, place_on("ural"), place(2))
    assert done.phase is Phase.ATTACK and done.armies_on("ural") == 3


@pytest.mark.parametrize("count", range(1, 24))
def test_any_number_of_reinforcements_may_go_on_a_territory(count: int) -> None:
    state = position(ana_holds(["ukraine", "ural"]), rest=BOB, phase=Phase.REINFORCE, to_place=23)
    placed, events = acts(state, ANA, place_on("ural"), place(count))
    assert of_type(events, ArmiesPlaced)[0].count == count
    assert placed.armies_on("ural") == 1 + count and placed.to_place == 23 - count
    assert placed.phase is (Phase.ATTACK if count == 23 else Phase.REINFORCE)


def test_placing_more_than_is_left_is_refused_clearly() -> None:
    state = position(ana_holds(["ukraine"]), rest=BOB, phase=Phase.REINFORCE, to_place=7)
    picked, _ = acts(state, ANA, place_on("ukraine"))
    for bad in ("0", "8", "x"):
        with pytest.raises(IllegalAction, match=r"^Place between 1 and 7 armies\.$"):
            act(picked, ANA, place(bad))
    with pytest.raises(IllegalAction, match="not available"):
        act(state, ANA, place(3))  # no territory chosen yet


def test_auto_places_everything() -> None:
    state = position(ana_holds(["ukraine", "ural"]), rest=BOB, phase=Phase.REINFORCE, to_place=7)
    done, events = acts(state, ANA, AUTO)
    assert sum(e.count for e in of_type(events, ArmiesPlaced)) == 7
    assert done.phase is Phase.ATTACK


# --- cards ------------------------------------------------------------------------------------


def test_sets() -> None:
    assert is_set(tuple(card(s) for s in INFANTRY))
    assert is_set(tuple(card(s) for s in MIXED))
    assert not is_set((card("alaska"), card("alberta"), card("greenland")))  # 2 + 1
    assert is_set((card("alaska"), card("greenland"), WILD))  # any two with a wild
    assert is_set((card("alaska"), WILD, WILD2))


def test_the_escalation_counted_across_all_players() -> None:
    assert [set_value(n) for n in range(1, 10)] == [4, 6, 8, 10, 12, 15, 20, 25, 30]


def test_the_eighth_set_is_worth_25_whoever_trades_it() -> None:
    """Seven sets traded before, by other players: Ana's set is the 8th."""
    hand = tuple(card(s) for s in MIXED)
    state = position(
        ana_holds(["ukraine"]),
        rest=BOB,
        phase=Phase.REINFORCE,
        to_place=3,
        hands={ANA: hand},
        sets_traded=7,
    )
    (option,) = trade_options(state, ANA)
    after, events = acts(state, ANA, trade(option))
    (traded,) = of_type(events, CardsTraded)
    assert (traded.set_number, traded.armies) == (8, 25)
    assert after.to_place == 28 and after.sets_traded == 8
    assert after.hand(ANA) == () and sorted(after.discard) == sorted(hand)


def test_bob_then_ana_trade_the_first_and_second_sets() -> None:
    hand = tuple(card(s) for s in INFANTRY)
    bobs = position(
        {}, players=(BOB, ANA, CY), rest=BOB, phase=Phase.REINFORCE, to_place=3, hands={BOB: hand}
    )
    bob_traded, events = acts(bobs, BOB, trade(trade_options(bobs, BOB)[0]))
    assert of_type(events, CardsTraded)[0].armies == 4
    anas = position(
        {},
        rest=BOB,
        phase=Phase.REINFORCE,
        to_place=3,
        hands={ANA: tuple(card(s) for s in MIXED)},
        sets_traded=bob_traded.sets_traded,
    )
    _, events = acts(anas, ANA, trade(trade_options(anas, ANA)[0]))
    assert of_type(events, CardsTraded)[0].armies == 6


def test_the_two_extra_armies_at_most_once_a_turn() -> None:
    """Ana holds Alaska, Alberta and Greenland: her first set gets +2 on Alaska; her second,
    showing Greenland, gets nothing more that turn."""
    hand = (*(card(s) for s in (*INFANTRY, "greenland", "ontario")), WILD)
    state = position(
        ana_holds(["alaska", "alberta", "greenland"]),
        rest=BOB,
        phase=Phase.REINFORCE,
        to_place=3,
        hands={ANA: hand},
    )
    first = trade_options(state, ANA)[0]
    assert first == tuple(card(s) for s in INFANTRY)  # the +2, and the wild kept
    once, events = acts(state, ANA, trade(first))
    (traded,) = of_type(events, CardsTraded)
    assert traded.bonus_territory == "alaska"
    assert once.armies_on("alaska") == 3
    assert once.to_place == 3 + 4  # the +2 went on the territory, not into the count
    (second,) = trade_options(once, ANA)
    twice, events = acts(once, ANA, trade(second))
    assert of_type(events, CardsTraded)[0].bonus_territory == ""
    assert twice.armies == once.armies and twice.to_place == 7 + 6
    next_turn = replace(
        twice, bonus_used=False, hands=((card("greenland"), card("ontario"), WILD2), (), ())
    )
    _, events = acts(next_turn, ANA, trade(trade_options(next_turn, ANA)[0]))
    assert of_type(events, CardsTraded)[0].bonus_territory == "greenland"


def test_the_bonus_needs_a_territory_the_player_holds() -> None:
    hand = tuple(card(s) for s in INFANTRY)
    state = position({}, rest=BOB, phase=Phase.REINFORCE, to_place=3, hands={ANA: hand})
    _, events = acts(state, ANA, trade(trade_options(state, ANA)[0]))
    assert of_type(events, CardsTraded)[0].bonus_territory == ""


SEVEN = (*(card(s) for s in ("alaska", "alberta", "peru", "greenland", "ontario", "quebec")), WILD)


def test_every_set_in_the_hand_is_offered() -> None:
    """Seven cards (two infantry, three cavalry, an artillery and a wild) make 22 sets: all
    may be traded, not just the best five."""
    state = position({}, rest=BOB, phase=Phase.REINFORCE, to_place=3, hands={ANA: SEVEN})
    trades = [a for a in legal(state, ANA) if a.verb == Verb.TRADE]
    assert len(sets_in(SEVEN)) == len(trades) == 22
    assert {tuple(sorted(parse_trade(a))) for a in trades} == set(sets_in(SEVEN))


@pytest.mark.parametrize("traded", sets_in(SEVEN), ids=str)
def test_any_set_of_a_big_hand_can_be_traded(traded: tuple[int, ...]) -> None:
    state = position({}, rest=BOB, phase=Phase.REINFORCE, to_place=3, hands={ANA: SEVEN})
    after, events = acts(state, ANA, trade(traded))
    assert sorted(of_type(events, CardsTraded)[0].cards) == sorted(traded)
    assert sorted(after.hand(ANA) + traded) == sorted(SEVEN) and after.to_place == 3 + 4


def three_held() -> RiskState:
    """Ana holds Alaska, Alberta and Western United States and has their three infantry
    cards, a set showing three of her territories, and Greenland (Bob's)."""
    return position(
        ana_holds(INFANTRY),
        rest=BOB,
        phase=Phase.REINFORCE,
        to_place=3,
        hands={ANA: (*(card(s) for s in INFANTRY), card("greenland"))},
    )


def test_the_player_chooses_which_held_territory_gets_the_two_armies() -> None:
    state = three_held()
    assert [a for a in legal(state, ANA) if a.verb == Verb.BONUS] == [
        bonus("alaska"),
        bonus("alberta"),
        bonus("western_united_states"),
    ]
    chosen, _ = acts(state, ANA, bonus("western_united_states"))
    assert bonus("western_united_states") not in legal(chosen, ANA)  # chosen already
    after, events = acts(chosen, ANA, trade(trade_options(chosen, ANA)[0]))
    assert of_type(events, CardsTraded)[0].bonus_territory == "western_united_states"
    assert after.armies_on("western_united_states") == 3 and after.armies_on("alaska") == 1
    assert not any(a.verb == Verb.BONUS for a in legal(after, ANA))  # had this turn


def test_without_a_choice_the_two_armies_go_on_the_first_card_shown() -> None:
    """As saved games' trades did: the first card in the action showing a held territory."""
    state = three_held()
    _, events = acts(state, ANA, trade(trade_options(state, ANA)[0]))
    assert of_type(events, CardsTraded)[0].bonus_territory == "alaska"


def test_a_choice_outside_the_traded_set_leaves_the_bonus_to_the_set() -> None:
    """Ana chose Alberta, then trades a set showing Alaska (hers) but not Alberta."""
    hand = (*(card(s) for s in INFANTRY), card("greenland"), card("quebec"))
    state = position(
        ana_holds(INFANTRY), rest=BOB, phase=Phase.REINFORCE, to_place=3, hands={ANA: hand}
    )
    chosen, _ = acts(state, ANA, bonus("alberta"))
    mixed = (card("alaska"), card("greenland"), card("quebec"))
    _, events = acts(chosen, ANA, trade(mixed))
    assert of_type(events, CardsTraded)[0].bonus_territory == "alaska"


def test_the_two_armies_can_go_only_on_a_territory_a_traded_set_shows_and_the_player_holds() -> (
    None
):
    state = three_held()
    for elsewhere in ("greenland", "ukraine", "nowhere"):
        with pytest.raises(IllegalAction):
            act(state, ANA, bonus(elsewhere))
    one_held = position(
        ana_holds(["alaska"]),
        rest=BOB,
        phase=Phase.REINFORCE,
        to_place=3,
        hands={ANA: tuple(card(s) for s in INFANTRY)},
    )
    assert not any(a.verb == Verb.BONUS for a in legal(one_held, ANA))  # nothing to choose


def test_the_choice_lasts_the_turn_only() -> None:
    chosen, _ = acts(three_held(), ANA, bonus("alberta"), place_on("alaska"), place(3))
    assert chosen.bonus_pick == "alberta" and chosen.phase is Phase.ATTACK
    after, _ = acts(chosen, ANA, END_TURN)
    assert after.bonus_pick == ""


def test_five_cards_force_a_trade_before_placing() -> None:
    hand = tuple(card(s) for s in ("alaska", "alberta", "greenland", "ontario", "quebec"))
    state = position(
        ana_holds(["ukraine"]), rest=BOB, phase=Phase.REINFORCE, to_place=3, hands={ANA: hand}
    )
    options = legal(state, ANA)
    assert all(a.verb == Verb.TRADE for a in options[:-1]) and options[-1] == AUTO
    with pytest.raises(IllegalAction):
        act(state, ANA, place_on("ukraine"))
    traded, _ = acts(state, ANA, options[0])
    assert len(traded.hand(ANA)) == 2
    assert place_on("ukraine") in legal(traded, ANA)


def test_auto_makes_the_forced_trade_too() -> None:
    hand = tuple(card(s) for s in ("alaska", "alberta", "greenland", "ontario", "quebec"))
    state = position(
        ana_holds(["ukraine"]), rest=BOB, phase=Phase.REINFORCE, to_place=3, hands={ANA: hand}
    )
    done, events = acts(state, ANA, AUTO)
    assert len(of_type(events, CardsTraded)) == 1
    assert done.phase is Phase.ATTACK and len(done.hand(ANA)) == 2


def test_a_set_may_be_kept_below_five_cards() -> None:
    hand = tuple(card(s) for s in INFANTRY)
    state = position(
        ana_holds(["ukraine"]), rest=BOB, phase=Phase.REINFORCE, to_place=3, hands={ANA: hand}
    )
    done, _ = acts(state, ANA, place_on("ukraine"), place(3))
    assert done.phase is Phase.ATTACK and len(done.hand(ANA)) == 3


def test_one_card_for_a_turn_with_captures() -> None:
    state = position(ana_holds(["ukraine"], 3), rest=BOB, conquered=True)
    top = state.deck[0]
    after, events = acts(state, ANA, END_TURN)
    (drawn,) = of_type(events, CardDrawn)
    (received,) = of_type(events, CardReceived)
    assert drawn.visible_to is None and drawn.cards_held == 1  # public: someone drew
    assert received.visible_to == {ANA} and received.card == top  # private: which
    assert after.hand(ANA) == (top,) and after.deck == state.deck[1:]


def test_no_card_without_a_capture() -> None:
    state = position(ana_holds(["ukraine"], 3), rest=BOB)
    after, events = acts(state, ANA, END_TURN)
    assert not of_type(events, CardDrawn) and after.hand(ANA) == ()


def test_an_empty_deck_is_the_discards_shuffled() -> None:
    held = (card("alaska"), card("alberta"))
    rest = tuple(c for c in ALL_CARDS if c not in held)
    state = replace(
        position(ana_holds(["ukraine"], 3), rest=BOB, conquered=True, hands={BOB: held}),
        deck=(),
        discard=rest,
    )
    after, events = acts(state, ANA, END_TURN)
    assert of_type(events, DeckReshuffled)[0].cards == len(rest)
    assert sorted(after.deck + after.hand(ANA)) == sorted(rest) and after.discard == ()


# --- eliminations -----------------------------------------------------------------------------


def eliminating(ana_cards: tuple[int, ...], bob_cards: tuple[int, ...]) -> RiskState:
    """Ana's Ukraine (10) against Bob's last territory, Ural (1); Cy holds the rest."""
    return position(
        {"ukraine": (ANA, 10), "ural": (BOB, 1), "scandinavia": (ANA, 1)},
        hands={ANA: ana_cards, BOB: bob_cards},
        source="ukraine",
        target="ural",
    )


def test_the_victor_takes_the_cards() -> None:
    bobs = (card("alaska"), card("peru"))
    state = eliminating((card("japan"),), bobs)
    step = ENGINE.resolve_roll(state, (6, 6, 6), (1,))
    (out,) = of_type(step.events, PlayerEliminated)
    assert (out.victim, out.victor, out.cards_taken) == (BOB, ANA, 2)
    (handed,) = of_type(step.events, CardsHandedOver)
    assert handed.visible_to == {ANA, BOB} and handed.cards == bobs and not handed.must_trade
    after = step.state
    assert after.hand(ANA) == (card("japan"), *bobs) and after.hand(BOB) == ()
    assert after.is_out(BOB) and after.phase is Phase.MOVE_IN


def test_six_or_more_cards_trade_down_to_four_then_place_and_attack_on() -> None:
    anas = tuple(card(s) for s in ("alaska", "greenland", "quebec", "japan"))
    bobs = tuple(card(s) for s in ("india", "china", "siam"))
    state = eliminating(anas, bobs)
    captured = ENGINE.resolve_roll(state, (6, 6, 6), (1,)).state
    assert captured.resume_attack
    after, _ = acts(captured, ANA, move_in(3))
    assert after.phase is Phase.REINFORCE and after.to_place == 0
    options = legal(after, ANA)
    assert options[-1] == AUTO and all(a.verb == Verb.TRADE for a in options[:-1])
    once, events = acts(after, ANA, options[0])
    assert len(once.hand(ANA)) == 4  # 7 - 3: four or fewer, enough
    assert not any(a.verb == Verb.TRADE for a in legal(once, ANA))  # no more trading
    assert once.to_place == of_type(events, CardsTraded)[0].armies
    placed, _ = acts(once, ANA, AUTO)
    assert placed.phase is Phase.ATTACK and placed.to_place == 0 and not placed.resume_attack


def test_trade_down_goes_on_while_five_or_more() -> None:
    anas = tuple(card(s) for s in ("alaska", "alberta", "western_united_states", "japan", "india"))
    bobs = tuple(card(s) for s in ("greenland", "ontario", "quebec", "peru"))
    state = eliminating(anas, bobs)
    captured = ENGINE.resolve_roll(state, (6, 6, 6), (1,)).state
    after, events = acts(captured, ANA, move_in(3), AUTO)
    assert len(of_type(events, CardsTraded)) == 2  # 9 -> 6 -> 3
    assert len(after.hand(ANA)) == 3 and after.phase is Phase.ATTACK


def test_five_cards_after_an_elimination_wait_for_the_next_turn() -> None:
    anas = tuple(card(s) for s in ("alaska", "greenland", "japan"))
    state = eliminating(anas, (card("india"), card("china")))
    captured = ENGINE.resolve_roll(state, (6, 6, 6), (1,)).state
    after, _ = acts(captured, ANA, move_in(3))
    assert after.phase is Phase.ATTACK and len(after.hand(ANA)) == 5


def test_domination_wins() -> None:
    state = position({"ukraine": (ANA, 10), "ural": (BOB, 1)}, rest=ANA, players=(ANA, BOB))
    state = replace(state, source="ukraine", target="ural")
    step = ENGINE.resolve_roll(state, (6, 6, 6), (1,))
    (won,) = of_type(step.events, GameWon)
    assert won.winners == (ANA,) and won.kind is WinKind.ELIMINATION
    outcome = ENGINE.outcome(step.state)
    assert outcome is not None and outcome.places == {ANA: 1, BOB: 2}
    assert ENGINE.to_act(step.state) == frozenset()


def test_world_domination_with_three_players() -> None:
    state = position(
        {"ukraine": (ANA, 10), "ural": (BOB, 1)},
        rest=ANA,
        eliminated=(Elimination(CY, ANA, 1),),
        source="ukraine",
        target="ural",
    )
    step = ENGINE.resolve_roll(state, (6, 6, 6), (1,))
    assert step.state.win is WinKind.DOMINATION and step.state.winners == (ANA,)
    outcome = ENGINE.outcome(step.state)
    assert outcome is not None and outcome.places == {ANA: 1, BOB: 2, CY: 3}  # Cy went first
    assert outcome.stats[ANA]["captures"] == 1


# --- fortify ----------------------------------------------------------------------------------


def fortify_position(**options: bool) -> RiskState:
    """Ana: Ukraine 6, Scandinavia 1 (next door), Iceland 1 (two steps away, through
    Scandinavia), Ural 1 (next door); Bob holds everything else."""
    return position(
        {"ukraine": (ANA, 6), "scandinavia": (ANA, 1), "iceland": (ANA, 1), "ural": (ANA, 1)},
        rest=BOB,
        phase=Phase.FORTIFY,
        options=options,
    )


def test_fortify_moves_to_an_adjacent_own_territory_leaving_one() -> None:
    state = fortify_position()
    assert legal(state, ANA) == [fortify_from("ukraine"), END_TURN]  # the only one with 2+
    picked, _ = acts(state, ANA, fortify_from("ukraine"))
    assert legal(picked, ANA) == [fortify_to("scandinavia"), fortify_to("ural"), BACK]
    chosen, _ = acts(picked, ANA, fortify_to("ural"))
    assert legal(chosen, ANA) == [*(fortify(n) for n in range(1, 6)), BACK]
    with pytest.raises(IllegalAction, match=r"^Move between 1 and 5 armies\.$"):
        act(chosen, ANA, fortify(6))  # at least one stays
    after, _ = acts(chosen, ANA, fortify(5))
    assert (after.armies_on("ukraine"), after.armies_on("ural")) == (1, 6)
    # Once only: the turn is over.
    assert after.player == BOB and after.phase is Phase.REINFORCE


@pytest.mark.parametrize("count", range(1, 30))
def test_fortify_any_legal_number(count: int) -> None:
    """Ukraine's 30 may send any number from 1 to 29 to Ural, once: then the turn is over."""
    state = position(
        {"ukraine": (ANA, 30), "ural": (ANA, 1)}, rest=BOB, phase=Phase.FORTIFY, source="ukraine"
    )
    chosen, _ = acts(state, ANA, fortify_to("ural"))
    assert legal(chosen, ANA) == [*(fortify(n) for n in range(1, 30)), BACK]
    after, events = acts(chosen, ANA, fortify(count))
    assert (after.armies_on("ukraine"), after.armies_on("ural")) == (30 - count, 1 + count)
    assert of_type(events, Fortified)[0].count == count
    assert after.player == BOB


def test_a_fortify_with_one_possible_number_says_so() -> None:
    state = position(
        {"ukraine": (ANA, 2), "ural": (ANA, 1)}, rest=BOB, phase=Phase.FORTIFY, source="ukraine"
    )
    chosen, _ = acts(state, ANA, fortify_to("ural"))
    assert legal(chosen, ANA) == [fortify(1), BACK]
    with pytest.raises(IllegalAction, match=r"^Move 1 army: no other number is possible\.$"):
        act(chosen, ANA, fortify(2))


def test_connected_fortify_follows_chains_of_own_territories() -> None:
    state = fortify_position(connected_fortify=True)
    picked, _ = acts(state, ANA, fortify_from("ukraine"))
    targets = legal(picked, ANA)
    assert fortify_to("iceland") in targets  # via Scandinavia
    assert fortify_to("great_britain") not in targets  # Bob's
    after, _ = acts(picked, ANA, fortify_to("iceland"), fortify(5))
    assert after.armies_on("iceland") == 6


def test_fortify_never_goes_through_an_enemy() -> None:
    state = position(
        {"ukraine": (ANA, 6), "ural": (BOB, 1), "siberia": (ANA, 1)},
        rest=BOB,
        phase=Phase.FORTIFY,
        options={"connected_fortify": True},
    )
    assert legal(state, ANA) == [END_TURN]


# --- two players: neutral ----------------------------------------------------------------------


def test_neutral_defends_at_the_maximum_without_asking() -> None:
    state = position(
        {"ukraine": (ANA, 10), "ural": (NEUTRAL, 4)},
        players=(ANA, BOB),
        rest=BOB,
        options={"defender_chooses": True},
        source="ukraine",
        target="ural",
    )
    step = act(state, ANA, roll(3))
    assert step.state.phase is Phase.ATTACK  # nobody was asked
    (rolled,) = of_type(step.events, BattleRolled)
    assert rolled.defender == NEUTRAL and len(rolled.defend_dice) == 2


def test_neutral_is_never_to_act_and_never_eliminated_for_the_win() -> None:
    state = position({"ukraine": (ANA, 10), "ural": (BOB, 1)}, players=(ANA, BOB), rest=NEUTRAL)
    state = replace(state, source="ukraine", target="ural")
    step = ENGINE.resolve_roll(state, (6, 6, 6), (1,))
    assert step.state.winners == (ANA,)  # Bob gone; neutral territories need not be taken
    assert NEUTRAL not in step.state.players


def test_neutral_territories_are_attacked_like_any() -> None:
    state = position({"ukraine": (ANA, 10), "ural": (NEUTRAL, 1)}, players=(ANA, BOB), rest=BOB)
    assert attack_from("ukraine") in legal(state, ANA)
    picked, _ = acts(state, ANA, attack_from("ukraine"))
    assert attack_to("ural") in legal(picked, ANA)


# --- the turn limit ----------------------------------------------------------------------------


def test_the_turn_limit_ends_the_game_after_the_last_round() -> None:
    state = position(ana_holds(list(TERRITORIES)[:20]), rest=BOB, options={"turn_limit": 2})
    state = replace(state, players=(BOB, CY, ANA), current=2, round=2)  # Ana plays last
    over, events = acts(state, ANA, END_TURN)
    (won,) = of_type(events, GameWon)
    assert won.kind is WinKind.TURN_LIMIT and won.winners == (BOB,)  # 22 territories to 20
    assert ENGINE.to_act(over) == frozenset()
    not_yet = replace(state, round=1)
    after, _ = acts(not_yet, ANA, END_TURN)
    assert after.phase is Phase.REINFORCE and after.round == 2 and after.player == BOB


def test_the_turn_limit_breaks_ties_on_armies() -> None:
    half = list(TERRITORIES)[:21]
    state = position(ana_holds(half, 2), rest=BOB, players=(BOB, ANA), options={"turn_limit": 1})
    state = replace(state, current=1)
    _, events = acts(state, ANA, END_TURN)
    assert of_type(events, GameWon)[0].winners == (ANA,)
