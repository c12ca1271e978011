"""A real JupyterLab on 127.0.0.1 driven by the system's Chromium through Python Playwright.

Why: the labextension's renderers and the live forms only exist in a browser; the lab's promise is that a
learner sees them in JupyterLab, so the tests look at them there. Lab binds a free port
itself and says which in its runtime file (`port_retries=0`: it never silently moves), with no token, an isolated
config/data/runtime dir, `expose_app_in_browser` (the tests drive Lab's own commands) and `?reset` URLs
(no restored workspace). Chromium is Debian's `/usr/bin/chromium`: Playwright never downloads a browser.

Every process Lab starts is stopped: after each test, the kernels its notebooks opened are shut down
(`Lab.shut_down_kernels`: kernels sit in process groups of their own and would otherwise run on, one more
per test, until the session ends); when Lab stops, no process it or its kernels started may remain. Both
are checked, not hoped for: Lab's environment carries a marker that every descendant inherits (also one a
dying kernel leaves to init), and a marked process still running afterwards is killed and fails the test.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil

import mcp_lab
from tests.jupyter_servers import server_main

CHROMIUM = Path(os.environ.get("MCP_LAB_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
EDITOR_SETTINGS = {"defaultConfig": {"cursorBlinkRate": 0}}
"""Every CodeMirror editor's cursor drawn steadily (0: no blinking)."""
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
LAB_START_TIMEOUT = 90.0
EXTENSION = "mcp-lab"
MARKER = "MCP_LAB_BROWSER_LAB"
"""In Lab's environment, so in every process it (or a kernel of it) starts: which Lab a process belongs to."""
STOP_TIMEOUT = 15.0

# Lab's news prompt would cover part of every screenshot; it has nothing to do with mcp_lab. Nor does Lab's
# check whether its own app needs a rebuild (for source extensions; ours is prebuilt): the page asks for it on
# every load and the server answers by running node twice (`yarn config`, a version check), ~0.6 CPU-s a page
# load on this machine (measured), for a dialog that never shows here.
PAGE_CONFIG = {
    "disabledExtensions": {"@jupyterlab/apputils-extension:announcements": True},
    "buildAvailable": False,
    "buildCheck": False,
}


def built_extension() -> Path | None:
    """The bundle built from this checkout (`mcp_lab/labextension`), if it was built."""
    built = Path(mcp_lab.__file__).parent / "labextension"
    return built if (built / "package.json").is_file() else None


def _bundle_id(directory: Path) -> str | None:
    try:
        data = json.loads((directory / "package.json").read_text())
    except (OSError, ValueError):
        return None
    return str(data.get("jupyterlab", {}).get("_build", {}).get("load"))


def extension_override(home: Path) -> Path | None:
    """A JUPYTER_PATH entry exposing this checkout's bundle, when the installed one is missing or stale.

    In CI (a fresh editable install) the installed copy *is* this checkout's, so nothing is overridden and
    the test exercises the installed extension; in a shared development venv the checkout wins when built.
    """
    built = built_extension()
    installed = Path(sys.prefix) / "share" / "jupyter" / "labextensions" / EXTENSION
    if built is None:
        if _bundle_id(installed) is None:
            raise RuntimeError(
                "the JupyterLab extension is neither built in this checkout nor installed: `pip install -e .` "
                "builds and installs it (or: cd labextension && jlpm install && jlpm build)"
            )
        return None
    if _bundle_id(installed) == _bundle_id(built):
        return None
    data = home / "jupyter-path"
    (data / "labextensions").mkdir(parents=True, exist_ok=True)
    (data / "labextensions" / EXTENSION).symlink_to(built, target_is_directory=True)
    return data


# jsonschema imports rfc3987_syntax when installed, whose grammar takes seconds to build (measured)
# and only adds "iri" formats the server never checks: Lab starts without it, as the kernel does.
_WITHOUT_RFC3987 = "sys.modules['rfc3987_syntax'] = None; "


@dataclass
class Lab:
    url: str
    root: Path
    process: subprocess.Popen[bytes]
    log: Path
    overridden: bool
    data_dir: Path
    """JUPYTER_DATA_DIR: where Lab keeps the secret it checks notebook signatures (trust) with."""
    marker: str = ""
    """This Lab's value of `MARKER`."""

    def trust(self, notebook: Any) -> None:
        """Sign `notebook` as `jupyter trust` would, so Lab renders its HTML outputs unsanitized."""
        from nbformat.sign import NotebookNotary

        NotebookNotary(data_dir=str(self.data_dir)).sign(notebook)

    def api(self, path: str, method: str = "GET") -> Any:
        request = urllib.request.Request(f"{self.url}{path}", method=method)
        with urllib.request.urlopen(request, timeout=10) as response:
            body = response.read()
        return json.loads(body) if body else None

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def processes(self) -> list[psutil.Process]:
        """Every running process this Lab started, directly or through its kernels, except Lab itself."""
        return [p for p in marked_processes(self.marker) if p.pid != self.process.pid]

    def kernels(self) -> list[psutil.Process]:
        """Lab's kernel processes (each in a process group of its own)."""
        found: list[psutil.Process] = []
        with contextlib.suppress(psutil.Error):
            for child in psutil.Process(self.process.pid).children():
                with contextlib.suppress(psutil.Error):
                    if "ipykernel" in " ".join(child.cmdline()):
                        found.append(child)
        return found

    def started_by_kernels(self) -> list[psutil.Process]:
        """What Lab's kernels started (a tutorial's servers), running now."""
        found: list[psutil.Process] = []
        for kernel in self.kernels():
            with contextlib.suppress(psutil.Error):
                found += kernel.children(recursive=True)
        return found

    def shut_down_kernels(self, timeout: float = STOP_TIMEOUT) -> None:
        """Shut down every session and kernel Lab runs (a test's notebooks). A kernel that does not end in
        `timeout` seconds is killed (with its process group); a process a kernel started that outlives it
        is killed and fails the test: nothing the lab starts may outlive its kernel."""
        started: dict[int, psutil.Process] = {}
        # Rounds: a kernel restarting when the test ended (or restarted by Jupyter once killed) comes back as
        # a new process after the first round's shutdown.
        for _ in range(3):
            kernels = self.kernels()
            started.update((p.pid, p) for p in self.started_by_kernels())
            with contextlib.suppress(OSError, ValueError):
                for session in self.api("/api/sessions") or []:
                    with contextlib.suppress(OSError):
                        self.api(f"/api/sessions/{session['id']}", method="DELETE")
                for kernel in self.api("/api/kernels") or []:
                    with contextlib.suppress(OSError):
                        self.api(f"/api/kernels/{kernel['id']}", method="DELETE")
            _, slow = psutil.wait_procs(kernels, timeout=timeout)
            for kernel in slow:  # Jupyter's shutdown did not finish in time (a loaded machine): ended here
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(kernel.pid, signal.SIGKILL)
            psutil.wait_procs(slow, timeout=5)
            time.sleep(0.5)  # the test process, not a kernel: lets a restart in flight show itself
            with contextlib.suppress(OSError, ValueError):
                if not self.kernels() and not self.api("/api/kernels"):
                    break
        _, alive = psutil.wait_procs(list(started.values()), timeout=5)  # a guarded server ends with its kernel
        check_stopped(alive + self.kernels() + self.started_by_kernels(), "still running after the kernels ended")

    def stop(self) -> None:
        """SIGTERM lets the server shut its kernels down; the session group is killed if it lingers, and
        anything Lab or a kernel started that still runs then is killed and reported."""
        if self.process.poll() is None:
            with contextlib.suppress(AssertionError):  # reported below, if anything is left after the stop
                self.shut_down_kernels()
        started = self.processes()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=STOP_TIMEOUT)
        # The process group this fixture started (Lab and its kernels), in case anything lingers.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=5)
        _, alive = psutil.wait_procs(started, timeout=5)  # a kernel Lab told to stop may take a moment
        alive += [p for p in self.processes() if p.pid not in {q.pid for q in started}]
        check_stopped(alive, "still running after JupyterLab stopped")


def marked_processes(marker: str) -> list[psutil.Process]:
    """The running processes whose environment carries `MARKER=marker` (this user's; others are unreadable)."""
    found = []
    for process in psutil.process_iter():
        with contextlib.suppress(psutil.Error):
            if process.environ().get(MARKER) == marker and process.status() != psutil.STATUS_ZOMBIE:
                found.append(process)
    return found


def check_stopped(alive: list[psutil.Process], what: str) -> None:
    """Kill what is still alive, then fail naming it (its pid and command line)."""
    left = []
    for process in alive:
        with contextlib.suppress(psutil.Error):
            if process.is_running() and process.status() != psutil.STATUS_ZOMBIE:
                left.append(f"{process.pid} {' '.join(process.cmdline())[:160]}")
                process.kill()
    if left:
        raise AssertionError(f"{len(left)} process(es) {what}:\n" + "\n".join(left))


def start_lab(root: Path, home: Path, extra: Sequence[str] = (), app: str = "jupyterlab.labapp") -> Lab:
    """JupyterLab (or, with `app="notebook.app"`, `jupyter notebook`: Notebook 7) serving `root`; `extra`
    arguments are added to the command line (e.g. a per-run settings override, as `./dev lab --ko` passes)."""
    for sub in ("config/labconfig", "data", "ipython", "settings", "workspaces"):
        (home / sub).mkdir(parents=True, exist_ok=True)
    (home / "config" / "labconfig" / "page_config.json").write_text(json.dumps(PAGE_CONFIG))
    # Every cell in the DOM (no windowing): the tests read outputs far below the fold.
    tracker = home / "settings" / "@jupyterlab" / "notebook-extension"
    tracker.mkdir(parents=True, exist_ok=True)
    (tracker / "tracker.jupyterlab-settings").write_text(json.dumps({"windowingMode": "none"}))
    # A steady cursor in every editor, Lab's (user settings dir) and Notebook 7's (its own, under the config
    # dir): a blinking one has Chromium redraw the page twice a second while an editor holds the focus
    # (measured: 0.067 CPU-s of Chromium per idle second in edit mode, 0.020 without the blink).
    for settings in (home / "settings", home / "config" / "lab" / "user-settings"):
        editor = settings / "@jupyterlab" / "codemirror-extension"
        editor.mkdir(parents=True, exist_ok=True)
        (editor / "plugin.jupyterlab-settings").write_text(json.dumps(EDITOR_SETTINGS))
    # Short, for the kernels' Unix sockets (tests/isolation.py): `<runtime>/kernel-<id>-ipc-N`.
    runtime = Path(tempfile.mkdtemp(prefix="lab-", dir=os.environ.get("JUPYTER_RUNTIME_DIR")))
    marker = uuid.uuid4().hex
    env = {
        **os.environ,
        MARKER: marker,
        "JUPYTER_CONFIG_DIR": str(home / "config"),
        "JUPYTER_DATA_DIR": str(home / "data"),
        "JUPYTER_RUNTIME_DIR": str(runtime),
        "IPYTHONDIR": str(home / "ipython"),
    }
    override = extension_override(home)
    if override is not None:
        env["JUPYTER_PATH"] = os.pathsep.join(filter(None, [str(override), os.environ.get("JUPYTER_PATH")]))
    command = [
        sys.executable,
        "-c",
        server_main(app, before=_WITHOUT_RFC3987),  # tests/jupyter_servers.py
        "--no-browser",
        "--allow-root",
        "--ServerApp.ip=127.0.0.1",
        # Port 0: the server binds a free port itself and writes it to its runtime file (jpserver-PID.json). A
        # port picked here and bound by Lab seconds later could be taken in between by a parallel worker.
        "--ServerApp.port=0",
        "--ServerApp.port_retries=0",
        "--ServerApp.token=",
        "--ServerApp.password=",
        "--ServerApp.disable_check_xsrf=True",
        f"--ServerApp.root_dir={root}",
        "--LabApp.expose_app_in_browser=True",
        # Kernels over Unix sockets: TCP ports picked free and bound later can be taken in between by
        # parallel workers (tests/isolation.py).
        "--KernelManager.transport=ipc",
        # The same server serves Notebook 7 (/notebooks/...), whose app the tests drive the same way.
        "--JupyterNotebookApp.expose_app_in_browser=True",
        f"--LabApp.user_settings_dir={home / 'settings'}",
        f"--LabApp.workspaces_dir={home / 'workspaces'}",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        *extra,
    ]
    log = home / "lab.log"
    with log.open("wb") as sink:
        process = subprocess.Popen(
            command, stdout=sink, stderr=subprocess.STDOUT, env=env, cwd=root, start_new_session=True
        )
    lab = Lab("", root, process, log, override is not None, home / "data", marker)
    info = runtime / f"jpserver-{process.pid}.json"
    deadline = time.monotonic() + LAB_START_TIMEOUT
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"JupyterLab exited with {process.returncode} before it was ready:\n{lab.log_tail()}")
        if not lab.url:
            with contextlib.suppress(OSError, ValueError, KeyError):
                lab.url = f"http://127.0.0.1:{int(json.loads(info.read_text())['port'])}"
        try:
            if lab.url:
                lab.api("/api/status")
                return lab
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        if time.monotonic() > deadline:
            lab.stop()
            raise RuntimeError(f"JupyterLab not ready after {LAB_START_TIMEOUT:g} s:\n{lab.log_tail()}")
        time.sleep(0.2)  # the test process, not a kernel: polling a subprocess's port is fine here
