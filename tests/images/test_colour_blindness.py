"""Colours that tell players apart stay apart for colour-blind players: every palette is seen
through simulated deuteranopia, protanopia and tritanopia (`tests.images.colour_vision`), and
any two of its colours differ by at least `APART` (CIE76 ΔE). Cock & Bull's chips keep a
WCAG graphics contrast of 3:1 at their edge on every ground a chip sits on."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

import pytest

from images import cock_and_bull, horse_collar, risk, winners_circle
from images.common import CHIP_BLACK, CHIP_BLACK_RIM, CHIP_RED, CHIP_RED_RIM
from tests.images.colour_vision import DEFICIENCIES, RGB, contrast, delta_e, simulate

APART = 20  # CIE76 ΔE: a difference seen at a glance, not only side by side
GRAPHICS = 3.0  # WCAG 2.1, 1.4.11: non-text contrast

# Each palette: the colours of one picture that tell players (or nobody) apart.
PALETTES: dict[str, Mapping[str, RGB]] = {
    "risk": {
        **{f"seat {n + 1}": colour for n, colour in enumerate(risk.OWNER_COLOURS)},
        "neutral": risk.NEUTRAL_FILL,
        "unclaimed": risk.UNCLAIMED_FILL,
    },
    "winners_circle": {
        f"seat {n + 1}": colour for n, colour in enumerate(winners_circle.PLAYER_COLOURS)
    },
    "cock_and_bull": {"red": CHIP_RED, "black": CHIP_BLACK},
    "horse_collar": {"red": horse_collar.WEIGHT_RED, "blue": horse_collar.WEIGHT_BLUE},
}


def closest(palette: Mapping[str, RGB], deficiency: str | None) -> tuple[float, str, str]:
    """The closest two colours of `palette` as seen with `deficiency` (None: normal vision)."""
    seen = {
        name: colour if deficiency is None else simulate(colour, deficiency)
        for name, colour in palette.items()
    }
    return min((delta_e(seen[a], seen[b]), a, b) for a, b in itertools.combinations(seen, 2))


@pytest.mark.parametrize("deficiency", [None, *DEFICIENCIES])
@pytest.mark.parametrize("game", PALETTES)
def test_players_colours_stay_apart(game: str, deficiency: str | None) -> None:
    difference, first, second = closest(PALETTES[game], deficiency)
    assert difference >= APART, f"{game}, {deficiency}: {first} and {second} ΔE {difference:.1f}"


def test_the_neutral_army_has_a_badge_of_its_own() -> None:
    assert risk.NEUTRAL_SHAPE not in risk.BADGE_SHAPES


def edge_is_seen(ground: RGB, rings: Sequence[RGB]) -> bool:
    """A chip's edge stands out from `ground` if its outer ring does (3:1), or if that ring is
    a line between two colours 3:1 apart: the ground and the next ring in."""
    outer, inner = rings[0], rings[1]
    if contrast(ground, outer) >= GRAPHICS:
        return True
    return contrast(outer, inner) >= GRAPHICS and contrast(ground, inner) >= GRAPHICS


GROUNDS = {"Bend": cock_and_bull.BEND_OR, "Field": cock_and_bull.FIELD_AZURE}


@pytest.mark.parametrize("ground", GROUNDS)
def test_a_red_chip_stands_out_on_every_spot(ground: str) -> None:
    rings = (cock_and_bull.CHIP_RED_OUTLINE, CHIP_RED_RIM, CHIP_RED)
    assert edge_is_seen(GROUNDS[ground], rings)


def test_the_red_chips_dark_outline_stands_out_on_the_bend() -> None:
    assert contrast(cock_and_bull.CHIP_RED_OUTLINE, cock_and_bull.BEND_OR) >= GRAPHICS


@pytest.mark.parametrize("ground", GROUNDS)
def test_a_black_chip_stands_out_on_every_spot(ground: str) -> None:
    assert edge_is_seen(GROUNDS[ground], (CHIP_BLACK_RIM, CHIP_BLACK))
