"""`bench.profile`'s sharing of py-spy's samples into stages, and the stages into groups."""

from __future__ import annotations

from bench.profile import GROUPS, STAGES, stage_of

ROOT = "<module> (bot/__main__.py:326)"
LOOP = "Runner.run (asyncio/runners.py:118)"


def test_a_sample_with_no_python_frame_above_the_loop_is_c_code_the_loop_runs() -> None:
    assert stage_of([ROOT, LOOP]) == "event loop, in C"


def test_asyncio_s_own_python_is_its_own_stage() -> None:
    assert stage_of([ROOT, LOOP, "wait_for (asyncio/tasks.py:476)"]) == "event loop, in asyncio"


def test_the_innermost_claimed_frame_decides() -> None:
    frames = [ROOT, LOOP, "Clicks.click (bot/table/clicks.py:51)", "encode (images/png.py:40)"]
    assert stage_of(frames) == "PNG encode"
    assert stage_of([ROOT, LOOP, "Clicks.click (bot/table/clicks.py:51)"]) == (
        "routing and service"
    )


def test_a_waiting_thread_is_left_out() -> None:
    assert stage_of(["_bootstrap (threading.py:1002)", "wait (threading.py:331)"]) is None


def test_every_stage_is_in_exactly_one_group() -> None:
    grouped = [stage for stages in GROUPS.values() for stage in stages]
    assert sorted(grouped) == sorted([name for name, _ in STAGES] + ["other"])
