"""A tournament's standings in words and as a picture, in English and Spanish: 40 entrants
(the first ones shown, then how many more), a long name, a forgotten member's "Former
player", and alt text within Discord's 1,024 characters."""

from __future__ import annotations

from io import BytesIO

import pytest
from PIL import Image

from bot.language.i18n import speaking
from bot.table.alt_text import ALT_MAX
from bot.tournament.scoring import Standing
from bot.tournament.standings_text import (
    TEXT_TOP,
    Row,
    named,
    standings_alt,
    standings_text,
)
from cogs.pictures import TRANSLATIONS
from images.tournament_standings import TOP, WIDTH, render_standings
from images.words import use_translations
from tests.images.drawn import DrawnText

LONG = "Bartholomew Fitzgerald-Montgomery the Third of Little Wittering"
WORDS = {
    "en": {"former": "Former player", "more": "and 24 more entrants", "heading": "Points"},
    "es": {"former": "Exjugador", "more": "y 24 participantes más", "heading": "Puntos"},
}


def forty() -> list[Standing]:
    return [
        Standing(member_id=m, rank=m, points=40 - m / 2, buchholz=100 - m / 3, played=3)
        for m in range(1, 41)
    ]


def rows() -> list[Row]:
    """Entrant 1 has a long name, entrant 2 was forgotten (no name), the rest are short."""
    names: dict[int, str | None] = {m: f"Player {m}" for m in range(3, 41)}
    names |= {1: LONG, 2: None}
    return named(forty(), names)


def test_the_text_form_shows_the_top_then_how_many_more(spoken: str) -> None:
    words = WORDS[spoken]
    text = standings_text(rows()).split("\n")
    assert len(text) == TEXT_TOP + 1
    assert text[1].startswith(f"**2.** {words['former']} — ")
    assert text[-1] == f"…{words['more'].replace('24', '20')}"
    # Points and Buchholz as the language writes decimals: 39.5 / 39,5.
    first = "39.5" if spoken == "en" else "39,5"
    assert text[0].startswith(f"**1.** {LONG} — {first} ")


def test_a_name_cannot_bold_or_italicise_the_text() -> None:
    row = (Standing(member_id=1, rank=1, points=10.0, buchholz=0.0, played=1), "*Ana*")
    assert standings_text([row]).startswith(r"**1.** \*Ana\* — 10 points")


def test_no_entrants_say_so(spoken: str) -> None:
    empty = {"en": "No entrants yet.", "es": "Aún no hay participantes."}[spoken]
    assert standings_text([]) == empty
    assert standings_alt("Cup", []) == f"Cup. {empty}"


def test_the_alt_text_says_as_many_as_fit_and_how_many_more(spoken: str) -> None:
    alt = standings_alt("Spring Cup", rows())
    assert len(alt) <= ALT_MAX
    assert alt.startswith("Spring Cup. 1. ")
    assert WORDS[spoken]["former"] in alt
    shown = sum(1 for n in range(1, 41) if f" {n}. " in f" {alt}")
    assert 5 < shown < 40
    more = WORDS[spoken]["more"].replace("24", str(40 - shown))
    assert alt.endswith(f"{more[0].upper()}{more[1:]}.")
    assert "·" not in alt and "**" not in alt  # read out, not looked at


def test_a_short_field_is_read_out_whole() -> None:
    alt = standings_alt("Cup", named(forty()[:3], {1: "Ana", 2: "Leo", 3: "Mia"}))
    assert alt == (
        "Cup. 1. Ana: 39.5 points, Buchholz 99.7, 3 rounds. 2. Leo: 39 points, Buchholz 99.3, "
        "3 rounds. 3. Mia: 38.5 points, Buchholz 99, 3 rounds."
    )


def test_the_picture_draws_the_top_and_how_many_more(
    monkeypatch: pytest.MonkeyPatch, spoken: str
) -> None:
    drawn = DrawnText(monkeypatch)
    png = render_standings(rows(), title="Spring Cup — final standings", language=spoken)
    image = Image.open(BytesIO(png))
    assert image.format == "PNG" and image.width == WIDTH
    words = WORDS[spoken]
    assert words["former"] in drawn.texts
    assert words["heading"] in drawn.texts
    assert words["more"].replace("24", str(40 - TOP)) in drawn.texts
    assert f"{TOP}." in drawn.texts and f"{TOP + 1}." not in drawn.texts
    assert LONG not in drawn.texts  # shortened to fit its column
    assert any(t.startswith("Bartholomew") and t.endswith("…") for t in drawn.texts)


def test_the_picture_speaks_the_language_it_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    """Drawn while another language is spoken (a worker thread's), the headings are the
    event's."""
    use_translations(TRANSLATIONS)
    try:
        drawn = DrawnText(monkeypatch)
        with speaking("en"):
            render_standings(rows(), title="Copa", language="es")
        assert "Puntos" in drawn.texts and "Points" not in drawn.texts
    finally:
        use_translations(None)


def test_an_empty_event_draws_a_line_saying_so(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = DrawnText(monkeypatch)
    render_standings([], title="Cup", language="en")
    assert "No entrants yet." in drawn.texts
