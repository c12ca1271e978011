"""One instance of a server as its own OS process: plain uvicorn, on 127.0.0.1, tied to the kernel's life.

Spec context: the SDK docs' deployment lessons need real processes -- the default key is process-local (a
restart or another instance cannot verify it), shared `keys=[...]` fix that, rotating them reloads each one.

The command is what a person would type (`uvicorn --factory mcp_lab.deployment.app:instance_app --host
127.0.0.1 --port P [--workers N]`), in a session of its own (so a stop reaches its workers), dying with the
kernel also on SIGKILL. The kernel's preloaded launcher forks it (`mcp_lab.deployment.launcher`: uvicorn and
the SDK imported once per kernel, not once per instance; under `--workers N` the workers are forked from it in
turn); when the launcher cannot, it is exec'd under `guard` -- the same process either way, seen from outside. Shared keys
go through a 0600 file in the fleet's 0700 directory (`write_keys`); the process's configuration otherwise
travels in names and paths only. Nothing here blocks the event loop: `reload` signals and returns,
`keys_live` awaits the new ring going live.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from mcp_lab.deployment.app import (
    ENV_KEYS,
    ENV_LABEL,
    ENV_PATH,
    ENV_STATE,
    ENV_TARGET,
    ENV_TTL,
    ENV_WORKERS,
)
from mcp_lab.deployment.groups import Child, end_group, end_group_now, session_pids, stop_group
from mcp_lab.deployment.guard import guarded
from mcp_lab.deployment.launcher import launcher
from mcp_lab.deployment.ports import answering_as, answers_as, free_port, port_accepts, port_is_free
from mcp_lab.errors import LabError
from mcp_lab.json_types import JsonObject

__all__ = [
    "APP_FACTORY",
    "InstanceProcess",
    "PortTaken",
    "answering_as",
    "answers_as",
    "end_group",
    "end_group_now",
    "fleet_directory",
    "free_port",
    "port_accepts",
    "port_is_free",
    "session_pids",
    "stop_group",
    "write_keys",
]

APP_FACTORY = "mcp_lab.deployment.app:instance_app"
START_TIMEOUT = 60.0
KEEP_ALIVE = 150  # idle s: past Caddy's 2 min pool (at uvicorn's 5 s Caddy met closed ones and answered 502)


def fleet_directory() -> Path:
    """A new private (0700) directory for a fleet, marked with this kernel's pid. Directories of kernels that
    died without cleaning up (SIGKILL runs no exit hook) are removed first: logs and Caddyfiles only, since
    keys files never outlive their handover."""
    import shutil
    import tempfile

    for old in Path(tempfile.gettempdir()).glob("mcp_lab-fleet-*"):
        try:
            owner = int((old / "owner.pid").read_text())
        except (OSError, ValueError):
            continue
        if owner != os.getpid() and not Path(f"/proc/{owner}").exists():
            shutil.rmtree(old, ignore_errors=True)
    directory = Path(tempfile.mkdtemp(prefix="mcp_lab-fleet-"))
    (directory / "owner.pid").write_text(str(os.getpid()))
    return directory


def write_keys(path: Path, generation: int, keys: list[bytes]) -> None:
    """The keys file an instance reads: created 0600 (never wider, not even for a moment), replaced whole."""
    temporary = path.with_name(path.name + ".new")
    temporary.unlink(missing_ok=True)
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as handle:
        json.dump({"generation": generation, "keys": [k.hex() for k in keys]}, handle)
    os.replace(temporary, path)


class PortTaken(LabError):
    """The instance's port was bound by another process first."""


@dataclass(eq=False)
class InstanceProcess:
    """One uvicorn process (or one `--workers N` process group) serving the server on one loopback port."""

    label: str
    index: int
    target: str
    """`module:attribute` naming the server (or a zero-argument factory of it)."""
    directory: Path
    """The fleet's private (0700) directory: logs, state, keys files, a cell's module."""
    import_path: str | None = None
    keys_file: Path | None = None
    """Where the shared keys are handed over; None: the server keeps its own request-state configuration (the
    default: a key of this process). The file exists only while the process reads it (see `_hand_over`)."""
    keys: list[bytes] | None = field(default=None, repr=False)
    """The ring to hand over (held in the kernel's memory, never shown)."""
    region: str | None = None
    ttl: float | None = None
    workers: int = 1
    port: int = 0
    process: Child | None = field(default=None, repr=False)
    """A `subprocess.Popen` (exec'd) or a `ForkedProcess` (forked by the launcher): the same calls on both."""
    generation: int = 0
    restarts: int = 0
    _spawned_at: int = field(default=0, repr=False)  # the log's size when this process was spawned

    def __post_init__(self) -> None:
        if not self.port:
            self.port = free_port()

    @property
    def slug(self) -> str:
        return self.label.replace("#", "-").replace("@", "-")

    @property
    def log_path(self) -> Path:
        return self.directory / f"{self.slug}.log"

    @property
    def state_path(self) -> Path:
        return self.directory / f"{self.slug}.state.json"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def command(self) -> list[str]:
        """The uvicorn command line (no secret in it: the keys travel in a file)."""
        line = [sys.executable, "-m", "uvicorn", "--factory", APP_FACTORY, "--host", "127.0.0.1"]
        line += ["--port", str(self.port), "--log-level", "warning", "--no-access-log", "--timeout-keep-alive", str(KEEP_ALIVE)]
        if self.workers > 1:
            line += ["--workers", str(self.workers)]
        return line

    def _environment(self) -> dict[str, str]:
        env = dict(os.environ)
        env.update({ENV_TARGET: self.target, ENV_LABEL: self.label, ENV_STATE: str(self.state_path)})
        env[ENV_WORKERS] = str(self.workers)
        env["PYTHONUNBUFFERED"] = "1"
        if self.import_path:
            env[ENV_PATH] = self.import_path
        if self.keys_file is not None:
            env[ENV_KEYS] = str(self.keys_file)
        if self.ttl is not None:
            env[ENV_TTL] = repr(self.ttl)
        for name in (ENV_KEYS, ENV_TTL, ENV_PATH):
            if name not in env or not env[name]:
                env.pop(name, None)
        return env

    def _write_keys(self) -> None:
        if self.keys_file is not None and self.keys is not None:
            write_keys(self.keys_file, self.generation, self.keys)

    def _handed_over(self) -> None:
        """The process has read its keys: the file goes (under --workers it stays: a worker the supervisor
        restarts reads it again)."""
        if self.keys_file is not None and self.workers == 1:
            self.keys_file.unlink(missing_ok=True)

    async def spawn(self) -> None:
        """Start the process: forked by the kernel's preloaded launcher where it can, else exec'd."""
        for stale in [self.state_path, *self.directory.glob(self.state_path.name + ".*")]:
            with contextlib.suppress(FileNotFoundError):
                stale.unlink()
        self._write_keys()
        command, env = self.command(), self._environment()
        with self.log_path.open("ab") as log:
            self._spawned_at = log.tell()
            self.process = await launcher.spawn(command, env, str(self.directory), log.fileno())
            if self.process is not None:
                return
            self.process = subprocess.Popen(
                guarded(command),
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                cwd=str(self.directory),
            )

    def _log_since_spawn(self) -> str:
        try:
            with self.log_path.open("rb") as log:
                log.seek(self._spawned_at)
                return log.read(64_000).decode(errors="replace")
        except OSError:
            return ""

    def failure(self) -> str:
        """Why the process ended: its own `mcp_lab:` line, else the last line it wrote."""
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
        ours = [ln for ln in lines if ln.startswith("mcp_lab: ")]
        if ours:
            return ours[-1].removeprefix("mcp_lab: ")
        if lines:
            return f"{self.label} exited: {lines[-1][:300]}"
        return f"{self.label} exited with status {self.process.returncode if self.process else '?'}"

    async def wait_ready(self, timeout: float = START_TIMEOUT) -> None:
        """Until the instance itself answers on its port (by its label), every worker having loaded the app and
        answered on a connection of its own: only then may the proxy send it traffic. Raises `PortTaken` when
        another process holds the port.

        Under --workers a worker writes its state file when it has loaded the app, before it accepts on the
        shared socket: until then every new connection goes to the workers already accepting, and a client
        keeps the connections it has (seen: a fleet's first calls all went to one worker, and so did every
        later call on those connections). So each worker must have answered once, each on a new connection."""
        deadline = time.monotonic() + timeout
        answered: set[str] = set()  # the workers (label/pidN) that answered a connection of their own
        while True:
            exited = self.process is None or self.process.poll() is not None  # read before the log: no race
            if "address already in use" in self._log_since_spawn().lower():  # lingering or exited; any worker count
                await self.stop(grace=1.0)  # the attempt's whole session: nothing of it stays
                raise PortTaken(f"port {self.port} on 127.0.0.1 is taken by another process")
            if exited:
                reason = self.failure()
                await self.stop(grace=0.0)  # its session: what it started (workers) goes too
                raise LabError(reason)
            who = await answering_as(self.port, self.label)
            if who is not None:
                answered.add(who)
            if who is not None and self._loaded() >= self.workers and len(answered) >= self.workers:
                self._handed_over()
                return
            if time.monotonic() > deadline:
                await self.stop()
                if who is None:
                    raise LabError(f"{self.label} did not answer on 127.0.0.1:{self.port} within {timeout:g} s")
                raise LabError(
                    f"{self.label}: {len(answered)} of its {self.workers} workers answered on 127.0.0.1:{self.port} "
                    f"within {timeout:g} s"
                )
            await asyncio.sleep(0.05 if who is None else 0.02)

    async def start(self, *, new_port_if_taken: bool = False) -> None:
        """Spawn and wait until it answers. A port the lab chose itself (`new_port_if_taken`) may be taken by
        another process before uvicorn binds it: then the instance starts again on a fresh port."""
        for attempt in range(3):
            await self.spawn()
            try:
                await self.wait_ready()
                return
            except PortTaken:
                if not new_port_if_taken or attempt == 2:
                    raise
                self.port = free_port()

    async def stop(self, grace: float = 5.0) -> None:
        """SIGTERM to the process group (uvicorn finishes its requests), SIGKILL after `grace` seconds."""
        process = self.process
        if process is None:
            return
        await end_group(process, grace)
        self.process = None

    def stop_now(self) -> None:
        """Synchronous stop, for interpreter exit (no loop runs then)."""
        process = self.process
        if process is None:
            return
        end_group_now(process)
        self.process = None

    async def restart(self, *, new_port_if_taken: bool = False) -> None:
        """Stop the process and start it again on the same port (a deploy, a crash, a host reboot)."""
        await self.stop()
        self.restarts += 1
        await self.start(new_port_if_taken=new_port_if_taken)

    def _loaded(self) -> int:
        """How many processes of this instance have loaded the app (under --workers: one file per worker)."""
        if self.workers == 1:
            return int(self.state_path.exists())
        return len([p for p in self.directory.glob(self.state_path.name + ".*") if not p.name.endswith(".tmp")])

    def state(self) -> JsonObject:
        """What the instance last wrote about itself: key ids live, generation, pid, its server's name."""
        files = [self.state_path] if self.workers == 1 else sorted(self.directory.glob(self.state_path.name + ".*"))
        try:
            data = json.loads(files[0].read_text()) if files else {}
        except (OSError, ValueError):  # replaced under us, or not written yet
            return {}
        return data if isinstance(data, dict) else {}

    def live_generation(self) -> int:
        value = self.state().get("generation")
        return int(value) if isinstance(value, int) else -1

    def reload(self, keys: list[bytes]) -> None:
        """Hand over `keys` and SIGHUP: the process re-reads its keys file. Returns at once (the kernel's loop
        never waits here); `await keys_live()` before sending traffic that must meet the new ring."""
        if not self.running or self.process is None:
            raise LabError(f"{self.label} is not running")
        self.keys = list(keys)
        self.generation += 1
        self._write_keys()
        os.kill(self.process.pid, signal.SIGHUP)

    async def keys_live(self, timeout: float = 5.0) -> None:
        """Wait (without blocking the loop) until the process runs on the ring last handed over."""
        deadline = time.monotonic() + timeout
        while self.live_generation() < self.generation:
            if time.monotonic() > deadline or not self.running:
                raise LabError(f"{self.label} did not load its new keys ({self.failure()})")
            await asyncio.sleep(0.002)  # the handler runs at once in the instance's main thread
        self._handed_over()
