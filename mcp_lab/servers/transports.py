"""Client transports for servers the kernel did not start: what crossed the wire, and what the process said.

Spec context: the two standard MCP transports. Over Streamable HTTP every leg of a 2026-07-28 multi
round-trip request is one POST; the lab records each exchange into the leg's `LegCapture.http` with the
same recorder it uses for its own servers (`mcp_lab.exchanges.recorder`), so a flow against someone else's server
shows the same wire detail as one against a sandbox server. Over stdio the server is a subprocess of the kernel:
its stderr goes to a real log file (the kernel's own stderr is not a file a child can write to), and the
lab finds its pid so nothing outlives a disconnect or the kernel (the SDK's shutdown reaps it on a normal
close; an exit hook here kills what is left if the kernel exits first).

No key material passes through here; `Authorization` and cookie headers are redacted from records.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, TextIO

import httpx2
import mcp.types as T
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from mcp_lab.exchanges.client_tls import tls_context
from mcp_lab.exchanges.record import LegCapture
from mcp_lab.exchanges.recorder import SchemaBook, http_hooks
from mcp_lab.servers.lab_server import ClientOwner, LegCapturing
from mcp_lab.servers.pids import alive

__all__ = [
    "ClientLogRouter",
    "ConnectionOwner",
    "LegRecorder",
    "StderrProbe",
    "StdioProcesses",
    "alive",
    "child_pids",
    "env_pair",
    "http_transport",
    "kill_tree",
    "log_sink",
    "read_log",
    "reap",
    "refuse",
    "route_stdio_client_log",
    "stdio",
]


@contextlib.asynccontextmanager
async def http_transport(
    url: str,
    book: SchemaBook,
    headers: dict[str, str] | None = None,
    on_status: Callable[[int], None] | None = None,
    before_send: Callable[[httpx2.Request], Awaitable[None]] | None = None,
) -> AsyncIterator[Any]:
    """Streamable HTTP through an httpx2 client carrying the lab's recorder (no tag: not the lab's server),
    `headers` (e.g. a bearer secret: recorded redacted), `on_status` (every response's status, so a
    refused connect can say it was refused) and `before_send` (a change to each request, made before the
    recorder sees it: the record shows what really went out)."""
    # The SDK leaves a caller-provided httpx2 client to the caller: it is entered here, in the owner task.
    timeout = httpx2.Timeout(30.0, read=300.0)
    hooks = http_hooks(book, tag=False, on_status=on_status)
    if before_send is not None:
        hooks["request"] = [before_send, *hooks["request"]]
    async with (
        httpx2.AsyncClient(event_hooks=hooks, timeout=timeout, headers=headers, verify=tls_context()) as http,
        streamable_http_client(url, http_client=http) as streams,
    ):
        yield streams


class StderrProbe:
    """A stdio server's stderr log, read through a descriptor of its own: its size is one `lseek` (the cheapest
    system call that tells it; a leg asks before and after), its new lines one `pread`. Opened on first use."""

    __slots__ = ("_fd", "path")

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def _descriptor(self) -> int | None:
        if self._fd is None:
            with contextlib.suppress(OSError):
                self._fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        return self._fd

    def size(self) -> int:
        fd = self._fd if self._fd is not None else self._descriptor()
        if fd is None:
            return 0
        try:
            return os.lseek(fd, 0, os.SEEK_END)
        except OSError:
            return 0

    def text_from(self, offset: int, end: int) -> str:
        """What the server wrote from `offset` to `end` (decoded as `read_log` does)."""
        fd = self._descriptor()
        if fd is None or end <= offset:
            return ""
        try:
            data = os.pread(fd, end - offset, offset)
        except OSError:
            return ""
        return data.decode("utf-8", errors="replace")

    def close(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None


class LegRecorder(LegCapturing):
    """One leg's capture: the HTTP exchanges, and for stdio the lines the server wrote to stderr meanwhile."""

    __slots__ = ("log_path", "offset", "owns_probe", "probe")

    def __init__(
        self, log_path: Path | None, name: str = "", probe: StderrProbe | None = None, over_http: bool = True
    ) -> None:
        super().__init__(name, over_http)
        self.log_path = log_path
        self.owns_probe = probe is None and log_path is not None
        self.probe = StderrProbe(log_path) if probe is None and log_path is not None else probe
        self.offset = 0

    def __enter__(self) -> LegCapture:
        if self.probe is not None:
            self.offset = self.probe.size()
        return LegCapturing.__enter__(self)

    def __exit__(self, *exc: object) -> None:
        LegCapturing.__exit__(self, *exc)
        probe = self.probe
        if probe is None:
            return
        end = probe.size()  # most legs the server writes nothing: one lseek, no read
        if end > self.offset:
            text = probe.text_from(self.offset, end)
            self.server_log.extend(f"stderr: {line}" for line in text.splitlines() if line.strip())
        if self.owns_probe:  # made for this leg from a bare path: closed with it
            probe.close()


class ConnectionOwner(ClientOwner):
    """A `ClientOwner` that can be aborted mid-connect and that remembers its process and log."""

    def __init__(self, make: Callable[[], Client], marker: str = "") -> None:
        super().__init__(make)
        self.marker = marker
        """`NAME=VALUE` put in a stdio server's environment, to find its pid."""
        self.pids: list[int] = []
        self.log: TextIO | None = None

    @property
    def failure(self) -> BaseException | None:
        return self._error

    @property
    def broken(self) -> bool:
        """The owner task ended: the connection is gone (a server that exited, a closed stream)."""
        return self._task is not None and self._task.done()

    async def abort(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        self._task = None
        self.client = None


async def refuse(*_: object) -> T.ErrorData:
    """Client callbacks outside a flow's leg: the lab answers input requests through flows."""
    return T.ErrorData(code=-32603, message="mcp_lab answers input requests through flows, not client callbacks")


# ---- stdio processes -------------------------------------------------------------------------------------


def child_pids(marker: str) -> list[int]:
    """This process's children whose environment carries `marker` (Linux /proc; [] elsewhere).

    The SDK does not expose the process it spawns; an environment marker finds it without a race.
    """
    me, wanted = os.getpid(), marker.encode()
    found: list[int] = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return found
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_bytes()
            if int(stat.rsplit(b")", 1)[1].split()[1]) != me:
                continue
            if wanted in Path(f"/proc/{entry}/environ").read_bytes().split(b"\0"):
                found.append(int(entry))
        except (OSError, ValueError, IndexError):
            continue
    return found


def kill_tree(pid: int, sig: int = signal.SIGTERM) -> None:
    """Signal the server's process group (the SDK starts it in a new session, so its pid is the group)."""
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)


def reap(pids: list[int], grace: float = 1.0) -> None:
    """SIGTERM, wait up to `grace` seconds, SIGKILL. Synchronous: for interpreter exit only."""
    living = [p for p in pids if alive(p)]
    for pid in living:
        kill_tree(pid)
    deadline = time.monotonic() + grace
    while living and time.monotonic() < deadline:
        time.sleep(0.02)  # at exit: no event loop is running any more
        living = [p for p in living if alive(p)]
    for pid in living:
        kill_tree(pid, signal.SIGKILL)


def env_pair(marker: str) -> dict[str, str]:
    key, _, value = marker.partition("=")
    return {key: value}


def log_sink(handle: TextIO) -> Callable[[str], None]:
    def write(line: str) -> None:
        with contextlib.suppress(ValueError, OSError):
            handle.write(line)
            handle.flush()

    return write


def read_log(path: Path | None, offset: int = 0) -> tuple[str, int]:
    """The log's text from `offset` on, and the new end offset."""
    if path is None:
        return "", offset
    try:
        with path.open("rb") as handle:
            handle.seek(offset)
            data = handle.read()
    except OSError:
        return "", offset
    return data.decode("utf-8", errors="replace"), offset + len(data)


class ClientLogRouter(logging.Handler):
    """The SDK's stdio client logs a server's stray stdout lines with a traceback into the kernel's stderr;
    the lab writes one line into the connection logs instead."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.sinks: dict[str, Callable[[str], None]] = {}

    def emit(self, record: logging.LogRecord) -> None:
        line = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            detail = [s.strip() for s in str(record.exc_info[1]).splitlines() if "input_value" in s]
            if detail:
                line += f" ({detail[0][:200]})"
        for sink in list(self.sinks.values()):
            sink(f"[mcp_lab client] {line}\n")


class StdioProcesses:
    """The stdio servers' processes and stderr logs: nothing may outlive the kernel, the logs outlive a
    disconnect (for reading)."""

    def __init__(self) -> None:
        self.pids: set[int] = set()
        """Processes of connected stdio servers, reaped when the kernel shuts down."""
        self.logs: dict[str, Path] = {}
        """Server name -> the file its stdio server's stderr goes to."""
        self.log_dirs: list[Path] = []
        """The temporary folder holding those files (made on first use)."""
        self.client_router: ClientLogRouter | None = None
        """On `mcp.client.stdio` while some stdio connection lives (made on first need)."""
        self.exit_hooked = False
        """The exit hook that reaps the processes is registered (once per process)."""


stdio = StdioProcesses()
"""The kernel's one table of stdio server processes (part of `mcp_lab.servers.registry`)."""


def route_stdio_client_log(key: str, sink: Callable[[str], None] | None) -> None:
    """Send the SDK stdio client's log lines to `sink` (None: stop) while a stdio connection lives; the
    handler is on the SDK's logger only while some connection has a sink."""
    router = stdio.client_router
    if router is None:
        if sink is None:
            return
        router = stdio.client_router = ClientLogRouter()
    logger = logging.getLogger("mcp.client.stdio")
    if sink is None:
        router.sinks.pop(key, None)
    else:
        router.sinks[key] = sink
    if router.sinks and router not in logger.handlers:
        logger.addHandler(router)
        logger.propagate = False
    elif not router.sinks and router in logger.handlers:
        logger.removeHandler(router)
        logger.propagate = True
