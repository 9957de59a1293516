"""`bench.profile`'s sharing of py-spy's samples into stages, and the stages into groups."""

from __future__ import annotations

from bench.profile import GROUPS, STAGES, stage_of, stages

ROOT = "<module> (bot/__main__.py:326)"
LOOP = "Runner.run (asyncio/runners.py:118)"
BOT = 'process 6127:"/work/main/.venv/bin/python -m bot"'
WORKER = (
    'process 6137:"/work/main/.venv/bin/python -c from multiprocessing.spawn import '
    'spawn_main; spawn_main(tracker_fd=22, pipe_handle=23) --multiprocessing-fork"'
)
UV = "run_forever (loop.c:33192);uv_run (core.c:452)"


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


def test_the_loop_waiting_in_epoll_is_left_out_and_its_c_work_is_kept() -> None:
    raw = (
        f"{BOT};{ROOT};{LOOP};{UV};uv__io_poll (linux.c:1370);epoll_pwait (libc.so.6) 7\n"
        f"{BOT};{ROOT};{LOOP};{UV};uv__stream_io (stream.c:1243);read (libc.so.6) 3\n"
    )
    assert stages(raw) == {"event loop, in C": 3}


def test_a_thread_waiting_for_the_gil_or_the_disk_is_left_out() -> None:
    sqlite = "execute (sqlite3/__init__.py:1);_pysqlite_query_execute (cursor.c:971)"
    raw = (
        f"{BOT};run (threading.py:982);{sqlite};pthread_cond_timedwait (libc.so.6) 5\n"
        f"{BOT};run (threading.py:982);{sqlite};fdatasync (libc.so.6) 2\n"
        f"{BOT};run (threading.py:982);PyThread_acquire_lock_timed (libpython3.11.so) 3\n"
        f"{BOT};run (threading.py:982);{sqlite};sqlite3VdbeExec (libsqlite3.so.0) 4\n"
    )
    assert stages(raw) == {"storage": 4}


def test_a_worker_s_samples_count_under_its_own_frames() -> None:
    encode = "board_png (images/pieces.py:200);encode (images/png.py:40);deflate (libz-ng.so)"
    spawned = "<module> (<string>:1);spawn_main (multiprocessing/spawn.py:122)"
    raw = f"{BOT};{WORKER};{spawned};{encode} 6\n"
    assert stages(raw) == {"PNG encode": 6}
