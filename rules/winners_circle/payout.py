"""Paying out a race: the payout table, the pace bonus, last place and the no-debt rule."""

from __future__ import annotations

from collections.abc import Sequence

from rules.core import PlayerId
from rules.winners_circle.state import Bet, LineItem, LineKind, Phase, Rules, WinnersCircleState

# Decision in the rules file: amount per bet by the number of bets on the horse (1 … 7+).
PAYOUT_TABLE: dict[LineKind, tuple[int, ...]] = {
    LineKind.WIN: (500, 350, 300, 250, 200, 150, 100),
    LineKind.PLACE: (350, 250, 200, 150, 100, 100, 50),
    LineKind.SHOW: (250, 200, 150, 100, 100, 50, 50),
}
FINISH_KINDS = (LineKind.WIN, LineKind.PLACE, LineKind.SHOW)
PACE_BONUS = 100  # per bet on the pace horse, if it finished in the top three
LAST_PENALTY = 100  # per bet on the last horse, paid to the bank
DOUBLED_RACE = 3


def per_bet(kind: LineKind, column: int) -> int:
    """The payout table's amount per bet with `column` bets on the horse."""
    row = PAYOUT_TABLE[kind]
    return row[min(column, len(row)) - 1]


def column(bets: Sequence[Bet], rules: Rules) -> int:
    """The payout column: bets on the horse (a 2-chip is two bets, a 0-chip none) or, with
    `alternative_payouts`, chips on it (every chip once, 0-chips included)."""
    if rules.alternative_payouts:
        return len(bets)
    return sum(b.chip for b in bets)


def settle(
    players: Sequence[PlayerId],
    money: Sequence[int],
    bets: Sequence[Bet],
    finish: tuple[int, int, int],
    pace: int,
    last: Sequence[int],
    rules: Rules,
    race: int,
) -> tuple[tuple[LineItem, ...], tuple[int, ...]]:
    """The itemised payout and everyone's money after it (by seat).

    Winnings come first (Win, Place, Show, then the pace bonus), then the last horse's chips
    pay the bank, each player at most what they have: money never goes below 0. A 0-chip
    (a bluff) is paid nothing and pays nothing, so it gets no line. Race 3 doubles it all.
    """
    factor = 2 if race == DOUBLED_RACE else 1
    purse = dict(zip(players, money, strict=True))
    lines: list[LineItem] = []
    for kind, horse in zip(FINISH_KINDS, finish, strict=True):
        on_horse = [b for b in bets if b.horse == horse]
        count = column(on_horse, rules)
        for bet in on_horse:
            if bet.chip:
                amount = per_bet(kind, count) * bet.chip * factor
                purse[bet.player] += amount
                lines.append(
                    LineItem(bet.player, horse, kind, bet.chip, count, per_bet(kind, count), amount)
                )
    if pace in finish:
        for bet in bets:
            if bet.horse == pace and bet.chip:
                amount = PACE_BONUS * bet.chip * factor
                purse[bet.player] += amount
                lines.append(
                    LineItem(bet.player, pace, LineKind.PACE, bet.chip, 0, PACE_BONUS, amount)
                )
    for bet in bets:
        if bet.horse in last and bet.chip:
            owed = LAST_PENALTY * bet.chip * factor
            paid = min(owed, purse[bet.player])
            purse[bet.player] -= paid
            lines.append(
                LineItem(
                    bet.player,
                    bet.horse,
                    LineKind.LAST,
                    bet.chip,
                    0,
                    LAST_PENALTY,
                    -paid,
                    owed - paid,
                )
            )
    return tuple(lines), tuple(purse[p] for p in players)


def race_payout(state: WinnersCircleState) -> tuple[LineItem, ...]:
    """The itemised payout of the race just run (in `Phase.RACE_OVER` and `Phase.OVER`)."""
    if state.phase not in (Phase.RACE_OVER, Phase.OVER):
        raise ValueError("the race is not over")
    result = state.results[-1]
    before = state.results[-2].money if len(state.results) > 1 else (0,) * len(state.players)
    lines, _ = settle(
        state.players,
        before,
        state.bets,
        result.finish,
        result.pace,
        result.last,
        state.rules,
        result.race,
    )
    return lines
