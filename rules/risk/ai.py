"""AI generals for bot seats and absent players, and the Auto button's placements.

They play like a sensible human: build toward the continent they are closest to holding, mass
armies on one front instead of spreading them, attack when the odds are good (exact battle
odds, `win_probability`), go after continent bonuses and weak players holding cards, trade sets
as soon as they can, and fortify from the quiet interior toward the front.

Every choice is a function of the board alone, so a multi-part move (source, then target, then
dice) is re-derived at each sub-step, and a selection the AI did not make is undone with `back`.
It has no use for the coarse verbs (`actions.COARSE_VERBS`): it places with Auto, already one
action, and it looks at the odds again after every roll and splits the armies moving in by
the board after the capture, which an assault's stop level and armies kept, fixed beforehand,
cannot say.
"""

from __future__ import annotations

from functools import cache
from itertools import product
from random import Random

from rules.core import Action, PlayerId
from rules.risk.actions import (
    AUTO,
    BACK,
    END_ATTACKS,
    END_TURN,
    Verb,
    attack_from,
    attack_to,
    bonus,
    claim,
    defend,
    fortify,
    fortify_from,
    fortify_to,
    move_in,
    neutral_on,
    place,
    roll,
    trade,
)
from rules.risk.battle import max_attack_dice, max_defend_dice, resolve_battle
from rules.risk.map import CONTINENTS, TERRITORIES
from rules.risk.queries import (
    CONTINENT_INDEXES,
    bonus_territory,
    fortify_reach,
    held_card_territories,
    how_many,
    must_trade,
    placeable,
    territory_count,
    trade_options,
    unclaimed,
)
from rules.risk.state import ADJACENT, INDEX, NEUTRAL, SLUGS, Phase, RiskState

ODDS_CAP = 60  # armies beyond this change the odds too little to tabulate
GOOD_ODDS = 0.7  # attack a plain territory at this chance of taking it
FAIR_ODDS = 0.5  # ... and a valuable one (continent, elimination) at this
_CONTINENT_OF = tuple(CONTINENTS[TERRITORIES[s].continent].slug for s in SLUGS)


def choose(state: RiskState, player: PlayerId, rng: Random) -> Action:
    """The AI general's action for `player`, always legal: claims and placements as Auto
    makes them (a set traded first), the best attack while the odds are good, the armies
    moving in split by danger, then a fortify toward the front."""
    phase = state.phase
    if phase is Phase.SETUP_CLAIM:
        return claim(claim_choice(state, player))
    if phase is Phase.SETUP_NEUTRAL:
        return neutral_on(neutral_choice(state, player))
    if phase is Phase.SETUP_PLACE:
        if state.source:  # someone's half-made choice: put everything there
            return place(placeable(state))
        return AUTO
    if phase is Phase.REINFORCE:
        return _reinforce(state, player)
    if phase is Phase.DEFEND:
        return defend(max_defend_dice(state.armies_on(state.target)))
    if phase is Phase.MOVE_IN:
        return move_in(_move_in_total(state, player))
    if phase is Phase.ATTACK:
        return _attack(state, player)
    return _fortify(state, player)


# --- battle odds ------------------------------------------------------------------------------


@cache
def _roll_odds(attack: int, defend: int) -> tuple[tuple[int, int, float], ...]:
    """(attacker losses, defender losses, probability) for one roll with these dice."""
    counts: dict[tuple[int, int], int] = {}
    for a, d in product(product(range(1, 7), repeat=attack), product(range(1, 7), repeat=defend)):
        losses = resolve_battle(a, d)
        counts[losses] = counts.get(losses, 0) + 1
    total = 6 ** (attack + defend)
    return tuple((al, dl, n / total) for (al, dl), n in sorted(counts.items()))


@cache
def _capture_chance(usable: int, defenders: int) -> float:
    if defenders <= 0:
        return 1.0
    if usable <= 0:
        return 0.0
    odds = _roll_odds(min(3, usable), min(2, defenders))
    return sum(p * _capture_chance(usable - al, defenders - dl) for al, dl, p in odds)


def win_probability(attackers: int, defenders: int) -> float:
    """The chance that `attackers` armies on a territory (one must stay behind), rolling the
    most dice to the end, take a territory held by `defenders` (who roll the most dice)."""
    return _capture_chance(min(attackers - 1, ODDS_CAP), min(defenders, ODDS_CAP))


# --- reading the board ------------------------------------------------------------------------


def _owned_in(state: RiskState, player: PlayerId, continent: str) -> int:
    return sum(state.owners[i] == player for i in CONTINENT_INDEXES[continent])


def _holds(state: RiskState, player: PlayerId, continent: str) -> bool:
    return _owned_in(state, player, continent) == len(CONTINENT_INDEXES[continent])


def _threat(state: RiskState, i: int) -> int:
    """Enemy armies next to territory i that could attack it (the neutral army never does)."""
    me = state.owners[i]
    return sum(
        state.armies[j] - 1
        for j in ADJACENT[i]
        if state.owners[j] not in (me, NEUTRAL) and state.armies[j] > 1
    )


def _is_front(state: RiskState, i: int) -> bool:
    me = state.owners[i]
    return any(state.owners[j] != me for j in ADJACENT[i])


def _goal_weights(state: RiskState, player: PlayerId) -> dict[str, float]:
    """How much the player wants each continent: the share already held, the bonus for its
    size (small continents are easy to keep), minus the enemy armies inside."""
    weights = {}
    for slug, members in CONTINENT_INDEXES.items():
        mine = sum(state.owners[i] == player for i in members)
        enemy = sum(state.armies[i] for i in members if state.owners[i] != player)
        share = mine / len(members)
        bonus = CONTINENTS[slug].bonus / len(members)
        weights[slug] = 3 * share * share + 2 * bonus - 0.05 * enemy
    return weights


def _target_value(state: RiskState, player: PlayerId, t: int, goals: dict[str, float]) -> float:
    """What taking territory t is worth to `player`."""
    continent = _CONTINENT_OF[t]
    members = CONTINENT_INDEXES[continent]
    owner = state.owners[t]
    value = 1.0 + 2 * goals[continent]
    if _owned_in(state, player, continent) + 1 == len(members):
        value += 2 * CONTINENTS[continent].bonus + 2  # completes the continent
    if owner != NEUTRAL:
        if _holds(state, owner, continent):
            value += CONTINENTS[continent].bonus  # breaks their bonus
        if territory_count(state, owner) == 1:
            value += 6 + 3 * len(state.hand(owner))  # eliminates them and takes their cards
    else:
        value *= 0.6  # the neutral army never strikes back: only worth it on the way
    if not state.conquered:
        value += 3  # the first capture of the turn earns a card
    return value


# --- set-up -----------------------------------------------------------------------------------


def claim_choice(state: RiskState, player: PlayerId) -> str:
    """Claim set-up: build a continent (small ones first), away from other players' claims."""

    def score(t: str) -> tuple[float, str]:
        i = INDEX[t]
        continent = _CONTINENT_OF[i]
        members = CONTINENT_INDEXES[continent]
        mine = sum(state.owners[j] == player and state.armies[j] for j in members)
        theirs = sum(state.owners[j] != player and state.armies[j] > 0 for j in members)
        friends = sum(state.owners[j] == player and state.armies[j] > 0 for j in ADJACENT[i])
        value = 3 * mine - 2 * theirs + (7 - len(members)) / 2 + 0.5 * friends
        return (-value, t)

    return min(unclaimed(state), key=score)


def neutral_choice(state: RiskState, player: PlayerId) -> str:
    """Two players: a neutral army goes where it blocks the opponent, away from one's own
    continent."""
    goals = _goal_weights(state, player)
    opponent = next(p for p in state.players if p != player)

    def score(t: str) -> tuple[float, str]:
        i = INDEX[t]
        near_them = sum(state.owners[j] == opponent for j in ADJACENT[i])
        near_me = sum(state.owners[j] == player for j in ADJACENT[i])
        value = near_them - near_me - 3 * goals[_CONTINENT_OF[i]]
        return (-value, t)

    return min((SLUGS[i] for i, o in enumerate(state.owners) if o == NEUTRAL), key=score)


def placement_plan(state: RiskState, player: PlayerId, count: int) -> list[tuple[int, int]]:
    """Where `count` armies go (territory index, armies): first cover the borders of held
    continents that are outnumbered, then mass the rest where the best attack starts."""
    own = [i for i, o in enumerate(state.owners) if o == player]
    fronts = [i for i in own if _is_front(state, i)] or own
    plan: dict[int, int] = {}
    left = count
    # Defend held continents' borders, with at most half of the armies.
    held = [c for c in CONTINENT_INDEXES if _holds(state, player, c)]
    guard = [i for i in fronts if _CONTINENT_OF[i] in held]
    budget = count // 2
    for i in sorted(guard, key=lambda i: state.armies[i] - _threat(state, i)):
        need = _threat(state, i) + 1 - state.armies[i]
        give = min(need, budget)
        if give > 0:
            plan[i] = plan.get(i, 0) + give
            budget -= give
            left -= give
    if left:
        goals = _goal_weights(state, player)
        spear = sorted(fronts, key=lambda i: (-_spearhead_score(state, player, i, goals), i))
        if left >= 8 and len(spear) > 1:  # big set-up waves: two fronts
            main = left * 2 // 3
            plan[spear[0]] = plan.get(spear[0], 0) + main
            plan[spear[1]] = plan.get(spear[1], 0) + left - main
        else:
            plan[spear[0]] = plan.get(spear[0], 0) + left
    return sorted(plan.items())


def _spearhead_score(state: RiskState, player: PlayerId, i: int, goals: dict[str, float]) -> float:
    """How good a base for attacks territory i is: the best target next to it, against how
    well it is already stocked, plus the danger it is in."""
    targets = [j for j in ADJACENT[i] if state.owners[j] != player]
    if not targets:
        return -100.0
    best = max(_target_value(state, player, j, goals) - 0.4 * state.armies[j] for j in targets)
    return best + 0.1 * state.armies[i] + 0.05 * _threat(state, i)


# --- a turn -----------------------------------------------------------------------------------


def _reinforce(state: RiskState, player: PlayerId) -> Action:
    if state.source:
        return place(state.to_place)
    trades = trade_options(state, player)
    if trades and (must_trade(state) or not state.resume_attack):
        # Sets only grow in value for everyone: trade as soon as one is there.
        best = trades[0]
        pick = bonus_pick(state, player, best)
        if pick != bonus_territory(state, best):
            return bonus(pick)  # first say where its +2 goes
        return trade(best)
    return AUTO


def bonus_pick(state: RiskState, player: PlayerId, traded: tuple[int, ...]) -> str:
    """Where the +2 of trading `traded` does most good: among the territories the cards show
    that the player holds, the best base for attacks (as placements go); "" if none."""
    held = held_card_territories(state, traded)
    if state.bonus_used or not held:
        return ""
    goals = _goal_weights(state, player)
    return max(held, key=lambda t: (_spearhead_score(state, player, INDEX[t], goals), t))


def attack_plan(state: RiskState, player: PlayerId) -> tuple[int, int] | None:
    """The best (source, target) worth attacking now, if any."""
    goals = _goal_weights(state, player)
    best: tuple[float, int, int] | None = None
    owners, armies = state.owners, state.armies
    for s, o in enumerate(owners):
        if o != player or armies[s] < 2:
            continue
        for t in ADJACENT[s]:
            if owners[t] == player:
                continue
            chance = win_probability(armies[s], armies[t])
            value = _target_value(state, player, t, goals)
            need = FAIR_ODDS if value >= 6 else GOOD_ODDS
            if chance < need:
                continue
            score = chance * value - 0.05 * armies[t]
            if best is None or score > best[0]:
                best = (score, s, t)
    return None if best is None else (best[1], best[2])


def _attack(state: RiskState, player: PlayerId) -> Action:
    plan = attack_plan(state, player)
    if state.source:
        if plan is None or INDEX[state.source] != plan[0]:
            return BACK
        if not state.target:
            return attack_to(SLUGS[plan[1]])
        if INDEX[state.target] != plan[1]:
            return BACK
        # Roll with the most dice, one roll at a time, looking at the odds again after each.
        return roll(max_attack_dice(state.armies_on(state.source)))
    if plan is not None:
        return attack_from(SLUGS[plan[0]])
    return END_ATTACKS


def _move_in_total(state: RiskState, player: PlayerId) -> int:
    """Split the armies by the danger each side is in; all forward from a quiet interior."""
    asked = how_many(state)
    assert asked is not None and asked.verb == Verb.MOVE_IN  # only asked in MOVE_IN
    lo, hi = asked.numbers[0], asked.numbers[-1]
    s, t = INDEX[state.source], INDEX[state.target]
    if not _is_front(state, s):
        return hi
    if not _is_front(state, t):
        return lo
    need_s = _threat(state, s) + 1
    need_t = _threat(state, t) + 1 + 3 * any(state.owners[j] != player for j in ADJACENT[t])
    total = state.armies[s] + state.armies[t]
    # Any number may move in now, so the split is exact (rounded half up), within the limits.
    wanted = int(total * need_t / (need_s + need_t) + 0.5)
    return min(max(wanted, lo), hi)


def fortify_plan(state: RiskState, player: PlayerId) -> tuple[int, int] | None:
    """Armies idle in the interior move toward the front: the (source, target) to use."""
    front = {i for i, o in enumerate(state.owners) if o == player and _is_front(state, i)}
    if not front:
        return None
    distance = _distance_to(state, player, front)
    best: tuple[int, int, int] | None = None
    for s in sorted(distance, key=lambda i: -state.armies[i]):
        if s in front or state.armies[s] < 2:
            continue
        reach = [INDEX[r] for r in fortify_reach(state, SLUGS[s])]
        closer = [r for r in reach if distance.get(r, 99) < distance[s]]
        if not closer:
            continue
        # Prefer the most threatened front territory in reach, else the nearest step.
        target = min(closer, key=lambda r: (distance.get(r, 99), -_threat(state, r), r))
        if best is None or state.armies[s] > best[0]:
            best = (state.armies[s], s, target)
    return None if best is None else (best[1], best[2])


def _distance_to(state: RiskState, player: PlayerId, front: set[int]) -> dict[int, int]:
    """Steps through own territories from each own territory to the nearest front one."""
    distance = dict.fromkeys(front, 0)
    frontier = sorted(front)
    while frontier:
        nxt = []
        for i in frontier:
            for j in ADJACENT[i]:
                if state.owners[j] == player and j not in distance:
                    distance[j] = distance[i] + 1
                    nxt.append(j)
        frontier = nxt
    return distance


def _fortify(state: RiskState, player: PlayerId) -> Action:
    plan = fortify_plan(state, player)
    if state.source:
        if plan is None or INDEX[state.source] != plan[0]:
            return BACK
        if not state.target:
            return fortify_to(SLUGS[plan[1]])
        if INDEX[state.target] != plan[1]:
            return BACK
        return fortify(state.armies_on(state.source) - 1)  # all but one
    if plan is not None:
        return fortify_from(SLUGS[plan[0]])
    return END_TURN
