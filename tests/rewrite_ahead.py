"""The test modules' asserts rewritten once, by the process that runs the workers of a
parallel run, before they start.

pytest rewrites the asserts of a test module (and of a `conftest.py`) as it imports it, and
keeps the result beside it in `__pycache__` unless bytecode is not to be written
(`PYTHONDONTWRITEBYTECODE`, as on CI machines): then every worker rewrites every test module
again as it collects, a few seconds of CPU each, all at the run's start. Written here once,
each worker reads them as it reads its own cache (pytest checks a cached module against its
source, so an edited file is rewritten again)."""

from __future__ import annotations

from collections.abc import Iterator
from fnmatch import fnmatch
from pathlib import Path

import pytest
from _pytest.assertion.rewrite import (
    PYC_TAIL,
    _read_pyc,
    _rewrite_test,
    _write_pyc,
    assertstate_key,
    get_cache_dir,
    try_makedirs,
)


def rewrite_ahead(config: pytest.Config) -> int:
    """Rewrite the test modules of the run's paths that have no up-to-date rewritten copy;
    how many were rewritten."""
    state = config.stash[assertstate_key]
    rewritten = 0
    for source in _test_modules(config):
        cache = get_cache_dir(source)
        pyc = cache / (source.name[: -len(".py")] + PYC_TAIL)
        if _read_pyc(source, pyc) is not None or not try_makedirs(cache):
            continue
        source_hash, code = _rewrite_test(source, config)
        rewritten += _write_pyc(state, code, source_hash, pyc)
    return rewritten


def _test_modules(config: pytest.Config) -> Iterator[Path]:
    patterns = [*config.getini("python_files"), "conftest.py"]
    seen: set[Path] = set()
    for arg in config.args:
        path = Path(arg.split("::")[0]).resolve()
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for file in files:
            if file not in seen and any(fnmatch(file.name, p) for p in patterns):
                seen.add(file)
                yield file
