"""The Horse Collar board and shot replay: size, budgets, and that they show the state."""

from __future__ import annotations

import io
from dataclasses import replace
from itertools import pairwise
from random import Random

import pytest
from PIL import Image

from images.horse_collar import SIZE, render, render_png, strip_xy, zoom_xy
from images.horse_collar_replay import CROP, render_replay
from rules.core import setup_rng, step_rng
from rules.horse_collar import ENGINE
from rules.horse_collar.shots import DEFAULT_AIM, Noise
from rules.horse_collar.state import HorseCollarState, Weight, WeightShot
from tests.images.golden import check

ANA, BOT = 101, -1
NAMES = {ANA: "Ana", BOT: "Bot"}
PNG_LIMIT = 300_000
GIF_LIMIT = 1_500_000


def initial() -> HorseCollarState:
    return ENGINE.initial_state((ANA, BOT), {"hickey": 5}, setup_rng("board"))


def mid_game() -> HorseCollarState:
    """Six weights shot by the AI, reached by playing."""
    state = initial()
    n = 0
    while state.shot < 6:
        action = ENGINE.choose(state, state.shooter, Random(n))
        state = ENGINE.apply(state, state.shooter, action, step_rng("board", n)).state
        n += 1
    return state


def pixel(image: Image.Image, xy: tuple[float, float]) -> tuple[int, int, int]:
    value = image.convert("RGB").getpixel((round(xy[0]), round(xy[1])))
    assert isinstance(value, tuple)
    return value[0], value[1], value[2]


def is_red(rgb: tuple[int, int, int]) -> bool:
    return rgb[0] > 160 and rgb[1] < 90 and rgb[2] < 90


def is_blue(rgb: tuple[int, int, int]) -> bool:
    return rgb[2] > 160 and rgb[0] < 90


def with_weights(*weights: Weight) -> HorseCollarState:
    return replace(initial(), weights=weights, shot=len(weights))


@pytest.mark.parametrize("make", [initial, mid_game], ids=["initial", "mid-game"])
def test_board_renders_at_its_size_and_encodes_to_a_small_valid_png(make: object) -> None:
    assert callable(make)
    state = make()
    assert render(state, NAMES).size == SIZE
    png = render_png(state, NAMES)
    assert len(png) <= PNG_LIMIT
    decoded = Image.open(io.BytesIO(png))
    assert decoded.format == "PNG" and decoded.size == SIZE


def test_a_weight_is_drawn_in_its_colour_where_it_rests_enlarged_and_in_the_strip() -> None:
    red = Weight(0, 3_000, -4_000)  # R1
    blue = Weight(4, 8_000, 3_000)  # B1
    state = replace(
        initial(),
        weights=(red, *[Weight(i, 200_000 + i * 5_000, 0, True) for i in (1, 2, 3)], blue),
        shot=5,
    )
    image = render(state, NAMES)
    table = state.rules.table
    # The rim of the enlarged sprite (its middle carries the label).
    rx, ry = zoom_xy(red.d, red.y)
    bx, by = zoom_xy(blue.d, blue.y)
    assert is_red(pixel(image, (rx - 14, ry)))
    assert is_blue(pixel(image, (bx - 14, by)))
    assert is_red(pixel(image, strip_xy(table, red.d, red.y)))
    assert is_blue(pixel(image, strip_xy(table, blue.d, blue.y)))


def test_the_drawn_weight_moves_when_it_moves_and_a_fallen_one_is_not_drawn() -> None:
    at_3 = Weight(0, 3_000, 0)
    moved = Weight(0, 20_000, 0)
    before = render(with_weights(at_3), NAMES)
    after = render(with_weights(moved), NAMES)
    gone = render(with_weights(replace(at_3, fallen=True)), NAMES)
    spot = zoom_xy(3_000, 0)
    spot = (spot[0] - 14, spot[1])
    assert is_red(pixel(before, spot))
    assert not is_red(pixel(after, spot)) and not is_red(pixel(gone, spot))
    assert is_red(pixel(after, (zoom_xy(20_000, 0)[0] - 14, zoom_xy(20_000, 0)[1])))


def test_rendering_is_deterministic() -> None:
    state = mid_game()
    assert render_png(state, NAMES) == render_png(state, NAMES)


def test_golden_boards() -> None:
    check("horse_collar_initial", render_png(initial(), NAMES))
    check("horse_collar_mid", render_png(mid_game(), NAMES))


# --- the replay -------------------------------------------------------------------------------


def a_shot() -> WeightShot:
    """A straight lag into a weight in the 2 zone."""
    state = with_weights(Weight(0, 8_000, 0))
    state = replace(state, aims=(replace(DEFAULT_AIM, target="in_2"),) * 2)
    shot = ENGINE.resolve_shot(state, Noise()).events[0]
    assert isinstance(shot, WeightShot)
    return shot


def frames(gif: bytes) -> list[Image.Image]:
    image = Image.open(io.BytesIO(gif))
    assert image.format == "GIF"
    out = []
    for k in range(image.n_frames):
        image.seek(k)
        out.append(image.convert("RGB"))
    return out


def test_the_replay_is_a_short_small_animation_of_the_paths() -> None:
    shot = a_shot()
    rules = initial().rules
    gif = render_replay(rules, shot)
    assert len(gif) <= GIF_LIMIT
    pictures = frames(gif)
    assert 10 <= len(pictures) <= 50
    durations = [Image.open(io.BytesIO(gif)).info.get("duration", 0)]
    assert durations[0] >= 40
    table = rules.table
    first, last = pictures[0], pictures[-1]

    def at(image: Image.Image, xy: tuple[float, float]) -> tuple[int, int, int]:
        return pixel(image, (xy[0] - CROP[0], xy[1] - CROP[1]))

    start = shot.paths[0].points[0]
    assert is_red(at(first, strip_xy(table, *start)))  # R2 leaves the shooter's end
    rest = shot.after[1]
    spot = zoom_xy(rest.d, rest.y)
    assert is_red(at(last, (spot[0] - 14, spot[1])))  # and ends where it rests
    assert not is_red(at(first, (spot[0] - 14, spot[1])))


def test_the_replay_is_deterministic() -> None:
    shot = a_shot()
    rules = initial().rules
    assert render_replay(rules, shot) == render_replay(rules, shot)


def test_a_weight_knocked_off_shrinks_away_where_it_left_the_board() -> None:
    state = with_weights(Weight(0, 3_000, 0))  # R1 in the 3 zone, straight ahead
    state = replace(state, aims=(replace(DEFAULT_AIM, target="off"),) * 2)
    shot = ENGINE.resolve_shot(state, Noise()).events[0]
    assert isinstance(shot, WeightShot)
    fallen = [p for p in shot.paths if p.fell_at is not None]
    assert fallen, "knocking it off makes something fall"
    path = fallen[0]
    pictures = frames(render_replay(initial().rules, shot))
    edge = zoom_xy(*path.points[path.fell_at])
    red = [
        sum(is_red(pixel(p, (edge[0] - CROP[0] + dx, edge[1] - CROP[1]))) for dx in range(-30, 31))
        for p in pictures
    ]
    # Drawn whole where it fell, then for a few frames smaller each time, then gone.
    at_fall = len(red) - 1 - red[::-1].index(max(red))
    shrinking = [n for n in red[at_fall:] if n]
    assert len(shrinking) >= 3
    assert all(a > b for a, b in pairwise(shrinking))
    assert red[-1] == 0
