"""`alive` and `child_running`: a child of this process by one system call (running, exited but not reaped, reaped), any other
process through /proc -- a zombie counts as gone either way, and nothing is ever reaped by asking."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable

import pytest

from mcp_lab.servers.pids import alive, child_running


@pytest.mark.parametrize("running", [alive, child_running])
def test_a_child_running_exited_and_reaped(running: Callable[[int], bool]) -> None:
    child = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        assert running(child.pid)
        assert child.stdin is not None
        child.stdin.close()
        for _ in range(250):  # until it exits (it is not reaped: each must say so without waiting on it)
            if os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                break
            time.sleep(0.02)
        assert not running(child.pid)
        assert child.poll() is not None  # still there to be reaped: asking reaped nothing
        assert not running(child.pid)  # reaped: gone
    finally:
        child.kill()
        child.wait()


def test_a_process_that_is_not_a_child() -> None:
    assert alive(os.getppid())  # this process's parent: not a child, read from /proc
    assert child_running(os.getppid())  # not a child: asked as alive() does
    assert not alive(2**22 + 12345)  # no such process
