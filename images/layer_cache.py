"""Picture layers that never change, drawn once per machine instead of once per process.

`@static_layer` replaces `@functools.cache` on a function that draws a static layer (a
board's art, the Risk map's overlay): its result is kept in memory as before and, once a
directory is set with `use_directory`, pickled on disk under a key made of the function's
name, its arguments and a hash of the source of `images/` and `rules/` and of the catalogs
(anything that could change the drawing). A new process then loads the layer in milliseconds
instead of drawing it for up to a second; a change of the code makes a new key, so a stale
layer is never used.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
import os
import pickle
import re
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

log = logging.getLogger(__name__)

R = TypeVar("R")

_ROOT = Path(__file__).resolve().parent.parent
_directory: Path | None = None


def use_directory(path: str | Path | None) -> None:
    """Keep layers in `path` from now on (None: in memory only)."""
    global _directory
    _directory = None if path is None else Path(path)


@functools.cache
def code_version() -> str:
    """A hash of every source file a layer may depend on: the code, and the catalogs of the
    words it draws (a reworded label must not come back from an older layer)."""
    digest = hashlib.sha256()
    sources = [
        *sorted((_ROOT / "images").rglob("*.py")),
        *sorted((_ROOT / "rules").rglob("*.py")),
        *sorted((_ROOT / "bot" / "language" / "locale").glob("*.po")),
    ]
    for source in sources:
        digest.update(str(source.relative_to(_ROOT)).encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


def prune() -> int:
    """Delete the layers other versions of the code drew and no process has loaded for a
    day (each upgrade would otherwise leave tens of megabytes behind; a version still
    running beside this one keeps its own), and temporary files a killed process left; the
    number deleted. Only files of ours are touched, and this version's layers are kept."""
    if _directory is None:
        return 0
    current = code_version()
    deleted = 0
    for path in _directory.glob("*"):
        layer = _LAYER.fullmatch(path.name)
        if layer is not None:
            stale = layer["version"] != current and _age(path) > STALE_LAYER
        else:  # a write in progress elsewhere is younger than that
            stale = path.name.startswith(_TEMP) and _age(path) > STALE_TEMP
        if stale:
            try:
                path.unlink()
                deleted += 1
            except OSError:  # gone already: another process pruned it
                pass
    return deleted


_LAYER = re.compile(r"[\w.]+-[0-9a-f]{16}-(?P<version>[0-9a-f]{16})\.pickle")
_TEMP = "layer-"  # the prefix of a layer being written
STALE_TEMP = 600.0  # seconds
STALE_LAYER = 86400.0  # seconds since another version's layer was last loaded


def _age(path: Path) -> float:
    try:
        return time.time() - path.stat().st_mtime
    except OSError:
        return 0.0


def _path(fn: Callable[..., Any], args: tuple[Any, ...]) -> Path | None:
    if _directory is None:
        return None
    key = hashlib.sha256(f"{fn.__module__}.{fn.__qualname__}{args!r}".encode()).hexdigest()
    return _directory / f"{fn.__module__}.{fn.__qualname__}-{key[:16]}-{code_version()}.pickle"


def _load(path: Path) -> Any:
    try:
        with path.open("rb") as f:
            value = pickle.load(f)  # our own file, written below, keyed by our own code
        with contextlib.suppress(OSError):
            os.utime(path)  # in use: `prune` keeps it
        return value
    except FileNotFoundError:
        return None
    except Exception:
        log.warning("picture cache %s unreadable; drawing it again", path, exc_info=True)
        return None


def _store(path: Path, value: Any) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=_TEMP, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)  # atomic: another process never reads half a file
    except OSError:
        log.warning("picture cache %s not written", path, exc_info=True)


def static_layer(fn: Callable[..., R]) -> Callable[..., R]:
    """Cache `fn`'s result in memory and on disk (positional, hashable arguments only)."""

    @functools.wraps(fn)
    @functools.cache
    def cached(*args: Any) -> R:
        path = _path(fn, args)
        found = None if path is None else _load(path)
        if found is not None:
            return cast(R, found)
        value = fn(*args)
        if path is not None:
            _store(path, value)
        return value

    return cached
