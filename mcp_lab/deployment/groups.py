"""An instance's process session: its members from /proc, and stopping all of them (SIGTERM, then SIGKILL).

Each instance runs in a session of its own (exec'd under `guard`, or forked by the preloaded launcher), so
its pid is also its process group's and session's id: a stop reaches it, its uvicorn workers and whatever
they started, and nothing else. `Child` is what stopping needs of a process -- a `subprocess.Popen`, or a
`ForkedProcess` whose exit the launcher reports.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Protocol

__all__ = ["Child", "end_group", "end_group_now", "session_pids", "stop_group"]


class Child(Protocol):
    """What stopping needs of a started process."""

    @property
    def pid(self) -> int: ...

    @property
    def returncode(self) -> int | None: ...

    def poll(self) -> int | None: ...

    def wait(self, timeout: float | None = None) -> int: ...


def session_pids(leader: int) -> list[int]:
    """The processes of the session `leader` started (itself, uvicorn's workers), from Linux /proc."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_bytes().rsplit(b")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if len(fields) > 3 and int(fields[3]) == leader and fields[0] != b"Z":
                found.append(int(entry))
    return found


def stop_group(pid: int, sig: int = signal.SIGTERM) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, sig)


async def end_group(process: Child, grace: float) -> None:
    """SIGTERM to the process's session (it finishes its requests), SIGKILL after `grace` seconds -- to the
    whole session always, so no worker or child is left -- then wait, without blocking the loop, for it to go."""
    if process.poll() is None:
        stop_group(process.pid)
        deadline = time.monotonic() + grace
        while process.poll() is None and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
    stop_group(process.pid, signal.SIGKILL)
    while process.poll() is None:
        await asyncio.sleep(0.02)


def end_group_now(process: Child) -> None:
    """`end_group` for interpreter exit, when no loop runs: bounded waits instead."""
    stop_group(process.pid)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(2.0)
    stop_group(process.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(1.0)


