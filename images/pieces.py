"""A board as a ground with pieces on it, each piece mapped onto the palette by itself and kept.

A `Piece` is a box of the board and what is drawn in it (words, runs of words, sprites), all
of it plain values: a piece is drawn on its part of the ground and mapped onto the board's
palette once, and every later board that shows the same piece pastes it. The ground (what
never changes, or changes rarely) is mapped once, band of rows by band, and each band is
compressed once (`board_png`). A move then draws, maps and compresses only what it changed,
not the whole board: the same pixels, since the mapping goes pixel by pixel.

The pieces of a board must not overlap, and each must draw inside its box: a renderer's tests
check both, and compare its boards with the whole board mapped. Memory for what is kept is
bounded in bytes.
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw

from images import png
from images.common import RGB, TEXT, Point, draw_runs, draw_text, paste_centred

Box = tuple[int, int, int, int]  # left, top, right, bottom; the right and bottom excluded
PIECES_BYTES = 24 << 20  # mapped pieces kept, in all (a Risk board's legend: 250 KB)
GROUNDS_BYTES = 32 << 20  # mapped bands of grounds kept, in all (a Risk map's band: 200 KB)
BANDS_BYTES = 16 << 20  # compressed bands kept, in all (a Risk board's: 160 KB)


class Ground(ABC):
    """What a board's pieces are drawn on: frozen and hashable, naming everything the ground's
    pixels depend on (the language its words are in)."""

    @abstractmethod
    def image(self) -> Image.Image:
        """The ground in RGB (never to be drawn on)."""

    @abstractmethod
    def palette(self) -> Image.Image:
        """The palette the board is mapped onto (`images.common.fixed_palette`)."""

    @property
    def size(self) -> tuple[int, int]:
        """The ground's size in pixels."""
        return self.image().size

    def within(self, box: Box) -> Hashable:
        """What the ground's pixels inside `box` depend on: equal for two grounds whose pixels
        there are the same. The ground itself, unless it can tell more finely (a Risk map:
        the owners of the territories there, so a conquest redraws only its part)."""
        return self

    def image_within(self, box: Box) -> Image.Image:
        """The ground's pixels inside `box`, in RGB: a new image, to be drawn on."""
        return self.image().crop(box)


class Op(ABC):
    """One thing drawn in a piece, at board coordinates."""

    @abstractmethod
    def draw(self, image: Image.Image, origin: tuple[int, int]) -> None:
        """Draw on `image`, whose top left corner is `origin` on the board."""


def _moved(at: Point, origin: tuple[int, int]) -> Point:
    return at[0] - origin[0], at[1] - origin[1]


@dataclass(frozen=True)
class Words(Op):
    """`draw_text`'s words."""

    at: Point
    text: str
    size: int
    bold: bool = False
    fill: RGB = TEXT
    anchor: str = "mm"

    def draw(self, image: Image.Image, origin: tuple[int, int]) -> None:
        """Draw the words on `image`, whose top left corner is `origin` on the board."""
        at = _moved(self.at, origin)
        draw_text(
            image, at, self.text, size=self.size, bold=self.bold, fill=self.fill, anchor=self.anchor
        )


@dataclass(frozen=True)
class Runs(Op):
    """`draw_runs`'s line in several colours."""

    at: Point
    runs: tuple[tuple[str, RGB], ...]
    size: int
    bold: bool = False

    def draw(self, image: Image.Image, origin: tuple[int, int]) -> None:
        """Draw the line on `image`, whose top left corner is `origin` on the board."""
        draw_runs(image, _moved(self.at, origin), self.runs, size=self.size, bold=self.bold)


@dataclass(frozen=True)
class Sprite(Op):
    """The RGBA sprite `make(*args)` returns (a cached drawing), its middle on `at`."""

    at: Point
    make: Callable[..., Image.Image]
    args: tuple[Hashable, ...] = ()

    def draw(self, image: Image.Image, origin: tuple[int, int]) -> None:
        """Paste the sprite on `image`, whose top left corner is `origin` on the board."""
        paste_centred(image, self.make(*self.args), _moved(self.at, origin))


@dataclass(frozen=True)
class Layer(Op):
    """The RGBA layer `make(*args)` returns (a cached drawing), its top left corner on `at`."""

    at: tuple[int, int]
    make: Callable[..., Image.Image]
    args: tuple[Hashable, ...] = ()

    def draw(self, image: Image.Image, origin: tuple[int, int]) -> None:
        """Paste the layer on `image`, whose top left corner is `origin` on the board."""
        layer = self.make(*self.args)
        image.paste(layer, (self.at[0] - origin[0], self.at[1] - origin[1]), layer)


@dataclass(frozen=True)
class Shape(Op):
    """`ImageDraw`'s polygon (`closed`) or line through `points`, without anti-aliasing."""

    points: tuple[Point, ...]
    fill: RGB
    width: int = 1
    closed: bool = True

    def draw(self, image: Image.Image, origin: tuple[int, int]) -> None:
        """Draw the shape on `image`, whose top left corner is `origin` on the board."""
        points = [_moved(point, origin) for point in self.points]
        if self.closed:
            ImageDraw.Draw(image).polygon(points, fill=self.fill)
        else:
            ImageDraw.Draw(image).line(points, fill=self.fill, width=self.width)


@dataclass(frozen=True)
class Piece:
    """`ops` drawn inside `box`. Python rounds halves to even, so a box starts at even
    coordinates: a position drawn in it then rounds as it would on the whole board."""

    box: Box
    ops: tuple[Op, ...]
    # Worked out once: a board looks each of its pieces up in more than one cache.
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        """Refuse a box at odd coordinates; hash once, as pieces are looked up often."""
        if self.box[0] % 2 or self.box[1] % 2:
            raise ValueError(f"a piece's box starts at even coordinates, not {self.box[:2]}")
        object.__setattr__(self, "_hash", hash((self.box, self.ops)))

    def __hash__(self) -> int:
        """The hash computed once, at construction."""
        return self._hash


def even_box(centre: tuple[int, int], reach: int) -> Box:
    """A box reaching at least `reach` from `centre` every way, starting at even coordinates."""
    x, y = centre
    left, top = x - reach, y - reach
    return left - left % 2, top - top % 2, x + reach, y + reach


def disjoint(drawings: Sequence[tuple[Box, tuple[Op, ...]]], size: tuple[int, int]) -> list[Piece]:
    """Pieces for `drawings` (boxes and what is drawn in each, in the order drawn): those that
    overlap made one, its box around them all and their ops in the order given, until none
    overlaps another; every box cut to the board of `size`. For a board whose things may
    overlap (a badge on a rim)."""
    groups = _grouped(tuple(box for box, _ops in drawings), size)
    return [
        Piece(box, tuple(op for i in members for op in drawings[i][1])) for box, members in groups
    ]


GROUPINGS_KEPT = 256  # a board's boxes change little from one move to the next


@functools.lru_cache(maxsize=GROUPINGS_KEPT)
def _grouped(
    boxes: tuple[Box, ...], size: tuple[int, int]
) -> tuple[tuple[Box, tuple[int, ...]], ...]:
    """`disjoint`'s boxes, each with the drawings in it by their place in `boxes`, in order."""
    groups: list[tuple[Box, list[int]]] = []
    for i, box in enumerate(boxes):
        box, members = _within(box, size), [i]
        overlapping = True
        while overlapping:  # a box grown around one group may reach another
            overlapping = False
            for g, (other, others) in enumerate(groups):
                if overlap(box, other):
                    box, members = _within(_around(box, other), size), others + members
                    del groups[g]
                    overlapping = True
                    break
        groups.append((box, members))
    return tuple((box, tuple(sorted(members))) for box, members in groups)


def _within(box: Box, size: tuple[int, int]) -> Box:
    """`box` cut to the board, its corner moved to even coordinates."""
    left, top = max(box[0], 0), max(box[1], 0)
    return left - left % 2, top - top % 2, min(box[2], size[0]), min(box[3], size[1])


def _around(a: Box, b: Box) -> Box:
    return min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])


def overlap(a: Box, b: Box) -> bool:
    """Whether boxes `a` and `b` (left, top, right, bottom; right and bottom outside) share a
    pixel."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def drawn(ground: Ground, piece: Piece) -> Image.Image:
    """`piece` drawn on its part of the ground, in RGB."""
    image = ground.image_within(piece.box)
    for op in piece.ops:
        op.draw(image, piece.box[:2])
    return image


def board(ground: Ground, pieces: Sequence[Piece]) -> Image.Image:
    """The whole board in RGB: the ground with every piece drawn on it, straight onto the
    board (each draws inside its box, so it is the same as pasting them)."""
    image = ground.image().copy()
    for piece in pieces:
        for op in piece.ops:
            op.draw(image, (0, 0))
    return image


def board_png(ground: Ground, pieces: Sequence[Piece]) -> bytes:
    """`board` mapped onto the ground's palette, as PNG bytes, band by band of
    `png.BAND_ROWS` rows (`png.encode_in_bands`). A band's pixels are its part of the ground
    and the pieces reaching into it, and a band a board showed before is kept compressed
    under those. A band not kept is its part of the ground mapped onto the palette (kept
    too) with each of its pieces mapped (kept too) pasted on it: a move draws, maps and
    compresses only what it changed."""
    width, height = ground.size
    boxes = [
        (0, top, width, min(top + png.BAND_ROWS, height)) for top in range(0, height, png.BAND_ROWS)
    ]
    reaching = _reaching(pieces, len(boxes))
    keys = [
        (ground.within(box), box, tuple(found)) for box, found in zip(boxes, reaching, strict=True)
    ]

    def band(i: int) -> Image.Image:
        left, top = boxes[i][:2]
        image = _mapped_ground(ground, boxes[i]).copy()
        for piece in reaching[i]:
            image.paste(_mapped_piece(ground, piece), (piece.box[0] - left, piece.box[1] - top))
        return image

    return png.encode_in_bands(
        (width, height), ground.palette().getpalette() or [], keys, band, _bands
    )


def _reaching(pieces: Sequence[Piece], bands: int) -> list[list[Piece]]:
    """For each band of rows, the pieces reaching into it."""
    reaching: list[list[Piece]] = [[] for _ in range(bands)]
    for piece in pieces:
        _left, top, _right, bottom = piece.box
        first, last = max(top, 0) // png.BAND_ROWS, (bottom - 1) // png.BAND_ROWS
        for i in range(first, min(last, bands - 1) + 1):
            reaching[i].append(piece)
    return reaching


def _mapped_ground(ground: Ground, box: Box) -> Image.Image:
    key = (ground.within(box), box)
    mapped: Image.Image | None = _grounds.kept(key)
    if mapped is None:
        mapped = _mapped(ground, ground.image_within(box))
        _grounds.keep(key, mapped, mapped.width * mapped.height)
    return mapped


def _mapped_piece(ground: Ground, piece: Piece) -> Image.Image:
    key = (ground.within(piece.box), piece)
    mapped: Image.Image | None = _pieces.kept(key)
    if mapped is None:
        mapped = _mapped(ground, drawn(ground, piece))
        _pieces.keep(key, mapped, mapped.width * mapped.height)
    return mapped


class Kept:
    """The most recently used values, by key, up to `limit` bytes in all."""

    def __init__(self, limit: int) -> None:
        """An empty store of at most `limit` bytes."""
        self.limit = limit
        self.used = 0
        self.misses = 0
        self._values: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()

    def kept(self, key: Hashable) -> Any:
        """The value kept for `key` (None if none), now the most recently used."""
        try:
            value, _size = self._values[key]
        except KeyError:
            self.misses += 1
            return None
        self._values.move_to_end(key)
        return value

    def keep(self, key: Hashable, value: Any, size: int) -> None:
        """Keep `value` of `size` bytes, dropping the least recently used beyond the limit."""
        self._values[key] = (value, size)
        self.used += size
        while self.used > self.limit and len(self._values) > 1:
            _key, (_value, dropped) = self._values.popitem(last=False)
            self.used -= dropped

    def clear(self) -> None:
        """Forget every value kept."""
        self._values.clear()
        self.used = 0


_pieces = Kept(PIECES_BYTES)
_grounds = Kept(GROUNDS_BYTES)
_bands = Kept(BANDS_BYTES)  # compressed bands of rows (`png.encode_in_bands`)


def _mapped(ground: Ground, image: Image.Image) -> Image.Image:
    return image.quantize(palette=ground.palette(), dither=Image.Dither.NONE)


def forget() -> None:
    """Forget every mapped ground, piece and compressed band kept: the next board is drawn
    whole, every word of it (what a check of a picture's words needs)."""
    _pieces.clear()
    _grounds.clear()
    _bands.clear()
