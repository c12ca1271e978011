"""A server the kernel did not start (`OutsideServer`): a Streamable HTTP URL or a stdio command.

Spec context: any MCP server, reached over either standard transport; the client negotiates the protocol era
(`server/discover` for 2026-07-28, else the 2025-11-25 `initialize` handshake). An `OutsideServer`
implements the flow engine's `Connection` protocol exactly as `sandbox.LabServer` does, so `%mcp_call`,
step mode, prompts, resources, live forms and replays work with it unchanged. What differs is ownership:
the lab holds no keys for such a server, so its sealed `request_state` tokens get the keyless anatomy only
(`ring` is None, and the views say so).

Each `Client` is entered and exited by one owner task: an anyio cancel scope entered in one task cannot
be exited in another, and ipykernel runs every cell in its own task. The connection registers at once
and connects in the background, so a notebook run top to bottom can call it in the next cell: every
session request waits for the connect. Failures become one `LabError` line, with nothing left running.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import os
import shlex
import shutil
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

import httpx2
import mcp.types as T
from mcp import Client, MCPError, StdioServerParameters
from mcp.client.session import ClientSession
from mcp.client.stdio import stdio_client
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

import mcp_lab.view_registry as view_registry
from mcp_lab.errors import ConnectionFailed, LabError
from mcp_lab.exchanges.recorder import SchemaBook
from mcp_lab.json_types import JsonObject
from mcp_lab.protocol.eras import LEGACY, MODERN
from mcp_lab.servers.backchannel import AnswerFn, backchannel_callbacks, refusing_callbacks
from mcp_lab.servers.pids import child_running
from mcp_lab.servers.transports import (
    ConnectionOwner,
    LegRecorder,
    StderrProbe,
    child_pids,
    env_pair,
    http_transport,
    log_sink,
    read_log,
    reap,
    refuse,
    route_stdio_client_log,
    stdio,
)

__all__ = ["KEYLESS_NOTE", "OutsideServer", "stdio_log_path"]

KEYLESS_NOTE = "not ours: keyless view only"
"""The lab holds no keys for a server it did not start: its tokens show format, key id and size only."""


@dataclass(eq=False)
class OutsideServer:
    """A connection to a server outside the kernel, registered in the sandbox under `name`."""

    name: str
    transport: Literal["http", "stdio"]
    url: str | None = None
    command: list[str] | None = None
    legacy_only: bool = False
    """`--legacy`: speak 2025-11-25 only (flows use the back channel)."""
    env: dict[str, str] = field(default_factory=dict, repr=False)
    """Extra environment for a stdio server (never shown: it may hold the server's own secrets)."""
    headers: dict[str, str] = field(default_factory=dict, repr=False)
    """Extra HTTP headers sent with every request, e.g. a bearer secret (never shown or recorded)."""
    cwd: str | None = None
    timeout: float = 30.0
    ring: None = None
    ttl: float | None = None
    started: float = field(default_factory=time.time)
    generation: int = 0
    protocol_version: str | None = None
    log_path: Path | None = None
    _owners: dict[str, ConnectionOwner] = field(default_factory=dict, repr=False)
    _starting: dict[str, asyncio.Task[ConnectionOwner]] = field(default_factory=dict, repr=False)
    _ready: asyncio.Task[None] | None = field(default=None, repr=False)
    _book: SchemaBook = field(default_factory=SchemaBook, repr=False)
    _last_status: int | None = field(default=None, repr=False)
    """The latest HTTP status this connection saw, in a leg or not: a 401 explains a failed connect."""
    """Tool input schemas learnt from this connection's listings (which argument went into which header)."""
    retired: bool = field(default=False, repr=False)
    """Disconnected (the sandbox forgot it): no session is opened again."""
    _legacy_lock: asyncio.Lock | None = field(default=None, repr=False)
    _answer: AnswerFn | None = field(default=None, repr=False)
    _tools: set[str] = field(default_factory=set, repr=False)
    _probe: StderrProbe | None = field(default=None, repr=False)
    """Reads the stderr log's size and new lines for each leg (closed with the connection)."""
    tool_schemas: JsonObject = field(default_factory=dict, repr=False)
    """Input schemas by tool from the latest listing (a saved collection keeps the called tools')."""

    @property
    def schema_book(self) -> SchemaBook:
        """The tool input schemas this connection learnt from its listings (which argument went into which
        header): the header experiments record their own probes against it."""
        return self._book

    @property
    def kind(self) -> str:
        return f"outside {self.transport}"

    @property
    def where(self) -> str:
        """The URL (without any user:password@) or the command, for views."""
        if self.url is not None:
            parts = urlsplit(self.url)
            return self.url if "@" not in parts.netloc else parts._replace(netloc=parts.netloc.split("@")[-1]).geturl()
        return "stdio: " + shlex.join(self.command or [])

    @property
    def pids(self) -> list[int]:
        return [pid for owner in self._owners.values() for pid in owner.pids]

    def install_ring(self, *_: object, **__: object) -> None:
        raise LabError(f"{self.name!r} is not a server the lab started: it holds no keys for it")

    def log(self) -> str:
        """Everything the server process wrote to stderr (stdio connections)."""
        return read_log(self.log_path)[0]

    # ---- Connection protocol (flow.py) --------------------------------------------------------------
    def begin_connect(self, forget: Callable[[], None]) -> None:
        """Connect in the background (needs a running loop); every session waits for it (`ready`). A failed
        first connect calls `forget()` (the sandbox drops the connection)."""
        loop = asyncio.get_running_loop()
        self._ready = loop.create_task(self._first_connect(forget), name=f"mcp_lab connect {self.name}")

    async def _first_connect(self, forget: Callable[[], None]) -> None:
        try:
            await self._owner(LEGACY if self.legacy_only else MODERN)
        except Exception:  # a failed connect leaves nothing behind; a cancel belongs to whoever cancelled
            forget()
            raise

    async def ready(self) -> None:
        """Wait for the first connect (started by `open_connection`); raises its LabError."""
        if self._ready is not None:
            await asyncio.shield(self._ready)

    async def session(self, era: str) -> ClientSession:
        ready = self._ready
        if ready is not None:
            if ready.done():  # every leg after the first connect: nothing to wait for
                ready.result()  # the connect's LabError (or its cancellation), as awaiting it would raise
            else:
                await asyncio.shield(ready)
        if self.retired:  # never respawn a server after a disconnect
            raise ConnectionFailed(f"{self.name!r} was disconnected; connect again with %mcp_connect {self.name} ...")
        key = LEGACY if self.legacy_only or era == LEGACY else MODERN
        owner = self._owners.get(key)
        if owner is None or not self._serving(owner):
            owner = await self._owner(key)
        client = owner.client
        assert client is not None
        return client.session

    def capture(self) -> LegRecorder:
        if self.log_path is not None and (self._probe is None or self._probe.path is not self.log_path):
            self._probe = StderrProbe(self.log_path)  # the connection's own descriptor on its stderr log
        return LegRecorder(self.log_path, self.name, self._probe, over_http=self.url is not None)

    @contextlib.asynccontextmanager
    async def legacy_session(self, answer: AnswerFn) -> AsyncIterator[ClientSession]:
        # One long-lived 2025-11-25 client (a stdio server is a process: not one per leg); its back-channel
        # callbacks go to the leg holding the lock.
        session = await self.session(LEGACY)
        if self._legacy_lock is None:
            self._legacy_lock = asyncio.Lock()
        async with self._legacy_lock:
            self._answer = answer
            try:
                yield session
            finally:
                self._answer = None

    @property
    def listed(self) -> set[str]:
        """The tool names `tool_names` last listed, without listing (empty before the first listing)."""
        return self._tools

    async def tool_names(self, refresh: bool = False) -> set[str]:
        if refresh or not self._tools:
            session = await self.session(MODERN)
            listing = await session.list_tools()
            self._tools = {t.name for t in listing.tools}
            self.tool_schemas = {t.name: dict(t.input_schema) for t in listing.tools}
        return self._tools

    async def drop_session(self, era: str, session: ClientSession | None = None) -> None:
        """Forget a connection that broke (a leg failed in transit): the next leg connects afresh. With
        `session` (the failed leg's), a replacement another caller already started is kept running."""
        key = LEGACY if self.legacy_only or era == LEGACY else MODERN
        owner = self._owners.get(key)
        if owner is None:
            return
        if session is not None and (owner.client is None or owner.client.session is not session):
            return  # already replaced: the broken one was closed when it was replaced
        del self._owners[key]
        await self._close_owner(owner)

    async def close_clients(self) -> None:
        """Disconnect: every client exits in its owner task; a stdio process is reaped by the SDK's shutdown."""
        pending = [*self._starting.values(), *([self._ready] if self._ready is not None else [])]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        self._starting.clear()
        owners, self._owners = list(self._owners.values()), {}
        await asyncio.gather(*(self._close_owner(owner) for owner in owners))  # each waits out its process
        self._tools = set()
        self._ready = None
        if self._probe is not None:
            self._probe.close()
            self._probe = None

    # ---- internals ----------------------------------------------------------------------------------
    @staticmethod
    def _serving(owner: ConnectionOwner) -> bool:
        """Connected on the running loop, its server process (stdio) still running: what every leg asks."""
        if owner.client is None or owner.broken or owner.loop is not asyncio.get_running_loop():
            return False
        pids = owner.pids  # a stdio server is one process: asked without a generator
        return not pids or child_running(pids[0]) or any(child_running(pid) for pid in pids[1:])

    async def _owner(self, key: str) -> ConnectionOwner:
        owner = self._owners.get(key)
        usable = owner is not None and owner.client is not None and not owner.broken
        if usable and owner is not None and owner.loop is asyncio.get_running_loop():
            if self._serving(owner):
                return owner
            if owner.log is not None:  # the process exited under us (a crash, a kill): the next call starts it
                log_sink(owner.log)("[mcp_lab] the server process exited; starting it again for the next call\n")
        stale = None
        if owner is not None:  # its task ended (server gone) or belongs to a loop that ended: start afresh
            del self._owners[key]
            stale = owner
        task = self._starting.get(key)
        if task is None:
            # No await between the check and registering the start: a second caller meanwhile shares this
            # start instead of spawning another process (the stale one is closed inside it, first).
            task = asyncio.get_running_loop().create_task(self._start_owner(key, stale))
            self._starting[key] = task
            task.add_done_callback(lambda _t: self._starting.pop(key, None))
        return await asyncio.shield(task)

    async def _start_owner(self, key: str, stale: ConnectionOwner | None = None) -> ConnectionOwner:
        if stale is not None:
            await self._close_owner(stale)
        marker = f"MCP_LAB_CONNECTION={uuid.uuid4().hex}"
        owner = ConnectionOwner(lambda: self._make_client(key, owner), marker)
        if self.transport == "stdio":
            assert self.log_path is not None
            owner.log = self.log_path.open("a", encoding="utf-8")
            route_stdio_client_log(marker, log_sink(owner.log))
        try:
            await asyncio.wait_for(owner.start(), self.timeout)
        except (LabError, TimeoutError, asyncio.CancelledError) as failure:
            reason = self._explain(owner.failure, timed_out=isinstance(failure, TimeoutError))
            await self._close_owner(owner, abort=True)
            if isinstance(failure, asyncio.CancelledError):
                raise
            raise ConnectionFailed(reason) from None
        if self.transport == "stdio":
            owner.pids = child_pids(marker)
            stdio.pids.update(owner.pids)
            _hook_exit()
        assert owner.client is not None
        version = owner.client.session.protocol_version
        if key == MODERN and version not in MODERN_PROTOCOL_VERSIONS:
            await self._close_owner(owner)
            raise LabError(
                f"cannot connect {self.name!r}: {self.where} speaks only {version} (before 2026-07-28: no multi "
                "round-trip requests); connect again with --legacy to use its 2025-11-25 back channel"
            )
        if self.protocol_version is None or key == (LEGACY if self.legacy_only else MODERN):
            self.protocol_version = version
        self._owners[key] = owner
        return owner

    async def _close_owner(self, owner: ConnectionOwner, abort: bool = False) -> None:
        if abort:
            await owner.abort()
        elif owner.loop is asyncio.get_running_loop():
            await owner.close()
        else:  # a loop that ended (tests): its shutdown can no longer run there
            await owner.close()
            reap(owner.pids, grace=0)
        stdio.pids.difference_update(owner.pids)
        route_stdio_client_log(owner.marker, None)
        if owner.log is not None:
            owner.log.close()
            owner.log = None

    def _make_client(self, key: str, owner: ConnectionOwner) -> Client:
        callbacks = backchannel_callbacks(self._dispatch) if key == LEGACY else refusing_callbacks()
        mode = "legacy" if key == LEGACY else "auto"
        return Client(self._transport(owner), mode=mode, cache=None, **callbacks)

    def _transport(self, owner: ConnectionOwner) -> Any:
        if self.transport == "stdio":
            command = self.command or []
            params = StdioServerParameters(
                command=command[0], args=command[1:], env={**self.env, **env_pair(owner.marker)}, cwd=self.cwd
            )
            assert owner.log is not None
            return stdio_client(params, errlog=owner.log)
        return http_transport(self.url or "", self._book, self.headers, self._saw_status)

    def _saw_status(self, status: int) -> None:
        self._last_status = status

    async def _dispatch(self, key: str, request: T.InputRequest) -> T.InputResponse | T.ErrorData:
        """Back-channel requests go to the leg that holds the legacy lock (none: refused)."""
        return await (refuse() if self._answer is None else self._answer(key, request))

    def _explain(self, exc: BaseException | None, *, timed_out: bool = False) -> str:
        head = f"cannot connect {self.name!r}: "
        while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
            exc = exc.exceptions[0]
        tail = self._stderr_tail()
        if timed_out or isinstance(exc, TimeoutError | httpx2.TimeoutException):
            return head + f"{self.where} did not answer within {self.timeout:g} s{tail}"
        if isinstance(exc, httpx2.ConnectError):
            return head + f"nothing answers at {self.where} ({exc or 'connection refused'}); is the server running?"
        if isinstance(exc, OSError) and self.transport == "stdio":
            return head + f"cannot start {(self.command or ['?'])[0]!r}: {exc.strerror or exc}"
        if isinstance(exc, MCPError) and self.transport == "stdio" and exc.error.code == -32000:
            return head + f"the command exited (or closed its stdout) before answering{tail}"
        refused = self._last_status
        if refused in (401, 403) and self.transport == "http":
            what = "requires a credential" if refused == 401 else "refused the request"
            return head + (
                f'{self.where} {what} (HTTP {refused}); send it with --header "Authorization: Bearer ..." '
                "(for a lab server, --header-file FILE with the file %mcp_server url NAME writes)"
            )
        if isinstance(exc, MCPError):
            return head + f"{self.where} answered {exc.error.code}: {exc.error.message}{tail}"
        if isinstance(exc, httpx2.HTTPError):
            return head + f"{self.where}: {type(exc).__name__}: {exc}"
        return head + f"{type(exc).__name__}: {exc}{tail}"

    def _stderr_tail(self) -> str:
        if self.transport != "stdio":
            return ""
        lines = [line for line in self.log().splitlines() if line.strip()]
        if not lines:
            return " (it wrote nothing to stderr)"
        shown = " | ".join(lines[-3:])
        return f"; its stderr ends: {shown[-300:]!r} (all of it: %mcp_connect log {self.name})"

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> dict[str, Any]:
        return view_registry.bundle(self)


def stdio_log_path(name: str) -> Path:
    """A new file for the stderr of the stdio server connected as `name` (kept after it ends, for reading)."""
    if not stdio.log_dirs:  # each stdio connection's stderr log, kept after it ends for reading
        stdio.log_dirs.append(Path(tempfile.mkdtemp(prefix="mcp_lab-stdio-")))
    _hook_exit()
    path = stdio.log_dirs[0] / f"{name}.{os.getpid()}.{uuid.uuid4().hex[:6]}.stderr.log"
    path.touch()
    stdio.logs[name] = path
    return path


def _hook_exit() -> None:
    """Once per process, with the first stdio server: interpreter exit reaps what is left."""
    if not stdio.exit_hooked:
        stdio.exit_hooked = True
        atexit.register(_reap_at_exit)


def _reap_at_exit() -> None:
    """The kernel is exiting (IPython runs its own exit operations from atexit too): stop what is left."""
    reap(sorted(stdio.pids))
    stdio.pids.clear()
    for directory in stdio.log_dirs:
        shutil.rmtree(directory, ignore_errors=True)
