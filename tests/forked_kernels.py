"""The test processes' kernels: `python -m ipykernel_launcher -f FILE` as a fork of an interpreter that has
imported ipykernel, IPython and the SDK already.

Why: a kernel costs about 1.5 CPU-s before its first cell has done anything (bench/kernel_start.py): ~0.4
for the interpreter and ipykernel, ~0.8 for the SDK that `%load_ext mcp_lab` imports (pydantic building the
protocol's models), and the suite starts about a hundred. Here the fork server of tests/preforked.py, which
has imported those libraries once per test process, forks each kernel the process starts: a process of its
own, its own pid, session and process group (so an interrupt or a kill from the KernelManager reaches it and
what it started, as for an exec'd kernel), its command line and environment in /proc as asked, stdin
/dev/null and stdout and stderr where an exec'd kernel's would go, its working directory, `sys.path` and
`sys.argv` as `python -m ipykernel_launcher` sets them, and then ipykernel's own launcher run as `__main__`.
The lab is not imported before the kernel runs: `%load_ext mcp_lab` loads it there as in any kernel.
Exit hooks run as at an interpreter's exit; the exit status reaches the KernelManager (the fork server
reports it, since the test process is not the kernel's parent).

Only the plain kernel command is forked (a kernel spec with any other command, or a stdin, stdout or stderr
asked for, is exec'd as before), only in test processes (tests/isolation.py installs it), never through a
kernel spec: a JupyterLab or JupyterHub a test starts execs its kernels as a user's does (the browser tests
check what those kernels started by their process tree), and so does the nbgrader a grading test runs (one
forked kernel there logged a ZMQ error as nbgrader shut it down, not understood yet: tests/classroom/grading.py).
`MCP_LAB_TEST_KERNELS=exec` turns it off.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import functools
import importlib.util
import json
import multiprocessing
import multiprocessing.connection
import multiprocessing.forkserver
import multiprocessing.process
import multiprocessing.util
import os
import runpy
import signal
import subprocess
import sys
import threading
import time
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

from jupyter_client.connect import KernelConnectionInfo
from jupyter_client.provisioning.factory import KernelProvisionerFactory
from jupyter_client.provisioning.local_provisioner import LocalProvisioner

from tests import preforked

NAME = "mcp-lab-test-forked"
"""The provisioner's name, registered in this process only (no entry point: nothing outside sees it)."""
LAUNCHER = ["-m", "ipykernel_launcher", "-f"]
_LAUNCH_TIMEOUT = 60.0


def install() -> None:
    """Make the forking provisioner the default for the kernels this process starts (idempotent)."""
    if os.environ.get("MCP_LAB_TEST_KERNELS") == "exec":
        return
    KernelProvisionerFactory.provisioners[NAME] = EntryPoint(
        name=NAME, value=f"{__name__}:ForkedProvisioner", group=KernelProvisionerFactory.GROUP_NAME
    )
    if KernelProvisionerFactory.instance().default_provisioner_name != NAME:
        KernelProvisionerFactory.instance().default_provisioner_name = NAME
        atexit.register(_reap_fork_server)


def _reap_fork_server() -> None:
    """At exit: what is left stopped as multiprocessing stops it, then the fork server ended and reaped.

    Without this the fork server outlives the process by a moment and is reaped by init, and with it the
    CPU of every kernel it forked and reaped: a parent's rusage of its children (tests/timing.py's
    per-file CPU) would not see the kernels at all."""
    multiprocessing.util._exit_function()  # type: ignore[attr-defined]  # once: later calls do nothing
    server: Any = multiprocessing.forkserver._forkserver  # type: ignore[attr-defined]
    pid, alive = server._forkserver_pid, server._forkserver_alive_fd
    if pid is None or alive is None:
        return
    server._forkserver_pid = server._forkserver_alive_fd = None
    os.close(alive)  # the fork server exits when this end closes
    deadline = time.monotonic() + 5
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(pid, os.WNOHANG) == (0, 0) and time.monotonic() < deadline:
            time.sleep(0.02)


class ForkedKernel:
    """What LocalProvisioner needs of a `subprocess.Popen`, for a kernel forked by the fork server."""

    stdin = stdout = stderr = None

    def __init__(self, process: multiprocessing.process.BaseProcess) -> None:
        self._process = process
        assert process.pid is not None
        self.pid: int = process.pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self._process.exitcode
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        self._process.join(timeout)
        code = self.poll()
        if code is None:
            raise subprocess.TimeoutExpired(["ipykernel_launcher"], timeout or 0)
        return code

    def send_signal(self, signum: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, signum)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class ForkedProvisioner(LocalProvisioner):  # type: ignore[misc]
    """LocalProvisioner, with the plain ipykernel command forked instead of exec'd."""

    async def launch_kernel(self, cmd: list[str], **kwargs: Any) -> KernelConnectionInfo:
        scrubbed = LocalProvisioner._scrub_kwargs(kwargs)
        outputs = [_descriptor(scrubbed.get("stdout"), 1), _descriptor(scrubbed.get("stderr"), 2)]
        plain = len(cmd) >= 5 and cmd[0] == sys.executable and cmd[1:4] == LAUNCHER
        if not plain or scrubbed.get("stdin") is not None or None in outputs or scrubbed.get("independent"):
            return await super().launch_kernel(cmd, **kwargs)
        env = dict(scrubbed.get("env") or os.environ)
        env["JPY_PARENT_PID"] = str(os.getpid())  # as jupyter_client's launcher sets it
        cwd = str(scrubbed.get("cwd") or os.getcwd())
        try:
            process = await asyncio.to_thread(_fork, cmd, env, cwd, _installation_path(), outputs)
        except (OSError, EOFError, RuntimeError, subprocess.SubprocessError) as exc:
            # No fork server (it failed to start or died): this kernel is exec'd, as without this module.
            self.log.warning("tests/forked_kernels.py: exec'ing the kernel, the fork failed: %s", exc)
            return await super().launch_kernel(cmd, **kwargs)
        self.process = ForkedKernel(process)
        self.pid = self.process.pid
        self.pgid = self.process.pid  # the kernel's own session and group (it made them before `_fork` returned)
        self.cwd = cwd
        return self.connection_info


@functools.cache
def _installation_path() -> tuple[str, ...]:
    """`sys.path` of a plain interpreter here, after its first entry and without PYTHONPATH: the standard
    library, site-packages and what their .pth files add (the fork server has the test process's path)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    code = "import json, sys; print(json.dumps(sys.path[1:]))"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return tuple(json.loads(done.stdout))


def _descriptor(stream: object, inherited: int) -> int | None:
    """The file descriptor a kernel's stdout or stderr goes to, as Popen would take it: None (this process's
    own), a descriptor, or a file (nbval passes os.devnull opened); None for a pipe or anything else."""
    if stream is None:
        return inherited
    if isinstance(stream, int):
        return stream if stream >= 0 else None  # subprocess.PIPE, DEVNULL, STDOUT are negative
    try:
        return int(stream.fileno())  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):
        return None


def _fork(
    cmd: list[str], env: dict[str, str], cwd: str, base: tuple[str, ...], outputs: list[int]
) -> multiprocessing.process.BaseProcess:
    ready_read, ready_write = multiprocessing.Pipe(duplex=False)
    stdout = multiprocessing.connection.Connection(os.dup(outputs[0]), readable=False)
    stderr = multiprocessing.connection.Connection(os.dup(outputs[1]), readable=False)
    process = preforked.CONTEXT.Process(
        target=_kernel,
        args=(cmd, env, cwd, list(base), stdout, stderr, ready_write),
        daemon=True,  # a test process that ends stops what is left, rather than waiting for it
    )
    try:
        process.start()
    finally:
        for end in (stdout, stderr, ready_write):
            end.close()
    with ready_read:
        # The kernel is in a session of its own before anyone may signal its group.
        try:
            started = ready_read.poll(_LAUNCH_TIMEOUT) and ready_read.recv() is True
        except EOFError:
            started = False
        if not started:
            process.kill()
            raise RuntimeError(f"the forked kernel did not start (exit status {process.exitcode})")
    return process


def _kernel(
    cmd: list[str],
    env: dict[str, str],
    cwd: str,
    base: list[str],
    stdout: multiprocessing.connection.Connection,
    stderr: multiprocessing.connection.Connection,
    ready: multiprocessing.connection.Connection,
) -> None:
    """In the forked child: become `python -m ipykernel_launcher -f FILE` in `cwd` with `env`."""
    os.setsid()  # as jupyter_client's launcher starts a kernel: a session and process group of its own
    ready.send(True)
    ready.close()
    os.dup2(stdout.fileno(), 1)
    os.dup2(stderr.fileno(), 2)
    stdout.close()
    stderr.close()
    os.chdir(cwd)
    # What the preloaded libraries put in the environment when imported (debugpy sets PYDEVD_USE_FRAME_EVAL
    # unless it is set): an exec'd kernel gets it from the same imports, made with its own environment.
    started = _startup_environment()
    imported = {k: v for k, v in os.environ.items() if started.get(k) != v}
    os.environ.clear()
    os.environ.update(env)
    for name, value in imported.items():
        os.environ.setdefault(name, value)
    _retitle(cmd, env)
    sys.dont_write_bytecode = bool(env.get("PYTHONDONTWRITEBYTECODE"))
    # sys.path as the interpreter builds it for `python -m`: the working directory, the environment's
    # PYTHONPATH, then the installation's folders but those PYTHONPATH named already (site skips those).
    own = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    named = {os.path.normcase(os.path.abspath(p)) for p in own}
    sys.path[:] = [cwd, *own, *(p for p in base if os.path.normcase(os.path.abspath(p)) not in named)]
    sys.argv = ["-m", *cmd[3:]]
    # A process of its own, not a multiprocessing child: what the kernel's code starts with multiprocessing
    # (a pool, a fork server of its own) is started as from any interpreter.
    # (What multiprocessing's own main process object holds: a name, no parent, a key of its own.)
    current: Any = multiprocessing.current_process()
    current._identity, current._name, current._parent_pid, current._parent_name, current._popen = (), "MainProcess", None, None, None
    current._config = {"authkey": multiprocessing.process.AuthenticationString(os.urandom(32)), "semprefix": "/mp"}
    multiprocessing.process._parent_process = None  # type: ignore[attr-defined]
    multiprocessing.process._children = set()  # type: ignore[attr-defined]
    # ipykernel reads these when its module is imported (the fork server's environment then): read them again.
    from ipykernel.kernelapp import IPKernelApp

    for trait, variable in (("parent_handle", "JPY_PARENT_PID"), ("interrupt", "JPY_INTERRUPT_EVENT")):
        value = int(env.get(variable) or 0)
        IPKernelApp.class_traits()[trait].default_value = value
        if trait in IPKernelApp._static_immutable_initial_values:  # traitlets' copy of static defaults
            IPKernelApp._static_immutable_initial_values[trait] = value
    code: object = 0
    try:
        runpy.run_module("ipykernel_launcher", run_name="__main__", alter_sys=True)
    except SystemExit as exc:
        code = exc.code
    # As an interpreter's exit: the threads that are not daemons joined, then the exit hooks.
    threading._shutdown()  # type: ignore[attr-defined]
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        with contextlib.suppress(Exception):
            stream.flush()  # type: ignore[union-attr]
    raise SystemExit(code)


def _startup_environment() -> dict[str, str]:
    """The environment this interpreter (the fork server) started with, before any import changed it."""
    try:
        block = Path("/proc/self/environ").read_bytes()
    except OSError:
        return {}
    pairs = (os.fsdecode(entry).partition("=") for entry in block.split(b"\0") if b"=" in entry)
    return {name: value for name, _, value in pairs}


def _retitle(cmd: list[str], env: dict[str, str]) -> None:
    """The kernel's command line and environment in /proc, as an exec'd kernel's (process-table checks).

    mcp_lab.deployment.preloaded does this for the lab's forked instances; its file is loaded on its own
    (standard library only) so that mcp_lab itself is first imported by the kernel, as in any kernel."""
    path = Path(__file__).resolve().parents[1] / "mcp_lab" / "deployment" / "preloaded.py"
    spec = importlib.util.spec_from_file_location("_mcp_lab_test_retitle", path)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.retitle(cmd, env)
    sys.modules.pop("_mcp_lab_test_retitle", None)
    _TITLE_KEEPER.append(module)  # its buffer must outlive the call


_TITLE_KEEPER: list[object] = []
