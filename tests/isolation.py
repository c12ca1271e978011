"""Each pytest process on its own: its own temp, Jupyter and IPython folders, and kernels over Unix sockets.

Why: `./dev test` runs the suite in parallel pytest-xdist workers, with the tutorials' nbval run beside
them, and other checkouts' test runs may share the machine. Anything a test process or the kernels and
servers it starts would otherwise share with its neighbours goes into folders of its own, made when the
process configures and removed when it ends:

- `TMPDIR` (and `tempfile`'s cached folder): the fleets' `mcp_lab-fleet-*` folders, whose start clears out
  any left by a process that died, and the tests that look for leftovers there, see this process's only
  (not under nbval: see below).
- `JUPYTER_RUNTIME_DIR`: kernels' connection files and the lab's header files (`%mcp_server url NAME`
  writes `<runtime>/mcp_lab/NAME.header`; stopping a server of that name deletes it).
- `JUPYTER_DATA_DIR` and `IPYTHONDIR`: the notebook-signature and IPython-history databases (SQLite, which
  concurrent kernels would lock each other out of).

Kernels: jupyter_client gives a kernel five TCP ports by binding port 0 and closing the sockets, and the
kernel binds them again a second or more later, once it has started. Any other process that binds or
connects in between can take one of those ports, and the kernel dies with "Address already in use"
(seen with three workers). Here a kernel started by this process on the loopback, with no port chosen,
talks over `ipc` instead: Unix sockets at a path of its own in the runtime folder, which nobody else can
take. The JupyterLab of tests/browser starts its kernels over `ipc` too (tests/browser/harness.py).

Loaded by tests/conftest.py and, for the tutorials' nbval run, by `./dev test` with `-p tests.isolation`.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import uuid
from pathlib import Path
from typing import Any

import pytest

_FOLDERS = {"TMPDIR": "t", "JUPYTER_RUNTIME_DIR": "r", "JUPYTER_DATA_DIR": "d", "IPYTHONDIR": "i"}
_SAVED = pytest.StashKey[tuple[Path, dict[str, str | None], str | None]]()
LOOPBACK = ("127.0.0.1", "localhost", "")
PORTS = ("shell_port", "iopub_port", "stdin_port", "control_port", "hb_port")


def pytest_configure(config: pytest.Config) -> None:
    if _SAVED in config.stash:  # loaded twice (conftest and -p): once is enough
        return
    if not hasattr(config, "workerinput") and config.getoption("numprocesses", None):
        return  # pytest-xdist's controller runs no test; each of its workers makes its own folders
    # Short on purpose: a Unix socket's path holds at most 107 bytes, and a kernel's are
    # `<runtime>/kernel-<36-character id>-ipc-N` under Lab.
    root = Path(tempfile.mkdtemp(prefix="mlt-"))
    folders = dict(_FOLDERS)
    if _nbval(config):
        # The tutorials' saved outputs show the system's temp folder (a cell's file, a fleet's Caddyfile), as
        # the reader's do, and nbval compares them (notebooks/sanitize.cfg): their temp folder stays the same.
        del folders["TMPDIR"]
    before = {name: os.environ.get(name) for name in folders}
    for name, sub in folders.items():
        (root / sub).mkdir()
        os.environ[name] = str(root / sub)
    config.stash[_SAVED] = (root, before, tempfile.tempdir)
    # Removed at interpreter exit, not at unconfigure: an IPython shell made in this process writes its
    # history there from its own exit hook (registered later, so run earlier).
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    if "TMPDIR" in folders:
        tempfile.tempdir = str(root / "t")
    _kernels_over_ipc()
    from tests import forked_kernels

    forked_kernels.install()  # this process's kernels forked from its preloaded interpreter (tests/forked_kernels.py)


def _nbval(config: pytest.Config) -> bool:
    return bool(config.getoption("nbval", False) or config.getoption("nbval_lax", False))


def pytest_unconfigure(config: pytest.Config) -> None:
    saved = config.stash.get(_SAVED, None)
    if saved is None:
        return
    _root, before, tempdir = saved
    for name, value in before.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    tempfile.tempdir = tempdir


def _kernels_over_ipc() -> None:
    from jupyter_client.manager import KernelManager

    original = KernelManager._async_pre_start_kernel
    if getattr(original, "over_ipc", False):
        return

    async def pre_start_over_ipc(self: KernelManager, **kw: Any) -> Any:
        if self.transport == "tcp" and self.ip in LOOPBACK and not any(getattr(self, p) for p in PORTS):
            self.transport = "ipc"
            # A path of its own: the default ("kernel-ipc" in the working folder, when no connection file is
            # named yet) is shared by every kernel started there.
            self.ip = os.path.join(os.environ["JUPYTER_RUNTIME_DIR"], f"k-{uuid.uuid4().hex[:12]}")
        return await original(self, **kw)

    pre_start_over_ipc.over_ipc = True  # type: ignore[attr-defined]
    KernelManager._async_pre_start_kernel = pre_start_over_ipc  # type: ignore[method-assign]
