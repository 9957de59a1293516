"""The test's side of `tests/e2e/fork_server.py`: a `python -m bot` process forked from a
server that imported the bot beforehand, used as a started one is (`BotProcess`)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tests.e2e.process import REPO, clean_env

MAX_MESSAGE = 1 << 16


class ForkedProcess:
    """A forked child, with what the tests use of `asyncio.subprocess.Process`."""

    def __init__(self, server: ForkServer, pid: int, stderr: asyncio.StreamReader) -> None:
        self.server = server
        self.pid = pid
        self.stderr = stderr
        self.returncode: int | None = None
        self._exited = asyncio.get_running_loop().create_future()

    def send_signal(self, signum: int) -> None:
        # Through the server, its parent: it signals only a child it has not reaped, whose
        # pid can't be another process's yet.
        if self.returncode is None:
            self.server.send({"signal": [self.pid, signum]})

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    async def wait(self) -> int:
        return await asyncio.shield(self._exited)

    def exited(self, returncode: int) -> None:
        self.returncode = returncode
        self._exited.set_result(returncode)


class ForkServer:
    """One `python -m tests.e2e.fork_server` process, and the children it forked for us. A
    worker's tests share it, one test at a time: each test's event loop `attach`es to it for
    its launches, and `detach`es once its children are gone."""

    def __init__(self, proc: subprocess.Popen[bytes], control: socket.socket) -> None:
        self.proc = proc
        self.control = control
        self.children: dict[int, ForkedProcess] = {}
        self._reader: asyncio.Task[None] | None = None
        self._started: asyncio.Queue[ForkedProcess | None] = asyncio.Queue()
        self._lock = asyncio.Lock()  # one start at a time: answers come in order
        self._stderr = asyncio.StreamReader()  # the next child's

    @classmethod
    async def start(cls, cache_dir: Path) -> ForkServer:
        """A server whose children find the pictures' layers of `cache_dir` in memory, once
        it has imported and read what they need."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        with theirs:
            # In the environment every bot process has: the server's imports read it. Not
            # an asyncio process: it outlives the test's event loop.
            proc = subprocess.Popen(
                [sys.executable, "-m", "tests.e2e.fork_server"],
                cwd=REPO,
                env=clean_env(CACHE_DIR=str(cache_dir)),
                stdin=theirs,
                stdout=subprocess.DEVNULL,
            )
        ours.setblocking(False)
        if not await asyncio.get_running_loop().sock_recv(ours, MAX_MESSAGE):  # {"ready": pid}
            ours.close()
            proc.wait()
            raise AssertionError("the fork server exited before its imports were done")
        return cls(proc, ours)

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None and self.control.fileno() != -1

    def attach(self) -> None:
        """Read the server's answers in the running event loop (a test's), if not already."""
        if self._reader is None:
            self._started = asyncio.Queue()
            self._lock = asyncio.Lock()
            self._reader = asyncio.create_task(self._read())

    async def detach(self) -> None:
        """Stop reading, the test's children all reaped: the next test's loop reads on."""
        assert not self.children, f"children left running: {list(self.children)}"
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
            self._reader = None

    async def _read(self) -> None:
        loop = asyncio.get_running_loop()
        while message := await loop.sock_recv(self.control, MAX_MESSAGE):
            answer: dict[str, Any] = json.loads(message)
            if "exited" in answer:
                pid, returncode = answer["exited"]
                self.children.pop(pid).exited(returncode)
            elif "started" in answer:  # known before its end can be read
                child = ForkedProcess(self, answer["started"], self._stderr)
                self.children[child.pid] = child
                self._started.put_nowait(child)
        # The server is gone (its stderr says why), and its children with it: SIGKILLed as
        # it died (their PR_SET_PDEATHSIG).
        for child in self.children.values():
            child.exited(-signal.SIGKILL)
        self.children.clear()
        self._started.put_nowait(None)

    def send(self, message: dict[str, Any], fds: list[int] | None = None) -> None:
        socket.send_fds(self.control, [json.dumps(message).encode()], fds or [])

    async def launch(
        self, cwd: Path, env: Mapping[str, str], *args: str, module: str = "bot"
    ) -> ForkedProcess:
        """`python -m module *args` in `cwd` with (only) `env`, its stderr a pipe to us."""
        loop = asyncio.get_running_loop()
        self.attach()
        read, write = os.pipe()
        request = {"cwd": str(cwd), "env": dict(env), "args": list(args), "module": module}
        async with self._lock:
            stderr = self._stderr = asyncio.StreamReader()
            try:
                self.send({"start": request}, [write])
            finally:
                os.close(write)
            child = await self._started.get()
        if child is None:
            os.close(read)
            raise AssertionError("the fork server exited")
        await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(stderr), os.fdopen(read, "rb", 0)
        )
        return child

    async def close(self) -> None:
        """Say we are done: the server kills and reaps what is left (telling us), and exits."""
        self.attach()
        self.control.shutdown(socket.SHUT_WR)
        assert self._reader is not None
        await self._reader  # ends as the server closes its end
        self._reader = None
        await asyncio.to_thread(self.proc.wait)
        self.control.close()

    def stop(self) -> None:
        """`close` with no event loop (the end of a worker's run): nothing is read."""
        if self.control.fileno() != -1:
            self.control.shutdown(socket.SHUT_WR)
            self.proc.wait()
            self.control.close()
