"""Risk's words: the tables of its wording, territories, continents, cards and missions
named, the looks of the actions that are not numbers, and each event as narrated."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.language.i18n import N_, _, ngettext
from bot.language.wording import bold_name, count, listing
from bot.table.presenter import ButtonLook
from rules.core import Action, Event, PlayerId
from rules.risk import ENGINE, cards
from rules.risk.actions import (
    Verb,
    parse_assault,
    parse_place_at,
)
from rules.risk.map import CONTINENTS, TERRITORIES
from rules.risk.missions import effective_mission
from rules.risk.queries import (
    bonus_territory,
    territory_count,
)
from rules.risk.state import (
    NEUTRAL,
    ArmiesMovedIn,
    ArmiesPlaced,
    AttacksEnded,
    AttackStopped,
    BattleRolled,
    CardDrawn,
    CardsTraded,
    DeckReshuffled,
    DefenceNeeded,
    Fortified,
    Mission,
    MissionCompleted,
    MissionKind,
    Phase,
    PlayerEliminated,
    RiskState,
    SetupFinished,
    TerritoryCaptured,
    TerritoryClaimed,
    TurnEnded,
    TurnStarted,
)

GAME = ENGINE.name
# The lobby words a turn limit in rounds (a bare number could be turns).
LOBBY_WORDS = {
    "turn_limit": lambda rounds: (
        ngettext("{rounds} rounds", "{rounds} rounds", rounds).format(rounds=rounds)
        if rounds
        else _("none")
    )
}

RULES_SUMMARY = (
    N_(
        "**Aim:** conquer the world (two players: eliminate the opponent; the neutral army "
        "need not be beaten), or complete your secret mission in Secret Mission Risk."
    ),
    N_(
        "**Set-up:** territories are dealt (or claimed one by one), then everyone places "
        "the rest of their armies in turn, or **Auto**. **Decision:** a set-up turn puts "
        "any number of your armies on one territory, in the claim set-up too (the classic "
        "rules place one army at a time there), so a set-up takes a few clicks each "
        "instead of twenty."
    ),
    N_(
        "**Your turn:** 1) reinforcements: max(3, territories ÷ 3) + continent bonuses + "
        "card sets (any set you hold; 4, 6, 8, 10, 12, 15, then +5, counted across all "
        "players; +2 on a traded card's territory you hold, once a turn — you choose which "
        "when a set shows several; trade at 5+ cards), placed in any numbers. 2) attack "
        "from a territory with 2+ armies: up to 3 dice against 1–2, highest dice compared, "
        "**ties to the defender**; **Blitz** rolls until it falls or you reach your stop "
        "level; move in at least as many as you rolled, or any number more (leaving 1). 3) "
        "one fortify move of any number of armies to a neighbour (leaving 1). Took a "
        "territory? Draw one card."
    ),
    N_("**Eliminate** a player and take their cards (6+: trade at once)."),
    N_(
        "**Secret missions:** complete yours during your turn — even by its last move — "
        "and you win at once."
    ),
)

TERRITORY_MENUS = {
    Verb.CLAIM: N_("Claim a territory…"),
    Verb.PLACE_ON: N_("Place armies on…"),
    Verb.NEUTRAL_ON: N_("Neutral army on…"),
    Verb.ATTACK_FROM: N_("Attack from…"),
    Verb.ATTACK_TO: N_("Attack…"),
    Verb.FORTIFY_FROM: N_("Fortify from…"),
    Verb.FORTIFY_TO: N_("Move armies to…"),
}
SYMBOL_ICON = {"infantry": "🪖", "cavalry": "🐎", "artillery": "💣"}
SYMBOL_WORDS = {"infantry": N_("infantry"), "cavalry": N_("cavalry"), "artillery": N_("artillery")}
PHASE_WORDS = {
    Phase.SETUP_CLAIM: N_("claim a territory"),
    Phase.SETUP_PLACE: N_("place set-up armies"),
    Phase.SETUP_NEUTRAL: N_("place a neutral army"),
    Phase.REINFORCE: N_("reinforce"),
    Phase.ATTACK: N_("attack, or end attacks"),
    Phase.DEFEND: N_("defend"),
    Phase.MOVE_IN: N_("move armies in"),
    Phase.FORTIFY: N_("fortify, or end the turn"),
}


def card_short(card: int) -> str:
    """A card as a trade's menu option names it, "🪖 Alaska" or "🃏 Wild": short enough
    for three in one option."""
    symbol = cards.symbol(card)
    if symbol:
        return f"{SYMBOL_ICON[symbol.value]} {name_of(cards.territory(card))}"
    return "🃏 " + _("Wild")


def trade_look(traded: tuple[int, ...], state: RiskState) -> ButtonLook:
    """A set's option in the trade menu: its cards, and where its +2 armies would go."""
    bonus = bonus_territory(state, traded)
    if bonus:
        why = _("+2 on {territory}").format(territory=name_of(bonus))
    elif state.bonus_used:
        why = _("the +2 was had this turn")
    else:
        why = _("no +2: none of these territories is yours")
    label = " + ".join(card_short(c) for c in traded)
    menu = _("Trade a set…")
    return ButtonLook(label, discord.ButtonStyle.success, menu=menu, description=why)


def place_at_look(action: Action) -> ButtonLook:
    """A coarse placement (never offered; named in a replay's list of moves)."""
    territory, armies = parse_place_at(action)
    line = _("Place {armies} on {territory}")
    return ButtonLook(line.format(armies=armies, territory=name_of(territory)), emoji="➕")


def assault_look(action: Action) -> ButtonLook:
    """A whole attack in one action (never offered; named in a replay's list of moves)."""
    planned = parse_assault(action)
    line = _("Attack {target} from {source}: blitz to {stop}, keep {keep}")
    label = line.format(
        target=name_of(planned.target),
        source=name_of(planned.source),
        stop=planned.stop,
        keep=planned.keep,
    )
    return ButtonLook(label, discord.ButtonStyle.danger, "⚡")


def name_of(slug: str) -> str:
    """A territory's name in the language spoken (the map draws the same)."""
    return _(TERRITORIES[slug].name)


def continent_name(slug: str) -> str:
    """A continent's name in the language spoken (the map draws the same)."""
    return _(CONTINENTS[slug].name)


def mission_words(mission: Mission, names: Mapping[int, str] | None = None) -> str:
    """A mission card's text; `names` maps seats (colours) to what to call them."""
    if mission.kind is MissionKind.CONQUER:
        parts = [continent_name(c) for c in mission.continents]
        if mission.one_more_continent:
            parts.append(_("one more continent"))
        return _("Conquer {continents}.").format(continents=listing(parts))
    if mission.kind is MissionKind.OCCUPY:
        line = (
            _("Occupy {territories} territories with at least {armies} armies in each.")
            if mission.min_armies > 1
            else _("Occupy {territories} territories.")
        )
        return line.format(territories=mission.territories, armies=mission.min_armies)
    seat = _("seat {seat}").format(seat=mission.target + 1)
    player = (names or {}).get(mission.target, seat)
    return _("Destroy all armies of {player}.").format(player=player)


def my_mission(state: RiskState, player: PlayerId, names: Mapping[PlayerId, str]) -> str:
    """Private: "My mission" for `player`, with the fallback to 24 territories spelt out."""
    seat = state.seat_of(player)
    dealt = state.missions[seat]
    seat_names = {s: names.get(p, str(p)) for s, p in enumerate(state.players)}
    text = mission_words(dealt, seat_names)
    if effective_mission(state, seat) != dealt:
        why = (
            _("your own colour: so occupy 24 territories instead.")
            if dealt.target == seat
            else _("another player destroyed them: so occupy 24 territories instead.")
        )
        text += f" ({why})"
    held_count = territory_count(state, player)
    held = ngettext("You hold {n} territory.", "You hold {n} territories.", held_count).format(
        n=held_count
    )
    return f"{text} {held}"


def _who(player: PlayerId, names: Mapping[PlayerId, str]) -> str:
    return _("Neutral") if player == NEUTRAL else bold_name(player, names)


def _dice(dice: Sequence[int]) -> str:
    return "-".join(map(str, dice))


def card_text(card: int) -> str:
    """A card in full, as the hand and the narration name it: "🪖 Alaska (infantry)"."""
    symbol = cards.symbol(card)
    if symbol is None:
        return "🃏 " + _("Wild")
    territory = name_of(cards.territory(card))
    return f"{SYMBOL_ICON[symbol.value]} {territory} ({_(SYMBOL_WORDS[symbol.value])})"


def event_line(e: Event, names: Mapping[PlayerId, str]) -> str:
    """One public event as the board narrates it; "" for events it does not tell."""
    match e:
        case TerritoryClaimed(player=p, territory=t):
            line = _("{player} claimed {territory}.")
            return line.format(player=_who(p, names), territory=name_of(t))
        case ArmiesPlaced(player=p, owner=o, territory=t, count=n, total=total, left=left):
            line = (
                _("{player} placed {armies} neutral on {territory} ({total}); {left} left.")
                if o == NEUTRAL
                else _("{player} placed {armies} on {territory} ({total}); {left} left.")
            )
            return line.format(
                player=_who(p, names), armies=n, territory=name_of(t), total=total, left=left
            )
        case SetupFinished(first=p):
            line = _("Set-up done. {player} takes the first turn.")
            return line.format(player=_who(p, names))
        case TurnStarted(player=p, turn=n, reinforcement=r):
            held = f" + {', '.join(continent_name(c) for c in r.continents)}"
            line = _("Turn {turn}: {player} gets {armies} ({territories} → {base}{held}).")
            return line.format(
                turn=n,
                player=_who(p, names),
                armies=count(r.total, "army", "armies"),
                territories=count(r.territories, "territory", "territories"),
                base=r.from_territories,
                held=held if r.continents else "",
            )
        case CardsTraded(player=p, cards=traded, set_number=k, armies=a, bonus_territory=b):
            bonus = _("; +2 on {territory}").format(territory=name_of(b)) if b else ""
            shown = ", ".join(card_text(c) for c in traded)
            armies = count(a, "army", "armies")
            line = _("{player} traded set #{set} ({cards}) for {armies}{bonus}.")
            return line.format(
                player=_who(p, names), set=k, cards=shown, armies=armies, bonus=bonus
            )
        case DefenceNeeded(defender=d, target=t):
            line = _("{player} to choose dice for {territory}.")
            return line.format(player=_who(d, names), territory=name_of(t))
        case BattleRolled():
            line = _(
                "⚔️ {source} {attack} vs {defence}: attacker loses {attacker_losses}, "
                "defender {defender_losses} ({source_armies} v {target_armies})."
            )
            return line.format(
                source=name_of(e.source),
                attack=_dice(e.attack_dice),
                defence=_dice(e.defend_dice),
                attacker_losses=e.attacker_losses,
                defender_losses=e.defender_losses,
                source_armies=e.source_armies,
                target_armies=e.target_armies,
            )
        case AttackStopped(source=s, source_armies=a):
            line = _("The blitz stops: {territory} is down to {armies}.")
            return line.format(territory=name_of(s), armies=a)
        case TerritoryCaptured(player=p, previous_owner=o, target=t, moved=m):
            line = _("🚩 {player} took {territory} from {previous} ({armies} in).")
            return line.format(
                player=_who(p, names), territory=name_of(t), previous=_who(o, names), armies=m
            )
        case ArmiesMovedIn(target=t, count=n, target_armies=total):
            line = _("{armies} more moved into {territory} ({total}).")
            return line.format(armies=n, territory=name_of(t), total=total) if n else ""
        case PlayerEliminated(victim=v, victor=w, cards_taken=n):
            took = count(n, "card", "cards")
            line = _("☠️ {player} eliminated {victim} and took {cards}.")
            return line.format(player=_who(w, names), victim=_who(v, names), cards=took)
        case AttacksEnded(player=p):
            return _("{player} ends attacks.").format(player=_who(p, names))
        case Fortified(player=p, source=s, target=t, count=n):
            line = _("{player} moved {armies} from {source} to {target}.")
            return line.format(
                player=_who(p, names), armies=n, source=name_of(s), target=name_of(t)
            )
        case CardDrawn(player=p, cards_held=n):
            line = _("{player} drew a card ({cards} held).")
            return line.format(player=_who(p, names), cards=n)
        case DeckReshuffled(cards=n):
            line = _("The discards were shuffled into a new deck ({cards} cards).")
            return line.format(cards=n)
        case TurnEnded(player=p):
            return _("{player} ends the turn.").format(player=_who(p, names))
        case MissionCompleted(player=p, mission=m):
            line = _("🎯 {player} completed their mission: {mission}")
            return line.format(player=_who(p, names), mission=mission_words(m))
    return ""
