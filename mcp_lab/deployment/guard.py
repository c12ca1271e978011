"""Start a command that dies with the kernel: `python -m mcp_lab.deployment.guard PARENT_PID COMMAND ...`.

Nothing the lab starts may outlive the kernel, also when the kernel is killed outright (SIGKILL runs no exit
hook). Linux's `prctl(PR_SET_PDEATHSIG)` asks the kernel to signal a process when its parent dies; the
setting survives `exec`, so this tiny launcher sets it and then becomes the real command (uvicorn, Caddy).
If the parent died before the setting took effect, the launcher exits instead of running unowned.

The launcher is one more interpreter start per process the lab runs, so it starts as little as Python can:
this file is run by its path in isolated mode without `site` (`-I -S`: no site-packages, no .pth hooks, no
PYTHON* variables, not the script's folder on sys.path -- it needs the standard library only), and never
imports the mcp_lab package. The command it becomes is started as usual: its environment is untouched.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

__all__ = ["GUARD_MODULE", "die_with_parent", "guarded"]

GUARD_MODULE = "mcp_lab.deployment.guard"
"""Also runnable as `python -m mcp_lab.deployment.guard ...` (what `guarded` does costs less: the file)."""
_GUARD_FILE = os.path.abspath(__file__)
_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int | None = None, sig: int = signal.SIGTERM) -> bool:
    """Ask Linux to send `sig` to this process when its parent exits; False where prctl is unavailable.

    Exits at once when the parent (`parent`, else the one at call time) is already gone.
    """
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        ok = bool(libc.prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0) == 0)
    except (OSError, AttributeError):
        ok = False
    if parent is not None and os.getppid() != parent:
        os._exit(0)  # the parent died before the setting was made: nobody owns this process any more
    return ok


def guarded(command: list[str]) -> list[str]:
    """`command` run under the launcher, tied to this process's life."""
    return [sys.executable, "-I", "-S", _GUARD_FILE, str(os.getpid()), *command]


def main(argv: list[str]) -> None:
    if len(argv) < 2 or not argv[0].isdigit():
        sys.stderr.write("usage: python -m mcp_lab.deployment.guard PARENT_PID COMMAND [ARGS...]\n")
        raise SystemExit(2)
    die_with_parent(int(argv[0]))
    try:
        os.execvp(argv[1], argv[1:])
    except OSError as exc:
        sys.stderr.write(f"mcp_lab: cannot start {argv[1]!r}: {exc.strerror or exc}\n")
        raise SystemExit(127) from None


if __name__ == "__main__":
    main(sys.argv[1:])
