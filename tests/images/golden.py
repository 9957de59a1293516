"""Golden pictures: a board that changes by more than a few pixels must be looked at again.

Regenerate after a deliberate change with `PARLOUR_REGOLD=1 pytest tests/images`, view the
PNGs in tests/images/golden/, and commit them.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

from PIL import Image, ImageChops

GOLDEN = Path(__file__).parent / "golden"
MAX_DIFFERENT_PIXELS = 50  # anti-aliasing may move by a pixel between Pillow builds


def check(name: str, png: bytes) -> None:
    path = GOLDEN / f"{name}.png"
    if os.environ.get("PARLOUR_REGOLD"):
        path.write_bytes(png)
    rendered = Image.open(io.BytesIO(png)).convert("RGB")
    golden = Image.open(path).convert("RGB")
    assert rendered.size == golden.size
    diff = ImageChops.difference(rendered, golden).convert("L")
    changed = sum(diff.histogram()[25:])  # pixels off by more than a shade
    assert changed <= MAX_DIFFERENT_PIXELS, f"{name}: {changed} pixels differ from the golden"
