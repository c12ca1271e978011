"""The private file `%mcp_server url NAME` writes a served server's `Authorization` header line to.

Why a file: the secret must reach an outside client (the MCP Inspector, `python -m mcp_lab audit
--header-file FILE`) without entering a cell's output, which is saved with the notebook. Why these rules:

- One file per kernel *and* server: two kernels serving a server of the same name each keep their own file,
  and stopping one never deletes the file the other kernel's printed command points at. The name carries the
  kernel's id (its connection file's) and the process id, so a restarted kernel (same id, new process)
  never reuses a dead one's file.
- Written mode 0600 into a 0700 folder, created with O_CREAT|O_EXCL|O_NOFOLLOW under a fresh temporary name
  and then renamed over the final name: a pre-existing file's permissions are never inherited, and a symlink
  planted at that name is replaced, never followed.
- Removed when the server stops or is replaced, when the kernel shuts down or restarts (its shutdown request
  and, for any other exit, `atexit`), and files of kernels that died without cleaning up (killed) are removed
  the next time any kernel writes one.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import os
import secrets
import stat
from pathlib import Path
from typing import Any

from mcp_lab.servers.pids import alive

__all__ = [
    "WrittenHeaderFiles",
    "forget_all_header_files",
    "forget_header_file",
    "header_file",
    "header_folder",
    "write_header_file",
    "written_header_files",
]

SUFFIX = ".header"


class WrittenHeaderFiles:
    """The header files (bearer secrets) this process wrote, and whether their cleanup is hooked in."""

    def __init__(self) -> None:
        self.paths: set[Path] = set()
        self.hooked_exit = False
        """`atexit` removes them (any exit)."""
        self.hooked_shutdown = False
        """The kernel's shutdown request removes them (a shutdown or a restart)."""


written_header_files = WrittenHeaderFiles()
"""The process's one set of written header files (part of `mcp_lab.servers.registry`)."""


def header_folder() -> Path:
    """Jupyter's runtime folder (where kernels keep their connection files), `mcp_lab/` inside it."""
    from jupyter_core.paths import jupyter_runtime_dir

    return Path(jupyter_runtime_dir()) / "mcp_lab"


def kernel_tag() -> str:
    """What tells this kernel process apart: its connection file's id (when it is a kernel) and its pid."""
    tag = ""
    with contextlib.suppress(Exception):  # not a kernel (a script, a test's shell): the pid alone
        from ipykernel.kernelapp import IPKernelApp

        if IPKernelApp.initialized():
            stem = Path(str(IPKernelApp.instance().connection_file)).stem  # kernel-<uuid>
            tag = stem.removeprefix("kernel-")
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in tag)[:64]
    return f"{safe}.{os.getpid()}" if safe else f"pid{os.getpid()}.{os.getpid()}"


def header_file(name: str) -> Path:
    """This kernel's header file for server `name`: `<runtime>/mcp_lab/<name>.<kernel id>.<pid>.header`."""
    if len(name.encode("utf-8", "surrogatepass")) > 120:  # a long non-ASCII name: keep the file name short
        name = "server-" + hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return header_folder() / f"{name}.{kernel_tag()}{SUFFIX}"


def _private_folder() -> Path:
    folder = header_folder()
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    info = os.lstat(folder)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
        raise OSError(f"{folder} is not a folder of yours: no header file written")
    os.chmod(folder, 0o700)
    return folder


def write_header_file(name: str, header: str) -> Path:
    """Write `Authorization: <header>` for server `name` (mode 0600, never through a link); its path."""
    folder = _private_folder()
    _remove_dead_kernels_files(folder)
    path = header_file(name)
    temporary = folder / f".{path.name}.{secrets.token_hex(6)}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(temporary, flags, 0o600)
    try:
        os.fchmod(fd, 0o600)  # whatever the umask
        with os.fdopen(fd, "w") as out:
            out.write(f"Authorization: {header}\n")
        os.replace(temporary, path)  # a rename replaces a file or a link at `path`; it never follows one
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise
    written_header_files.paths.add(path)
    _hook_cleanup()
    return path


def forget_header_file(name: str) -> None:
    """Remove this kernel's header file for a stopped or replaced server (its secret opens nothing now)."""
    path = header_file(name)
    written_header_files.paths.discard(path)
    with contextlib.suppress(OSError):  # gone already, or a name the file system refuses: nothing to remove
        path.unlink()


def forget_all_header_files() -> None:
    """Remove every header file this process wrote (the kernel is shutting down or restarting)."""
    for path in list(written_header_files.paths):
        written_header_files.paths.discard(path)
        with contextlib.suppress(OSError):
            path.unlink()


def _remove_dead_kernels_files(folder: Path) -> None:
    """Files whose writer (the pid in their name) is gone: a kernel killed before it could clean up."""
    for path in folder.glob(f"*{SUFFIX}"):
        pid = path.name.removesuffix(SUFFIX).rsplit(".", 1)[-1]
        if pid.isdigit() and int(pid) != os.getpid() and not alive(int(pid)):
            with contextlib.suppress(OSError):
                path.unlink()


def _hook_cleanup() -> None:
    """atexit for any exit, and the kernel's shutdown request (sent for a shutdown and for a restart)."""
    if not written_header_files.hooked_exit:
        atexit.register(forget_all_header_files)
        written_header_files.hooked_exit = True
    if written_header_files.hooked_shutdown:
        return
    kernel = _running_kernel()
    original = getattr(kernel, "do_shutdown", None)
    if kernel is None or not callable(original):
        return

    def do_shutdown(restart: bool) -> object:  # what the kernel's own returns (a reply, or its coroutine)
        forget_all_header_files()
        return original(restart)

    kernel.do_shutdown = do_shutdown
    written_header_files.hooked_shutdown = True


def _running_kernel() -> Any:
    with contextlib.suppress(Exception):
        from IPython import get_ipython

        shell = get_ipython()
        return getattr(shell, "kernel", None)
    return None
