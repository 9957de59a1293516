"""Imports run one way (docs/ARCHITECTURE.md, "Layers"): cogs -> bot, images, rules;
bot -> rules; images -> rules; rules -> the standard library only, and no I/O, clock or
global randomness there."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN_IN_RULES = {"asyncio", "time", "socket", "sqlite3", "threading"}
GLOBAL_RANDOM = {
    "random",
    "randint",
    "choice",
    "choices",
    "shuffle",
    "sample",
    "uniform",
    "randrange",
    "seed",
}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def package_files(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize(
    ("package", "allowed_local"),
    [("rules", {"rules"}), ("images", {"images", "rules"}), ("bot", {"bot", "rules"})],
)
def test_imports_run_one_way(package: str, allowed_local: set[str]) -> None:
    local = {"rules", "images", "bot", "cogs", "tests", "bench"}
    for path in package_files(package):
        modules = imported_modules(path)
        assert not (modules & local) - allowed_local, f"{path}: imports {modules & local}"
        if package == "rules":
            outside = {m for m in modules - local if m not in sys.stdlib_module_names}
            assert not outside, f"{path}: rules/ imports non-standard {outside}"
            assert not modules & FORBIDDEN_IN_RULES, f"{path}: imports {modules}"
        if package == "images":
            assert not modules & {"discord", "aiosqlite"}, path


def test_rules_never_use_the_global_random_functions() -> None:
    for path in package_files("rules"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
            ):
                assert node.attr not in GLOBAL_RANDOM, f"{path}:{node.lineno} random.{node.attr}"
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                names = {a.name for a in node.names}
                assert not names & GLOBAL_RANDOM, f"{path}: from random import {names}"


@pytest.mark.parametrize("package", ["bot", "rules"])
def test_no_import_cycles_inside(package: str) -> None:
    """`bot/` and `rules/` are layered: no module may reach itself through imports (even
    type-only ones), so each part can be read, tested and replaced on its own."""
    edges: dict[str, set[str]] = {}
    inside = f"{package}."
    for path in package_files(package):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(inside):
                edges.setdefault(module, set()).add(node.module)
            elif isinstance(node, ast.Import):
                edges.setdefault(module, set()).update(
                    a.name for a in node.names if a.name.startswith(inside)
                )

    def reaches(start: str, goal: str, seen: set[str]) -> list[str] | None:
        for nxt in sorted(edges.get(start, ())):
            if nxt == goal:
                return [start, nxt]
            if nxt not in seen:
                seen.add(nxt)
                path = reaches(nxt, goal, seen)
                if path:
                    return [start, *path]
        return None

    for module in edges:
        cycle = reaches(module, module, set())
        assert cycle is None, " -> ".join(cycle or [])


# `bot/`'s floors, lowest first: a module may import its own floor and those below, never
# one above. A wing is one floor; the top-level modules are placed by their job.
BOT_FLOORS: list[set[str]] = [
    {
        "bot.ratings",
        "bot.seasons",
        "bot.scheduler",
        "bot.metrics",
        "bot.shards",
        "bot.instance_lock",
        "bot.startup",
    },
    {"bot.log_format", "bot.language"},
    {"bot.errors", "bot.storage", "bot.service", "bot.settings", "bot.season_clock"},
    {"bot.ui"},
    {"bot.table"},
    {"bot.tournament"},
    {"bot.ops"},
    {"bot.client"},
    {"bot.__main__", "bot.catalog"},
]


def _room(module: str) -> str:
    """The wing (`bot.table`) or top-level module (`bot.service`) a dotted name belongs to."""
    return ".".join(module.split(".")[:2])


def _floor(module: str) -> int:
    room = _room(module)
    found = [n for n, rooms in enumerate(BOT_FLOORS) if room in rooms]
    assert found, f"{room} is on no floor of BOT_FLOORS: give it one"
    return found[0]


def test_bot_wings_import_only_their_floor_and_below() -> None:
    """ui ← table ← ops ← client: Discord plumbing never reaches into the table, the table
    never into operations, and nothing below the client reaches up to it."""
    for path in package_files("bot"):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        if module == "bot.__init__":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("bot"):
                targets = [node.module] if node.module != "bot" else []
                targets += [f"bot.{a.name}" for a in node.names if node.module == "bot"]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names if a.name.startswith("bot.")]
            for target in targets:
                if target in {"bot", "bot.__version__"}:
                    continue
                assert _floor(target) <= _floor(module), f"{module} imports {target}, above it"
