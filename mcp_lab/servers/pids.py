"""Whether a process the lab started (or a kernel that wrote a file) still runs: without waiting on it."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

__all__ = ["alive", "child_running"]


def alive(pid: int) -> bool:
    """Still running (a zombie counts as gone). Never waits on the pid: asyncio's child watcher does that."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a child of this process: one system call says whether it exited, without reaping it
        exited = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:  # not this process's child (a kernel's pid read from a file): ask /proc
        pass
    except OSError:
        return True
    else:
        return exited is None  # a connection checks its server before every leg: no file read on that path
    with contextlib.suppress(OSError):
        if Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0] == b"Z":
            return False
    return True


def child_running(pid: int) -> bool:
    """`alive` for a child of this process, in one system call while it runs (a connection asks before
    every leg): `waitid` without reaping says it has not exited. Anything else is asked as `alive` does."""
    try:
        exited = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except OSError:  # not (or no longer) this process's child: reaped, or a pid from elsewhere
        return alive(pid)
    return exited is None
