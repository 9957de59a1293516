"""Every text drawn in a picture, with its size, through the one place all picture text goes
(`images.common._text_masks`): for the checks that read what a picture says (its language)
and how large (on a phone)."""

from __future__ import annotations

import inspect
from types import ModuleType
from typing import Any

import pytest

import images
import images.common
from images import layer_cache, pieces


class DrawnText:
    """Records every text drawn from now on, as (text, size in pixels); the static layers
    with words are forgotten (in memory and on disk), so they are drawn again and seen."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.sized: list[tuple[str, int]] = []
        masks = images.common._text_masks

        def recording(text: str, size: int, *args: Any) -> Any:
            self.sized.append((text, size))
            return masks(text, size, *args)

        monkeypatch.setattr(images.common, "_text_masks", recording)
        monkeypatch.setattr(layer_cache, "_directory", None)
        forget_worded_layers()
        # Pieces and grounds of boards already drawn are pasted, not drawn: fresh stores for
        # this test, put back after it, so that what it maps (on a stand-in palette, say) is
        # never pasted into a later test's board.
        for store in ("_pieces", "_grounds", "_bands"):
            monkeypatch.setattr(pieces, store, pieces.Kept(getattr(pieces, store).limit))

    @property
    def texts(self) -> list[str]:
        return [text for text, _size in self.sized]


def forget_worded_layers() -> None:
    """Forget the layers kept in memory by language (`functools.cache` on a function taking
    one): they hold the words of the catalogs installed when they were drawn."""
    for module in list(vars(images).values()):
        for value in vars(module).values() if isinstance(module, ModuleType) else ():
            drawn = getattr(value, "__wrapped__", None)
            if callable(drawn) and any(
                "language" in name for name in inspect.signature(drawn).parameters
            ):
                value.cache_clear()
