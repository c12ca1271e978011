"""A real JupyterHub for the class tests: class/jupyterhub_config.py, moved into a temporary directory.

The hub runs as a subprocess with the repository's example config loaded unchanged; this file only adds
what a test needs: free loopback ports, a database, cookie secret and homes under the test's directory,
an API token for the test (a service with admin scopes), and MCP_LAB_UNATTENDED=1 for the students'
servers (nobody answers the tutorials' forms here). The hub and the students' servers run their own commands
as the test processes do: without a grammar module nothing here uses, and without re-asking Node.js what it
answers every start (tests/startup.py, tests/jupyter_servers.py). configurable-http-proxy comes from
class/package.json.
"""

from __future__ import annotations

import contextlib
import functools
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
import requests

from mcp_lab.deployment.ports import free_port
from tests.jupyter_servers import server_main
from tests.startup import BLOCK

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_CONFIG = ROOT / "class" / "jupyterhub_config.py"
PROXY = ROOT / "class" / "node_modules" / ".bin" / "configurable-http-proxy"


def still_listening(ports: set[int], pids: set[int], directory: Path) -> dict[int, str]:
    """Which of `ports` a process of this hub still listens on, and what that process is.

    A process of this hub is one of `pids` (the tree recorded while it ran) or any process that still
    carries the hub's directory: its working folder, HOME or command line there -- every process of the hub,
    the proxy, the students' servers, their kernels and whatever those start (a server that outlived its
    parent and was handed to init keeps them). Another process on one of those ports (a test beside this
    one, another user's run, which the OS may give a freed port to) is not the hub's, so not a leak; one
    whose owner cannot be read counts as the hub's, so nothing is waved through."""
    inside = str(directory)
    found: dict[int, str] = {}
    for conn in psutil.net_connections("tcp"):
        if conn.status != psutil.CONN_LISTEN or conn.laddr.port not in ports:
            continue
        if conn.pid is None or conn.pid in pids:
            found[conn.laddr.port] = f"pid {conn.pid}"
            continue
        try:
            process = psutil.Process(conn.pid)
            with process.oneshot():
                marks = [process.cwd(), process.environ().get("HOME", ""), *process.cmdline()]
                what = f"pid {conn.pid} ({process.name()})"
        except psutil.NoSuchProcess:
            continue  # gone since: listens no more
        except psutil.AccessDenied:
            found[conn.laddr.port] = f"pid {conn.pid} (unreadable)"
            continue
        if any(f"{inside}{os.sep}" in f"{mark}{os.sep}" for mark in marks):
            found[conn.laddr.port] = what
    return found


def process_tree(pid: int) -> set[int]:
    try:
        parent = psutil.Process(pid)
        return {pid, *(p.pid for p in parent.children(recursive=True))}
    except psutil.NoSuchProcess:
        return set()


def wait_for(what: str, ready: Any, timeout: float = 120.0, every: float = 0.2) -> Any:
    """Poll `ready()` until it returns something truthy (the test's own deadline, not an assertion on time)."""
    deadline = time.monotonic() + timeout
    while True:
        value = ready()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"gave up waiting for {what} after {timeout:.0f} s")
        time.sleep(every)


@dataclass
class Hub:
    """A running hub: its URL, the test's admin token, the process and its log."""

    directory: Path
    url: str
    token: str
    process: subprocess.Popen[bytes]
    log: Path
    ports: dict[str, int] = field(default_factory=dict)

    def api(self, method: str, path: str, token: str | None = None, **kwargs: Any) -> requests.Response:
        headers = {"Authorization": f"token {token or self.token}"}
        return requests.request(method, f"{self.url}/hub/api{path}", headers=headers, timeout=60, **kwargs)

    def user(self, name: str) -> dict[str, Any]:
        reply = self.api("GET", f"/users/{name}", params={"include_stopped_servers": "0"})
        reply.raise_for_status()
        return dict(reply.json())

    def server_pid(self, name: str) -> int:
        state = self.user(name)["servers"][""]["state"]
        return int(state["pid"])

    def proxy_pid(self) -> int:
        return int((self.directory / "proxy.pid").read_text().strip())

    def log_tail(self, lines: int = 60) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])


def write_config(directory: Path, token: str, ports: dict[str, int]) -> Path:
    homes = directory / "homes"
    homes.mkdir(exist_ok=True)
    config = directory / "jupyterhub_test_config.py"
    config.write_text(
        f"""
c = get_config()  # noqa: F821
load_subconfig({str(EXAMPLE_CONFIG)!r})  # noqa: F821 - the repository's example, unchanged
c.JupyterHub.bind_url = "http://127.0.0.1:{ports["hub"]}"
c.JupyterHub.hub_port = {ports["hub_api"]}
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{ports["proxy_api"]}"
c.ConfigurableHTTPProxy.pid_file = {str(directory / "proxy.pid")!r}
c.JupyterHub.db_url = "sqlite:///{directory / "hub.sqlite"}"
c.JupyterHub.cookie_secret_file = {str(directory / "cookie_secret")!r}
c.JupyterHub.pid_file = {str(directory / "hub.pid")!r}
c.SimpleLocalProcessSpawner.home_dir_template = {str(homes / "{username}")!r}
c.Spawner.environment = {{"MCP_LAB_UNATTENDED": "1"}}
# The example's own command, run as the test processes are (tests/startup.py: without the grammar module
# rfc3987_syntax, 1.8 CPU-s a process) and with the answers of the two Node.js runs every server start
# makes given in advance (tests/jupyter_servers.py: ~0.6 CPU-s); the same app, arguments and environment.
assert c.Spawner.cmd == [{sys.executable!r}, "-m", "jupyterhub.singleuser"], c.Spawner.cmd
c.Spawner.cmd = [{sys.executable!r}, "-c", {server_main("jupyterhub.singleuser", before=BLOCK)!r}]
c.JupyterHub.services = [{{"name": "classroom-test", "api_token": {token!r}}}]
c.JupyterHub.load_roles = [{{
    "name": "classroom-test",
    "scopes": ["admin:users", "admin:servers", "admin:server_state", "tokens", "access:servers", "list:users"],
    "services": ["classroom-test"],
}}]
"""
    )
    return config


PORT_TAKEN = ("Address already in use", "EADDRINUSE")
"""What the hub or its proxy logs when a port picked free was bound by another process before it."""


@contextlib.contextmanager
def running_hub(directory: Path, attempts: int = 3) -> Iterator[Hub]:
    """Start the hub and wait until its API answers; on exit stop it with SIGTERM (as systemd would).

    Its ports are picked free and bound by the hub a moment later; a test beside this one can take one in
    between. The hub or its proxy then logs so, and the hub starts again on other ports (only for that)."""
    if not PROXY.exists():
        raise RuntimeError(f"configurable-http-proxy is not installed: run `npm ci --prefix class` ({PROXY})")
    token = secrets.token_hex(32)
    for attempt in range(1, attempts + 1):
        hub = start_hub(directory, token)
        try:
            wait_for("the hub's API", functools.partial(answers, hub), timeout=90)
            break
        except HubFailed as failed:
            stop(hub.process)
            if attempt == attempts or not failed.port_taken:
                raise RuntimeError(f"the hub failed (exit {hub.process.returncode}):\n{failed.log}") from None
        except BaseException:
            stop(hub.process)
            raise
    try:
        yield hub
    finally:
        stop(hub.process)


class HubFailed(Exception):
    """The hub exited, or a port it was given was taken (its log's last lines)."""

    def __init__(self, log: str, port_taken: bool) -> None:
        super().__init__(log)
        self.log, self.port_taken = log, port_taken


def start_hub(directory: Path, token: str) -> Hub:
    ports = {"hub": free_port(), "hub_api": free_port(), "proxy_api": free_port()}
    config = write_config(directory, token, ports)
    log = directory / "hub.log"
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    with log.open("wb") as out:
        process = subprocess.Popen(
            # `python -m jupyterhub`, without the grammar module nothing here uses (tests/startup.py).
            [sys.executable, "-c", f"{BLOCK}from jupyterhub.app import main; sys.exit(main())", "-f", str(config)],
            cwd=directory,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
        )
    return Hub(directory, f"http://127.0.0.1:{ports['hub']}", token, process, log, ports)


def answers(hub: Hub) -> bool:
    text = hub.log.read_text(errors="replace")
    if any(mark in text for mark in PORT_TAKEN):
        raise HubFailed(hub.log_tail(), port_taken=True)  # the proxy would be restarted on it again and again
    if hub.process.poll() is not None:
        raise HubFailed(hub.log_tail(), port_taken=False)
    with contextlib.suppress(requests.ConnectionError):
        return hub.api("GET", "/").status_code == 200
    return False


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
