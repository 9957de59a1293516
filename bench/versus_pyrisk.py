"""Risk against pyrisk (github.com/chronitis/pyrisk), side by side in one process: three
random players a game on each side, full games to world domination, steps/s and games/s.

pyrisk is not on PyPI and has no licence, so it is never copied here: point `PYRISK_DIR` at
a checkout (`HOW_TO_GET`). Its own game loop is driven headless (no curses display) with
three of its random AI, `StupidAI`; nothing in its files is changed, the bench only
subclasses its `Game` to count steps.

How the workloads are matched (bench/README.md has the table):

- three players; territories claimed one by one, then set-up armies placed one at a time;
- Parlour's player mirrors `StupidAI`'s choices from what the state shows, one action per
  `StupidAI` decision, with Parlour's coarse verbs (`actions.COARSE_VERBS`): claim a random
  unclaimed territory (`claim`); place one set-up army at a time on a random own territory
  (`place_at:<t>,1`); spread the reinforcements army by army over random border territories
  (`place_at:<t>,<n>` per territory drawn); attack every enemy neighbour weaker than the
  attacker, as `StupidAI`'s generator finds them, walking its territories in map order
  (the board as it is at each step), to the end, everything but one army moving in
  (`assault:<from>,<to>,1,1`); no free move (`end_turn` after the last attack).
  `StupidAI` stops after one pass; Parlour's player walks on, pass after pass, until a
  whole pass finds nothing, which keeps the game as long as pyrisk's (about 35 turns; one
  pass, tried, made Parlour's games 50 turns long, their sets worth ever more armies);
- so a step is the same decision on both sides: a pyrisk step is one event its game applies
  for an AI decision (a claim, a set-up army, one territory's reinforcement, one whole
  attack), a Parlour step one `apply`. Parlour's rules add what pyrisk has not: 35 set-up
  armies each for three players (pyrisk gives 29), cards (a forced trade at five, a random
  set, is a step) and the end of the turn (a step); with the armies the sets bring, a
  Parlour game has about 1.5 times the steps and battles of a pyrisk game;
- each side's randomness is one seeded generator a game; the time is the whole game, the
  players' choices included.
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from random import Random
from types import ModuleType
from typing import Any, ClassVar

from rules.core import Action, Event, PlayerId, setup_rng
from rules.risk import ENGINE
from rules.risk.actions import END_TURN, assault, claim, place_at, trade
from rules.risk.cards import sets_in
from rules.risk.queries import must_trade, trade_order, unclaimed
from rules.risk.state import ADJACENT, SLUGS, BattleRolled, Phase, RiskState

PLAYERS = 3
ENV = "PYRISK_DIR"
HOW_TO_GET = (
    f"set {ENV} to a checkout of github.com/chronitis/pyrisk (not on PyPI, no licence: "
    f"keep it outside the repository), e.g. git clone https://github.com/chronitis/pyrisk "
    f"/tmp/pyrisk && {ENV}=/tmp/pyrisk .venv/bin/python -m bench.engine --game risk"
)


@dataclass
class Tally:
    """Full games played on one side, their steps and turns, and the seconds they took."""

    games: int = 0
    steps: int = 0
    turns: int = 0
    seconds: float = 0.0

    def add(self, steps: int, turns: int, seconds: float) -> None:
        self.games += 1
        self.steps += steps
        self.turns += turns
        self.seconds += seconds


# --- pyrisk --------------------------------------------------------------------------------------


PlayGame = Callable[[str], tuple[int, int]]
"""Plays one seeded game to its end: (steps, turns)."""
BattleLosses = Callable[[str], int]
"""Plays one seeded game to its end: the armies lost in its battles, both sides' (how much
fighting a game had: each pair of dice compared costs one army)."""


def load_pyrisk() -> tuple[PlayGame, BattleLosses] | None:
    """A headless game of three pyrisk `StupidAI`s, from the checkout in `PYRISK_DIR`, timed
    and counted; None without one. pyrisk's modules import each other by top-level names
    (`game`, `ai`...)."""
    path = os.environ.get(ENV)
    if not path or not os.path.isfile(os.path.join(path, "game.py")):
        return None
    sys.path.insert(0, path)
    game_module: ModuleType = __import__("game")
    stupid: ModuleType = __import__("ai.stupid", fromlist=["StupidAI"])

    class CountingGame(game_module.Game):  # type: ignore[misc, name-defined]
        steps = turns = 0

        def event(self, msg: tuple[Any, ...], territory: Any = None, player: Any = None) -> None:
            self.steps += msg[0] not in ("start", "victory")  # bookkeeping, not a decision
            super().event(msg, territory, player)

    class CountingAI(stupid.StupidAI):  # type: ignore[misc, name-defined]
        def reinforce(self, available: int) -> Any:
            self.game.turns += 1  # once at the start of every live player's turn
            return super().reinforce(available)

    class FightingGame(CountingGame):
        """Also adds up battle losses, from the armies before and after each attack (a
        capture's armies are split between the two territories): untimed games only."""

        losses = 0

        def event(self, msg: tuple[Any, ...], territory: Any = None, player: Any = None) -> None:
            if msg[0] in ("conquer", "defeat"):
                before, after = msg[5], msg[6]
                self.losses += sum(before) - sum(after)
            super().event(msg, territory, player)

    def played(seed: str, kind: type[CountingGame]) -> CountingGame:
        random.seed(seed)  # pyrisk rolls with the random module's generator
        game = kind(curses=False)
        for name in ("ALPHA", "BRAVO", "CHARLIE")[:PLAYERS]:
            game.add_player(name, CountingAI)
        game.play()
        return game

    def play(seed: str) -> tuple[int, int]:
        game = played(seed, CountingGame)
        return game.steps, game.turns

    def losses(seed: str) -> int:
        return played(seed, FightingGame).losses  # type: ignore[no-any-return]

    return play, losses


# --- Parlour -------------------------------------------------------------------------------------


class RandomGeneral:
    """Parlour's random player, making `StupidAI`'s choices through Parlour's actions, one
    coarse action per `StupidAI` decision (see the module's docstring); every action must pass
    `ENGINE.apply`'s check."""

    def __init__(self, rng: Random) -> None:
        self.rng = rng
        self.plan: list[Action] = []  # the turn's reinforcements still to place, last first
        self.held: dict[PlayerId, list[str]] = {}  # each player's territories, in the set-up
        self.turn, self.at = 0, 0  # the turn being played, and where its attacks got to

    def choose(self, state: RiskState, player: PlayerId) -> Action:
        return self._BY_PHASE[state.phase](self, state, player)

    def _claim(self, state: RiskState, player: PlayerId) -> Action:
        return _claim(self.rng.choice(unclaimed(state)))

    def _setup_place(self, state: RiskState, player: PlayerId) -> Action:
        if player not in self.held:  # nothing changes hands while set-up armies are placed
            self.held[player] = [SLUGS[i] for i, o in enumerate(state.owners) if o == player]
        return _place_at(self.rng.choice(self.held[player]), 1)

    def _reinforce(self, state: RiskState, player: PlayerId) -> Action:
        if must_trade(state):  # any set, at random
            combo = self.rng.choice(sets_in(state.hands[state.current]))
            return _trade(trade_order(state, player, combo))
        if not self.plan:  # StupidAI: each army on a random border territory
            border = [SLUGS[i] for i in _border(state, player)]
            drawn = Counter(self.rng.choices(border, k=state.to_place)).items()
            self.plan = [_place_at(t, n) for t, n in reversed(drawn)]  # popped from the end
        return self.plan.pop()

    def _attack(self, state: RiskState, player: PlayerId) -> Action:
        """StupidAI attacks every enemy neighbour weaker than the attacker, walking its
        territories in map order: here from where the last attack was made, round the map
        again and again until a whole round finds none, each to the end (a blitz to 1),
        everything but one army moving in."""
        if state.turn != self.turn:
            self.turn, self.at = state.turn, 0
        owners, armies = state.owners, state.armies
        for i in _WALKS[self.at]:
            if owners[i] == player and (strength := armies[i]) > 1:
                for j in ADJACENT[i]:
                    if armies[j] < strength and owners[j] != player:
                        self.at = i
                        return _ASSAULTS[i, j]
        return END_TURN  # no free move either: the turn ends (one decision, as in pyrisk)

    _BY_PHASE: ClassVar[dict[Phase, Callable[[RandomGeneral, RiskState, PlayerId], Action]]] = {
        Phase.SETUP_CLAIM: _claim,
        Phase.SETUP_PLACE: _setup_place,
        Phase.REINFORCE: _reinforce,
        Phase.ATTACK: _attack,
    }


_ASSAULTS = {  # every blitz to 1 keeping 1, made once: a player picks, it does not write
    (i, j): assault(SLUGS[i], SLUGS[j], 1, 1) for i in range(len(SLUGS)) for j in ADJACENT[i]
}
_WALKS = [(*range(at, len(SLUGS)), *range(at)) for at in range(len(SLUGS))]  # round the map
_place_at, _claim, _trade = cache(place_at), cache(claim), cache(trade)


def _border(state: RiskState, player: PlayerId) -> list[int]:
    """Own territories with an enemy next door, in map order."""
    mine = [i for i, o in enumerate(state.owners) if o == player]
    held = set(mine)
    return [i for i in mine if not _NEIGHBOURS[i] <= held]


_NEIGHBOURS = [frozenset(near) for near in ADJACENT]


def parlour_game(seed: str, seen: list[Event] | None = None) -> tuple[int, int]:
    """One Parlour game of three `RandomGeneral`s, claim set-up: (steps, turns); its events
    go into `seen` when one is given."""
    rng = Random(seed)
    general = RandomGeneral(rng)
    seats = tuple(101 * (n + 1) for n in range(PLAYERS))
    state = ENGINE.initial_state(seats, {"setup": "claim"}, setup_rng(seed))
    steps = 0
    to_act, apply, choose = ENGINE.to_act, ENGINE.apply, general.choose
    while players := to_act(state):
        player = min(players)
        step = apply(state, player, choose(state, player), rng)
        state = step.state
        if seen is not None:
            seen += step.events
        steps += 1
    return steps, state.turn


def parlour_losses(seed: str) -> int:
    """`BattleLosses` for a Parlour game."""
    seen: list[Event] = []
    parlour_game(seed, seen)
    return sum(e.attacker_losses + e.defender_losses for e in seen if isinstance(e, BattleRolled))


# --- side by side --------------------------------------------------------------------------------


def side_by_side(seconds: float, rounds: int = 12) -> tuple[Tally, Tally] | None:
    """(pyrisk, Parlour): full games, alternating sides `rounds` times for `seconds` in all
    per side (so a busy moment of the shared machine falls on both); None without pyrisk."""
    pyrisk = load_pyrisk()
    if pyrisk is None:
        return None
    sides: dict[str, PlayGame] = {"pyrisk": pyrisk[0], "parlour": parlour_game}
    tallies = {side: Tally() for side in sides}
    for side, play in sides.items():
        play(f"warm-up-{side}")
    for _ in range(rounds):
        for side, play in sides.items():
            tally = tallies[side]
            end = time.perf_counter() + seconds / rounds
            while time.perf_counter() < end:
                start = time.perf_counter()
                steps, turns = play(f"versus-{side}-{tally.games}")
                tally.add(steps, turns, time.perf_counter() - start)
    return tallies["pyrisk"], tallies["parlour"]


def battle_losses(games: int = 100) -> tuple[float, float] | None:
    """(pyrisk, Parlour): armies lost in battle a game, over `games` untimed seeded games a
    side; None without pyrisk."""
    pyrisk = load_pyrisk()
    if pyrisk is None:
        return None
    return tuple(  # type: ignore[return-value]
        sum(losses(f"battles-{n}") for n in range(games)) / games
        for losses in (pyrisk[1], parlour_losses)
    )


def versus_figures(seconds: float) -> list[tuple[str, str]]:
    """The figures for `bench.engine`'s table: each side's rates, and Parlour's ratios."""
    both, fighting = side_by_side(seconds), battle_losses()
    if both is None or fighting is None:
        print(f"versus pyrisk skipped: {HOW_TO_GET}")
        return [("versus pyrisk", f"skipped: no checkout in ${ENV}")]
    pyrisk, parlour = both
    rows = []
    for label, t in (("pyrisk", pyrisk), ("parlour", parlour)):
        rows.append(
            (
                f"3 random, {label}: games/s, steps/s ({t.games} games, "
                f"{t.steps / t.games:.0f} steps and {t.turns / t.games:.1f} turns a game)",
                f"{t.games / t.seconds:,.1f}, {t.steps / t.seconds:,.0f}",
            )
        )
    games_ratio = (parlour.games / parlour.seconds) / (pyrisk.games / pyrisk.seconds)
    steps_ratio = (parlour.steps / parlour.seconds) / (pyrisk.steps / pyrisk.seconds)
    rows.append(
        ("3 random, parlour ÷ pyrisk: games/s, steps/s", f"{games_ratio:.2f}×, {steps_ratio:.2f}×")
    )
    fought, fought_here = fighting
    rows.append(
        (
            "3 random, armies lost in battle a game (100 untimed games a side): "
            "pyrisk, parlour, parlour ÷ pyrisk",
            f"{fought:.0f}, {fought_here:.0f}, {fought_here / fought:.2f}×",
        )
    )
    return rows
