"""PNG bytes of a palette picture, compressed by zlib-ng, whole or band by band.

zlib-ng is a dependency, with wheels for Linux and macOS; where it can't be imported, the
standard `zlib` (the same API and format) compresses instead, slower.

Deflate is most of a board's encoding time, and zlib-ng's level 2 compresses a board in
about a third of the time zlib's level 1 takes (inside Pillow's encoder), to fewer bytes.
Boards are flat art, so rows go out unfiltered (filter type 0): filtering helps photographs,
not large runs of one palette index. The file is the PNG minimum: IHDR, PLTE, IDAT, IEND.

A board that changes a little from one move to the next (`images.pieces`) is compressed in
bands of rows, each band on its own and kept under a key that names its pixels: a move
compresses only the bands it changed. The bands' deflate streams end on a byte boundary
without ending the stream (a sync flush), so they join into one zlib stream, as a parallel
compressor joins its blocks; a band cannot refer back into the one above it, which costs a
board about 1 % in bytes."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable, Hashable, Sequence
from typing import Protocol

from PIL import Image

try:
    from zlib_ng import zlib_ng as deflate
except ImportError:  # the standard zlib: the same streams, more slowly
    deflate = zlib  # type: ignore[misc]  # one module stands in for the other, as its API is

SIGNATURE = b"\x89PNG\r\n\x1a\n"
LEVEL = 2
# IHDR's bit depth, colour type (3: palette), compression, filter and interlace methods.
PALETTE_8_BIT = (8, 3, 0, 0, 0)
BAND_ROWS = 128  # a Risk map's 10 bands: a move changes about half of them, a selection fewer
ZLIB_HEADER = b"\x78\x01"  # deflate with a 32 KB window, no preset dictionary
LAST_BLOCK = b"\x03\x00"  # an empty final block: the bands' blocks are none of them final
_ADLER_BASE = 65521


class BandStore(Protocol):
    """Where compressed bands are kept by key (`images.pieces.Kept`): each its deflate
    stream, and its rows' Adler-32 and length."""

    def kept(self, key: Hashable) -> tuple[bytes, int, int] | None:
        """The value kept under `key`, or None."""

    def keep(self, key: Hashable, value: tuple[bytes, int, int], size: int) -> None:
        """Keep `value` under `key`; it takes `size` bytes."""


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _filtered(indexed: Image.Image) -> Image.Image:
    """The image's rows as PNG lays them out, each starting with its filter type (a column
    of zeros on the left makes those bytes)."""
    rows = Image.new("P", (indexed.width + 1, indexed.height), 0)
    rows.paste(indexed, (1, 0))
    return rows


def _png(size: tuple[int, int], palette: Sequence[int], idat: bytes) -> bytes:
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", struct.pack(">II5B", *size, *PALETTE_8_BIT)),
            _chunk(b"PLTE", bytes(palette)),
            _chunk(b"IDAT", idat),
            _chunk(b"IEND", b""),
        )
    )


def encode(indexed: Image.Image) -> bytes:
    """The PNG of a "P" image, its palette's colours as they are (no transparency)."""
    idat = deflate.compress(_filtered(indexed).tobytes(), LEVEL)
    return _png(indexed.size, indexed.getpalette() or [], idat)


def encode_in_bands(
    size: tuple[int, int],
    palette: Sequence[int],
    keys: Sequence[Hashable],
    band: Callable[[int], Image.Image],
    kept: BandStore,
) -> bytes:
    """The PNG of a "P" picture of `size` and `palette` (as `encode` makes it), its rows
    compressed `BAND_ROWS` at a time: `keys[i]` names the pixels of band i (equal keys, equal
    pixels), and only a band not kept under its key is drawn (`band(i)`, its rows as an
    image) and compressed."""
    height = size[1]
    if len(keys) != -(-height // BAND_ROWS):
        raise ValueError(f"{len(keys)} keys for {height} rows in bands of {BAND_ROWS}")
    parts: list[bytes] = []
    adler = deflate.adler32(b"")
    for i, key in enumerate(keys):
        kept_band = kept.kept(key)
        if kept_band is None:
            raw = _filtered(band(i)).tobytes()
            packer = deflate.compressobj(LEVEL, deflate.DEFLATED, -15)  # raw deflate
            deflated = packer.compress(raw) + packer.flush(deflate.Z_SYNC_FLUSH)
            kept_band = (deflated, deflate.adler32(raw), len(raw))
            kept.keep(key, kept_band, len(deflated))
        parts.append(kept_band[0])
        adler = adler32_combine(adler, kept_band[1], kept_band[2])
    parts.append(LAST_BLOCK)
    return _png(size, palette, ZLIB_HEADER + b"".join(parts) + struct.pack(">I", adler))


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings one after the other, from theirs and the second's
    length (zlib's `adler32_combine`, which Python's zlib does not offer)."""
    rem = second_length % _ADLER_BASE
    sum1 = first & 0xFFFF
    sum2 = rem * sum1 % _ADLER_BASE
    sum1 = (sum1 + (second & 0xFFFF) + _ADLER_BASE - 1) % _ADLER_BASE
    sum2 = (sum2 + (first >> 16) + (second >> 16) + _ADLER_BASE - rem) % _ADLER_BASE
    return sum1 | sum2 << 16
