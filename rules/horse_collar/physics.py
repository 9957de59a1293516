"""The shuffleboard simulation (docs/rules/horse_collar.md, "Physics").

Top-down rigid discs of equal mass on a flat playfield with no rails: constant sliding
deceleration mu*g against the velocity, disc-disc collisions with restitution 0.92 and no spin,
and a weight falls the moment its centre leaves the playfield.

The simulation advances on a fixed grid of `DT` steps, integrating constant deceleration
exactly within a step, so a lone weight stops exactly where v^2 / (2 mu g) says. Collisions
are found inside a step by solving for the touching time and resolved there. Most of a shot
is one or two weights sliding far from everything, so whenever no contact and no fall is
possible for a while the loop jumps whole steps at once — the exact integration makes a jump
identical to stepping, and that is what keeps a shot down to a millisecond or two.

Everything here is floats in inches and seconds; callers convert from and to mils.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

GRAVITY = 386.09  # in/s^2
RESTITUTION = 0.92
RADIUS_IN = 1.156
CONTACT = 2 * RADIUS_IN  # centre distance of two touching weights
DT = 0.002  # s, the fixed step
SAMPLE_STEPS = 20  # a path sample every 40 ms: 25 a second, enough to animate
SAMPLE_DT = DT * SAMPLE_STEPS
MAX_STEPS = 30_000  # 60 s: far beyond any shot, only a guard against an endless loop
MAX_CONTACTS_PER_STEP = 32

Vec = tuple[float, float]


@dataclass(frozen=True)
class Simulation:
    """How a shot played out.

    `rests[i]` is where weight i came to rest (or where it fell); `paths[i]` its position at
    every sample time (`SAMPLE_DT` apart, all paths equally long) if it moved at all, else
    None; `fell_at[i]` the sample index at which it fell, if it did.
    """

    rests: tuple[Vec, ...]
    fallen: tuple[bool, ...]
    paths: tuple[tuple[Vec, ...] | None, ...]
    fell_at: tuple[int | None, ...]
    steps: int


def stopping_distance(speed: float, decel: float) -> float:
    """How far a lone weight slides: v^2 / (2 mu g)."""
    return speed * speed / (2 * decel)


def simulate(
    positions: Sequence[Vec],
    shooter: int,
    velocity: Vec,
    *,
    length: float,
    half_width: float,
    decel: float,
    fallen: Sequence[bool] = (),
) -> Simulation:
    """Slide weight `shooter` from `positions[shooter]` with `velocity` until all is at rest.

    `positions` are (d, y): d from the target end (a shot toward the target has negative
    d-velocity), y from the centre line. Weights marked `fallen` take no part.
    """
    return _Run(positions, shooter, velocity, length, half_width, decel, fallen).run()


class _Run:
    """One simulation's mutable working state (kept off the public API)."""

    def __init__(
        self,
        positions: Sequence[Vec],
        shooter: int,
        velocity: Vec,
        length: float,
        half_width: float,
        decel: float,
        fallen: Sequence[bool],
    ) -> None:
        n = len(positions)
        self.n = n
        self.x = [p[0] for p in positions]
        self.y = [p[1] for p in positions]
        self.vx = [0.0] * n
        self.vy = [0.0] * n
        self.vx[shooter], self.vy[shooter] = velocity
        self.alive = [not (fallen[i] if i < len(fallen) else False) for i in range(n)]
        self.moved = [False] * n
        self.moved[shooter] = True
        self.fell_at: list[int | None] = [None] * n
        self.length = length
        self.half_width = half_width
        self.decel = decel
        self.step = 0
        # Samples are taken of moving weights only; a still one is padded with its place
        # before it starts to move and at the end (`_pad`), so all paths line up.
        self.taken = 1
        self.samples: list[list[Vec]] = [[(self.x[i], self.y[i])] for i in range(n)]

    # --- the loop ------------------------------------------------------------------------------

    def run(self) -> Simulation:
        while self.step < MAX_STEPS:
            moving = [i for i in range(self.n) if self.alive[i] and self._speed(i) > 0.0]
            if not moving:
                break
            jump = self._safe_steps(moving)
            if jump >= 2:
                self._jump(moving, jump)
            else:
                self._single_step()
            self._fall_off()
        self.taken = _sample_at(self.step) + 1  # the first sample time with all still
        for i in range(self.n):
            self._pad(i)
        return Simulation(
            rests=tuple((self.x[i], self.y[i]) for i in range(self.n)),
            fallen=tuple(not a for a in self.alive),
            paths=tuple(tuple(self.samples[i]) if self.moved[i] else None for i in range(self.n)),
            fell_at=tuple(self.fell_at),
            steps=self.step,
        )

    def _speed(self, i: int) -> float:
        return math.hypot(self.vx[i], self.vy[i])

    def _safe_steps(self, moving: list[int]) -> int:
        """Whole steps during which no weight can touch another or leave the playfield.

        A moving weight's contact with a still one, or its crossing of an edge, is found
        exactly along its straight slide; two moving weights use a bound on their closing
        speed."""
        decel = self.decel
        horizon = math.inf
        speeds = {i: self._speed(i) for i in moving}
        for i in moving:
            s = speeds[i]
            ux, uy = self.vx[i] / s, self.vy[i] / s
            reach = stopping_distance(s, decel)
            edge = math.inf
            if ux:
                edge = (self.x[i] if ux < 0 else self.length - self.x[i]) / abs(ux)
            if uy:
                edge = min(edge, (self.half_width - self.y[i] * math.copysign(1, uy)) / abs(uy))
            if edge <= reach:
                horizon = min(horizon, self._time_to_slide(s, edge))
            for j in range(self.n):
                if j == i or not self.alive[j]:
                    continue
                dx, dy = self.x[j] - self.x[i], self.y[j] - self.y[i]
                if j in speeds:
                    if j < i:
                        continue  # each moving pair once
                    gap = math.hypot(dx, dy) - CONTACT
                    if reach + stopping_distance(speeds[j], decel) >= gap:
                        horizon = min(horizon, max(gap, 0.0) / (s + speeds[j]))
                    continue
                along = dx * ux + dy * uy
                off_line = CONTACT * CONTACT - (dx * dx + dy * dy - along * along)
                if along <= 0.0 or off_line <= 0.0:
                    continue  # behind it, or clear of its line
                contact = along - math.sqrt(off_line)
                if contact <= reach:
                    horizon = min(horizon, self._time_to_slide(s, max(contact, 0.0)))
        to_rest = max(math.ceil(speeds[i] / (decel * DT)) for i in moving)
        if horizon == math.inf:
            return to_rest
        return min(to_rest, int(horizon / DT))

    def _time_to_slide(self, speed: float, distance: float) -> float:
        """When a weight sliding from `speed` has covered `distance` (it must reach it)."""
        return (speed - math.sqrt(max(0.0, speed * speed - 2 * self.decel * distance))) / self.decel

    def _jump(self, moving: list[int], steps: int) -> None:
        """Advance `steps` whole steps with nothing in contact, sampling on the way."""
        start = self.step
        k = (start // SAMPLE_STEPS + 1) * SAMPLE_STEPS
        if k <= start + steps:
            slides = [(i, *self._heading(i)) for i in moving]
            while k <= start + steps:
                tau = (k - start) * DT
                self.taken += 1
                for i, ux, uy, s in slides:
                    travel = self._travel(s, tau)
                    self.samples[i].append((self.x[i] + ux * travel, self.y[i] + uy * travel))
                k += SAMPLE_STEPS
        for i in moving:
            self._advance(i, steps * DT)
        self.step = start + steps

    def _heading(self, i: int) -> tuple[float, float, float]:
        s = self._speed(i)
        return self.vx[i] / s, self.vy[i] / s, s

    def _single_step(self) -> None:
        """One step, stopping at each contact inside it to resolve the collision."""
        remaining = DT
        for _ in range(MAX_CONTACTS_PER_STEP):
            contact = self._first_contact(remaining)
            if contact is None:
                break
            t, i, j = contact
            self._advance_all(t)
            self._collide(i, j)
            remaining -= t
        self._advance_all(remaining)
        self.step += 1
        if self.step % SAMPLE_STEPS == 0:
            self._record([i for i in range(self.n) if self.alive[i] and self._speed(i) > 0.0])

    def _first_contact(self, window: float) -> tuple[float, int, int] | None:
        """The earliest touching time within `window`, with each weight moving at its mean
        velocity over the window (exact to a ten-thousandth of an inch at this step)."""
        mean: dict[int, Vec] = {}
        for i in range(self.n):
            s = self._speed(i)
            if not self.alive[i] or s == 0.0:
                continue
            travel = self._travel(s, window) / window
            mean[i] = (self.vx[i] / s * travel, self.vy[i] / s * travel)
        best: tuple[float, int, int] | None = None
        for i in range(self.n):
            if not self.alive[i]:
                continue
            for j in range(i + 1, self.n):
                if not self.alive[j] or (i not in mean and j not in mean):
                    continue
                vi = mean.get(i, (0.0, 0.0))
                vj = mean.get(j, (0.0, 0.0))
                t = _touching_time(
                    (self.x[j] - self.x[i], self.y[j] - self.y[i]),
                    (vj[0] - vi[0], vj[1] - vi[1]),
                )
                if t is not None and t <= window and (best is None or t < best[0]):
                    best = (t, i, j)
        return best

    def _collide(self, i: int, j: int) -> None:
        """Equal masses, no spin: only the velocity along the line of centres changes."""
        nx, ny = self.x[j] - self.x[i], self.y[j] - self.y[i]
        dist = math.hypot(nx, ny) or 1.0
        nx, ny = nx / dist, ny / dist
        approach = (self.vx[i] - self.vx[j]) * nx + (self.vy[i] - self.vy[j]) * ny
        if approach <= 0.0:
            return
        self._pad(i)
        self._pad(j)
        impulse = (1 + RESTITUTION) / 2 * approach
        self.vx[i] -= impulse * nx
        self.vy[i] -= impulse * ny
        self.vx[j] += impulse * nx
        self.vy[j] += impulse * ny
        self.moved[i] = self.moved[j] = True

    def _travel(self, speed: float, tau: float) -> float:
        """Distance slid in `tau` from `speed` under constant deceleration (exact)."""
        after = speed - self.decel * tau
        if after <= 0.0:
            return stopping_distance(speed, self.decel)
        return (speed + after) / 2 * tau

    def _advance(self, i: int, tau: float) -> None:
        s = self._speed(i)
        if s == 0.0:
            return
        ux, uy = self.vx[i] / s, self.vy[i] / s
        travel = self._travel(s, tau)
        after = max(0.0, s - self.decel * tau)
        self.x[i] += ux * travel
        self.y[i] += uy * travel
        self.vx[i], self.vy[i] = ux * after, uy * after

    def _advance_all(self, tau: float) -> None:
        if tau <= 0.0:
            return
        for i in range(self.n):
            if self.alive[i]:
                self._advance(i, tau)

    def _fall_off(self) -> None:
        """A weight falls the moment its centre leaves the playfield (rules, "Physics")."""
        for i in range(self.n):
            if not self.alive[i]:
                continue
            if self.x[i] < 0 or self.x[i] > self.length or abs(self.y[i]) > self.half_width:
                self.alive[i] = False
                self.vx[i] = self.vy[i] = 0.0
                self.fell_at[i] = _sample_at(self.step)

    def _record(self, indices: Iterable[int]) -> None:
        self.taken += 1
        for i in indices:
            self.samples[i].append((self.x[i], self.y[i]))

    def _pad(self, i: int) -> None:
        """Fill weight i's path up to now with where it is: it has been still since its
        last sample (or is about to move from here)."""
        missing = self.taken - len(self.samples[i])
        if missing > 0:
            self.samples[i].extend([(self.x[i], self.y[i])] * missing)


def _sample_at(step: int) -> int:
    """The first sample taken at or after `step`."""
    return -(-step // SAMPLE_STEPS)


def _touching_time(p: Vec, w: Vec) -> float | None:
    """When |p + w t| first equals the contact distance, for t >= 0, if they approach."""
    b = p[0] * w[0] + p[1] * w[1]
    if b >= 0.0:
        return None  # moving apart or level
    a = w[0] * w[0] + w[1] * w[1]
    c = p[0] * p[0] + p[1] * p[1] - CONTACT * CONTACT
    if c <= 0.0:
        return 0.0  # already touching and closing
    disc = b * b - a * c
    if disc < 0.0:
        return None  # they pass by
    return (-b - math.sqrt(disc)) / a
