"""The neutral army has a row of its own wherever the seats are listed: the map's legend (its
swatch, armies and territories, no cards), the standings of the alt text and text board."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.language.i18n import speaking
from cogs.pictures import TRANSLATIONS
from cogs.risk import RiskPresenter
from cogs.risk.view import map_view
from images.risk import NEUTRAL as NEUTRAL_COLOUR
from images.risk import ROW_PITCH, SIZE, legend_row_y, render
from images.words import use_translations
from rules.risk.state import NEUTRAL, RiskState
from tests.images.drawn import DrawnText
from tests.images.pictures import mid_game

PRESENTER = RiskPresenter()
NAMES = {1: "Ana", 2: "Leo", 3: "Mia", 4: "Bo", 5: "Eve", 6: "Gus"}


def six_with_neutral() -> RiskState:
    """Six players mid-game; Gus resigned and his territories turned neutral."""
    state: RiskState = mid_game(PRESENTER.engine, 6, 400, {})
    owners = tuple(NEUTRAL if o == 6 else o for o in state.owners)
    return replace(state, owners=owners)


def test_a_two_player_map_lists_the_neutral_army_after_the_players() -> None:
    state = mid_game(PRESENTER.engine, 2, 300, {})
    view = map_view(state, NAMES)
    *players, neutral = view.legend
    assert [row.name for row in players] == [NAMES[p] for p in state.players]
    assert (neutral.name, neutral.colour) == ("Neutral", NEUTRAL_COLOUR)
    held = [s for s, o in view.owners.items() if o == NEUTRAL_COLOUR]
    assert neutral.territories == len(held) > 0
    assert neutral.armies == sum(view.armies[s] for s in held)


def test_a_map_without_the_neutral_army_has_no_row_for_it() -> None:
    view = map_view(mid_game(PRESENTER.engine, 3, 300, {}), NAMES)
    assert sorted(row.name for row in view.legend) == ["Ana", "Leo", "Mia"]


def test_the_seventh_row_six_players_and_neutral_fits_the_legend(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = six_with_neutral()
    view = map_view(state, NAMES)
    assert len(view.legend) == 7 and view.legend[-1].name == "Neutral"
    drawn = DrawnText(monkeypatch)
    render(view)
    assert "Neutral" in drawn.texts and "-" in drawn.texts  # no cards
    assert legend_row_y(6) + ROW_PITCH / 2 <= SIZE[1] - 8  # inside the legend's panel


@pytest.mark.parametrize(("spoken", "word"), [("en", "Neutral"), ("es", "Neutral")])
def test_the_standings_name_the_neutral_army_with_its_territories_and_armies(
    spoken: str, word: str
) -> None:
    state = mid_game(PRESENTER.engine, 2, 300, {})
    use_translations(TRANSLATIONS)
    try:
        with speaking(spoken):
            lines = PRESENTER.standings(state, NAMES)
    finally:
        use_translations(None)
    view = map_view(state, NAMES)
    neutral = view.legend[-1]
    line = next(line for line in lines if line.startswith(word + ":"))
    assert str(neutral.territories) in line and str(neutral.armies) in line
    assert lines.index(line) == len(state.players)  # after the players, before the continents
    three = PRESENTER.standings(mid_game(PRESENTER.engine, 3, 300, {}), NAMES)
    assert not any(line.startswith(word + ":") for line in three)
