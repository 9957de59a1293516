"""`python -m tests.e2e.fork_server`: a zygote of `python -m bot` processes for the tests that
kill and start the bot again and again (the storms).

Most of a bot's start is its imports and its pictures' warm-up. This process imports what
`python -m bot` imports before it serves (the bot's modules, and those its cogs import), and
reads once what each start reads from disk (`warm`; no event loop, no thread, no file or
socket left open), then forks one child per request of the test, on the control socket
it has as stdin (`tests/e2e/forked.py` is the test's side). The child drops the server's
sockets, takes the request's environment (`os.environ`, in place), working directory and
stderr (a pipe the test reads), and runs the module as `python -m` does, as `__main__`
(`runpy`), to the interpreter's own exit. A child is a real process: the test's SIGKILL
kills it with no shutdown code run, and it dies with the server (`PR_SET_PDEATHSIG`).

Messages are JSON, one per packet (SOCK_SEQPACKET): the test sends `{"start": {cwd, env,
args, module}}` with its stderr's descriptor, or `{"signal": [pid, signum]}`; the server
answers `{"started": pid}`, and `{"exited": [pid, returncode]}` once it reaped a child (its
CPU time then counts in the server's, and in the test run's once the server is reaped).
"""

from __future__ import annotations

import ast
import contextlib
import ctypes
import importlib.util
import json
import os
import runpy
import selectors
import signal
import socket
import sys
import threading
from dataclasses import dataclass
from typing import Any

from bot.language.i18n import language_name, languages
from bot.ops.warm_up import settle_memory
from images.layer_cache import use_directory
from images.words import use_translations
from tests.draw_layers import draw

CONTROL = 0  # the control socket: the server's stdin
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
MAX_MESSAGE = 1 << 20
# `bot.__main__`, and what its `run` imports as it starts the bot.
MODULES = ("bot.__main__", "bot.client", "bot.metrics", "bot.startup", "discord", "uvloop")


def read_at_import(name: str) -> bool:
    """Whether a module may read the variable `name` as it is imported (Python's own, and
    aiohttp's, yarl's... `*_NO_EXTENSIONS`): a child can't take another value of it."""
    return name.startswith("PYTHON") or name.endswith("_NO_EXTENSIONS")


@dataclass(frozen=True)
class Request:
    cwd: str
    env: dict[str, str]
    args: list[str]
    module: str
    stderr: int  # the descriptor received with the request


def preload() -> None:
    """Import what `python -m bot` imports before it connects: `bot.__main__` and the
    modules its `run` imports, and every cog's imports (not the cogs themselves:
    `load_extension` runs each cog module afresh)."""
    for name in MODULES:
        importlib.import_module(name)
    from bot.client import COGS

    # `python -m` runs it as `__main__` (the child does too): not as a module beside it.
    del sys.modules["bot.__main__"], sys.modules["bot"].__main__

    for name in COGS:
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.origin is not None, name
        with open(spec.origin, encoding="utf-8") as source:
            tree = ast.parse(source.read())
        imports = [node for node in tree.body if isinstance(node, ast.Import | ast.ImportFrom)]
        code = compile(ast.Module(body=imports, type_ignores=[]), spec.origin, "exec")
        exec(code, {"__name__": name, "__package__": spec.parent})
    warm()
    # Forking a process with threads would copy their locks held, and not the threads.
    assert threading.active_count() == 1, threading.enumerate()


def warm() -> None:
    """Read once what each start reads from disk before it connects: the pictures' layers and
    the catalogs (a start's own warm-up, one board of every game in every language, drawn as
    the bot's pictures are set up, in `CACHE_DIR`), and Babel's locale data (the languages'
    names of the commands' choices). A child still runs its whole start: it finds them in
    memory. Then the memory is settled as a bot settles its own (frozen out of the
    collector's sight), so that a child's collections walk only its own objects."""
    draw(os.environ.get("CACHE_DIR"))
    use_directory(None)
    use_translations(None)
    for language in languages():
        for other in languages():
            language_name(language, other)
    settle_memory()


def serve() -> Request:
    """Fork a child per request until the test closes the control socket; returns only in a
    child, with its request."""
    control = socket.socket(fileno=CONTROL)
    own = {name: value for name, value in os.environ.items() if read_at_import(name)}
    children: dict[int, int] = {}  # pidfd: pid
    selector = selectors.DefaultSelector()
    selector.register(control, selectors.EVENT_READ)
    send(control, {"ready": os.getpid()})
    while True:
        for key, _ in selector.select():
            if key.fileobj is not control:
                pidfd = int(key.fd)
                selector.unregister(pidfd)
                os.close(pidfd)
                pid = children.pop(pidfd)
                _, status = os.waitpid(pid, 0)
                send(control, {"exited": [pid, os.waitstatus_to_exitcode(status)]})
                continue
            message, fds, _, _ = socket.recv_fds(control, MAX_MESSAGE, 1)
            if not message:  # the test is done, or gone: so are its bots
                for pid in children.values():
                    os.kill(pid, signal.SIGKILL)
                    _, status = os.waitpid(pid, 0)
                    with contextlib.suppress(OSError):  # told, if the test still listens
                        send(control, {"exited": [pid, os.waitstatus_to_exitcode(status)]})
                sys.exit(0)
            order: dict[str, Any] = json.loads(message)
            if "signal" in order:
                pid, signum = order["signal"]
                if pid in children.values():  # not reaped: its pid is still its own
                    os.kill(pid, signum)
                continue
            request = Request(**order["start"], stderr=fds[0])
            mismatched = {
                name
                for name in own.keys() | request.env.keys()
                if read_at_import(name) and own.get(name) != request.env.get(name)
            }
            assert not mismatched, f"a forked child can't take {mismatched}: start it anew"
            parent = os.getpid()
            pid = os.fork()
            if pid == 0:
                die_with(parent)
                selector.close()
                for pidfd in children:
                    os.close(pidfd)
                control.close()
                return request
            os.close(request.stderr)
            pidfd = os.pidfd_open(pid)
            children[pidfd] = pid
            selector.register(pidfd, selectors.EVENT_READ)
            send(control, {"started": pid})


def send(control: socket.socket, message: dict[str, Any]) -> None:
    control.send(json.dumps(message).encode())  # one packet: one message


def die_with(parent: int) -> None:
    """SIGKILL this process when the server dies (or now, if it already has)."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG)")
    if os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGKILL)


def become(request: Request) -> None:
    """The child takes the request's stdio, environment and working directory, as
    `python -m` started there with them would have."""
    # The control socket was stdin and is closed: /dev/null may open as 0, and must stay.
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):
        if fd != devnull:
            os.dup2(devnull, fd)
    os.dup2(request.stderr, 2)
    if devnull > 2:
        os.close(devnull)
    os.close(request.stderr)
    os.environ.clear()  # in place: `os.environ` defaults stay this environment
    os.environ.update(request.env)
    os.chdir(request.cwd)
    sys.path[0] = os.getcwd()  # `python -m`'s first entry: the working directory
    sys.argv = [sys.argv[0], *request.args]  # runpy sets argv[0] to the module's file
    sys.orig_argv = [sys.orig_argv[0], "-m", request.module, *request.args]


if __name__ == "__main__":
    preload()
    started = serve()
    become(started)
    # As `python -m`: the module runs as `__main__`, and its SystemExit (or an uncaught
    # error) ends the interpreter as it would end that process.
    runpy.run_module(started.module, run_name="__main__", alter_sys=True)
