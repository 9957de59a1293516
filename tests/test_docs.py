"""The docs hold together: every citation and relative link points at a file in the repository.

Code, tests, configs and docs cite the rules reference by page and section
(`docs/rules/risk.md, "2. Attacks"`) and never a file outside the repository, so a fresh clone
is all a reader needs (docs/ARCHITECTURE.md, "Style").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"

# The files a citation can sit in: source, docs and configs, outside the virtualenv and caches.
TEXT_SUFFIXES = {".py", ".md", ".toml", ".cfg", ".service", ".example", ".sql", ".txt"}
SKIPPED_PARTS = {".git", ".venv", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache"}
# What once stood for the design notes and rules texts kept beside the repository.
OUTSIDE = re.compile(r"DESIGN\.md|(?<![\w/.])\.\./shared\b|(?<![\w/])shared/(rules|seeds)\b")
# `docs/rules/<page>.md`, then any sections named in quotes: `, "A turn" and "Cards"`.
RULES_CITATION = re.compile(r'docs/rules/([\w.-]*\.md)((?:[,;]?\s+(?:and\s+)?"[^"]+")*)')
QUOTED = re.compile(r'"([^"]+)"')
# A Markdown link or image: [text](target), the target without a title.
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
# A section of a rules page: a heading, or a bold numbered step such as **2. Attacks**.
HEADING = re.compile(r"^#+\s+(.+?)\s*$|^\*\*(\d+\.\s[^*]+?)\.?\*\*", re.MULTILINE)


def _text_files() -> Iterator[Path]:
    for path in sorted(ROOT.rglob("*")):
        relative = path.relative_to(ROOT)
        if SKIPPED_PARTS.intersection(relative.parts) or relative.parts[0].endswith(".egg-info"):
            continue
        if path.is_file() and (path.suffix in TEXT_SUFFIXES or relative == Path(".ci/run")):
            yield path


def _markdown_files() -> list[Path]:
    return [path for path in _text_files() if path.suffix == ".md"]


def _sections(page: Path) -> set[str]:
    """A page's section names, each also without its number and its bracketed tail."""
    names: set[str] = set()
    for match in HEADING.finditer(page.read_text()):
        name = match.group(1) or match.group(2)
        unnumbered = re.sub(r"^\d+\.\s+", "", name)
        names |= {name, unnumbered, re.sub(r"\s*\(.*\)$", "", unnumbered)}
    return names


def test_nothing_cites_a_file_outside_the_repository() -> None:
    me = Path(__file__).resolve()
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in _text_files()
        if path != me
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert not found, "cite docs/rules/ or docs/ARCHITECTURE.md instead:\n" + "\n".join(found)


def test_every_rules_citation_names_a_page_and_sections_that_exist() -> None:
    wrong = []
    for path in _text_files():
        text = path.read_text(errors="replace")
        for match in RULES_CITATION.finditer(text):
            page = RULES / match.group(1)
            where = f"{path.relative_to(ROOT)}: {' '.join(match.group(0).split())}"
            if not page.is_file():
                wrong.append(f"{where}: no such page")
                continue
            sections = _sections(page)
            cited = QUOTED.findall(" ".join(match.group(2).split()))
            wrong += [f"{where}: no section {name!r}" for name in cited if name not in sections]
    assert not wrong, "\n".join(wrong)


def test_every_relative_link_in_the_docs_resolves() -> None:
    broken = []
    for path in _markdown_files():
        for target in LINK.findall(path.read_text()):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue  # a web address, or a place on the same page
            resolved = (path.parent / target.split("#")[0]).resolve()
            if not resolved.is_relative_to(ROOT) or not resolved.exists():
                broken.append(f"{path.relative_to(ROOT)}: {target}")
    assert not broken, "\n".join(broken)
