"""The animated replay of a Horse Collar shot: a GIF of 2-4 s that Discord plays inline.

It is drawn from the `WeightShot` event's sampled paths — no second simulation — over the
still board's cached table art: the whole slide in the strip, the arrival enlarged.
"""

from __future__ import annotations

import functools
import io

from PIL import Image

from images.common import MUTED, draw_text
from images.horse_collar import (
    PANEL_BOX,
    SIZE,
    STRIP_RADIUS,
    ZOOM_RADIUS,
    TableKey,
    draw_weights,
    in_zoom,
    strip_xy,
    table_layer,
    weight_sprite,
    zoom_xy,
)
from rules.horse_collar.shots import LANE_BY_NAME, TARGET_BY_NAME
from rules.horse_collar.state import Rules, Weight, WeightShot, colour_of, weight_label

CROP = (0, 36, SIZE[0], 600)  # the strip and the enlarged end, without the score panel
MAX_FRAMES = 45
PLAY_MS = 3_000  # a shot longer than this is sped up to fit
MIN_FRAME_MS = 40  # GIF players slow anything quicker than this down
HOLD_MS = 1_200  # the final position stays up a moment


@functools.cache
def _background(key: TableKey) -> Image.Image:
    return table_layer(key).crop(CROP)


def render_replay(rules: Rules, shot: WeightShot) -> bytes:
    """An animated GIF of `shot`: every weight that moved, along its sampled path."""
    table = rules.table
    moving = {path.index for path in shot.paths}
    base = _background(TableKey.of(rules)).copy()
    still = [w for w in shot.before if w.index not in moving]
    _draw_in_crop(base, rules, still)
    _caption(base, shot)
    palette = _palette(base, shot)
    length = len(shot.paths[0].points)
    stride = max(1, -(-length // MAX_FRAMES))
    frame_ms = max(MIN_FRAME_MS, min(stride * shot.sample_ms, PLAY_MS * stride // length))
    samples = [*range(0, length, stride)]
    if samples[-1] != length - 1:
        samples.append(length - 1)
    frames = []
    for k in samples:
        frame = base.copy()
        for path in shot.paths:
            if path.fell_at is not None and k >= path.fell_at:
                continue  # in the alley
            d, y = path.points[k]
            colour = colour_of(path.index)
            _paste(frame, weight_sprite(colour, STRIP_RADIUS, ""), strip_xy(table, d, y))
            if in_zoom(d):
                sprite = weight_sprite(colour, ZOOM_RADIUS, weight_label(path.index))
                _paste(frame, sprite, zoom_xy(d, y))
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


def _caption(image: Image.Image, shot: WeightShot) -> None:
    """The shot's settings where the still board has its score panel."""
    x = PANEL_BOX[0] + 14 - CROP[0]
    y = PANEL_BOX[1] + 30 - CROP[1]
    draw_text(image, (x, y), f"{weight_label(shot.index)} shot", size=26, bold=True, anchor="lm")
    aim = shot.aim
    lane = LANE_BY_NAME[aim.lane].label if aim.lane in LANE_BY_NAME else f"at {aim.lane.upper()}"
    lines = (lane, f"angle {aim.angle / 100:+g}°", TARGET_BY_NAME[aim.target].label)
    for n, line in enumerate(lines):
        draw_text(image, (x, y + 40 + 26 * n), line, size=20, fill=MUTED, anchor="lm")


def _palette(base: Image.Image, shot: WeightShot) -> Image.Image:
    """One palette for every frame: the background and the moving weights' sprites."""
    sample = base.copy()
    for n, path in enumerate(shot.paths):
        sprite = weight_sprite(colour_of(path.index), ZOOM_RADIUS, weight_label(path.index))
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
