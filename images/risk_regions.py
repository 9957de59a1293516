"""Territory regions grown from the hand-placed layout, computed once per process.

Each landmass is shared out between the territories whose label point lies on it, every land
pixel going to the nearest seed point (a Voronoi diagram clipped to the coast). The result is an
index raster — one byte per pixel, the territory's number or `SEA` — from which renders take
their fills and masks, so no render ever flood-fills.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from images.layer_cache import static_layer
from images.risk_layout import LAKES, LANDMASSES, MAP_SIZE, SEEDS, Point, Polygon
from rules.risk.map import TERRITORIES

SEA = 255
ORDER: tuple[str, ...] = tuple(TERRITORIES)
"""Territory slugs by index in the raster."""
INDEX: dict[str, int] = {slug: i for i, slug in enumerate(ORDER)}


def label_point(slug: str) -> tuple[int, int]:
    """Where `slug`'s army badge is drawn, in map-frame pixels."""
    x, y = SEEDS[slug][0]
    return round(x), round(y)


def _inside(point: Point, polygon: Polygon) -> bool:
    x, y = point
    inside = False
    for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def _clip(polygon: list[Point], near: Point, far: Point) -> list[Point]:
    """The part of a convex `polygon` nearer to `near` than to `far` (Sutherland–Hodgman)."""
    nx, ny = far[0] - near[0], far[1] - near[1]
    limit = (far[0] ** 2 + far[1] ** 2 - near[0] ** 2 - near[1] ** 2) / 2

    def side(p: Point) -> float:
        return p[0] * nx + p[1] * ny - limit  # <= 0: nearer to `near`

    out: list[Point] = []
    for a, b in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        sa, sb = side(a), side(b)
        if sa <= 0:
            out.append(a)
        if (sa <= 0) != (sb <= 0):
            t = sa / (sa - sb)
            out.append((a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])))
    return out


def _cells(seeds: Sequence[tuple[str, Point]]) -> list[tuple[str, list[Point]]]:
    """Each seed's Voronoi cell among `seeds`, clipped to the map frame."""
    width, height = MAP_SIZE
    frame: list[Point] = [(0, 0), (width, 0), (width, height), (0, height)]
    cells = []
    for slug, point in seeds:
        cell = frame
        for other_slug, other in seeds:
            if other_slug != slug or other != point:
                cell = _clip(cell, point, other)
        cells.append((slug, cell))
    return cells


def _landmass_of(slug: str) -> str:
    point = SEEDS[slug][0]
    for name, polygons in LANDMASSES.items():
        if any(_inside(point, polygon) for polygon in polygons):
            return name
    raise ValueError(f"{slug}'s label point is in the sea")


def _scaled(points: Sequence[Point], k: int) -> list[Point]:
    return [(x * k, y * k) for x, y in points]


@static_layer
def index_raster(scale: int = 1) -> Image.Image:
    """An "L" image of the map frame (times `scale`): each land pixel holds its territory's
    index in `ORDER`, each sea pixel `SEA`."""
    size = (MAP_SIZE[0] * scale, MAP_SIZE[1] * scale)
    raster = Image.new("L", size, SEA)
    lakes = Image.new("L", size, 255)
    for lake in LAKES:
        ImageDraw.Draw(lakes).polygon(_scaled(lake, scale), fill=0)
    for name, polygons in LANDMASSES.items():
        land = Image.new("L", size, 0)
        for polygon in polygons:
            ImageDraw.Draw(land).polygon(_scaled(polygon, scale), fill=255)
        seeds = [(s, p) for s in ORDER if _landmass_of(s) == name for p in SEEDS[s]]
        cells = Image.new("L", size, SEA)
        draw = ImageDraw.Draw(cells)
        for slug, cell in _cells(seeds):
            # The outline too, so that no pixel between two cells is left to the sea.
            draw.polygon(_scaled(cell, scale), fill=INDEX[slug], outline=INDEX[slug])
        raster.paste(cells, (0, 0), ImageChops.multiply(land, lakes))
    return raster


def edges(raster: Image.Image, width: float) -> Image.Image:
    """A mask of the pixels within about `width` / 2 of a change of value in `raster`."""
    across = ImageChops.difference(raster, ImageChops.offset(raster, 1, 0))
    down = ImageChops.difference(raster, ImageChops.offset(raster, 0, 1))
    return grow(ImageChops.lighter(across, down).point(lambda v: 255 if v else 0), width / 2)


def grow(mask: Image.Image, by: float) -> Image.Image:
    """`mask` widened by about `by` pixels all round (a blur and a threshold: rank filters
    of that size would take seconds at start-up)."""
    if by <= 0.5:
        return mask
    return mask.filter(ImageFilter.GaussianBlur(by / 2)).point(lambda v: 255 if v > 8 else 0)


@functools.cache
def region(slug: str) -> tuple[tuple[int, int, int, int], Image.Image]:
    """`slug`'s bounding box in the map frame and its mask cropped to that box."""
    i = INDEX[slug]
    mask = index_raster().point(lambda v: 255 if v == i else 0)
    box = mask.getbbox()
    if box is None:
        raise ValueError(f"{slug} has no pixels")
    return box, mask.crop(box)


def rim(slug: str, width: int) -> Image.Image:
    """The inner rim of `slug`'s region, `width` pixels deep, cropped like `region`."""
    _, mask = region(slug)
    framed = Image.new("L", (mask.width + 2, mask.height + 2), 0)
    framed.paste(mask, (1, 1))
    # `width` 3×3 erosions equal one (2·width+1)² erosion, in less than half the time.
    for _ in range(width):
        framed = framed.filter(ImageFilter.MinFilter(3))
    inner = framed.crop((1, 1, mask.width + 1, mask.height + 1))
    return ImageChops.subtract(mask, inner)
