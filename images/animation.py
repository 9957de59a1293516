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
    data: bytes
    filename: str  # summary.gif or summary.webp
    frames: int
    other_size: int  # the size of the format not chosen, for the record


def animate(pictures: Sequence[bytes]) -> Animation:
    """One frame per picture (PNG bytes), each shown `FRAME_MS`, the last `HOLD_MS`."""
    frames = [_frame(data) for data in pictures]
    durations = [FRAME_MS] * (len(frames) - 1) + [HOLD_MS]
    gif = _encode(frames, durations, "GIF", optimize=False, disposal=1)
    webp = _encode([f.convert("RGB") for f in frames], durations, "WEBP", lossless=True, method=4)
    if len(webp) < len(gif):
        return Animation(webp, "summary.webp", len(frames), len(gif))
    return Animation(gif, "summary.gif", len(frames), len(webp))


def _frame(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data)).convert("RGB")
    if image.width > MAX_WIDTH:
        height = round(image.height * MAX_WIDTH / image.width)
        image = image.resize((MAX_WIDTH, height), Image.Resampling.LANCZOS)
    return image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


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
