"""The Winner's Circle pictures: size, PNG budget, and that they show what the state says."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image

import images.common
import images.winners_circle
from bot.language.i18n import speaking
from cogs.pictures import TRANSLATIONS
from images.common import HIGHLIGHT
from images.winners_circle import (
    CARD_BACK,
    CARD_FACE,
    CARD_ROW,
    COLUMN_PACE_CHIP,
    HORSE_COLOUR,
    HORSE_COLOURS,
    HORSE_NAMES,
    PACE_CHIP_AT,
    SIZE,
    TRACK_DARK,
    TRACK_LIGHT,
    card_box,
    column_pace_chip,
    render,
    render_payout,
    render_payout_png,
    render_png,
    space_centre,
)
from images.words import pgettext, use_translations
from rules.winners_circle import ENGINE
from rules.winners_circle.cards import Symbol
from rules.winners_circle.state import FINISH, PACE_SPACE, Bet, Phase, WinnersCircleState
from tests.images.drawn import DrawnText
from tests.images.golden import check
from tests.rules.winners_circle.scenario import (
    ANA,
    BOB,
    CAT,
    RNG,
    lap,
    new_game,
    racing,
    random_game,
)

NAMES = {ANA: "Ana", BOB: "Bob", CAT: "Cat"}
PNG_LIMIT = 300_000
RED, BLUE = HORSE_COLOURS[1], HORSE_COLOURS[2]


def initial() -> WinnersCircleState:
    return new_game()


def mid_race() -> WinnersCircleState:
    """Race 1 under way with bets placed, a horse in, cards face down: from a seeded game."""
    game = random_game((ANA, BOB, CAT), "picture")
    return next(s for s, _ in game if s.phase is Phase.MOVE and len(s.finished) == 1)


def race_over() -> WinnersCircleState:
    game = random_game((ANA, BOB, CAT), "picture")
    return next(s for s, _ in game if s.phase is Phase.RACE_OVER)


def game_over() -> WinnersCircleState:
    return random_game((ANA, BOB, CAT), "picture")[-1][0]


def crowded() -> WinnersCircleState:
    return new_game(crowded_field=True, hidden_bets=True)


def pixel(image: Image.Image, xy: tuple[float, float]) -> tuple[int, int, int]:
    value = image.getpixel((round(xy[0]), round(xy[1])))
    assert isinstance(value, tuple)
    return value[0], value[1], value[2]


def near(rgb: tuple[int, int, int], target: tuple[int, int, int], tolerance: int = 12) -> bool:
    return max(abs(a - b) for a, b in zip(rgb, target, strict=True)) <= tolerance


def token_body(space: int) -> tuple[float, float]:
    """A point of a horse token drawn on `space`, beside its number."""
    x, y = space_centre(space)
    return x - 12, y + 8


@pytest.mark.parametrize(
    "make",
    [initial, mid_race, race_over, game_over, crowded],
    ids=["initial", "mid-race", "race-over", "game-over", "crowded"],
)
def test_board_renders_at_its_size_and_encodes_to_a_small_valid_png(
    make: Callable[[], WinnersCircleState],
) -> None:
    state = make()
    assert render(state, NAMES).size == SIZE
    png = render_png(state, NAMES)
    assert len(png) <= PNG_LIMIT
    decoded = Image.open(io.BytesIO(png))
    assert decoded.format == "PNG" and decoded.size == SIZE
    decoded.verify()


def test_the_36_spaces_run_round_an_oval_one_after_another() -> None:
    centres = [space_centre(s) for s in range(1, 37)]
    assert len({(round(x), round(y)) for x, y in centres}) == 36
    for a, b in zip(centres, centres[1:] + centres[:1], strict=True):
        gap = ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5
        assert 45 < gap < 65  # neighbours are next to each other
    # The finish line lies between 36 and 1 on the bottom straight; 18 is across the oval.
    assert space_centre(36)[0] < space_centre(1)[0]
    assert space_centre(36)[1] == space_centre(1)[1] > space_centre(PACE_SPACE)[1]


def test_a_horse_is_drawn_on_its_space_and_moves_with_it() -> None:
    state = racing({1: lap(10)})
    board = render(state, NAMES)
    assert near(pixel(board, token_body(10)), RED)
    assert near(pixel(board, token_body(35)), BLUE)  # horse 2 still at its start
    assert pixel(board, token_body(36)) in (TRACK_LIGHT, TRACK_DARK)  # horse 1 has left
    moved = render(replace(state, progress=(lap(14), *state.progress[1:])), NAMES)
    assert near(pixel(moved, token_body(14)), RED)
    assert not near(pixel(moved, token_body(10)), RED)


def test_a_finished_horse_leaves_the_track_and_its_card_shows_its_place() -> None:
    state = racing({1: FINISH + 3}, finished=(1,))
    board = render(state, NAMES)
    assert not near(pixel(board, token_body(3)), RED)
    x0, y0, _, _ = card_box(1)
    assert pixel(board, (x0 + 6, y0 + 8)) == HIGHLIGHT


def test_face_down_cards_are_drawn_as_card_backs() -> None:
    board = render(racing(face_down=(3,)), NAMES)
    for horse, colour in ((3, CARD_BACK), (4, CARD_FACE)):
        x0, y0, _, _ = card_box(horse)
        assert pixel(board, (x0 + 4, y0 + 12)) == colour


def test_the_rolled_symbol_is_picked_out_on_the_face_up_cards() -> None:
    state = ENGINE.resolve_roll(racing(face_down=(5,)), Symbol.SADDLE, RNG).state
    board = render(state, NAMES)
    row = list(Symbol).index(Symbol.SADDLE)
    for horse, lit in ((4, True), (5, False)):
        x0, y0, _, _ = card_box(horse)
        y = y0 + 18 + row * CARD_ROW
        assert (pixel(board, (x0 + 5, y)) == HIGHLIGHT) is lit


def test_the_pace_chip_waits_by_space_18_until_a_horse_takes_it() -> None:
    def chip_body(centre: tuple[float, float]) -> tuple[float, float]:
        return centre[0] - 9, centre[1]  # beside the "P"

    assert near(pixel(render(racing(), NAMES), chip_body(PACE_CHIP_AT)), HIGHLIGHT)
    board = render(replace(racing({4: lap(20)}), pace=4), NAMES)
    assert not near(pixel(board, chip_body(PACE_CHIP_AT)), HIGHLIGHT)
    assert near(pixel(board, chip_body(column_pace_chip(4))), HIGHLIGHT)  # horse 4's column


Box = tuple[int, int, int, int]


def board_text_boxes(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[Box]]:
    """From now on, where each text drawn on a board (not on a sprite) lands: its ink and
    outline's box, by text."""
    DrawnText(monkeypatch)  # the base, with the columns' headers, drawn again
    boxes: dict[str, list[Box]] = {}
    draw = images.winners_circle.draw_text

    def recording(image: Image.Image, xy: tuple[float, float], text: str, **kw: Any) -> None:
        if image.size == SIZE:
            anchor, outlined = kw.get("anchor", "mm"), kw.get("outline", 1) is not None
            args = (text, kw["size"], anchor, kw.get("bold", False), outlined)
            mask, ring, (dx, dy) = images.common._text_masks(*args)
            ink = (ring or mask).getbbox()
            assert ink is not None
            x, y = round(xy[0]) + dx, round(xy[1]) + dy
            boxes.setdefault(text, []).append((x + ink[0], y + ink[1], x + ink[2], y + ink[3]))
        draw(image, xy, text, **kw)

    monkeypatch.setattr(images.winners_circle, "draw_text", recording)
    return boxes


def overlap(a: Box, b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("spoken", ["en", "es"])
def test_the_taken_pace_chip_covers_no_word_of_its_column(
    monkeypatch: pytest.MonkeyPatch, spoken: str
) -> None:
    use_translations(TRANSLATIONS)
    try:
        with speaking(spoken):
            boxes = board_text_boxes(monkeypatch)
            bets = tuple(Bet(p, h, 1) for p in (ANA, BOB, CAT) for h in range(1, 8))
            field = racing({4: lap(20)}, face_down=(1, 2, 3, 4, 5, 6, 7), bets=bets)
            for horse in range(1, 8):
                render(replace(field, pace=horse), NAMES)
                x, y = column_pace_chip(horse)
                r = COLUMN_PACE_CHIP / 2
                chip = (x - r, y - r, x + r, y + r)
                colour = pgettext(HORSE_COLOUR, HORSE_NAMES[horse])
                assert colour in boxes  # the header's name is among the words checked
                covered = [t for t, bs in boxes.items() for b in bs if overlap(b, chip)]
                assert not covered, f"horse {horse}'s pace chip covers {covered}"
    finally:
        use_translations(None)


def test_hidden_chip_values_are_not_drawn_until_the_race_ends() -> None:
    def with_chips(chips: tuple[int, int, int], phase: Phase) -> bytes:
        bets = tuple(Bet(p, 3, c) for p, c in zip((ANA, BOB, CAT), chips, strict=True))
        state = replace(racing(bets=bets, hidden_bets=True), phase=phase)
        if phase is Phase.RACE_OVER:
            state = replace(state, results=race_over().results[:1])
        return render_png(state, NAMES)

    assert with_chips((0, 1, 2), Phase.ROLL) == with_chips((2, 1, 0), Phase.ROLL)
    assert with_chips((0, 1, 2), Phase.RACE_OVER) != with_chips((2, 1, 0), Phase.RACE_OVER)


def test_open_bets_show_their_chip_values() -> None:
    one = racing(bets=(Bet(ANA, 3, 1),))
    two = racing(bets=(Bet(ANA, 3, 2),))
    assert render_png(one, NAMES) != render_png(two, NAMES)


def test_a_crowded_field_draws_every_horse_on_the_shared_space() -> None:
    board = render(crowded(), NAMES)
    reds = blues = 0
    x, _ = space_centre(36)
    for y in range(150, 420):
        for dx in range(-14, 15):
            rgb = pixel(board, (x + dx, y))
            reds += near(rgb, RED, 20)
            blues += near(rgb, BLUE, 20)
    assert reds > 20 and blues > 20


def test_same_state_same_bytes() -> None:
    state = mid_race()
    first = render_png(state, NAMES)
    render_png(initial(), {ANA: "Someone else"})
    assert render_png(state, NAMES) == first


def test_awkward_names_still_render() -> None:
    names = {ANA: "🐸🐸🐸", BOB: "W" * 200}
    assert render(mid_race(), names).size == SIZE
    assert render(game_over(), {}).size == SIZE
    assert render_payout(race_over(), names).width == 800


def test_the_payout_picture_lists_each_line_and_grows_with_them() -> None:
    state = race_over()
    short = replace(state, bets=state.bets[:1])
    assert render_payout(short, NAMES).height < render_payout(state, NAMES).height
    png = render_payout_png(state, NAMES)
    assert len(png) <= PNG_LIMIT
    with pytest.raises(ValueError):
        render_payout(racing(), NAMES)  # no race has ended


def test_golden_initial() -> None:
    check("winners_circle_initial", render_png(initial(), NAMES))


def test_golden_race_over() -> None:
    state = race_over()
    check("winners_circle_race_over", render_png(state, NAMES))
    check("winners_circle_payout", render_payout_png(state, NAMES))
