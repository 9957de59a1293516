"""The phone check: Discord on a phone shows a picture about 360 points wide. Every board
picture is drawn again with its text recorded (the renderer's own sizes, through
`tests.images.drawn`), and the smallest text of each title is reported at that width; Risk's
🔍 zoom keeps every territory name at least `PHONE_MIN` pixels high there, and every other
picture, in both languages, keeps its smallest text at least `PHONE_FLOOR` pixels high.

The report (`pytest tests/images/test_phone.py -s`) lists, per title and picture, the
smallest text's size in pixels once the picture is scaled to 360 wide."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from io import BytesIO

import pytest
from PIL import Image

from bot.tournament.scoring import Standing
from cogs.risk.view import map_view
from images import cock_and_bull, hold_your_horses, horse_collar, winners_circle
from images.common import PHONE_TEXT, PHONE_WIDTH
from images.risk import territory_name
from images.risk_zoom import render_zoom
from images.tournament_standings import render_standings
from images.words import language
from rules.risk import ENGINE as RISK
from rules.risk.map import CONTINENTS
from tests.games import TEST_SPECS
from tests.images.drawn import DrawnText
from tests.images.pictures import PHONE_NAMES, mid_game

PHONE = PHONE_WIDTH
PHONE_MIN = 10  # pixels at that width: the smallest a zoomed name may be
PHONE_FLOOR = PHONE_TEXT  # pixels at that width: the smallest any text of a board may be


@dataclass(frozen=True)
class Smallest:
    picture: str
    width: int
    text: str
    size: int

    @property
    def on_phone(self) -> float:
        return self.size * PHONE / self.width


def tournament_standings() -> bytes:
    """A tournament's standings of 40 entrants (the top drawn), one with a long name."""
    names = {1: "Bartholomew Fitzgerald-Montgomery"}
    rows = [
        (Standing(m, m, 40 - m / 2, 100 - m / 3, 3), names.get(m, f"Player {m}"))
        for m in range(1, 41)
    ]
    return render_standings(rows, title="Spring Cup — standings", language=language())


# Every game's pictures, by title (each game's test spec's `phone`, tests/games.py), and the
# pictures that belong to no one game.
PICTURES: dict[str, Callable[[], bytes]] = {
    **{title: draw for spec in TEST_SPECS.values() for title, draw in spec.phone.items()},
    "Tournament standings": tournament_standings,
}


def smallest(drawn: DrawnText, since: int, picture: str, png: bytes) -> Smallest:
    width = Image.open(BytesIO(png)).width
    text, size = min(drawn.sized[since:], key=lambda ts: ts[1])
    return Smallest(picture, width, text, size)


def report(rows: list[Smallest]) -> Iterator[str]:
    yield f"Smallest text at {PHONE} px wide (font size in px, scaled):"
    for row in rows:
        yield (
            f"  {row.picture}: {row.on_phone:.1f} px ({row.size} px on a {row.width} px picture, "
            f"{row.text!r})"
        )


GREYS = Image.new("P", (1, 1))
GREYS.putpalette([v for grey in range(256) for v in (grey, grey, grey)])


def unlearnt_palettes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each game's palette is learnt from sample boards, whose text is not the picture's:
    greys instead, so that only the picture's own text is drawn."""
    for module in (cock_and_bull, hold_your_horses, horse_collar, winners_circle):
        monkeypatch.setattr(module, "_palette", lambda _language: GREYS)


def test_the_smallest_text_of_every_board_on_a_phone(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = DrawnText(monkeypatch)
    unlearnt_palettes(monkeypatch)
    rows = []
    for title, draw in PICTURES.items():
        mark = len(drawn.sized)
        png = draw()
        rows.append(smallest(drawn, mark, title, png))
    print("\n".join(report(rows)))
    assert [row.picture for row in rows] == list(PICTURES)
    assert all(row.on_phone > 0 for row in rows)


@pytest.mark.parametrize("continent", list(CONTINENTS))
def test_risk_zoom_keeps_every_name_readable_on_a_phone(
    monkeypatch: pytest.MonkeyPatch, continent: str
) -> None:
    drawn = DrawnText(monkeypatch)
    state = mid_game(RISK, 3, 300, {})
    view = map_view(state, PHONE_NAMES)
    image = render_zoom(view, continent, "Caption")
    sizes: dict[str, int] = {}
    for text, size in drawn.sized:
        sizes[text] = min(size, sizes.get(text, size))
    for slug in CONTINENTS[continent].territories:
        name = territory_name(slug)
        assert sizes[name] * PHONE / image.width >= PHONE_MIN, (name, image.width)
    assert sizes["Caption"] * PHONE / image.width >= PHONE_MIN
    for row in view.legend:  # the owner key under the caption, where the owner is shown
        if row.name in sizes:
            assert sizes[row.name] * PHONE / image.width >= PHONE_MIN, (row.name, image.width)
    # The whole map on a phone: the same names, too small to read without opening it.
    assert (
        min(sizes[territory_name(s)] for s in CONTINENTS[continent].territories) * PHONE / (1600)
        < PHONE_MIN
    )


@pytest.mark.parametrize("picture", [title for title in PICTURES if title != "Risk"])
def test_every_boards_smallest_text_is_readable_on_a_phone(
    monkeypatch: pytest.MonkeyPatch, spoken: str, picture: str
) -> None:
    """Risk's full map is read through its zoom (above); every other board as it is sent."""
    drawn = DrawnText(monkeypatch)
    unlearnt_palettes(monkeypatch)
    row = smallest(drawn, 0, picture, PICTURES[picture]())
    assert row.on_phone >= PHONE_FLOOR, f"{row.text!r} at {row.on_phone:.1f} px"
