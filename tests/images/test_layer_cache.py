"""Static picture layers kept on disk: drawn once per machine, identical when loaded, and
never reused once the code that draws them changes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from images import layer_cache
from images.layer_cache import static_layer

drawn: list[int] = []


@static_layer
def _square(side: int) -> Image.Image:
    drawn.append(side)
    image = Image.new("RGB", (side, side), (10, 20, 30))
    image.putpixel((1, 1), (200, 0, 0))
    return image


@pytest.fixture(autouse=True)
def fresh(tmp_path: Path) -> Iterator[None]:
    drawn.clear()
    _square.cache_clear()  # type: ignore[attr-defined]
    layer_cache.use_directory(tmp_path)
    yield
    layer_cache.use_directory(None)


def test_a_layer_drawn_once_is_loaded_from_disk_by_the_next_process(tmp_path: Path) -> None:
    first = _square(4)
    assert drawn == [4] and len(list(tmp_path.glob("*.pickle"))) == 1
    _square.cache_clear()  # type: ignore[attr-defined]  # as a new process would start
    again = _square(4)
    assert drawn == [4]  # loaded, not drawn
    assert not ImageChops.difference(first, again).getbbox()
    _square(5)  # other arguments: another layer
    assert drawn == [4, 5]


def test_a_change_of_the_drawing_code_draws_the_layer_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _square(4)
    _square.cache_clear()  # type: ignore[attr-defined]
    monkeypatch.setattr(layer_cache, "code_version", lambda: "another-version")
    _square(4)
    assert drawn == [4, 4]
    assert len(list(tmp_path.glob("*.pickle"))) == 2


def test_an_unreadable_file_is_drawn_again(tmp_path: Path) -> None:
    _square(4)
    (path,) = tmp_path.glob("*.pickle")
    path.write_bytes(b"not a pickle")
    _square.cache_clear()  # type: ignore[attr-defined]
    assert _square(4).getpixel((1, 1)) == (200, 0, 0)
    assert drawn == [4, 4]


def test_without_a_directory_layers_stay_in_memory(tmp_path: Path) -> None:
    layer_cache.use_directory(None)
    _square(4)
    _square(4)
    assert drawn == [4] and list(tmp_path.iterdir()) == []
