"""The kernel's side of the preloaded launcher (`mcp_lab.deployment.preloaded`): start it once, ask it for
instance processes, learn when they exit.

One launcher per kernel, started with the first instance (so a kernel that never deploys pays nothing) in a
session of its own (a kernel interrupt signals the kernel's process group: the launcher is not in it), and
started again when it has died. Everything here is loop-agnostic and never blocks: requests go on a
non-blocking socket, replies and exit reports are read when someone asks (`pump`), and the awaiting code
polls with short sleeps -- a notebook may run its fleets under one event loop and a test under many.
The children are not the kernel's: `ForkedProcess` gives the calls the lab makes of a `Popen` (pid, poll,
wait, returncode) from the launcher's exit reports and a pidfd.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import os
import select
import signal
import socket
import subprocess
import sys
import time

from mcp_lab.deployment.groups import stop_group
from mcp_lab.deployment.preloaded import LAUNCHER_MODULE, startup_variables
from mcp_lab.json_types import JsonObject

__all__ = ["UNKNOWN_STATUS", "ForkedProcess", "Launcher", "launcher"]

READY_TIMEOUT = 60.0
REPLY_TIMEOUT = 30.0
UNKNOWN_STATUS = 255
"""The exit status of a child whose launcher died before reporting it (init reaped it)."""


class ForkedProcess:
    """An instance process the launcher forked: what the lab asks of a `subprocess.Popen`."""

    def __init__(self, owner: Launcher, pid: int) -> None:
        self.owner = owner
        self.pid = pid
        self.returncode: int | None = None
        self._pidfd: int | None = None
        self._launcher = owner.process  # the launcher that forked it (a restarted one does not report it)
        with contextlib.suppress(OSError, AttributeError):
            self._pidfd = os.pidfd_open(pid)

    def _launcher_gone(self) -> bool:
        return self.owner.process is not self._launcher or not self.owner.alive

    def _exited(self) -> bool:
        """The process has ended (the launcher may not have reported its status yet)."""
        if self._pidfd is None:
            return self.owner.exit_status(self.pid) is not None or self._launcher_gone()
        return bool(select.select([self._pidfd], [], [], 0)[0])

    def poll(self) -> int | None:
        if self.returncode is None:
            self.owner.pump()
            status = self.owner.exit_status(self.pid) if self.owner.process is self._launcher else None
            if status is None and self._launcher_gone() and self._exited():
                status = UNKNOWN_STATUS  # its launcher is gone, and init reaped it
            if status is not None:
                self.returncode = status
                self.owner.forget(self.pid)
                if self._pidfd is not None:
                    os.close(self._pidfd)
                    self._pidfd = None
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"pid {self.pid}", timeout or 0.0)
            if self._pidfd is not None and not self._exited():
                select.select([self._pidfd], [], [], 0.01 if deadline is None else max(0.0, min(0.01, deadline - time.monotonic())))
            else:
                time.sleep(0.002)  # ended: its status is on the way
        return self.returncode if self.returncode is not None else UNKNOWN_STATUS

    def __del__(self) -> None:
        if self._pidfd is not None:
            with contextlib.suppress(OSError):
                os.close(self._pidfd)


class Launcher:
    """The kernel's one preloaded launcher process (see the module's docstring)."""

    def __init__(self) -> None:
        self.exit_hooked = False
        self.reset()

    def reset(self) -> None:
        """No launcher yet (a new kernel's state)."""
        self.process: subprocess.Popen[bytes] | None = None
        self.control: socket.socket | None = None
        self.startup: dict[str, str] = {}
        self.failure = ""
        """Why the launcher could not start (then instances start by exec)."""
        self.ready = False
        self._starting = False
        self._next_id = 0
        self._replies: dict[int, JsonObject] = {}
        self._abandoned: set[int] = set()
        self._exits: dict[int, int] = {}

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    @property
    def alive(self) -> bool:
        return self.control is not None and self.process is not None and self.process.poll() is None

    def exit_status(self, pid: int) -> int | None:
        return self._exits.get(pid)

    def forget(self, pid: int) -> None:
        self._exits.pop(pid, None)

    def pump(self) -> None:
        """Read every message waiting on the control socket (never waits)."""
        control = self.control
        while control is not None:
            try:
                data = control.recv(1 << 16)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:  # the launcher is gone (and with it every child: they die with it)
                self._lost()
                return
            with contextlib.suppress(ValueError, TypeError, KeyError):
                message = json.loads(data)
                if isinstance(message, dict):
                    self._dispatch(message)

    def _dispatch(self, message: JsonObject) -> None:
        ident = message.get("id")
        if "exited" in message:
            pid, status = message["exited"], message["returncode"]
            if isinstance(pid, int) and isinstance(status, int):
                self._exits[pid] = status
        elif "ready" in message:
            self.ready = bool(message["ready"])
            startup = message.get("startup")
            self.startup = {str(k): str(v) for k, v in startup.items()} if isinstance(startup, dict) else {}
            if not self.ready:
                self.failure = str(message.get("reason") or "the launcher could not start")
        elif isinstance(ident, int) and ident in self._abandoned:  # forked after its start gave up and
            self._abandoned.discard(ident)  # exec'd: it goes
            pid = message.get("pid")
            if isinstance(pid, int):
                stop_group(pid, signal.SIGKILL)
        elif isinstance(ident, int):
            self._replies[ident] = message

    def _lost(self) -> None:
        if self.control is not None:
            self.control.close()
        self.control = None
        self.ready = False
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()  # it closed its socket, so it is ending: make sure (reaped without waiting:
            self.process.poll()  # by the next poll, or by subprocess's own cleanup once it is dropped)

    def _start(self) -> None:
        if not self.exit_hooked:  # once, with the first launcher: this process's exit ends and reaps it
            self.exit_hooked = True
            atexit.register(self.stop_and_reap)
        kernel_end, launcher_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        env = dict(os.environ)
        env["PYTHONUNBUFFERED"] = "1"  # as every instance has it (its stdout and stderr are unbuffered)
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", LAUNCHER_MODULE, str(os.getpid()), str(launcher_end.fileno())],
                pass_fds=(launcher_end.fileno(),),
                env=env,
                cwd="/",  # `-m` puts the working directory first on sys.path: nothing importable there
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        except OSError as exc:
            kernel_end.close()
            self.failure = f"cannot start the launcher: {exc.strerror or exc}"
        else:
            kernel_end.setblocking(False)
            self.control = kernel_end
        finally:
            launcher_end.close()

    async def usable(self) -> bool:
        """Started (or restarted after it died) and ready to fork; False: start instances by exec."""
        while self._starting:  # another instance's start is starting it
            await asyncio.sleep(0.01)
        if self.failure:
            return False
        self.pump()
        if not self.alive:
            self.ready = False
            self._starting = True
            try:
                self._start()
                deadline = time.monotonic() + READY_TIMEOUT
                while self.alive and not self.ready and not self.failure and time.monotonic() < deadline:
                    await asyncio.sleep(0.01)
                    self.pump()
                if not self.ready and not self.failure:
                    self.failure = "the launcher did not get ready"
                if self.failure:
                    self.stop()
            finally:
                self._starting = False
        return self.ready and self.alive

    def fits(self, argv: list[str], env: dict[str, str]) -> bool:
        """The launcher can start this command: `python -m uvicorn` of this interpreter, under the variables
        the interpreter read when the launcher started."""
        return argv[:3] == [sys.executable, "-m", "uvicorn"] and startup_variables(env) == self.startup

    async def spawn(self, argv: list[str], env: dict[str, str], cwd: str, log: int) -> ForkedProcess | None:
        """One child running `argv` with `env` in `cwd`, stdout and stderr on fd `log` (None: not possible
        now; the caller starts the process by exec)."""
        if not await self.usable() or not self.fits(argv, env) or self.control is None:
            return None
        self._next_id += 1
        ident = self._next_id
        message = json.dumps({"id": ident, "argv": argv, "env": env, "cwd": cwd, "umask": _umask()}).encode()
        try:
            socket.send_fds(self.control, [message], [log])
        except BlockingIOError:  # its queue is full for now: this one starts by exec, the launcher stays
            return None
        except OSError:
            self._lost()
            return None
        deadline = time.monotonic() + REPLY_TIMEOUT
        while ident not in self._replies:
            self.pump()
            if not self.alive or time.monotonic() > deadline:
                self._abandoned.add(ident)
                return None
            await asyncio.sleep(0.002)
        pid = self._replies.pop(ident).get("pid")
        return ForkedProcess(self, pid) if isinstance(pid, int) else None

    def stop(self) -> None:
        """Close the control socket: the launcher exits (and any child left gets SIGTERM)."""
        self._lost()

    def stop_and_reap(self) -> None:
        """`stop`, then wait for the launcher to be gone (at interpreter exit: no child left unreaped)."""
        process = self.process
        self.stop()
        if process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=2)


def _umask() -> int | None:
    """This process's file mode mask now, which an exec'd child would inherit (read, not set and reset:
    another thread may be creating a file)."""
    with contextlib.suppress(OSError, ValueError, StopIteration), open("/proc/self/status") as status:
        return int(next(line for line in status if line.startswith("Umask:")).split()[1], 8)
    return None


launcher = Launcher()
"""The kernel's one launcher."""


def _forked_kernel() -> None:
    """A process forked from the kernel has the kernel's launcher state but is not the launcher's parent:
    it starts its own when it needs one (its copy of the socket is closed; the kernel's stays open)."""
    if launcher.control is not None:
        with contextlib.suppress(OSError):
            launcher.control.close()
    launcher.reset()


os.register_at_fork(after_in_child=_forked_kernel)
