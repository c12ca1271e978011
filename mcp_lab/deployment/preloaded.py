"""The kernel's instance launcher: `python -m mcp_lab.deployment.preloaded KERNEL_PID CONTROL_FD`.

Every instance process used to pay for importing uvicorn and the SDK (about a CPU second) before it could
answer. This process imports them once -- libraries only: no server, no key, no socket, no event loop, no
thread is made here -- and forks one child per instance the kernel asks for. Each child becomes what the
exec path would have started: a session of its own (a stop reaches it and only it), stdin /dev/null, its
stdout and stderr on the log file the kernel passed (SCM_RIGHTS), the working directory and environment the
request names (os.environ replaced before uvicorn reads anything), its own command line and environment in
/proc (so `ps` and the tests' process-table checks see `python -m uvicorn ... --port P` and the instance's
variables), and then uvicorn's own `main` with that command line: the server module is imported, and its
default key generated, in the child alone.

Lifetimes: this process dies with the kernel (PR_SET_PDEATHSIG, also when the kernel is SIGKILLed) and each
child dies with it in turn; it exits when the kernel closes the control socket. It reports every child's
exit status over the control socket, since the kernel is not the children's parent. Nothing secret passes
here: the environment holds names and paths only, keys go through their 0600 file as before.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import gc
import importlib
import json
import os
import selectors
import signal
import socket
import sys
import traceback
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: this file imports nothing of the lab's (tests/forked_kernels.py loads it alone)
    from mcp_lab.json_types import JsonObject, JsonValue

__all__ = ["LAUNCHER_MODULE", "PRELOADED", "main", "retitle", "startup_variables"]

LAUNCHER_MODULE = "mcp_lab.deployment.preloaded"
PRELOADED = [
    "uvicorn.main",
    "uvicorn.config",
    "uvicorn.server",
    "uvicorn.importer",
    "uvicorn.lifespan.on",
    "uvicorn.loops.auto",
    "uvicorn.loops.asyncio",
    "uvicorn.loops.uvloop",
    "uvicorn.protocols.http.auto",
    "uvicorn.protocols.http.h11_impl",
    "uvicorn.protocols.http.httptools_impl",
    "uvicorn.protocols.websockets.auto",
    "uvicorn.middleware.proxy_headers",
    "mcp.server.mcpserver",
    "mcp.server.lowlevel",
    "mcp.server.streamable_http",
    "mcp.server.streamable_http_manager",
    "mcp.server.request_state",
    "mcp_lab.deployment.app",
    "mcp_lab.rotation.probe",
    "mcp_lab.protocol.keys",
    "pydantic",
]
"""Modules only: importing them builds no server and draws no key (the SDK's default key is made when a
server is constructed, in the child)."""



def startup_variables(env: dict[str, str]) -> dict[str, str]:
    """The variables an interpreter reads as it starts, before any code (PYTHON*: paths, hash seed, buffering,
    warnings...; the locale: stdio's encoding). A forked child can only have them as the launcher had them,
    so the kernel starts a request whose values differ by exec instead."""
    return {k: v for k, v in env.items() if k.startswith(("PYTHON", "LC_")) or k == "LANG"}


_PR_SET_MM, _PR_SET_MM_MAP = 35, 14
_MAX_MESSAGE = 1 << 20


class _MemoryMap(ctypes.Structure):
    _fields_ = [
        *((name, ctypes.c_uint64) for name in (
            "start_code", "end_code", "start_data", "end_data", "start_brk", "brk", "start_stack",
            "arg_start", "arg_end", "env_start", "env_end", "auxv")),
        ("auxv_size", ctypes.c_uint32),
        ("exe_fd", ctypes.c_uint32),
    ]


_titles: list[ctypes.Array[ctypes.c_char]] = []  # the buffers /proc reads a retitled process's command line from: kept alive


def retitle(argv: list[str], env: dict[str, str]) -> bool:
    """Point this process's /proc cmdline and environ at `argv` and `env` (prctl PR_SET_MM_MAP: the areas an
    exec would have filled). False where Linux refuses; nothing changes then."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.sbrk.restype = ctypes.c_void_p
        with open("/proc/self/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
        stat = [0, 0, 0, *(int(f) if f.lstrip(b"-").isdigit() else 0 for f in fields)]  # stat(5) numbering
        cmdline = b"".join(os.fsencode(a) + b"\0" for a in argv)
        environ = b"".join(os.fsencode(f"{k}={v}") + b"\0" for k, v in env.items())
        buffer = ctypes.create_string_buffer(cmdline + environ, len(cmdline) + len(environ))
        base = ctypes.addressof(buffer)
        layout = _MemoryMap(
            start_code=stat[26], end_code=stat[27], start_data=stat[45], end_data=stat[46], start_brk=stat[47],
            brk=libc.sbrk(0) or stat[47], start_stack=stat[28], arg_start=base, arg_end=base + len(cmdline),
            env_start=base + len(cmdline), env_end=base + len(cmdline) + len(environ), auxv=0, auxv_size=0,
            exe_fd=0xFFFFFFFF,
        )
        if libc.prctl(_PR_SET_MM, _PR_SET_MM_MAP, ctypes.byref(layout), ctypes.sizeof(layout), 0) != 0:
            return False
    except (OSError, AttributeError, IndexError, ValueError):
        return False
    _titles.append(buffer)
    return True


def _threads() -> int:
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return 0


def _send(control: socket.socket, message: JsonObject) -> None:
    with contextlib.suppress(OSError):  # the kernel is gone: this process follows it
        control.send(json.dumps(message).encode())


def _strings(value: JsonValue) -> dict[str, str] | None:
    """A request's environment: a JSON object of strings, or None."""
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        return None
    return {k: str(v) for k, v in value.items()}


def _argv(value: JsonValue) -> list[str]:
    """A request's command line: a JSON list of strings (empty when it is anything else)."""
    if not isinstance(value, list) or not all(isinstance(a, str) for a in value):
        return []
    return [str(a) for a in value]


def _child(request: JsonObject, argv: list[str], env: dict[str, str], fds: list[int], launcher: int,
           keep: set[int]) -> int:
    """In the forked child: become the instance process the request describes (its command line and
    environment already checked), run uvicorn, its exit code."""
    from mcp_lab.deployment.guard import die_with_parent

    os.setsid()
    die_with_parent(launcher)  # SIGTERM when the launcher goes (which goes with the kernel)
    signal.set_wakeup_fd(-1)
    for number in (signal.SIGCHLD, signal.SIGHUP, signal.SIGTERM):
        signal.signal(number, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    log = fds[0]
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(log, 1)
    os.dup2(log, 2)
    for fd in {null, log, *keep}:
        if fd > 2:
            os.close(fd)
    os.chdir(str(request["cwd"]))
    umask = request.get("umask")
    if isinstance(umask, int):
        os.umask(umask)  # the kernel's now, as an exec'd child inherits it
    os.environ.clear()
    os.environ.update(env)
    retitle(argv, env)
    if not sys.flags.safe_path:
        sys.path[0] = os.getcwd()  # what `python -m` puts first: the working directory
    sys.argv = [sys.modules["uvicorn.main"].__file__ or "uvicorn", *argv[3:]]
    if env.get("PYTHONUNBUFFERED"):
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(AttributeError, ValueError):
                stream.reconfigure(write_through=True)  # type: ignore[union-attr]
    if "--workers" in argv:
        # uvicorn's supervisor starts each worker with multiprocessing's "spawn": a new interpreter that imports
        # uvicorn and the SDK again (~1 CPU-s a worker, measured). Forked from this process instead, a worker has
        # them already and does the rest as a spawned one does (binds nothing: the supervisor's socket is passed;
        # loads the app itself, so its own default key), in this process's session, stopped with it.
        import multiprocessing

        vars(importlib.import_module("uvicorn._subprocess"))["spawn"] = multiprocessing.get_context("fork")
    try:
        sys.modules["uvicorn.main"].main.main(args=argv[3:], prog_name="python -m uvicorn")
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if exc.code is not None and not isinstance(exc.code, int):
            sys.stderr.write(f"{exc.code}\n")
    except BaseException:  # as an interpreter would: the traceback to stderr (the log), exit status 1
        traceback.print_exc()
        code = 1
    with contextlib.suppress(Exception):
        atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    return code


def _spawn(control: socket.socket, request: JsonObject, fds: list[int], keep: set[int]) -> None:
    reply: JsonObject = {"id": request.get("id")}
    argv = _argv(request.get("argv"))
    env = _strings(request.get("env"))
    if len(fds) != 1 or argv[:3] != [sys.executable, "-m", "uvicorn"]:
        reply["error"] = "the launcher starts `python -m uvicorn` with one log file"
    elif env is None or not isinstance(request.get("cwd"), str):
        reply["error"] = "the launcher needs the instance's environment (strings) and working directory"
    elif _threads() != 1:  # forking a process with threads could copy a lock another thread held
        reply["error"] = f"the launcher has {_threads()} threads: it does not fork"
    else:
        launcher = os.getpid()
        pid = os.fork()
        if pid == 0:
            code = 127
            try:
                code = _child(request, argv, env, fds, launcher, keep)
            finally:
                os._exit(code)
        reply["pid"] = pid
    for fd in fds:
        os.close(fd)
    _send(control, reply)


def _reap(control: socket.socket) -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        _send(control, {"exited": pid, "returncode": os.waitstatus_to_exitcode(status)})


def _preload() -> list[str]:
    missing = []
    for name in PRELOADED:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)  # an optional uvicorn part (httptools, uvloop): the child does as uvicorn does
    return missing


def main(argv: list[str]) -> None:
    from mcp_lab.deployment.guard import die_with_parent

    kernel, fd = int(argv[0]), int(argv[1])
    die_with_parent(kernel)
    control = socket.socket(fileno=fd)
    try:
        missing = _preload()
    except BaseException as exc:  # the environment cannot import what an instance needs: the kernel execs
        _send(control, {"ready": False, "reason": f"{type(exc).__name__}: {exc}".splitlines()[0][:300]})
        return
    gc.freeze()  # what is loaded stays: the children's collections skip it (and leave its pages shared)
    wake_read, wake_write = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    checked = retitle(sys.orig_argv, dict(os.environ))  # the same areas again: only whether Linux allows it
    startup = startup_variables(dict(os.environ))
    _send(control, {"ready": checked and _threads() == 1, "pid": os.getpid(), "startup": startup,
                    "reason": "" if checked else "Linux refused to set a child's command line", "missing": missing})
    selector = selectors.DefaultSelector()
    selector.register(control, selectors.EVENT_READ)
    selector.register(wake_read, selectors.EVENT_READ)
    keep = {fd, wake_read, wake_write, selector.fileno()}
    while True:
        for key, _ in selector.select():
            if key.fileobj == wake_read:
                with contextlib.suppress(OSError):
                    os.read(wake_read, 4096)
                _reap(control)
                continue
            try:
                data, fds, _flags, _address = socket.recv_fds(control, _MAX_MESSAGE, 4)
            except OSError:
                data, fds = b"", []
            if not data:  # the kernel closed its end: the children get SIGTERM as this process exits
                return
            try:
                request = json.loads(data)
            except ValueError:
                request = {}
            if not isinstance(request, dict):
                request = {}
            _spawn(control, request, fds, keep)
        _reap(control)


if __name__ == "__main__":
    main(sys.argv[1:])
