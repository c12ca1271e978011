"""`alive`: a child of this process by one system call (running, exited but not reaped, reaped), any other
process through /proc -- a zombie counts as gone either way, and nothing is ever reaped by asking."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from mcp_lab.servers.pids import alive


def test_a_child_running_exited_and_reaped() -> None:
    child = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        assert alive(child.pid)
        assert child.stdin is not None
        child.stdin.close()
        for _ in range(200):  # until it exits (it is not reaped: alive() must say so without waiting on it)
            if os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                break
            time.sleep(0.02)
        assert not alive(child.pid)
        assert child.poll() is not None  # still there to be reaped: asking reaped nothing
        assert not alive(child.pid)
    finally:
        child.kill()
        child.wait()


def test_a_process_that_is_not_a_child() -> None:
    assert alive(os.getppid())  # this process's parent: not a child, read from /proc
    assert not alive(2**22 + 12345)  # no such process
