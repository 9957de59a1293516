"""The animated replay of a Horse Collar shot: a GIF of 2-4 s that Discord plays inline.

It is drawn from the `WeightShot` event's sampled paths — no second simulation — over the
still board's cached table art: the whole slide in the strip, the arrival enlarged.
"""

from __future__ import annotations

import io

from PIL import Image

from images.common import MUTED, draw_text
from images.horse_collar import (
    PANEL_BOX,
    SIZE,
    STRIP_RADIUS,
    ZOOM_RADIUS,
    TableKey,
    aim_lines,
    draw_weights,
    in_zoom,
    strip_xy,
    table_layer,
    weight_name,
    weight_sprite,
    zoom_xy,
)
from images.layer_cache import static_layer
from images.words import _, language
from rules.horse_collar.geometry import Table
from rules.horse_collar.state import (
    Rules,
    Weight,
    WeightPath,
    WeightShot,
    colour_of,
)

CROP = (0, 36, SIZE[0], 600)  # the strip and the enlarged end, without the score panel
MAX_FRAMES = 45
PLAY_MS = 3_000  # a shot longer than this is sped up to fit
MIN_FRAME_MS = 40  # GIF players slow anything quicker than this down
HOLD_MS = 1_200  # the final position stays up a moment
FALL_FRAMES = 5  # frames in which a weight going into the alley shrinks away
MIN_FALL_SCALE = 0.25  # below this it is gone


@static_layer
def _background(key: TableKey, _language: str) -> Image.Image:
    return table_layer(key).crop(CROP)


def render_replay(rules: Rules, shot: WeightShot) -> bytes:
    """An animated GIF of `shot`: every weight that moved, along its sampled path."""
    table = rules.table
    moving = {path.index for path in shot.paths}
    base = _background(TableKey.of(rules), language()).copy()
    still = [w for w in shot.before if w.index not in moving]
    _draw_in_crop(base, rules, still)
    _caption(base, shot)
    palette = _palette(base, shot)
    length = len(shot.paths[0].points)
    stride = max(1, -(-length // MAX_FRAMES))
    frame_ms = max(MIN_FRAME_MS, min(stride * shot.sample_ms, PLAY_MS * stride // length))
    # A weight that falls shrinks away over a few frames, after the others have stopped too.
    fall = FALL_FRAMES * stride
    end = max([length - 1, *(p.fell_at + fall for p in shot.paths if p.fell_at is not None)])
    samples = [*range(0, end + 1, stride)]
    if samples[-1] != end:
        samples.append(end)
    frames = []
    for k in samples:
        frame = base.copy()
        for path in shot.paths:
            _draw_moving(frame, table, path, k, fall)
        frames.append(frame.quantize(palette=palette, dither=Image.Dither.NONE))
    durations = [frame_ms] * (len(frames) - 1) + [HOLD_MS]
    buffer = io.BytesIO()
    frames[0].save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=1,
        optimize=False,
        disposal=1,
    )
    return buffer.getvalue()


def _draw_moving(image: Image.Image, table: Table, path: WeightPath, k: int, fall: int) -> None:
    """`path`'s weight at sample `k` (its resting place once it has stopped); a weight that
    fell is drawn ever smaller where it left the board, for `fall` samples, then not at all."""
    scale = 1.0
    d, y = path.points[min(k, len(path.points) - 1)]
    if path.fell_at is not None and k >= path.fell_at:
        scale = 1 - (k - path.fell_at) / fall
        if scale < MIN_FALL_SCALE:
            return  # in the alley
        d, y = path.points[path.fell_at]
    colour = colour_of(path.index)
    label = weight_name(path.index) if scale == 1 else ""
    strip = weight_sprite(colour, _scaled(STRIP_RADIUS, scale), "")
    _paste(image, strip, strip_xy(table, d, y))
    if in_zoom(d):
        _paste(image, weight_sprite(colour, _scaled(ZOOM_RADIUS, scale), label), zoom_xy(d, y))


def _scaled(radius: int, scale: float) -> int:
    return max(2, round(radius * scale))  # a sprite's rim needs 2 px


def _caption(image: Image.Image, shot: WeightShot) -> None:
    """The shot's settings where the still board has its score panel."""
    x = PANEL_BOX[0] + 14 - CROP[0]
    y = PANEL_BOX[1] + 30 - CROP[1]
    draw_text(
        image,
        (x, y),
        _("{weight} shot").format(weight=weight_name(shot.index)),
        size=26,
        bold=True,
        anchor="lm",
    )
    aim = shot.aim
    for n, line in enumerate(aim_lines(aim)):
        draw_text(image, (x, y + 40 + 26 * n), line, size=20, fill=MUTED, anchor="lm")


def _palette(base: Image.Image, shot: WeightShot) -> Image.Image:
    """One palette for every frame: the background and the moving weights' sprites."""
    sample = base.copy()
    for n, path in enumerate(shot.paths):
        sprite = weight_sprite(colour_of(path.index), ZOOM_RADIUS, weight_name(path.index))
        sample.paste(sprite, (10 + n * 50, 10), sprite)
    return sample.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def _draw_in_crop(image: Image.Image, rules: Rules, weights: list[Weight]) -> None:
    full = Image.new("RGBA", SIZE, (0, 0, 0, 0))
    draw_weights(full, rules, weights)
    image.paste(full.crop(CROP), (0, 0), full.crop(CROP))


def _paste(image: Image.Image, sprite: Image.Image, centre: tuple[float, float]) -> None:
    x = round(centre[0] - sprite.width / 2 - CROP[0])
    y = round(centre[1] - sprite.height / 2 - CROP[1])
    image.paste(sprite, (x, y), sprite)
