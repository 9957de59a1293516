"""`images.png`: a board compressed band by band is the same picture as one compressed whole,
a valid PNG and zlib stream, and a band kept under its key is not compressed again."""

from __future__ import annotations

import io
import struct
import subprocess
import sys
import zlib
from collections.abc import Hashable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from images import png
from images.pieces import Kept

HEIGHT = 2 * png.BAND_ROWS + 37  # a last band shorter than the others


class Counted(Kept):
    """A band store that counts what it was asked to keep."""

    def __init__(self) -> None:
        super().__init__(1 << 24)
        self.compressed: list[Hashable] = []

    def keep(self, key: Hashable, value: Any, size: int) -> None:
        self.compressed.append(key)
        super().keep(key, value, size)


def picture(mark: int) -> Image.Image:
    """A palette picture with shapes in every band, and `mark` drawn in the middle band."""
    image = Image.new("P", (301, HEIGHT), 0)
    image.putpalette([c for i in range(256) for c in (i, 255 - i, i * 7 % 256)])
    draw = ImageDraw.Draw(image)
    for band in range(3):
        draw.ellipse(
            (10 + 40 * band, band * png.BAND_ROWS + 5, 120 + 40 * band, band * png.BAND_ROWS + 30),
            fill=band + 3,
        )
    draw.text((150, png.BAND_ROWS + 40), str(mark), fill=9)
    return image


def in_bands(image: Image.Image, keys: list[str], kept: Counted) -> bytes:
    """`image` encoded band by band, each band cut from it."""

    def band(i: int) -> Image.Image:
        top = i * png.BAND_ROWS
        return image.crop((0, top, image.width, min(top + png.BAND_ROWS, image.height)))

    return png.encode_in_bands(image.size, image.getpalette() or [], keys, band, kept)


def idat(data: bytes) -> bytes:
    at, found = len(png.SIGNATURE), b""
    while at < len(data):
        (length,), kind = struct.unpack(">I", data[at : at + 4]), data[at + 4 : at + 8]
        found += data[at + 8 : at + 8 + length] if kind == b"IDAT" else b""
        at += 12 + length
    return found


def test_a_picture_in_bands_is_the_picture_whole_and_its_zlib_stream_checks() -> None:
    image = picture(1)
    banded = in_bands(image, ["a", "b", "c"], Counted())
    decoded = Image.open(io.BytesIO(banded))
    decoded.load()
    assert decoded.mode == "P" and decoded.tobytes() == image.tobytes()
    assert decoded.getpalette() == image.getpalette()
    whole = Image.open(io.BytesIO(png.encode(image)))
    assert whole.tobytes() == decoded.tobytes()
    # zlib checks the Adler-32 that the bands' own were combined into.
    assert zlib.decompress(idat(banded)) == zlib.decompress(idat(png.encode(image)))


def test_only_a_band_whose_key_changed_is_compressed_again() -> None:
    kept = Counted()
    in_bands(picture(1), ["top", "middle 1", "bottom"], kept)
    again = in_bands(picture(2), ["top", "middle 2", "bottom"], kept)
    assert kept.compressed == ["top", "middle 1", "bottom", "middle 2"]
    assert Image.open(io.BytesIO(again)).tobytes() == picture(2).tobytes()


def test_a_key_for_each_band_or_none_is_drawn() -> None:
    with pytest.raises(ValueError, match="2 keys for"):
        in_bands(picture(1), ["a", "b"], Counted())


@given(st.binary(max_size=3000), st.binary(max_size=70000))
def test_two_checksums_combine_into_that_of_the_bytes_one_after_the_other(
    first: bytes, second: bytes
) -> None:
    combined = png.adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second))
    assert combined == zlib.adler32(first + second)


def test_without_zlib_ng_the_standard_zlib_makes_the_same_pictures() -> None:
    """Where zlib-ng can't be imported, `images.png` falls back on the standard zlib: the
    test above passes with it (in a process of its own, where zlib-ng is blocked)."""
    code = (
        "import sys, zlib; sys.modules['zlib_ng'] = None\n"
        "from images import png\n"
        "assert png.deflate is zlib, png.deflate\n"
        "from tests.images import test_png\n"
        "test_png.test_a_picture_in_bands_is_the_picture_whole_and_its_zlib_stream_checks()\n"
        "test_png.test_only_a_band_whose_key_changed_is_compressed_again()\n"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert png.deflate is not zlib  # here, zlib-ng is installed and used
