"""The guard launcher (`mcp_lab.deployment.guard`): the command it becomes dies with the launcher's parent.

A real parent process starts `guarded(["sleep", ...])` and is killed with SIGKILL (no exit hook runs): Linux
then signals the command (prctl PR_SET_PDEATHSIG, kept across `exec`). The launcher itself runs isolated and
without `site`; the command it becomes still gets the environment it was given, and a command that cannot
start, or a launcher called wrongly, says so in one line with its own exit code.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from mcp_lab.deployment.guard import guarded
from tests.deployment.helpers import alive

PARENT = """
import subprocess, sys, time
from mcp_lab.deployment.guard import guarded
child = subprocess.Popen(guarded(["sleep", "120"]))
print(child.pid, flush=True)
time.sleep(120)
"""


def _gone(pid: int, within: float = 20.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.05)
    return False


def test_the_command_dies_when_the_parent_is_killed_outright() -> None:
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True)
    child = 0
    try:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:  # the launcher has become `sleep` once exec is done
            with open(f"/proc/{child}/cmdline", "rb") as handle:
                if handle.read().split(b"\0")[0] == b"sleep":
                    break
            time.sleep(0.05)
        else:
            raise AssertionError(f"expected the launcher {child} to become `sleep`")
        assert alive(child)
        parent.kill()
        parent.wait(10)
        assert _gone(child), f"expected `sleep` ({child}) to die with its parent"
    finally:
        parent.kill()
        parent.wait(10)
        if child and alive(child):
            os.kill(child, signal.SIGKILL)


def test_the_command_keeps_its_environment_and_failures_are_one_line() -> None:
    env = {**os.environ, "PYTHONPATH": "/somewhere/else", "MCP_LAB_GUARD_PROBE": "kept"}
    shown = subprocess.run(
        guarded(["sh", "-c", 'echo "$PYTHONPATH $MCP_LAB_GUARD_PROBE"']),
        env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert (shown.returncode, shown.stdout, shown.stderr) == (0, "/somewhere/else kept\n", ""), shown
    missing = subprocess.run(guarded(["no-such-command-here"]), capture_output=True, text=True, timeout=60, check=False)
    assert missing.returncode == 127 and missing.stdout == "", missing
    assert missing.stderr == "mcp_lab: cannot start 'no-such-command-here': No such file or directory\n", missing
    wrong = subprocess.run([*guarded([])[:-1], "x"], capture_output=True, text=True, timeout=60, check=False)
    assert wrong.returncode == 2 and wrong.stderr.startswith("usage: python -m mcp_lab.deployment.guard"), wrong
