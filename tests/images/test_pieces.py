"""`images.pieces`: a piece's box starts at even coordinates, so positions round as on the
whole board."""

from __future__ import annotations

import pytest

from images import png
from images.pieces import Piece, Words, _reaching, disjoint, even_box


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


def test_overlapping_drawings_become_one_piece_drawn_in_their_order() -> None:
    """A badge on a rim, an arrow across both: one piece around them, drawn as they were."""
    rim, badge, arrow = (Words((i, i), f"op {i}", 20) for i in range(3))
    far = Words((500, 500), "far", 20)
    drawings = [
        ((10, 10, 50, 50), (rim,)),
        ((490, 490, 520, 520), (far,)),
        ((45, 45, 80, 80), (badge,)),
        ((79, 0, 120, 30), (arrow,)),  # meets neither, only the box around both
    ]
    pieces = disjoint(drawings, (600, 600))
    assert sorted(piece.box for piece in pieces) == [(10, 0, 120, 80), (490, 490, 520, 520)]
    merged = next(piece for piece in pieces if piece.box[0] == 10)
    assert merged.ops == (rim, badge, arrow)


def test_pieces_are_cut_to_the_board_at_even_corners() -> None:
    (piece,) = disjoint([((-5, 7, 130, 90), ())], (100, 80))
    assert piece.box == (0, 6, 100, 80)


def test_a_band_holds_every_piece_reaching_into_it() -> None:
    rows = png.BAND_ROWS
    tall = Piece((0, rows - 10, 40, 2 * rows + 10), ())  # across three bands
    low = Piece((100, 2 * rows, 140, 2 * rows + 6), ())  # starts a band
    above = Piece((200, 0, 240, rows), ())  # ends where the second band starts
    assert _reaching([tall, low, above], 3) == [[tall, above], [tall], [tall, low]]
