"""`LOG_FORMAT=json`: whatever else a process writes on stderr is a JSON line too (a Python
warning, an exception no code caught: in a thread, in the event loop, at the top), and the
last line of a failed start carries its exit status and traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.log_format import report

ROOT = Path(__file__).resolve().parents[2]
UNCAUGHT = """
import asyncio, gc, threading, warnings
from uvloop import new_event_loop
from bot.log_format import setup_logging
setup_logging("INFO", "json")
warnings.warn("a warning")
thread = threading.Thread(target=lambda: 1 / 0, name="drawer")
thread.start()
thread.join()
async def main():
    async def fail():
        raise ValueError("lost")
    task = asyncio.ensure_future(fail())
    await asyncio.sleep(0.01)
    del task
    gc.collect()
    asyncio.get_running_loop().call_soon(lambda: 1 / 0)
    await asyncio.sleep(0.01)
with asyncio.Runner(loop_factory=new_event_loop) as runner:
    runner.run(main())
raise RuntimeError("at the top")
"""


def test_every_line_of_a_json_process_is_json_uncaught_exceptions_included() -> None:
    done = subprocess.run(
        [sys.executable, "-c", UNCAUGHT], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1  # Python's own for the exception at the top
    lines = [json.loads(line) for line in done.stderr.splitlines()]  # each must parse
    said = [(line["logger"], line["message"].splitlines()[0]) for line in lines]
    assert said[0][0] == "py.warnings" and said[0][1].endswith("UserWarning: a warning")
    assert said[1:] == [
        ("bot", "uncaught exception in thread drawer"),
        ("asyncio", "Task exception was never retrieved"),
        ("asyncio", said[3][1]),  # "Exception in callback …"
        ("bot", "uncaught exception"),
    ]
    assert said[3][1].startswith("Exception in callback")
    errors = ("ZeroDivision", "ValueError", "ZeroDivision", "Runtime")
    for line, error in zip(lines[1:], errors, strict=True):
        assert line["exception"].startswith("Traceback") and error in line["exception"]


def test_the_last_line_of_a_failed_start_in_json(capsys: pytest.CaptureFixture[str]) -> None:
    try:
        raise KeyError("gone")
    except KeyError as e:
        report("Parlour stopped", "json", status=3, error=e)
    report("A bad setting", "json", status=2)
    err = capsys.readouterr().err
    crash, setting = (json.loads(line) for line in err.splitlines())
    assert crash["exit_status"] == 3 and "KeyError: 'gone'" in crash["exception"]
    assert setting == setting | {"message": "A bad setting", "exit_status": 2}
    assert "exception" not in setting
