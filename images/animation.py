"""A finished game's animated summary: board pictures as the frames of one animation.

Frames are scaled to at most `MAX_WIDTH` and reduced to 256 colours once; the same frames are
then written as a GIF and as a lossless animated WebP, so both show exactly the same pixels
(the same quality), and the smaller goes to Discord.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

MAX_WIDTH = 800  # Discord shows an embedded picture at about this width anyway
FRAME_MS = 700
HOLD_MS = 3_000  # the final position stays up a while before the loop starts again


@dataclass(frozen=True)
class Animation:
    """An animated summary to attach: its bytes, file name, frames and the other format's size."""

    data: bytes
    filename: str  # summary.gif or summary.webp
    frames: int
    other_size: int  # the size of the format not chosen, for the record


def animate(pictures: Sequence[bytes]) -> Animation:
    """One frame per picture (PNG bytes), each shown `FRAME_MS`, the last `HOLD_MS`."""
    frames = _same_size([_scaled(data) for data in pictures])
    durations = [FRAME_MS] * (len(frames) - 1) + [HOLD_MS]
    gif = _encode(frames, durations, "GIF", optimize=False, disposal=1)
    webp = _encode([f.convert("RGB") for f in frames], durations, "WEBP", lossless=True, method=0)
    if len(webp) < len(gif):
        return Animation(webp, "summary.webp", len(frames), len(gif))
    return Animation(gif, "summary.gif", len(frames), len(webp))


def _scaled(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data)).convert("RGB")
    if image.width > MAX_WIDTH:
        height = round(image.height * MAX_WIDTH / image.width)
        image = image.resize((MAX_WIDTH, height), Image.Resampling.LANCZOS)
    return image


def _same_size(images: Sequence[Image.Image]) -> list[Image.Image]:
    """Every frame on a canvas of the largest (a game's pictures may differ in height, e.g.
    Hold Your Horses' scoring grid), centred on its own corner colour; 256 colours."""
    size = (max(i.width for i in images), max(i.height for i in images))
    frames = []
    for image in images:
        if image.size != size:
            canvas = Image.new("RGB", size, image.getpixel((0, 0)))
            canvas.paste(image, ((size[0] - image.width) // 2, (size[1] - image.height) // 2))
            image = canvas
        frames.append(
            image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        )
    return frames


def _encode(
    frames: Sequence[Image.Image], durations: Sequence[int], kind: str, **options: object
) -> bytes:
    buffer = io.BytesIO()
    frames[0].save(
        buffer,
        format=kind,
        save_all=True,
        append_images=list(frames[1:]),
        duration=list(durations),
        loop=0,
        **options,
    )
    return buffer.getvalue()
