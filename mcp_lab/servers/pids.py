"""Whether a process the lab started (or a kernel that wrote a file) still runs: without waiting on it."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

__all__ = ["alive"]


def alive(pid: int) -> bool:
    """Still running (a zombie counts as gone). Never waits on the pid: asyncio's child watcher does that."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    with contextlib.suppress(OSError):
        if Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0] == b"Z":
            return False
    return True
