"""Risk's 🔍 zoom: a continent at full size under a caption with the owner key, the names it
would cut left out, and names drawn over the attack arrow (on the map, so in the zoom)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PIL import Image, ImageChops

from images.common import TEXT, text_layer
from images.risk import (
    NEUTRAL,
    TOP,
    LegendRow,
    MapView,
    ground_within,
    labels,
    render,
    territory_label,
)
from images.risk_zoom import ZOOM_CAPTION, cut_labels, render_zoom, shown_owners, zoom_box
from images.words import language
from rules.risk.map import CONTINENTS
from tests.images.drawn import DrawnText
from tests.images.test_risk import late_view


def view_with_neutral() -> MapView:
    """`late_view`, its neutral Iceland in the legend as the presenter puts it."""
    view = late_view()
    neutral = LegendRow("Neutral", NEUTRAL, view.armies["iceland"], 1, 0)
    return replace(view, legend=[*view.legend, neutral])


def letters(label_text: str, size: int) -> Image.Image:
    """Where a name's letters and outline are drawn, as a mask."""
    layer, _corner = text_layer(label_text, size, bold=True)
    return layer.getchannel("A").point(lambda v: 255 * (v > 0))


@pytest.mark.parametrize("continent", list(CONTINENTS))
def test_the_zoom_keys_every_owner_it_shows_in_its_caption(
    monkeypatch: pytest.MonkeyPatch, continent: str
) -> None:
    view = view_with_neutral()
    drawn = DrawnText(monkeypatch)
    image = render_zoom(view, continent, "Caption")
    box = zoom_box(continent, language())
    names = {row.colour: row.name for row in view.legend}
    keyed = {row.colour for row in shown_owners(view, box)}
    # Every owner of the continent, and of every territory whose name the zoom shows whole.
    named = {
        view.owners[slug]
        for slug in view.owners
        if territory_label(slug) in labels()
        and territory_label(slug) not in cut_labels(box, "en")
        and _inside(territory_label(slug).box(), box)
    }
    owners = {view.owners[slug] for slug in CONTINENTS[continent].territories}
    assert owners | named <= keyed
    # The key is drawn in the caption bar, above the map.
    texts = drawn.texts
    for colour in keyed:
        assert names[colour] in texts
    assert image.height > box[3] - box[1] + ZOOM_CAPTION  # a row (or two) for the key


def _inside(label_box: tuple[int, int, int, int], box: tuple[int, int, int, int]) -> bool:
    left, top, right, bottom = label_box
    return box[0] <= left and box[1] <= top + TOP and right <= box[2] and bottom + TOP <= box[3]


def test_the_zoom_names_no_owner_it_does_not_show() -> None:
    view = late_view()  # Fay (seat 5) holds North America alone, far from Australia
    keyed = {row.name for row in shown_owners(view, zoom_box("australia", language()))}
    assert "Fay" not in keyed and "Ana" in keyed


@pytest.mark.parametrize("continent", list(CONTINENTS))
def test_names_the_zoom_would_cut_are_left_out(continent: str) -> None:
    """No letter of a name halved by the zoom's edge is left: where nothing is drawn over
    it, the zoom shows the board without its names; the names inside are kept."""
    view = view_with_neutral()
    box = zoom_box(continent, language())
    cut = cut_labels(box, language())
    zoom = render_zoom(view, continent, "Caption")
    part = zoom.crop((0, zoom.height - (box[3] - box[1]), zoom.width, zoom.height))
    whole = render(view).crop(box)
    named, bare = ground_within(view, box), ground_within(view, box, named=False)
    for label in labels():
        _layer, (dx, dy) = text_layer(label.text, label.size, bold=True)
        at = (round(label.at[0]) + dx - box[0], round(label.at[1]) + dy + TOP - box[1])
        mask = Image.new("L", part.size, 0)
        mask.paste(letters(label.text, label.size), at)
        # Its pixels where no piece (badge, rim, arrow) covers the name.
        free = ImageChops.difference(whole, named).convert("L").point(lambda v: 255 * (v == 0))
        mask = ImageChops.multiply(mask, free)
        if mask.getbbox() is None:
            continue
        expected = bare if label in cut else named
        differ = ImageChops.difference(part, expected).convert("L").point(lambda v: 255 * (v > 0))
        assert ImageChops.multiply(differ, mask).getbbox() is None, (continent, label.text)


def test_some_zoom_cuts_a_name_of_its_neighbours() -> None:
    """The check above has cut names to look at: Europe's edges cross Africa's and Asia's."""
    assert cut_labels(zoom_box("europe", language()), language())


def test_a_name_the_attack_arrow_crosses_is_drawn_over_it() -> None:
    """China attacks Mongolia: the arrow runs through "Mongolia", which stays whole."""
    view = replace(late_view(), attack=("china", "mongolia"))
    label = territory_label("mongolia")
    left, top, right, bottom = label.box()
    box = (left, top + TOP, right, bottom + TOP)
    attacked = render(view).crop(box)
    plain = ground_within(view, box)
    ink = [i for i, p in enumerate(plain.getdata()) if p == TEXT]
    assert len(ink) > 50
    drawn = list(attacked.getdata())
    assert all(drawn[i] == TEXT for i in ink)
