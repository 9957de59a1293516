"""Horse Collar rules (docs/rules/horse_collar.md).

The shooter sets where the weight leaves the hand with `release:<lane>` or `line_up:<weight>`
and a small `angle:<degrees>`, then shoots at a named distance with `shoot:<target>`; the
settings stay between shots, so a bare `shoot` plays the same again. Any shot is at most three
clicks: release, angle, distance. Chance is split from resolution: `apply` draws the execution
noise from the step's rng and hands it to `resolve_shot`, which tests call with the noise they
want.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from random import Random

from rules.core import N_, Action, Event, IllegalAction, Options, Outcome, PlayerId, Step
from rules.engine_base import EngineBase
from rules.horse_collar import ai
from rules.horse_collar.actions import Verb
from rules.horse_collar.controls import aim_after, shot_actions
from rules.horse_collar.geometry import FoulLine, Zone
from rules.horse_collar.options import OPTIONS
from rules.horse_collar.scoring import score_turn, zones
from rules.horse_collar.shots import DEFAULT_AIM, SAMPLE_MS, Noise, draw_noise, play_shot
from rules.horse_collar.state import (
    WEIGHTS_PER_TURN,
    Aim,
    AimSet,
    BoardSpeed,
    GameWon,
    HickeyPaid,
    HorseCollarState,
    Rules,
    SeatStats,
    TargetReached,
    TieFrame,
    TurnResult,
    TurnScored,
    TurnStarted,
    WeightShot,
)
from rules.seats import Resigned, one_seat_each, resigned_last

STATE_VERSION = 1
PLAYERS = range(2, 17)


def parse_rules(options: Options, players: int | range = PLAYERS) -> Rules:
    """The house rules `options` choose (`OPTIONS`), checked; missing ones are the defaults.

    Raises:
        IllegalAction: For a value an option does not take, or sides that `players` cannot
            make, worded for the host.
    """
    chosen = OPTIONS.resolve(options, players)
    return Rules(
        sides=chosen.number("sides"),
        target=chosen.number("target"),
        table_feet=chosen.number("table"),
        foul_line=FoulLine(chosen.text("foul_line")),
        corner_hanger=chosen.number("corner_hanger"),
        short_weight_voids_turn=chosen.flag("short_weight_voids_turn"),
        board_speed=BoardSpeed(chosen.text("board_speed")),
        hickey=chosen.number("hickey"),
        frames=chosen.number("frames"),
    )


def group_sides(seats: Sequence[PlayerId], sides: int) -> tuple[tuple[PlayerId, ...], ...]:
    """Seats arrive grouped by side, contiguous, in side order: k players a side (the
    `sides` option has checked that k is 1, 2 or 4)."""
    size = len(seats) // sides
    return tuple(tuple(seats[s * size : (s + 1) * size]) for s in range(sides))


def _side_resigns(state: HorseCollarState, player: PlayerId) -> Step[HorseCollarState]:
    """The AI takes a resigner's shots, unless every player of their side has resigned: that
    side is out, and when one side alone has players left, it wins."""
    manned = [
        s for s, players in enumerate(state.sides) if set(players) - set(state.seating.resigned)
    ]
    if len(manned) > 1:
        return Step(state, (Resigned(player),))
    won = Resigned(player, winners=state.sides[manned[0]])
    return Step(replace(state, winners=(manned[0],)), (won,))


class HorseCollar(EngineBase[HorseCollarState]):
    """The Horse Collar engine (see `rules.core.Engine`)."""

    name = "horse_collar"
    title = "Horse Collar"
    min_players = PLAYERS.start
    max_players = PLAYERS.stop - 1
    options = OPTIONS
    state_type = HorseCollarState
    state_version = STATE_VERSION
    ai_choice = staticmethod(ai.choose)
    resign_rule = staticmethod(_side_resigns)
    not_your_turn = N_("It is not your shot.")
    unavailable = N_("That is not a shot setting you can choose now.")

    # --- the engine interface ------------------------------------------------------------

    def initial_state(
        self, seats: Sequence[PlayerId], options: Options, rng: Random
    ) -> HorseCollarState:
        """The first frame: the first side to shoot on a cleared board. `seats` are grouped
        by side, in side order."""
        if len(seats) not in PLAYERS:
            raise IllegalAction("Horse Collar is for 2 to 16 players.")
        one_seat_each(seats)
        rules = parse_rules(options, len(seats))
        sides = group_sides(seats, rules.sides)
        return HorseCollarState(
            v=STATE_VERSION,
            sides=sides,
            rules=rules,
            scores=(0,) * rules.sides,
            frame=1,
            contenders=tuple(range(rules.sides)),
            turn=0,
            shot=0,
            weights=(),
            aims=(DEFAULT_AIM,) * len(seats),
            history=(),
            jar=0,
            stats=(SeatStats(),) * len(seats),
        )

    def to_act(self, state: HorseCollarState) -> frozenset[PlayerId]:
        """The shooter of the next weight, until the game is won."""
        return frozenset() if state.over else frozenset({state.shooter})

    def legal_actions(self, state: HorseCollarState, player: PlayerId) -> Sequence[Action]:
        """The shot controls (`controls.shot_actions`), for the shooter."""
        if player not in self.to_act(state):
            return ()
        return shot_actions(state)

    def play(
        self, state: HorseCollarState, player: PlayerId, action: Action, rng: Random
    ) -> Step[HorseCollarState]:
        """Change a setting, or shoot with the execution noise drawn from `rng`; a resigner's
        shots are the AI's unless their side is left empty (`resign_rule`)."""
        aim = aim_after(state, player, action)
        seat = state.seat_of(player)
        aims = tuple(aim if s == seat else a for s, a in enumerate(state.aims))
        return _BY_VERB[Verb(action.verb)](self, replace(state, aims=aims), aim, rng)

    def outcome(self, state: HorseCollarState) -> Outcome | None:
        """Places by side: the winners first, the others by score; every player of a side
        shares its place and score, with hangers, corner hangers and Hickeys as stats."""
        if not state.over:
            return None
        scores = state.scores

        def place(side: int) -> int:
            if side in state.winners:
                return 1
            return (
                1
                + len(state.winners)
                + sum(
                    scores[s] > scores[side] for s in range(len(scores)) if s not in state.winners
                )
            )

        outcome = Outcome(
            places={p: place(s) for s, players in enumerate(state.sides) for p in players},
            scores={p: scores[s] for s, players in enumerate(state.sides) for p in players},
            stats={
                p: {
                    "hangers": stats.hangers,
                    "corner_hangers": stats.corner_hangers,
                    "hickeys": stats.hickeys,
                }
                for p, stats in zip(state.players, state.stats, strict=True)
            },
        )
        return resigned_last(outcome, state.seating)

    # --- one handler per verb (`_BY_VERB`), after the aim is set -----------------------------

    def _setting(self, state: HorseCollarState, aim: Aim, rng: Random) -> Step[HorseCollarState]:
        return Step(state, (AimSet(state.shooter, aim),))

    def _shoot(self, state: HorseCollarState, aim: Aim, rng: Random) -> Step[HorseCollarState]:
        return self.resolve_shot(state, draw_noise(rng))

    # --- the shot and what follows ---------------------------------------------------------

    def resolve_shot(self, state: HorseCollarState, noise: Noise) -> Step[HorseCollarState]:
        """The shooter plays their current aim with `noise`; after the eighth weight the turn
        is scored and play moves on."""
        player = state.shooter
        aim = state.aims[state.seat_of(player)]
        result = play_shot(state.rules, state.weights, state.shot, aim, noise)
        shot = WeightShot(
            player=player,
            side=state.side,
            index=state.shot,
            aim=aim,
            speed=result.speed,
            angle=result.angle,
            sample_ms=SAMPLE_MS,
            paths=result.paths,
            before=state.weights,
            after=result.after,
            fell=result.fell,
            zones=zones(state.rules, result.after),
        )
        state = replace(state, weights=result.after, shot=state.shot + 1)
        if state.shot < WEIGHTS_PER_TURN:
            return Step(state, (shot,))
        scored = self.finish_turn(state)
        return Step(scored.state, (shot, *scored.events))

    def finish_turn(self, state: HorseCollarState) -> Step[HorseCollarState]:
        """Score the turn on the board as it lies (all 8 shot), then move play on: the next
        side, the next frame, a tie frame, or the end of the game."""
        rules = state.rules
        side = state.side
        players = state.sides[side]
        result = score_turn(rules, side, state.frame, state.weights)
        before = state.scores[side]
        total = before + result.points
        state = replace(
            state,
            scores=tuple(total if s == side else v for s, v in enumerate(state.scores)),
            history=(*state.history, result),
            stats=_count_hangers(state, result),
        )
        events: list[Event] = [TurnScored(players, result, total)]
        if result.points == 0 and rules.hickey:
            # Each player of a side whose turn scores nothing pays the stake (rules, Hickey).
            amount = rules.hickey * len(players)
            state = replace(state, jar=state.jar + amount, stats=_count_hickeys(state, side))
            events.append(HickeyPaid(players, amount, state.jar))
        if before < rules.target <= total:
            events.append(TargetReached(side, total, rules.target))
        if state.turn + 1 < len(state.contenders):
            return _next_turn(replace(state, turn=state.turn + 1), events)
        return self._end_frame(state, events)

    def _end_frame(self, state: HorseCollarState, events: list[Event]) -> Step[HorseCollarState]:
        """After the last side's turn: the highest score wins once a side has reached the
        target; sides tied for the lead play on among themselves (rules, "Winning")."""
        rules = state.rules
        best = max(state.scores[s] for s in state.contenders)
        leaders = tuple(s for s in state.contenders if state.scores[s] == best)
        limit_reached = bool(rules.frames) and state.frame >= rules.frames
        if limit_reached or (best >= rules.target and len(leaders) == 1):
            # A frame limit ends the game even on a tie: the leaders share the win.
            players = tuple(p for s in leaders for p in state.sides[s])
            events.append(GameWon(leaders, players, state.scores, state.jar))
            return Step(replace(state, winners=leaders), tuple(events))
        state = replace(state, frame=state.frame + 1, turn=0)
        if best >= rules.target:
            state = replace(state, contenders=leaders)
            events.append(TieFrame(leaders, state.frame, best))
        return _next_turn(state, events)


Handler = Callable[[HorseCollar, HorseCollarState, Aim, Random], Step[HorseCollarState]]
_BY_VERB: dict[Verb, Handler] = {
    Verb.RELEASE: HorseCollar._setting,
    Verb.LINE_UP: HorseCollar._setting,
    Verb.ANGLE: HorseCollar._setting,
    Verb.SHOOT: HorseCollar._shoot,
}


def _next_turn(state: HorseCollarState, events: list[Event]) -> Step[HorseCollarState]:
    """Each side's turn starts on a cleared board."""
    state = replace(state, shot=0, weights=())
    events.append(TurnStarted(state.side, state.frame, state.shooter, state.side == state.hammer))
    return Step(state, tuple(events))


def _count_hangers(state: HorseCollarState, result: TurnResult) -> tuple[SeatStats, ...]:
    stats = list(state.stats)
    for weight, zone in zip(result.weights, zones(state.rules, result.weights), strict=True):
        seat = state.seat_of(state.shooter_of(result.side, weight.index))
        if zone is Zone.HANGER:
            stats[seat] = replace(stats[seat], hangers=stats[seat].hangers + 1)
        elif zone is Zone.CORNER:
            stats[seat] = replace(stats[seat], corner_hangers=stats[seat].corner_hangers + 1)
    return tuple(stats)


def _count_hickeys(state: HorseCollarState, side: int) -> tuple[SeatStats, ...]:
    players = state.sides[side]
    return tuple(
        replace(stats, hickeys=stats.hickeys + 1) if p in players else stats
        for p, stats in zip(state.players, state.stats, strict=True)
    )
