"""The Cock & Bull board picture: size, PNG budget, and that it shows what the state says."""

from __future__ import annotations

import functools
import io
from collections.abc import Callable
from dataclasses import replace
from random import Random

import pytest
from PIL import Image

from bot.language.i18n import speaking
from images.cock_and_bull import (
    PANELS,
    SIZE,
    SPOT_CENTRES,
    SPOT_EMPTY,
    _board,
    _palette,
    peg_centre,
    render,
    render_png,
)
from images.common import HIGHLIGHT, drawable, to_png
from images.pieces import _pieces as kept
from images.pieces import forget
from rules.cock_and_bull import ENGINE
from rules.cock_and_bull.actions import FLIP, POINT, choose_colour
from rules.cock_and_bull.state import EMPTY, CockAndBullState, Colour, Face, Phase
from rules.core import setup_rng, step_rng
from tests.images.pieces_check import assert_inside_and_apart

ANA, BOB = 101, 202
NAMES = {ANA: "Ana", BOB: "Bob"}
C, B, M = Face.COCK, Face.BULL, Face.MONKEY
PNG_LIMIT = 150_000
CROWN = 5


def initial() -> CockAndBullState:
    return ENGINE.initial_state((ANA, BOB), {}, setup_rng("board"))


def ana_red() -> CockAndBullState:
    """Ana wins the first-turn roll (Monkey beats Cock) and takes red."""
    state = ENGINE.resolve_start_die(initial(), 0, M).state
    state = ENGINE.resolve_start_die(state, 1, C).state
    return ENGINE.apply(state, ANA, choose_colour(Colour.RED), step_rng("board", 2)).state


def mid_game() -> CockAndBullState:
    """Chips of both colours, reached by playing: Ana holds a Field spot, Bob the Bend spot
    he flipped and the Crown, and Ana has rolled Cock + Bull (remove or point?)."""
    state = ana_red()
    for dice in ((C, C), (B, B), (C, M)):  # Ana: Bend, Field, then loses the turn
        state = ENGINE.resolve_roll(state, dice).state
    state = ENGINE.resolve_roll(state, (C, C)).state  # Bob: place or flip on the Bend
    assert state.phase is Phase.PLACE_OR_FLIP
    state = ENGINE.apply(state, BOB, FLIP, step_rng("board", 9)).state
    for dice in ((M, M), (B, M), (C, B)):  # Bob takes the Crown, passes; Ana: C + B
        state = ENGINE.resolve_roll(state, dice).state
    assert state.phase is Phase.REMOVE_OR_POINT
    assert state.spots == (1, EMPTY, EMPTY, 0, EMPTY, 1)
    return state


def pixel(image: Image.Image, xy: tuple[int, int]) -> tuple[int, int, int]:
    value = image.getpixel(xy)
    assert isinstance(value, tuple)
    return value[0], value[1], value[2]


def is_red(rgb: tuple[int, int, int]) -> bool:
    r, g, b = rgb
    return r > 180 and g < 90 and b < 90


def is_dark(rgb: tuple[int, int, int]) -> bool:
    return max(rgb) < 50


@pytest.mark.parametrize("make", [initial, mid_game], ids=["initial", "mid-game"])
def test_board_renders_at_its_size_and_encodes_to_a_small_valid_png(
    make: Callable[[], CockAndBullState],
) -> None:
    state = make()
    assert render(state, NAMES).size == SIZE
    png = render_png(state, NAMES)
    assert len(png) <= PNG_LIMIT
    decoded = Image.open(io.BytesIO(png))
    assert decoded.format == "PNG"
    assert decoded.size == SIZE
    decoded.verify()


@pytest.mark.parametrize("spot", range(6))
def test_each_spot_shows_red_black_or_empty(spot: int) -> None:
    state = ana_red()  # Ana (seat 0) plays red, Bob black

    def at(owner: int) -> tuple[int, int, int]:
        spots = tuple(owner if i == spot else EMPTY for i in range(6))
        return pixel(render(replace(state, spots=spots), NAMES), SPOT_CENTRES[spot])

    assert is_red(at(0))
    assert is_dark(at(1))
    empty = at(EMPTY)
    assert max(abs(a - b) for a, b in zip(empty, SPOT_EMPTY, strict=True)) <= 8


def test_crown_chip_follows_the_seat_colour_not_the_seat() -> None:
    # Bob took red this time: his chip on the Crown must be the red one.
    state = replace(ana_red(), red=1, spots=(EMPTY,) * 5 + (1,))
    assert is_red(pixel(render(state, NAMES), SPOT_CENTRES[CROWN]))


def test_peg_climbs_the_mantle_one_hole_per_point() -> None:
    for seat in (0, 1):
        holes = [peg_centre(seat, m)[1] for m in range(37)]
        assert holes == sorted(holes, reverse=True)  # 0 (off) lowest, 36 at the top
        assert len(set(holes)) == 37
        assert peg_centre(seat, 40) == peg_centre(seat, 36)  # the peg stops at 36
    assert peg_centre(0, 7)[0] < SIZE[0] / 2 < peg_centre(1, 7)[0]


def test_the_drawn_peg_moves_when_the_mantle_changes() -> None:
    state = replace(ana_red(), mantle=(7, 29))
    board = render(state, NAMES)
    assert is_red(pixel(board, peg_centre(0, 7)))
    assert is_dark(pixel(board, peg_centre(1, 29)))  # Bob's black peg
    moved = render(replace(state, mantle=(12, 29)), NAMES)
    assert is_red(pixel(moved, peg_centre(0, 12)))
    assert not is_red(pixel(moved, peg_centre(0, 7)))


def test_a_peg_with_no_points_waits_off_the_board() -> None:
    board = render(ana_red(), NAMES)
    assert is_red(pixel(board, peg_centre(0, 0)))
    assert not is_red(pixel(board, peg_centre(0, 1)))


def test_the_player_to_act_is_highlighted() -> None:
    def lit(state: CockAndBullState, seat: int) -> bool:
        x0, y0, _, y1 = PANELS[seat]
        return pixel(render(state, NAMES), (x0 + 1, (y0 + y1) // 2)) == HIGHLIGHT

    state = mid_game()  # Ana to choose
    assert lit(state, 0) and not lit(state, 1)
    state = ENGINE.apply(state, ANA, POINT, step_rng("board", 20)).state
    state = ENGINE.resolve_roll(state, (B, M)).state  # Ana loses the turn
    assert lit(state, 1) and not lit(state, 0)
    assert lit(initial(), 0) and lit(initial(), 1)  # both roll for the first turn


def test_a_chip_in_ends_the_game_and_the_winner_is_picked_out() -> None:
    state = replace(ana_red(), spots=(0, 0, 0, 0, 0, EMPTY))
    state = ENGINE.resolve_roll(state, (M, M)).state
    assert state.phase is Phase.OVER
    board = render(state, NAMES)
    assert is_red(pixel(board, SPOT_CENTRES[CROWN]))
    x0, y0, _, y1 = PANELS[0]
    assert pixel(board, (x0 + 1, (y0 + y1) // 2)) == HIGHLIGHT


def test_same_state_same_bytes() -> None:
    state = mid_game()
    first = render_png(state, NAMES)
    render_png(initial(), {ANA: "Someone else", BOB: "Another"})
    assert render_png(state, NAMES) == first


def test_awkward_names_still_render() -> None:
    assert drawable("🐸 Frog\u200b\n") == "Frog"
    names = {ANA: "🐸🐸🐸", BOB: "W" * 200}  # nothing drawable; far too wide
    assert render(mid_game(), names).size == SIZE
    assert render(initial(), {}).size == SIZE  # names unknown: "Player 1", "Player 2"


@functools.cache
def played_boards() -> tuple[tuple[CockAndBullState, dict[int, str]], ...]:
    """States of seeded games played to their end, a match among them, with short, long and
    accented names."""
    boards = []
    for seed, options in (("a", {}), ("b", {"best_of": 3}), ("c", {"point_limit": 60})):
        state = ENGINE.initial_state((ANA, BOB), options, setup_rng(seed))
        names = {ANA: "Ana María Wolfeschlegel", BOB: "Bo"} if seed != "a" else NAMES
        step = 0
        while to_act := ENGINE.to_act(state):
            player = min(to_act)
            action = ENGINE.choose(state, player, Random(f"{seed}{step}"))
            state = ENGINE.apply(state, player, action, step_rng(seed, step)).state
            boards.append((state, names))
            step += 1
    return tuple(boards)


@pytest.mark.parametrize("language", ["en", "es"])
def test_boards_drawn_piece_by_piece_are_the_whole_board_mapped(language: str) -> None:
    """Each piece is mapped onto the palette by itself and kept: a board pasted from them is
    the board drawn whole and mapped, pixel for pixel, whichever boards came before."""
    palette = _palette(language)
    with speaking(language):
        for state, names in played_boards()[::3]:
            pieced = Image.open(io.BytesIO(render_png(state, names))).convert("RGB")
            whole = Image.open(io.BytesIO(to_png(render(state, names), palette))).convert("RGB")
            assert pieced.tobytes() == whole.tobytes(), state


def test_each_piece_draws_inside_its_box_and_none_overlaps_another() -> None:
    for state, names in played_boards()[::4]:
        assert_inside_and_apart(_board(state, names)[1], SIZE)


def test_a_roll_maps_only_the_pieces_it_changed() -> None:
    """A roll that changes nothing but the dice maps one new piece (the foot); the spots,
    panels and prompt come from the boards before."""
    state = ENGINE.resolve_roll(ana_red(), (C, M)).state  # Ana loses her turn: Bob to roll
    forget()
    first = render_png(state, NAMES)
    assert render_png(state, NAMES) == first
    pieces = kept.misses
    assert render_png(replace(state, last_roll=(B, M)), NAMES) != first
    assert kept.misses == pieces + 1
