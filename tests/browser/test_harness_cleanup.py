"""The browser harness stops what JupyterLab started: the kernels after each test, everything when Lab stops.

Kernels are started through Lab's own REST API (as a notebook page starts them), and made to start a
process of their own through their connection file, as a tutorial's cell starts a server; the harness
must end them all -- and when something outlives its kernel, kill it and say so.
"""

from __future__ import annotations

import contextlib
import queue
import time
from pathlib import Path

import psutil
import pytest
from jupyter_client import BlockingKernelClient

from tests.browser.harness import Lab, marked_processes, start_lab

SLEEPER = "import subprocess, sys\np = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)']{extra})"


def running(process: psutil.Process) -> bool:
    with contextlib.suppress(psutil.Error):
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    return False


def start_kernel(lab: Lab) -> psutil.Process:
    kernel_id = lab.api("/api/kernels", method="POST")["id"]
    for _ in range(200):
        for process in lab.kernels():
            if kernel_id in " ".join(process.cmdline()):
                return process
        time.sleep(0.05)  # the test process, not a kernel
    raise AssertionError(f"no process for kernel {kernel_id}")


def run_in(kernel: psutil.Process, code: str) -> None:
    """Execute `code` in the kernel through its connection file (the `-f` argument of its command line)."""
    argv = kernel.cmdline()
    client = BlockingKernelClient(connection_file=argv[argv.index("-f") + 1])
    client.load_connection_file()
    client.start_channels()
    try:
        iopub_listening(client)
        reply = client.execute_interactive(code, timeout=60)
        assert reply["content"]["status"] == "ok", reply["content"]
    finally:
        client.stop_channels()


def iopub_listening(client: BlockingKernelClient, timeout: float = 60.0) -> None:
    """Until this client's IOPub subscription is in place. A SUB socket connected a moment ago receives nothing
    the kernel publishes before the subscription reaches it: an execute sent at once could finish unseen, and
    `execute_interactive` then waits out its timeout for an idle status that came and went (seen once, in a
    full run). A kernel_info request's own status messages on IOPub prove the subscription. (Not
    `wait_for_ready`: its heartbeat check calls a kernel that is busy starting dead; the request waits in the
    queue here.)"""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        asked = client.kernel_info()
        while client.get_shell_msg(timeout=timeout)["parent_header"].get("msg_id") != asked:
            pass
        with contextlib.suppress(queue.Empty):
            while True:
                if client.get_iopub_msg(timeout=0.5)["parent_header"].get("msg_id") == asked:
                    return
    raise AssertionError(f"the kernel's IOPub messages did not reach this client within {timeout:g} s")


def test_the_kernels_a_test_opened_and_what_they_started_are_stopped_after_it(lab: Lab) -> None:
    kernels = [start_kernel(lab), start_kernel(lab)]
    run_in(kernels[0], SLEEPER.format(extra=""))  # a child in the kernel's own process group
    started = lab.kernels() + lab.started_by_kernels()
    assert len(started) == 3, started
    lab.shut_down_kernels()
    assert not lab.kernels() and not any(running(p) for p in started)
    assert not lab.processes()  # nothing Lab started is left running between tests


def test_a_process_that_outlives_its_kernel_is_killed_and_named(lab: Lab) -> None:
    kernel = start_kernel(lab)
    run_in(kernel, SLEEPER.format(extra=", start_new_session=True"))  # escapes the kernel's group
    sleeper = lab.started_by_kernels()[0]
    with pytest.raises(AssertionError, match=r"1 process\(es\) still running after the kernels ended:\n.*sleep"):
        lab.shut_down_kernels()
    psutil.wait_procs([sleeper], timeout=5)
    assert not running(sleeper) and not lab.processes()


def test_when_lab_stops_nothing_it_or_its_kernels_started_remains(chromium: Path, tmp_path: Path) -> None:
    (tmp_path / "root").mkdir()
    lab = start_lab(tmp_path / "root", tmp_path / "home")
    try:
        kernel = start_kernel(lab)
        run_in(kernel, SLEEPER.format(extra=""))
        assert len(lab.processes()) >= 2
    finally:
        lab.stop()
    assert not marked_processes(lab.marker), "Lab stopped, yet a process it started runs"
    with contextlib.suppress(psutil.NoSuchProcess):
        assert psutil.Process(kernel.pid).status() == psutil.STATUS_ZOMBIE
