"""The check every board drawn in pieces (`images.pieces`) is held to: each piece draws inside
its box, and no two boxes overlap, so that pasting the pieces is drawing the board whole."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageChops

from images.pieces import Piece


def assert_inside_and_apart(pieces: Sequence[Piece], size: tuple[int, int]) -> None:
    for i, piece in enumerate(pieces):
        left, top, right, bottom = piece.box
        for other in pieces[i + 1 :]:
            ol, ot, orr, ob = other.box
            assert right <= ol or orr <= left or bottom <= ot or ob <= top, (piece, other)
        blank = Image.new("RGB", size, (255, 0, 255))
        canvas = blank.copy()
        for op in piece.ops:
            op.draw(canvas, (0, 0))
        drawn = ImageChops.difference(canvas, blank).getbbox()
        assert drawn is None or (
            drawn[0] >= left and drawn[1] >= top and drawn[2] <= right and drawn[3] <= bottom
        ), (piece.box, drawn)
