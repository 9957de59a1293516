"""constraints.txt: the exact versions the tests ran with, for a hoster to install
(`pip install -c constraints.txt .`); each of pyproject.toml's requirements is in it, at a
version its range allows."""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]


def _pinned() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, version = line.split("==")
            pins[canonicalize_name(name)] = version.strip()
    return pins


def test_every_requirement_is_pinned_in_constraints_within_its_range() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        wanted += extra
    pins = _pinned()
    for text in wanted:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        if name == "parlour":
            continue  # the project's own extras, listed on their own
        assert name in pins, f"{requirement.name} is not in constraints.txt"
        assert requirement.specifier.contains(pins[name]), f"{requirement.name}=={pins[name]}"


def test_constraints_pin_exact_versions_and_leave_out_the_project() -> None:
    lines = [line for line in (ROOT / "constraints.txt").read_text().splitlines() if line]
    assert all(line.count("==") == 1 for line in lines if not line.startswith("#"))
    assert "parlour" not in _pinned()  # installed from its own checkout
