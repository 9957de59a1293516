"""Pure questions about a Risk state, for the engine, the AI and the presenter (menus, the
`/risk attack from: to:` command, "My cards", the legend)."""

from __future__ import annotations

from collections.abc import Sequence

from rules.core import PlayerId
from rules.risk import cards
from rules.risk.battle import max_attack_dice
from rules.risk.map import CONTINENTS
from rules.risk.state import ADJACENT, INDEX, SLUGS, Phase, Reinforcement, RiskState

PLACE_AMOUNTS = (1, 3, 5)  # plus half and "all"
FORTIFY_AMOUNTS = (1, 3, 5)  # plus half and "all but one"
BLITZ_STOPS = (1, 3, 5, 10)

CONTINENT_INDEXES: dict[str, tuple[int, ...]] = {
    slug: tuple(INDEX[t] for t in c.territories) for slug, c in CONTINENTS.items()
}


def territories_of(state: RiskState, player: PlayerId) -> tuple[str, ...]:
    """`player`'s territories in map order (NEUTRAL works too)."""
    return tuple(SLUGS[i] for i, o in enumerate(state.owners) if o == player and state.armies[i])


def territory_count(state: RiskState, player: PlayerId) -> int:
    return sum(1 for i, o in enumerate(state.owners) if o == player and state.armies[i])


def army_count(state: RiskState, player: PlayerId) -> int:
    return sum(a for o, a in zip(state.owners, state.armies, strict=True) if o == player)


def continents_held(state: RiskState, player: PlayerId) -> tuple[str, ...]:
    """The continents `player` holds wholly, in map order."""
    owners, armies = state.owners, state.armies
    return tuple(
        slug
        for slug, members in CONTINENT_INDEXES.items()
        if all(owners[i] == player and armies[i] for i in members)
    )


def reinforcement(state: RiskState, player: PlayerId) -> Reinforcement:
    """max(3, territories ÷ 3) + the bonus of every continent held wholly (cards come on top)."""
    count = territory_count(state, player)
    held = continents_held(state, player)
    return Reinforcement(
        territories=count,
        from_territories=max(3, count // 3),
        continents=held,
        from_continents=sum(CONTINENTS[c].bonus for c in held),
    )


def alive(state: RiskState) -> tuple[PlayerId, ...]:
    """Players not eliminated, in turn order."""
    return tuple(p for p in state.players if not state.is_out(p))


def cards_of(state: RiskState, player: PlayerId) -> tuple[int, ...]:
    """Private: the cards `player` holds (see `cards.label`)."""
    return state.hand(player)


def card_counts(state: RiskState) -> dict[PlayerId, int]:
    """Public: how many cards each player holds."""
    return {p: len(h) for p, h in zip(state.players, state.hands, strict=True)}


def next_set_value(state: RiskState) -> int:
    return cards.set_value(state.sets_traded + 1)


def reinforcements_left(state: RiskState) -> int:
    """Armies the player to act still has to place (reinforcement or set-up turn)."""
    if state.phase is Phase.REINFORCE:
        return state.to_place
    if state.phase in (Phase.SETUP_PLACE, Phase.SETUP_CLAIM):
        return state.setup_left[state.current]
    return 0


def enemy_neighbours(state: RiskState, i: int) -> tuple[int, ...]:
    me = state.owners[i]
    return tuple(j for j in ADJACENT[i] if state.owners[j] != me)


def attack_sources(state: RiskState, player: PlayerId) -> tuple[str, ...]:
    """Territories `player` may attack from: own, 2+ armies, an enemy (or neutral) next door."""
    owners, armies = state.owners, state.armies
    return tuple(
        SLUGS[i]
        for i, o in enumerate(owners)
        if o == player and armies[i] >= 2 and any(owners[j] != player for j in ADJACENT[i])
    )


def attack_targets(state: RiskState, source: str) -> tuple[str, ...]:
    """The enemy (or neutral) territories next to `source`, in map order."""
    i = INDEX[source]
    if state.armies[i] < 2:
        return ()
    return tuple(SLUGS[j] for j in enemy_neighbours(state, i))


def attack_dice_choices(state: RiskState, source: str) -> tuple[int, ...]:
    return tuple(range(1, max_attack_dice(state.armies_on(source)) + 1))


def fortify_reach(state: RiskState, source: str) -> tuple[str, ...]:
    """Own territories armies from `source` may move to: adjacent, or with
    `connected_fortify` along any chain of own territories. Map order."""
    i = INDEX[source]
    me = state.owners[i]
    if not state.rules.connected_fortify:
        return tuple(SLUGS[j] for j in ADJACENT[i] if state.owners[j] == me)
    seen = {i}
    frontier = [i]
    while frontier:
        k = frontier.pop()
        for j in ADJACENT[k]:
            if j not in seen and state.owners[j] == me:
                seen.add(j)
                frontier.append(j)
    seen.discard(i)
    return tuple(SLUGS[j] for j in sorted(seen))


def fortify_sources(state: RiskState, player: PlayerId) -> tuple[str, ...]:
    """Own territories with 2+ armies and an own territory to move to."""
    owners, armies = state.owners, state.armies
    return tuple(
        SLUGS[i]
        for i, o in enumerate(owners)
        if o == player and armies[i] >= 2 and any(owners[j] == player for j in ADJACENT[i])
    )


def unclaimed(state: RiskState) -> tuple[str, ...]:
    """Claim set-up: the territories nobody has claimed yet."""
    return tuple(SLUGS[i] for i, a in enumerate(state.armies) if a == 0)


MAX_TRADE_OPTIONS = 5


def trade_options(state: RiskState, player: PlayerId) -> tuple[tuple[int, ...], ...]:
    """Private: the sets `player` may trade, best first, at most a handful.

    Best: a card showing one of the player's territories while the +2 is still to be had,
    then fewer wilds used (a wild completes any set later). Within a set, the card whose
    territory gets the +2 comes first: the engine gives the bonus to the first such card.
    """
    hand = state.hand(player)
    owned = {i for i, o in enumerate(state.owners) if o == player}

    def bonus_cards(combo: tuple[int, ...]) -> list[int]:
        return [c for c in combo if c not in cards.WILDS and c in owned]

    def rank(combo: tuple[int, ...]) -> tuple[int, int, tuple[int, ...]]:
        gets_bonus = not state.bonus_used and bool(bonus_cards(combo))
        wilds = sum(c in cards.WILDS for c in combo)
        return (0 if gets_bonus else 1, wilds, combo)

    ranked = sorted(cards.sets_in(hand), key=rank)[:MAX_TRADE_OPTIONS]
    ordered = []
    for combo in ranked:
        first = bonus_cards(combo)[:1]
        ordered.append(tuple(first + [c for c in combo if c not in first]))
    return tuple(ordered)


def amounts(most: int, steps: Sequence[int]) -> tuple[int, ...]:
    """A few amounts up to `most` for a menu: the steps that fit, half, and all."""
    return tuple(sorted({n for n in (*steps, most // 2, most) if 1 <= n <= most}))


def move_in_choices(state: RiskState) -> tuple[int, ...]:
    """MOVE_IN: totals for the captured territory, from the minimum (the dice of the capturing
    roll) to all but one of the source's armies, in quarter steps."""
    lo = state.move_min
    hi = lo + state.armies_on(state.source) - 1
    return tuple(sorted({lo + (hi - lo) * k // 4 for k in range(5)}))


def blitz_stops(state: RiskState) -> tuple[int, ...]:
    """Stop levels a blitz may use: the source must have more than that to roll at all."""
    armies = state.armies_on(state.source)
    return tuple(s for s in BLITZ_STOPS if s < armies)
