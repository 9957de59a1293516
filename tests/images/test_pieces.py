"""`images.pieces`: a piece's box starts at even coordinates, so positions round as on the
whole board."""

from __future__ import annotations

import pytest

from images.pieces import Piece, Words, even_box


def test_a_piece_at_odd_coordinates_is_refused() -> None:
    with pytest.raises(ValueError, match="even coordinates"):
        Piece((181, 436, 620, 560), (Words((400.5, 454), "x", 20),))


@pytest.mark.parametrize("centre", [(400, 108), (427, 325), (316, 371)])
def test_an_even_box_starts_even_and_reaches_as_far_as_asked(centre: tuple[int, int]) -> None:
    left, top, right, bottom = even_box(centre, 26)
    assert left % 2 == 0 and top % 2 == 0
    assert left <= centre[0] - 26 and top <= centre[1] - 26
    assert (right, bottom) == (centre[0] + 26, centre[1] + 26)
    Piece((left, top, right, bottom), ())  # accepted
