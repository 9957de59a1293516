"""The pictures each game draws, made for the picture checks of its test spec (`tests/games.py`):
the boards the phone check measures (`test_phone.py`), and every picture a state shows, as
drawn and as the PNG sent, for the palette and wording checks (`test_palettes.py`,
`test_words.py`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from random import Random
from typing import Any

from PIL import Image

from bot.table.presenter import Presenter
from cogs.risk.view import map_view
from images import cock_and_bull, hold_your_horses, horse_collar, risk, winners_circle
from rules.core import Engine, PlayerId, setup_rng, step_rng
from rules.hold_your_horses import ENGINE as HOLD_YOUR_HORSES
from rules.hold_your_horses.state import Phase as HorsesPhase
from rules.winners_circle import ENGINE as WINNERS_CIRCLE
from rules.winners_circle.state import Phase as CirclePhase

Names = Mapping[PlayerId, str]
Pictures = Iterator[tuple[Image.Image, bytes]]  # what was drawn, and the PNG sent for it
PHONE_NAMES = {1: "Ana", 2: "Leo", 3: "Mia"}


# --- the phone check's boards ------------------------------------------------------------------


def mid_game(
    engine: Engine[Any],
    seats: int,
    steps: int,
    options: dict[str, Any],
    until: Callable[[Any], bool] = lambda state: False,
) -> Any:
    """A state `steps` AI moves into a game (fixed seed), or sooner once `until` holds,
    for a busy picture."""
    state = engine.initial_state(list(range(1, seats + 1)), options, setup_rng("phone"))
    for step in range(steps):
        to_act = sorted(engine.to_act(state))
        if not to_act or until(state):
            break
        action = engine.choose(state, to_act[0], Random(step))
        state = engine.apply(state, to_act[0], action, step_rng("phone", step)).state
    return state


def board(presenter: Presenter[Any], seats: int, steps: int) -> Callable[[], bytes]:
    """The still board `steps` AI moves into a game, as its presenter draws it."""
    return lambda: presenter.render_png(mid_game(presenter.engine, seats, steps, {}), PHONE_NAMES)


def race_won() -> bytes:
    """Hold Your Horses' closing picture of a race: the finish."""
    state = mid_game(HOLD_YOUR_HORSES, 3, 2000, {"races": 2}, lambda s: s.race.number > 1)
    return hold_your_horses.render_finished_png(state, PHONE_NAMES)


def scoring_grid() -> bytes:
    """Hold Your Horses' scoring grid, posted between races."""
    state = mid_game(HOLD_YOUR_HORSES, 3, 2000, {"races": 2}, lambda s: s.race.number > 1)
    return hold_your_horses.render_grid_png(state, PHONE_NAMES)


def payout_state() -> Any:
    """A Winner's Circle race just paid out."""
    return mid_game(WINNERS_CIRCLE, 3, 2000, {}, lambda s: s.phase.value == "race_over")


def payout() -> bytes:
    """Winner's Circle's closing picture of a race: the itemised payout."""
    return winners_circle.render_payout_png(payout_state(), PHONE_NAMES)


# --- every picture of a state, drawn and sent ----------------------------------------------


def cock_and_bull_pictures(state: Any, who: Names) -> Pictures:
    yield cock_and_bull.render(state, who), cock_and_bull.render_png(state, who)


def hold_your_horses_pictures(state: Any, who: Names) -> Pictures:
    yield hold_your_horses.render(state, who), hold_your_horses.render_png(state, who)
    if state.last_finished is not None:
        finished = hold_your_horses.render_finished(state, who)
        yield finished, hold_your_horses.render_finished_png(state, who)
    if state.phase is not HorsesPhase.OVER:  # over, the board is the grid
        grid = hold_your_horses.render_grid(state, who)
        yield grid, hold_your_horses.render_grid_png(state, who)


def horse_collar_pictures(state: Any, who: Names) -> Pictures:
    yield horse_collar.render(state, who), horse_collar.render_png(state, who)


def winners_circle_pictures(state: Any, who: Names) -> Pictures:
    yield winners_circle.render(state, who), winners_circle.render_png(state, who)
    if race_over(state):
        payout = winners_circle.render_payout(state, who)
        yield payout, winners_circle.render_payout_png(state, who)


def risk_pictures(state: Any, who: Names) -> Pictures:
    view = map_view(state, who)
    yield risk.render(view), risk.render_png(view)


def race_over(state: Any) -> bool:
    """A Winner's Circle state showing a race's payout."""
    return state.phase in (CirclePhase.RACE_OVER, CirclePhase.OVER)
