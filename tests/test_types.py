"""mypy, strict, finds nothing in rules/, images/, bot/ and cogs/ (pyproject.toml's [tool.mypy]).

CI runs only the test command, so the type check is a test, as ruff is in tests/test_lint.py.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.starts_first
def test_mypy_finds_nothing() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "mypy"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
