"""The words drawn in pictures: in the language spoken, in a font that has its letters, and
cached per language; the Spanish Risk map's names fit where the English ones do."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PIL import Image, ImageChops

from bot.i18n import speaking
from cogs.pictures import TRANSLATIONS
from images.common import _text_masks, draw_text, drawable, fallback_font, font, text_width
from images.risk import TOP, name_point, render, territory_name
from images.risk_layout import CONTINENT_LABELS, NAME_SIZE
from images.risk_regions import ORDER
from images.words import _, language, use_translations
from rules.risk.map import CONTINENTS
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
