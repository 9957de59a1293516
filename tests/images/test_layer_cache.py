"""Static picture layers kept on disk: drawn once per machine, identical when loaded, and
never reused once the code that draws them changes."""

from __future__ import annotations

import os
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


def test_prune_keeps_only_this_versions_layers_and_nothing_it_did_not_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(layer_cache, "code_version", lambda: "0" * 16)
    _square(4)
    (old,) = tmp_path.glob("*.pickle")
    _square.cache_clear()  # type: ignore[attr-defined]
    monkeypatch.setattr(layer_cache, "code_version", lambda: "1" * 16)  # an upgrade
    _square(4)
    (new,) = set(tmp_path.glob("*.pickle")) - {old}
    assert layer_cache.prune() == 0  # the old version may still run beside the new one
    os.utime(old, (0, 0))  # no process has loaded it for long
    abandoned = tmp_path / "layer-abc.tmp"  # a write a killed process left
    abandoned.write_bytes(b"half")
    os.utime(abandoned, (0, 0))
    writing = tmp_path / "layer-def.tmp"  # a write in progress
    writing.write_bytes(b"half")
    others = [tmp_path / "notes.pickle", tmp_path / "other.tmp"]  # not ours
    for path in others:
        path.write_bytes(b"")
    assert layer_cache.prune() == 2
    assert sorted(tmp_path.iterdir()) == sorted([new, writing, *others])
    _square.cache_clear()  # type: ignore[attr-defined]
    _square(4)
    assert drawn == [4, 4]  # the current layer still loads
