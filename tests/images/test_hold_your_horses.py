"""The Hold Your Horses pictures: the race board, a finished race and the scoring grid —
sizes and PNG budget, that they show what the state says, and that hands are never drawn."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image

from bot.language.i18n import speaking
from cogs.pictures import TRANSLATIONS
from images.common import HIGHLIGHT
from images.hold_your_horses import (
    DICE_Y,
    DISC,
    FINISH,
    GRID_ROW_H,
    GRID_TOP,
    SCRATCH_BOXES,
    SIDE_MID,
    TURF,
    TURF_ALT,
    WINNER_ROW,
    board_size,
    disc_centre,
    grid_size,
    render,
    render_finished,
    render_finished_png,
    render_grid,
    render_grid_png,
    render_png,
    strip_cell,
)
from images.words import _, ngettext, use_translations
from rules.core import setup_rng, step_rng
from rules.hold_your_horses.actions import ROLL
from rules.hold_your_horses.state import HoldYourHorsesState, Phase, Track
from tests.images.drawn import DrawnText
from tests.images.golden import check
from tests.rules.hold_your_horses.helpers import DICE, ENGINE, deck_giving, rolls

PNG_LIMIT = 300_000
NAMES = {101: "Greg", 102: "Lois", 103: "Max", 104: "Sherre"}
TABLE = tuple(NAMES)
TWELVE = tuple(range(201, 213))
TWELVE_NAMES = {
    p: n
    for p, n in zip(
        TWELVE,
        [
            "Ana",
            "Bo",
            "Carmen",
            "Dmitri",
            "Eve",
            "Fatima Al-Rashid",
            "Gus",
            "Hiroshi",
            "Ines",
            "Jo",
            "Kwame",
            "Lin",
        ],
        strict=True,
    )
}
RGBTuple = tuple[int, int, int]


def pixel(image: Image.Image, xy: tuple[float, float]) -> RGBTuple:
    value = image.getpixel((round(xy[0]), round(xy[1])))
    assert isinstance(value, tuple)
    return value[0], value[1], value[2]


def near(a: RGBTuple, b: RGBTuple, tolerance: int = 12) -> bool:
    return max(abs(x - y) for x, y in zip(a, b, strict=True)) <= tolerance


def on_disc(track: Track, horse: int, position: int) -> tuple[int, int]:
    """A point on the disc's face above its number."""
    x, y = disc_centre(track, horse, position)
    return x, y - 11


def racing(**options: object) -> HoldYourHorsesState:
    """Greg's table after the scratches (2, 3, 11, 12), horses 7 and 8 under way."""
    state = ENGINE.start(TABLE, options, deck_giving(4))
    return rolls(state, 2, 3, 11, 12, 7, 7, 8, 7, 6)


def twelve_at_the_end() -> HoldYourHorsesState:
    """A whole 12-player game, every roll from its seed."""
    state = ENGINE.initial_state(TWELVE, {}, setup_rng("twelve"))
    n = 0
    while ENGINE.to_act(state):
        state = ENGINE.apply(state, state.players[state.roller], ROLL, step_rng("twelve", n)).state
        n += 1
    return state


def after_race_one() -> HoldYourHorsesState:
    state = ENGINE.start(TABLE, {}, deck_giving(4, {0: [7, 7], 1: [7], 3: [7]}))
    state = rolls(state, 2, 3, 11, 12)
    while state.race.number == 1:
        state = ENGINE.resolve_roll(state, DICE[7], lambda: deck_giving(4, first=1)).state
    return state


# --- size and budget --------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4, 6, 7, 12])
def test_the_board_renders_at_its_size_within_the_png_budget(players: int) -> None:
    seats = tuple(range(1, players + 1))
    state = ENGINE.initial_state(seats, {}, setup_rng("size"))
    state = rolls(state, 5, 5, 9)
    assert render(state, {}).size == board_size(players)
    png = render_png(state, {})
    assert len(png) <= PNG_LIMIT
    decoded = Image.open(io.BytesIO(png))
    assert decoded.format == "PNG" and decoded.size == board_size(players)


def test_the_finished_race_and_the_grid_fit_the_budget_too() -> None:
    state = twelve_at_the_end()
    for png, size in (
        (render_finished_png(state, TWELVE_NAMES), board_size(12)),
        (render_grid_png(state, TWELVE_NAMES), grid_size(12)),
    ):
        assert len(png) <= PNG_LIMIT
        assert Image.open(io.BytesIO(png)).size == size


# --- the lanes --------------------------------------------------------------------------------


def test_every_finish_line_stands_at_its_own_length() -> None:
    state = ENGINE.start(TABLE, {}, deck_giving(4))
    board = render(state, NAMES)
    track = state.rules.track
    for horse in (2, 4, 7, 10):
        finish = track.finish(horse)
        assert near(pixel(board, on_disc(track, horse, finish)), FINISH, 30)
        assert not near(pixel(board, on_disc(track, horse, finish - 1)), FINISH, 30)


def test_every_horse_starts_in_the_gate() -> None:
    state = ENGINE.start(TABLE, {}, deck_giving(4))
    board = render(state, NAMES)
    for horse in range(2, 13):
        assert near(pixel(board, on_disc(state.rules.track, horse, 0)), DISC)


def test_a_horse_disc_moves_one_step_when_its_number_is_rolled() -> None:
    state = racing()
    track = state.rules.track
    assert state.race.position(7) == 3
    before = render(state, NAMES)
    after = render(rolls(state, 7), NAMES)
    assert near(pixel(before, on_disc(track, 7, 3)), DISC)
    assert near(pixel(after, on_disc(track, 7, 4)), DISC)
    turf = pixel(after, on_disc(track, 7, 3))
    assert near(turf, TURF, 30) or near(turf, TURF_ALT, 30)


def test_a_scratched_horse_leaves_its_lane_for_its_scratch_box() -> None:
    state = ENGINE.start(TABLE, {}, deck_giving(4))
    track = state.rules.track
    scratched = rolls(state, 9)
    board = render(scratched, NAMES)
    assert not near(pixel(board, on_disc(track, 9, 0)), DISC)
    x0, y0, x1, _ = SCRATCH_BOXES[0]
    assert near(pixel(board, ((x0 + x1) / 2, y0 + 54 - 11)), DISC)  # 1st scratch box
    x0, y0, x1, _ = SCRATCH_BOXES[1]
    assert not near(pixel(board, ((x0 + x1) / 2, y0 + 54 - 11)), DISC)  # 2nd: still empty
    lane = pixel(board, (disc_centre(track, 9, 5)[0], disc_centre(track, 9, 5)[1] - 14))
    assert max(lane) < 60  # the scratched lane is veiled


@pytest.mark.parametrize(
    ("dice", "centre_dark"), [((1, 2), (True, False)), ((6, 5), (False, True))]
)
def test_the_dice_just_rolled_are_drawn_with_their_pips(
    dice: tuple[int, int], centre_dark: tuple[bool, bool]
) -> None:
    state = ENGINE.resolve_roll(ENGINE.start(TABLE, {}, deck_giving(4)), dice).state
    board = render(state, NAMES)
    for dx, dark in zip((-42, 42), centre_dark, strict=True):
        centre = pixel(board, (SIDE_MID + dx + 1, DICE_Y + 1))
        assert (max(centre) < 60) == dark, (dice, centre)


def test_the_roller_is_highlighted_in_the_strip() -> None:
    state = ENGINE.start(TABLE, {}, deck_giving(4))

    def lit(s: HoldYourHorsesState, seat: int) -> bool:
        x0, y0, _, y1 = strip_cell(4, seat)
        return near(pixel(render(s, NAMES), (x0 + 1, (y0 + y1) / 2)), HIGHLIGHT, 20)

    assert lit(state, 0) and not lit(state, 1)
    state = rolls(state, 5)
    assert lit(state, 1) and not lit(state, 0)


def test_the_pot_is_drawn_and_changes_with_it() -> None:
    state = racing()
    a = render(replace(state, pot=7), NAMES)
    b = render(replace(state, pot=48), NAMES)
    box = (SCRATCH_BOXES[0][0], 80, SCRATCH_BOXES[1][2], 150)
    assert a.crop(box).tobytes() != b.crop(box).tobytes()


# --- hidden information and determinism --------------------------------------------------------


def test_hands_are_never_drawn() -> None:
    state = racing()
    other = replace(state, hands=tuple(reversed(state.hands)))
    assert other.hands != state.hands
    assert render_png(other, NAMES) == render_png(state, NAMES)
    done = after_race_one()
    other = replace(done, hands=tuple(reversed(done.hands)))
    assert render_finished_png(other, NAMES) == render_finished_png(done, NAMES)


def test_same_state_same_bytes() -> None:
    state = racing(escalating_scratches=True)
    first = render_png(state, NAMES)
    render_png(twelve_at_the_end(), TWELVE_NAMES)
    assert render_png(state, NAMES) == first


def test_awkward_names_still_render() -> None:
    names = {101: "🐸🐸", 102: "W" * 200, 103: "\u200b", 104: "Sherre"}
    assert render(racing(), names).size == board_size(4)
    assert render_grid(twelve_at_the_end(), {}).size == grid_size(12)


# --- a finished race and the grid ---------------------------------------------------------------


def test_the_finished_race_shows_the_winner_on_its_finish_box() -> None:
    state = after_race_one()
    assert state.race.number == 2 and state.last_finished is not None
    board = render_finished(state, NAMES)
    track = state.rules.track
    finish = track.finish(7)
    assert near(pixel(board, on_disc(track, 7, finish)), HIGHLIGHT, 20)  # not the box's gold
    assert not near(pixel(board, on_disc(track, 7, finish - 1)), DISC)
    assert near(pixel(board, on_disc(track, 8, 0)), DISC)  # horse 8 never left the gate
    # The strip picks out who won something: Greg, Lois and Sherre held the 7s.
    lit = []
    for seat in range(4):
        x0, y0, _, y1 = strip_cell(4, seat)
        lit.append(near(pixel(board, (x0 + 1, (y0 + y1) / 2)), HIGHLIGHT, 20))
    assert lit == [True, True, False, True]


def test_no_finished_race_before_the_first_finish() -> None:
    with pytest.raises(ValueError, match="finished"):
        render_finished(racing(), NAMES)


def test_at_the_end_the_board_is_the_final_grid_with_the_winner_marked() -> None:
    state = twelve_at_the_end()
    assert state.phase is Phase.OVER
    image = render(state, TWELVE_NAMES)
    assert image.size == grid_size(12)
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    winners = len(outcome.winners)
    # Rows are best first: the winners' rows are gold, the next one is not.
    for row in range(winners + 1):
        colour = pixel(image, (30, GRID_TOP + row * GRID_ROW_H + GRID_ROW_H / 2))
        assert near(colour, WINNER_ROW, 8) == (row < winners)


def test_the_grid_between_races_marks_no_winner() -> None:
    image = render_grid(after_race_one(), NAMES)
    assert image.size == grid_size(4)
    for row in range(4):
        assert not near(pixel(image, (30, GRID_TOP + row * GRID_ROW_H + 20)), WINNER_ROW, 8)


# --- goldens ------------------------------------------------------------------------------------


def test_mid_race_board_matches_the_golden() -> None:
    check("hold_your_horses_race", render_png(racing(escalating_scratches=True), NAMES))


def test_final_grid_matches_the_golden() -> None:
    check("hold_your_horses_grid", render_png(twelve_at_the_end(), TWELVE_NAMES))


@pytest.mark.parametrize("spoken", ["en", "es"])
def test_twelve_players_narrow_strips_show_tokens_and_winnings_whole(
    spoken: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Six strips a row are too narrow for "3 tokens · won 12" at the board's smallest
    size: the tokens and the winnings take a line each, neither cut short."""
    start = ENGINE.initial_state(TWELVE, {}, setup_rng("strips"))
    state = replace(start, tokens=tuple(range(12)))
    drawn = DrawnText(monkeypatch)
    use_translations(TRANSLATIONS)
    try:
        with speaking(spoken):
            render(state, TWELVE_NAMES)
            wanted = [
                ngettext("{tokens} token", "{tokens} tokens", n).format(tokens=n) for n in range(12)
            ]
            wanted.append(_("won {won}").format(won=0))
    finally:
        use_translations(None)
    assert set(wanted) <= set(drawn.texts)
    cut = [text for text in drawn.texts if text.endswith("…")]
    names = TWELVE_NAMES.values()
    assert all(any(name.startswith(text[:-1].rstrip()) for name in names) for text in cut)
