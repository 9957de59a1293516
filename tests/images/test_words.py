"""The words drawn in pictures: in the language spoken, in a font that has its letters, and
cached per language; the Spanish Risk map's names fit where the English ones do; a Spanish
board of every game draws no English."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

import pytest
from babel.messages.pofile import read_po
from PIL import Image, ImageChops, ImageFilter

from bench.common import playout, presenter_for, seats, table_sizes
from bot.language.i18n import CATALOGS, speaking
from cogs.pictures import TRANSLATIONS
from images import cock_and_bull, common, hold_your_horses, horse_collar, risk, winners_circle
from images.common import _text_masks, draw_text, drawable, fallback_font, font, text_width
from images.risk import TOP, name_point, render, territory_name
from images.risk_layout import CONTINENT_LABELS, NAME_SIZE
from images.risk_regions import ORDER
from images.words import _, language, use_translations
from rules.core import Event, setup_rng
from rules.hold_your_horses import ENGINE as HYH_ENGINE
from rules.horse_collar import ENGINE as HC_ENGINE
from rules.registry import ENGINES
from rules.risk.map import CONTINENTS
from rules.winners_circle.state import RACES
from tests.games import TEST_SPECS
from tests.images.drawn import DrawnText
from tests.images.pictures import PHONE_NAMES, payout_state
from tests.images.test_risk import badge_box, early_view, overlap

Box = tuple[float, float, float, float]


@pytest.fixture
def spanish() -> Iterator[None]:
    """Pictures worded by the bot's catalogs, in Spanish."""
    use_translations(TRANSLATIONS)
    try:
        with speaking("es"):
            yield
    finally:
        use_translations(None)


def test_pictures_are_english_until_the_bot_hands_its_translations_in() -> None:
    use_translations(None)  # as in a process where no bot started
    with speaking("es"):
        assert _("Continent") == "Continent" and language() == "en"


def test_pictures_speak_the_language_spoken(spanish: None) -> None:
    assert _("Continent") == "Continente" and language() == "es"
    assert territory_name("eastern_australia") == "Australia Or."
    assert territory_name("middle_east") == "Oriente Medio"


def test_letters_the_bundled_font_lacks_are_drawn_in_the_fallback_font() -> None:
    assert drawable("José ¿sí? 🎲") == "José ¿sí?"
    # "ó" is as wide as the fallback draws it (Aileron has no such letter).
    assert text_width("Japón", 24) == pytest.approx(
        font(24).getlength("Jap") + fallback_font(24).getlength("ó") + font(24).getlength("n")
    )
    image = Image.new("RGB", (200, 60))
    draw_text(image, (100, 30), "ñ", size=40, outline=None)
    box = image.getbbox()
    assert box is not None and box[3] - box[1] > 20  # the letter and its tilde, not a box


def test_the_maps_names_are_drawn_once_per_language(spanish: None) -> None:
    """A Spanish map, then an English one: each has its own names (the static layers are
    cached per language), and the English map is the one drawn before any Spanish."""
    with speaking("en"):
        english = render(early_view())
    spanish_map = render(early_view())
    with speaking("en"):
        again = render(early_view())
    assert ImageChops.difference(english, again).getbbox() is None
    x, y = name_point("japan")
    around = (round(x - 40), round(y - 15 + TOP), round(x + 40), round(y + 15 + TOP))
    assert ImageChops.difference(english.crop(around), spanish_map.crop(around)).getbbox()


def _name_box(slug: str) -> Box:
    """The box of `slug`'s name as the map draws it now, outline included."""
    x, y = name_point(slug)
    mask, _ring, (dx, dy) = _text_masks(territory_name(slug), NAME_SIZE, "mm", True, True)
    x0, y0, x1, y1 = mask.getbbox() or (0, 0, 0, 0)
    return x + dx + x0, y + dy + y0, x + dx + x1, y + dy + y1


def _continent_box(slug: str) -> Box:
    x, y = CONTINENT_LABELS[slug]
    continent = CONTINENTS[slug]
    half = text_width(f"{_(continent.name).upper()} +{continent.bonus}", 24, bold=True) / 2
    return x - half, y - 14, x + half, y + 12


def test_the_spanish_names_fit_where_the_english_ones_do(spanish: None) -> None:
    for slug in ORDER:
        box = _name_box(slug)
        assert box[0] >= 0 and box[2] <= 1600, slug
        for other in ORDER:
            if other != slug:
                assert not overlap(box, _name_box(other)), (slug, other)
            assert not overlap(box, badge_box(other)), (slug, other)
        for continent in CONTINENTS:
            assert not overlap(box, _continent_box(continent)), (slug, continent)


# Terms kept in English on purpose in every language (see bot/language/locale/GLOSSARY.es.md).
NAMED_TERMS = ("Chip-In", "Peg-Out", "Flying Monkey", "Le Pew", "Hickey", "Royal Turf")
_WORD = re.compile(r"[^\W\d_]+")  # letters only: "B" of "B1", "Bull" of "Cock & Bull"


def _words(text: str) -> set[str]:
    """The words of `text`, named terms and placeholders aside."""
    for term in NAMED_TERMS:
        text = text.replace(term, "")
    return set(_WORD.findall(re.sub(r"\{\w*\}", "", text)))


def english_words(language: str) -> set[str]:
    """The words of the English messages that no translation into `language` uses (named
    terms aside): a picture drawing one of them shows English."""
    with (CATALOGS / f"{language}.po").open("rb") as po:
        catalog = read_po(po, locale=language)
    english: set[str] = set()
    translated: set[str] = set()
    for message in catalog:
        if not message.id:
            continue
        for text in message.id if isinstance(message.id, tuple) else (message.id,):
            english |= _words(text)
        for text in message.string if isinstance(message.string, tuple) else (message.string,):
            translated |= _words(text)
    return english - translated


def _clear_picture_caches() -> None:
    """Forget every drawn layer and sprite, so that each word is drawn again here."""
    for module in (common, cock_and_bull, hold_your_horses, horse_collar, risk, winners_circle):
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


def _sample_states(game: str) -> Iterator[tuple[Any, Sequence[Event]]]:
    """A few states of a seeded AI game at each table size, the last one included."""
    engine = ENGINES[game]
    options = {"turn_limit": 2} if game == "risk" else {}  # a Risk game that ends soon
    for size in table_sizes(engine):
        plies = list(playout(engine, f"words-{game}-{size}", size, options))
        for ply in plies[:: max(1, len(plies) // 6)] + plies[-1:]:
            yield ply.state, ply.events


@pytest.mark.parametrize("game", list(TEST_SPECS))
def test_a_spanish_picture_draws_no_english(
    game: str, spanish: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every word a Spanish board draws went through the catalog: none is an English word
    of the messages (named terms aside), and a side's players are listed, not joined by
    " & "."""
    drawn: list[str] = []
    masks = common._text_masks

    def recorded(text: str, *args: Any) -> Any:
        drawn.append(text)
        return masks(text, *args)

    monkeypatch.setattr(common, "_text_masks", recorded)
    _clear_picture_caches()
    who = dict(zip(seats(16), itertools.cycle(("Ana", "Leo", "Mia", "Eva")), strict=False))
    presenter = presenter_for(game)
    assert presenter is not None
    for state, events in _sample_states(game):
        for _drawn, _png in TEST_SPECS[game].palette(state, who):
            pass
        presenter.picture(state, who, events)  # Horse Collar: the shot's replay too
    english = english_words("es")
    shown = [text for text in set(drawn) if _words(text) & english or " & " in text]
    assert drawn and shown == []


def test_the_spanish_first_turn_caption_fits_between_the_side_panels(spanish: None) -> None:
    """Cock & Bull's caption is shortened to fit if it must; the Spanish needs no cut."""
    gap = cock_and_bull.PANELS[1][0] - cock_and_bull.PANELS[0][2] - 16
    caption = _("First turn: Monkey beats Bull beats Cock")
    assert caption != "First turn: Monkey beats Bull beats Cock"
    assert text_width(caption, 20) <= gap


def _label_sizes(monkeypatch: pytest.MonkeyPatch, spoken: str) -> dict[str, set[int]]:
    """The sizes Hold Your Horses' lane labels ("out" beside horses 10-12, the steps taken)
    and Winner's Circle's payout kinds ("Place") are drawn at, in `spoken`; each checked to
    stand clear of the number or the chip beside it."""
    drawn = DrawnText(monkeypatch)
    use_translations(TRANSLATIONS)
    try:
        with speaking(spoken):
            start = HYH_ENGINE.initial_state([1, 2, 3], {}, setup_rng("words"))
            scratched = replace(start, race=replace(start.race, scratched=(10, 11, 12)))
            hold_your_horses.render(scratched, {})
            out = _("out")
            lanes = [(t, z) for t, z in drawn.sized if t == out or re.fullmatch(r"\d+/\d+", t)]
            number_right = hold_your_horses.LANE_NUMBER_X + text_width("12", 26, bold=True) / 2
            for text, size in lanes:
                assert hold_your_horses.status_x() - text_width(text, size) >= number_right + 3
            drawn.sized.clear()
            winners_circle.render_payout(payout_state(), PHONE_NAMES)
            words = {_(word) for word in winners_circle.LINE_WORDS.values()}
            kinds = [(text, size) for text, size in drawn.sized if text in words]
            chip_left = winners_circle.payout_chip_x() - winners_circle.CHIP_SIDE / 2
            assert _("Place") in {text for text, _size in kinds}
            for text, size in kinds:
                right = winners_circle.PAYOUT_WORD_X + text_width(text, size, bold=True)
                assert right <= chip_left - 3, (text, size)
    finally:
        use_translations(None)
    assert {text for text, _size in lanes} >= {out, "0/17"}
    return {"lanes": {size for _t, size in lanes}, "kinds": {size for _t, size in kinds}}


def test_labels_are_drawn_at_one_size_in_every_language_clear_of_their_neighbours(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A label column is as wide as the language's longest label: Spanish "fuera" beside a
    scratched horse 10-12 and "Segundo" before a payout's chip are drawn at the size of
    every other label, in English as in Spanish, never shrunk to fit nor into their
    neighbour."""
    english = _label_sizes(monkeypatch, "en")
    spanish = _label_sizes(monkeypatch, "es")
    assert english == spanish == {"lanes": {hold_your_horses.SMALL}, "kinds": {18}}


def test_the_word_at_the_end_of_the_horse_collar_board_fits_its_alley(
    spanish: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The enlarged end's word ("END", Spanish "FONDO") is drawn on the alley beyond the end,
    clear of the board and of the background past the alley: only its outline may lap over
    an edge. Its pixels are those the board's art loses when the word is left out."""
    rules = HC_ENGINE.initial_state((1, 2), {}, setup_rng("words")).rules
    table = rules.table
    key = horse_collar.TableKey.of(rules)
    draw = horse_collar._table_layer.__wrapped__  # drawn afresh, not from the cache
    worded = horse_collar._
    _left, top = horse_collar.zoom_xy(0, -table.half_width)
    _right, bottom = horse_collar.zoom_xy(0, table.half_width)
    # The alley's columns, from the one its edge shares with the board's (Pillow's boxes hold
    # both corners) to its last, between the board's sides; and the outline's width around.
    alley = (
        horse_collar.ZOOM_END_X - common._RING,
        top - common._RING,
        horse_collar.ZOOM_END_X + horse_collar.ALLEY_PX + 1 + common._RING,
        bottom + common._RING,
    )
    for spoken in ("en", "es"):
        with speaking(spoken), monkeypatch.context() as unworded:
            named = draw(key, spoken)
            unworded.setattr(horse_collar, "_", lambda text: " " if text == "END" else worded(text))
            box = ImageChops.difference(named, draw(key, spoken)).getbbox()
        assert box is not None, spoken
        assert alley[0] <= box[0] and box[2] <= alley[2], (spoken, box, alley)
        assert alley[1] <= box[1] and box[3] <= alley[3], (spoken, box, alley)


@pytest.mark.parametrize("spoken", ["en", "es"])
def test_the_last_races_note_stands_between_the_infields_columns_under_the_pace_chip(
    spoken: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Winner's Circle's "Race 3 pays double" (Spanish "La carrera 3 paga el doble") is drawn
    clear of the money's column, the winner's circle and the pace chip waiting by space 18.
    Its pixels are those the board loses when the note is left out."""
    use_translations(TRANSLATIONS)
    worded = winners_circle._
    start = ENGINES["winners_circle"].initial_state([1, 2, 3], {}, setup_rng("words"))
    last_race = replace(start, race=RACES)
    try:
        with speaking(spoken), monkeypatch.context() as unworded:
            with_note = winners_circle.render(last_race, {})
            unworded.setattr(
                winners_circle,
                "_",
                lambda text: "" if text == "Race 3 pays double" else worded(text),
            )
            box = ImageChops.difference(with_note, winners_circle.render(last_race, {})).getbbox()
    finally:
        use_translations(None)
    assert box is not None
    money_right = winners_circle.CX1 + 210  # the money's right-aligned numbers
    circle_left = winners_circle.CX2 - 170  # "Winner's circle" and its rows
    chip_bottom = winners_circle.PACE_CHIP_AT[1] + 34 / 2
    assert money_right < box[0] and box[2] < circle_left, (spoken, box)
    assert chip_bottom < box[1], (spoken, box)


@pytest.mark.parametrize(
    ("text", "size", "bold"),
    [
        ("P123a rolls: 7", 24, False),
        ("¡Año nuevo, Zoë!", 18, True),
        ("W", 40, True),
        (".", 14, False),
    ],
)
def test_a_words_outline_is_its_letters_grown_as_a_max_filter_grows_them(
    text: str, size: int, bold: bool
) -> None:
    mask, ring, _corner = _text_masks.__wrapped__(text, size, "mm", bold, True)
    assert ring is not None
    assert ring.tobytes() == mask.filter(ImageFilter.MaxFilter(5)).tobytes()
    assert ring.tobytes() != mask.tobytes()
