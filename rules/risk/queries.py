"""Pure questions about a Risk state, for the engine, the AI and the presenter (menus, the
`/risk attack from: to:` command, "My cards", the legend)."""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter

from rules.core import PlayerId
from rules.risk import cards
from rules.risk.actions import Verb
from rules.risk.map import CONTINENTS
from rules.risk.state import ADJACENT, INDEX, SLUGS, Phase, Reinforcement, RiskState

BLITZ_STOPS = (1, 3, 5, 10)
FORCED_TRADE_CARDS = 5  # "must" trade while holding 5 or more

TERRITORY_INDEXES = range(len(SLUGS))
CONTINENT_INDEXES: dict[str, tuple[int, ...]] = {
    slug: tuple(INDEX[t] for t in c.territories) for slug, c in CONTINENTS.items()
}
# Each continent's members picked out of a per-territory tuple in one C call (every turn's
# reinforcements look at every continent).
_CONTINENT_PICKS = tuple(
    (slug, itemgetter(*members), len(members)) for slug, members in CONTINENT_INDEXES.items()
)


def territory_count(state: RiskState, player: PlayerId) -> int:
    """How many territories `player` holds."""
    if 0 not in state.armies:  # every territory held (all but the claim set-up): count owners
        return state.owners.count(player)
    return sum(1 for o, a in zip(state.owners, state.armies, strict=True) if o == player and a)


def army_count(state: RiskState, player: PlayerId) -> int:
    """How many armies `player` has on the board."""
    return sum(a for o, a in zip(state.owners, state.armies, strict=True) if o == player)


def continents_held(state: RiskState, player: PlayerId) -> tuple[str, ...]:
    """The continents `player` holds wholly, in map order."""
    owners, armies = state.owners, state.armies
    return tuple(
        slug
        for slug, members, size in _CONTINENT_PICKS
        if members(owners).count(player) == size and all(members(armies))
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


def two_player(state: RiskState) -> bool:
    """Whether this is the two-player game, played with a neutral army."""
    return len(state.players) == 2


def alive(state: RiskState) -> tuple[PlayerId, ...]:
    """Players not eliminated, in turn order."""
    return tuple(p for p in state.players if not state.is_out(p))


def card_counts(state: RiskState) -> dict[PlayerId, int]:
    """Public: how many cards each player holds."""
    return {p: len(h) for p, h in zip(state.players, state.hands, strict=True)}


def must_trade(state: RiskState) -> bool:
    """Whether the player to act must trade a set before anything else: they hold 5 or more
    cards (rules, "A turn": sets "must" be traded then; after an elimination, until 4 or
    fewer are left)."""
    return len(state.hands[state.current]) >= FORCED_TRADE_CARDS


def next_set_value(state: RiskState) -> int:
    """The armies the next set traded will be worth, whoever trades it."""
    return cards.set_value(state.sets_traded + 1)


def enemy_neighbours(state: RiskState, i: int) -> tuple[int, ...]:
    """The territories next to territory `i` that its owner does not hold (by index)."""
    me = state.owners[i]
    return tuple(j for j in ADJACENT[i] if state.owners[j] != me)


def can_attack_from(state: RiskState, player: PlayerId, i: int) -> bool:
    """Whether `player` may attack from territory `i`: own, 2+ armies, an enemy (or neutral)
    next door."""
    owners = state.owners
    return (
        owners[i] == player
        and state.armies[i] >= 2
        and any(owners[j] != player for j in ADJACENT[i])
    )


def attack_sources(state: RiskState, player: PlayerId) -> tuple[str, ...]:
    """Territories `player` may attack from (`can_attack_from`), in map order."""
    return tuple(SLUGS[i] for i in TERRITORY_INDEXES if can_attack_from(state, player, i))


def attack_targets(state: RiskState, source: str) -> tuple[str, ...]:
    """The enemy (or neutral) territories next to `source`, in map order."""
    i = INDEX[source]
    if state.armies[i] < 2:
        return ()
    return tuple(SLUGS[j] for j in enemy_neighbours(state, i))


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


def can_fortify_from(state: RiskState, player: PlayerId, i: int) -> bool:
    """Whether `player` may move armies from territory `i`: own, 2+ armies, an own territory
    next door."""
    owners = state.owners
    return (
        owners[i] == player
        and state.armies[i] >= 2
        and any(owners[j] == player for j in ADJACENT[i])
    )


def can_fortify(state: RiskState, player: PlayerId) -> bool:
    """Whether `player` has any fortify to make (`fortify_sources` is not empty): asked at
    every end of attacks, so `can_fortify_from` is written out over the board."""
    owners = state.owners
    return any(
        o == player and a >= 2 and any(owners[j] == player for j in near)
        for o, a, near in zip(owners, state.armies, ADJACENT, strict=True)
    )


def fortify_sources(state: RiskState, player: PlayerId) -> tuple[str, ...]:
    """Territories `player` may move armies from (`can_fortify_from`), in map order."""
    return tuple(SLUGS[i] for i in TERRITORY_INDEXES if can_fortify_from(state, player, i))


def unclaimed(state: RiskState) -> tuple[str, ...]:
    """Claim set-up: the territories nobody has claimed yet."""
    return tuple(SLUGS[i] for i, a in enumerate(state.armies) if a == 0)


def held_card_territories(state: RiskState, traded: tuple[int, ...]) -> tuple[str, ...]:
    """The territories shown on `traded` that the player to act holds, in the cards' order:
    where the +2 of a trade may go (rules, "A turn": "If a traded card shows a territory the
    player occupies, 2 extra armies go on that territory")."""
    me = state.player
    return tuple(t for c in traded if (t := cards.territory(c)) and state.owner(t) == me)


def trade_options(state: RiskState, player: PlayerId) -> tuple[tuple[int, ...], ...]:
    """Private: every set `player` may trade, best first (rules: any set may be traded).

    Best: a card showing one of the player's territories while the +2 is still to be had,
    then fewer wilds used (a wild completes any set later). Within a set, the order is
    `trade_order`'s.
    """
    hand = state.hand(player)

    def rank(combo: tuple[int, ...]) -> tuple[int, int, tuple[int, ...]]:
        gets_bonus = not state.bonus_used and _bonus_card(state, player, combo) is not None
        wilds = sum(c in cards.WILDS for c in combo)
        return (0 if gets_bonus else 1, wilds, combo)

    return tuple(trade_order(state, player, c) for c in sorted(cards.sets_in(hand), key=rank))


def trade_order(state: RiskState, player: PlayerId, combo: tuple[int, ...]) -> tuple[int, ...]:
    """A set's cards (`combo`, sorted) as `trade_options` offers them: the first card showing
    a territory `player` holds comes first, since without a `bonus` choice the +2 goes there
    (this is also the order saved games' `trade` actions have)."""
    first = _bonus_card(state, player, combo)
    return combo if first is None else (first, *(c for c in combo if c != first))


def _bonus_card(state: RiskState, player: PlayerId, combo: tuple[int, ...]) -> int | None:
    """The first of the cards that shows a territory `player` holds (a territory card's
    number is its territory's index)."""
    owners = state.owners
    return next((c for c in combo if c not in cards.WILDS and owners[c] == player), None)


def bonus_territory(state: RiskState, traded: tuple[int, ...]) -> str:
    """Where trading `traded` now puts the +2: "" once it was had this turn or when no card
    shows a territory the player holds; the territory the player chose (`bonus`) if one of
    the cards shows it; else the first such card's, in the order given."""
    if state.bonus_used:
        return ""
    held = held_card_territories(state, traded)
    if state.bonus_pick in held:
        return state.bonus_pick
    return held[0] if held else ""


def bonus_choices(state: RiskState) -> tuple[str, ...]:
    """Private: the territories the player to act may choose for this turn's +2, before
    trading: those of a set that shows more than one territory they hold (with one, the set
    decides). Map order; empty once the +2 was had."""
    if state.bonus_used:
        return ()
    choices: set[str] = set()
    for combo in cards.sets_in(state.hands[state.current]):
        held = held_card_territories(state, combo)
        if len(held) > 1:
            choices.update(held)
    return tuple(t for t in SLUGS if t in choices)


@dataclass(frozen=True)
class HowMany:
    """A "how many" the rules leave to the player: `verb` with any number in `numbers`."""

    verb: Verb
    numbers: range


def placeable(state: RiskState) -> int:
    """Armies the player may put on the chosen territory now: the reinforcements left; in a
    two-player set-up, what is left of the turn's 2; otherwise all their set-up armies
    (rules, "Set-up": several at once; our Decision, in the `/risk rules` text, extends this
    to the claim set-up, whose rules place one army at a time)."""
    if state.phase is _REINFORCE or len(state.players) == 2:
        return state.to_place
    return state.setup_left[state.current]


_REINFORCE = Phase.REINFORCE  # a global: read by every placing's check (see `engine._OVER`)


def how_many(state: RiskState) -> HowMany | None:
    """The number the player to act is asked for now, if any, with every legal answer.

    Rules: reinforcements go anywhere in any numbers ("A turn", 1); after a capture "at least
    as many as dice in the last roll (and may move more), leaving at least 1 behind" (2); a
    fortify moves armies "leaving at least 1" (3). `move_in` counts all the armies in the
    captured territory, the dice that moved in at the capture included.
    """
    if state.phase is Phase.MOVE_IN:
        return HowMany(
            Verb.MOVE_IN, range(state.move_min, state.move_min + state.armies_on(state.source))
        )
    if state.phase is Phase.FORTIFY and state.target:
        return HowMany(Verb.FORTIFY, range(1, state.armies_on(state.source)))
    placing = state.phase in (Phase.SETUP_PLACE, Phase.REINFORCE)
    if placing and state.source:
        return HowMany(Verb.PLACE, range(1, placeable(state) + 1))
    return None


def blitz_stops(state: RiskState) -> tuple[int, ...]:
    """Stop levels a blitz may use: the source must have more than that to roll at all."""
    armies = state.armies_on(state.source)
    return tuple(s for s in BLITZ_STOPS if s < armies)
