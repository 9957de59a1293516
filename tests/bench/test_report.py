"""`bench.report`: docs/PERFORMANCE.md written from the benches' output files, each figure
with where and when it was measured, and stale ones marked; the README only links the page."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from bench import report
from bench.load import TITLES, Title
from bench.report import ABOUT, page, stale_since
from bench.results import ROOT, Run


def git(*args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=True
    ).stdout.strip()


def result(commit: str, hot_paths: tuple[str, ...], bench: str = "load") -> dict[str, object]:
    run = Run(bench, hot_paths, ["--games", "10"])
    run.commit = commit
    run.tables.append({"caption": "A row", "headers": ["games", "p99 ms"], "rows": [["10", "20"]]})
    run.notes.append("requests per move: 1.14")
    return {
        "bench": run.name,
        "argv": run.argv,
        "commit": run.commit,
        "date": run.started,
        "machine": "a test machine, 2 cores",
        "load_before": "0.10 0.20 0.30",
        "load_after": "0.40 0.50 0.60",
        "hot_paths": list(run.hot_paths),
        "tables": run.tables,
        "notes": run.notes,
    }


def test_a_result_shows_its_table_and_where_it_was_measured() -> None:
    head = git("rev-parse", "--short=7", "HEAD")
    text = page([result(head, ("bot",))])
    assert "| games | p99 ms |\n|---|---|\n| 10 | 20 |" in text
    assert f"Measured at `{head}`" in text and "a test machine, 2 cores" in text
    assert "0.10 0.20 0.30 before" in text and "requests per move: 1.14" in text
    assert "**Stale:**" not in text


def test_a_result_older_than_a_change_to_its_hot_path_is_marked_stale() -> None:
    first = git("rev-list", "--max-parents=0", "HEAD").split()[0][:7]
    assert stale_since(first, ["bot"])  # bot/ changed since the first commit
    assert "**Stale:** bot changed since" in page([result(first, ("bot",))])
    # Figures measured on uncommitted changes are stale at once.
    head = git("rev-parse", "--short=7", "HEAD")
    assert stale_since(f"{head}-dirty", ["bot"]) == [f"{head}-dirty"]


@pytest.mark.parametrize("title", TITLES.values(), ids=lambda title: title.name)
def test_each_games_load_and_profile_results_have_their_own_section(title: Title) -> None:
    head = git("rev-parse", "--short=7", "HEAD")
    for bench in (f"load{title.results}", f"profile{title.results}"):
        heading, about = ABOUT[bench]
        assert f"## {heading}\n\n{about}\n" in page([result(head, title.hot_paths, bench)])


def test_the_tournament_load_has_its_own_section() -> None:
    head = git("rev-parse", "--short=7", "HEAD")
    heading, about = ABOUT["load_tournament"]
    text = page([result(head, ("bot",), "load_tournament")])
    assert f"## {heading}\n\n{about}\n" in text and f"Measured at `{head}`" in text


def test_no_games_figures_overwrite_anothers() -> None:
    assert len({title.results for title in TITLES.values()}) == len(TITLES)


def test_the_report_writes_its_page_and_leaves_the_readme_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    readme = (ROOT / "README.md").read_text()
    results = tmp_path / "results"
    results.mkdir()
    head = git("rev-parse", "--short=7", "HEAD")
    (results / "load.json").write_text(json.dumps(result(head, ("bot",))))
    monkeypatch.setattr(report, "RESULTS", results)
    monkeypatch.setattr(report, "PAGE", tmp_path / "PERFORMANCE.md")
    report.main()
    assert "| 10 | 20 |" in (tmp_path / "PERFORMANCE.md").read_text()
    assert (ROOT / "README.md").read_text() == readme
    # The README is static: it links the page and carries no figure of its own.
    assert "(docs/PERFORMANCE.md)" in readme and "Measured at" not in readme
