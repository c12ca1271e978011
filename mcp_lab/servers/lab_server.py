"""A server the lab started (`LabServer`): the server object, its key ring, its clients, its HTTP serving.

Spec context: a 2026-07-28 server seals `request_state` under its key ring; the same server name is the
token's audience. The lab starts every server with a ring it made (or was given), so the notebook -- the
servers' owner -- can later open what they sealed, and it keeps one client per server and protocol era.
Serving over loopback HTTP starts, stops and restarts here, in one place (the thread is loopback.py's).

Each `Client` is entered and exited by one background task (`ClientOwner`): ipykernel runs every cell in
its own task, and an anyio cancel scope entered in one task cannot be exited in another.
Nothing here blocks the event loop.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from mcp import Client
from mcp.client import Transport
from mcp.client.session import ClientSession
from mcp.server import Server
from mcp.server.mcpserver import MCPServer, RequestStateBoundary

from mcp_lab.background import background
from mcp_lab.errors import ConnectionFailed, LabError
from mcp_lab.exchanges.record import LegCapture
from mcp_lab.exchanges.recorder import Leg
from mcp_lab.json_types import JsonObject
from mcp_lab.protocol.keys import KeyRing, checked_ttl
from mcp_lab.servers.backchannel import AnswerFn, backchannel_callbacks, refusing_callbacks
from mcp_lab.servers.containment import contain_handlers
from mcp_lab.servers.header_files import forget_header_file, header_file
from mcp_lab.servers.log_book import server_logs
from mcp_lab.servers.logging_hooks import hooks, install_leg_hooks
from mcp_lab.servers.loopback import HttpServing, Stopped, check_port, register_exit_hook, stopping_on

if TYPE_CHECKING:
    from mcp_lab.servers.access import Access

__all__ = ["MAX_NAME", "AnswerFn", "ClientOwner", "LabServer", "check_name", "shown_name"]

class ClientOwner:
    """One task that enters a `Client`, keeps it open, and exits it in the same task."""

    def __init__(self, make: Callable[[], Client]) -> None:
        self._make = make
        self._ready: asyncio.Event | None = None
        self._stop: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._error: BaseException | None = None
        self.client: Client | None = None
        self.loop: asyncio.AbstractEventLoop | None = None

    async def start(self) -> Client:
        self.begin()
        return await self.wait()

    def begin(self) -> None:
        """Start connecting (synchronously, so concurrent callers can share this owner at once)."""
        self.loop = asyncio.get_running_loop()
        self._ready, self._stop = asyncio.Event(), asyncio.Event()
        self._task = self.loop.create_task(self._main(), name="mcp_lab client owner")

    async def wait(self) -> Client:
        """The connected client, once the owner task has entered it."""
        assert self._ready is not None
        await self._ready.wait()
        if self._error is not None or self.client is None:
            raise ConnectionFailed(f"could not connect: {type(self._error).__name__}: {self._error}")
        return self.client

    def ready_on_running_loop(self) -> bool:
        """Connected (not failed, not closed) on the running loop: `wait()` would return at once."""
        settled = self._ready is not None and self._ready.is_set() and self._error is None
        return settled and self._task is not None and self.loop is asyncio.get_running_loop()

    @property
    def usable(self) -> bool:
        """Connected or connecting on the running loop (not failed, not closed)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return False
        if self._task is None or self.loop is not loop or self._ready is None:
            return False
        return not self._ready.is_set() or self.client is not None

    async def _main(self) -> None:
        assert self._ready is not None and self._stop is not None
        try:
            async with self._make() as client:
                self.client = client
                self._ready.set()
                await self._stop.wait()
        except BaseException as exc:  # reported to whoever awaits start(); the task itself ends quietly
            self._error = exc
            self.client = None
        finally:
            self._ready.set()

    async def close(self) -> None:
        if self._task is None or self._stop is None:
            return
        if self.loop is asyncio.get_running_loop():
            self._stop.set()
            await asyncio.gather(self._task, return_exceptions=True)
        else:  # another loop (a test that ended): nothing to await there any more
            self._task.cancel()
        self._task = None
        self.client = None


@dataclass(eq=False)
class LabServer:
    """A server the lab started: the object, its ring, its clients."""

    name: str
    server: MCPServer | Server[Any]
    kind: Literal["mcpserver", "lowlevel"]
    ring: KeyRing | None
    """None for a lowlevel server without the sealing boundary (its state travels in plaintext)."""
    ttl: float = 600.0
    started: float = field(default_factory=time.time)
    generation: int = 0
    retired: bool = field(default=False, repr=False)
    """No longer in the sandbox (stopped, or replaced by a server of the same name)."""
    url: str | None = None
    http: HttpServing | None = field(default=None, repr=False)
    """The `HttpServing` while served over loopback HTTP (then `url` is its address)."""
    policy: JsonObject = field(default_factory=dict, repr=False)
    """RequestStateSecurity options besides keys and ttl (e.g. bind_principal), kept across key swaps."""
    _owners: dict[str, ClientOwner] = field(default_factory=dict, repr=False)
    _tools: set[str] = field(default_factory=set, repr=False)
    tool_schemas: JsonObject = field(default_factory=dict, repr=False)
    """Input schemas by tool from the latest listing (a saved collection keeps the called tools')."""

    def __post_init__(self) -> None:
        # A handler's SystemExit / KeyboardInterrupt must fail its request, not stop an event loop.
        contain_handlers(self.lowlevel)
        if hooks.leg_sink is None:  # a CLI or a script runs lab servers without the extension loaded
            install_leg_hooks()

    @property
    def legacy_only(self) -> bool:
        """A lab server speaks both eras (an outside connection made with --legacy speaks 2025-11-25 only):
        asked by every call, so said here rather than found missing (a failed lookup raises inside getattr)."""
        return False

    @property
    def lowlevel(self) -> Server[Any]:
        return self.server._lowlevel_server if isinstance(self.server, MCPServer) else self.server

    @property
    def sealed(self) -> bool:
        """Its request_state is sealed: by a lab-held ring, or by its own RequestStateBoundary (adopted)."""
        return self.ring is not None or any(isinstance(m, RequestStateBoundary) for m in self.lowlevel.middleware)

    def install_ring(self, ring: KeyRing | Sequence[bytes], *, ttl: float | None = None, **policy: Any) -> None:
        """Swap the server's RequestStateBoundary for one under `ring` (a restart or a rotation step).

        `policy` (`bind_principal=`, `audience=`) is kept for later swaps, so a restart keeps it.
        """
        ring = KeyRing.coerce(ring)  # a list of keys is checked as any ring is; a KeyRing as it is
        self.ring = ring
        if ttl is not None:
            self.ttl = checked_ttl(ttl)
        if policy:
            self.policy = dict(policy)
        boundary = RequestStateBoundary(ring.security(ttl=self.ttl, **self.policy), default_audience=self.name)
        chain = self.lowlevel.middleware
        for i, mw in enumerate(chain):
            if isinstance(mw, RequestStateBoundary):
                chain[i] = boundary
                return
        chain.append(boundary)

    # ---- Connection protocol (flow.py) --------------------------------------------------------------
    async def session(self, era: str) -> ClientSession:
        owner = self._owners.get(era)
        if owner is not None and owner.client is not None and owner.ready_on_running_loop():
            return owner.client.session  # connected: the case of every leg after the first
        if owner is None or not owner.usable:
            stale = owner
            # Registered before any await: flows starting concurrently share this connection.
            owner = ClientOwner(lambda: self._make_client(era))
            owner.begin()
            self._owners[era] = owner
            if stale is not None:
                await stale.close()
        client = await owner.wait()
        return client.session

    def _make_client(self, era: str, answer: AnswerFn | None = None) -> Client:
        callbacks = refusing_callbacks() if answer is None else backchannel_callbacks(answer)
        target: str | MCPServer | Server[Any] | Transport = self.url if self.url is not None else self.server
        if self.http is not None:  # the lab's own serving: a transport that records every exchange
            target = self.http.transport()
        mode = "legacy" if era == "2025-11-25" else "auto"
        return Client(target, mode=mode, cache=None, **callbacks)

    def capture(self) -> LegCapturing:
        """Collect what the server logs, and what crosses the wire over HTTP, during one leg."""
        return LegCapturing(self.name, over_http=self.url is not None)  # served or not, a URL means HTTP

    # ---- serving over loopback HTTP ------------------------------------------------------------------
    def serve_on(self, port: int | str | None, access: Access, app: object = None) -> str:
        """Serve over Streamable HTTP on 127.0.0.1:`port` under `access`; the URL (`servers.serving.serve`)."""
        wanted = check_port(port)
        current = self.http
        if current is not None and current.alive and not current.stopping:
            if app is not None:
                raise LabError(f"{self.name!r} is already served at {current.url}; stop it first to serve your app")
            if wanted not in (0, current.port):
                raise LabError(f"{self.name!r} is already served at {current.url}; stop it first to move it")
            if not current.access.same_rules(access):
                raise LabError(
                    f"{self.name!r} is already served at {current.url} ({current.access.describe()}); "
                    "stop serving it first (await entry.stop_http()) to change who may call it"
                )
            return current.url
        serving = HttpServing(self.name, self.server, wanted, app, access)
        serving.start(after=stopping_on(wanted) if wanted else None)
        self.detach_clients()
        self.http = serving
        self.url = serving.url
        register_exit_hook()
        return serving.url

    def stop_http(self) -> Stopped | None:
        """Stop serving over HTTP (the server stays, reached in-process); await the result for the port.

        The one way a served server stops serving: `%mcp_server stop`, `Sandbox.stop`/`retire` and a restart
        all come here."""
        serving = self.http
        if serving is None:
            return None
        self.http = None
        self.url = None
        self.detach_clients()
        forget_header_file(self.name)  # its secret opens nothing now
        return serving.stop()

    def restart_http(self, *, keep_secret: bool = False) -> str | None:
        """A fresh app on the same port, as a restarted process would have, with a new secret unless
        `keep_secret`. Returns at once: the new thread binds when the old one has ended, and clients wait for
        that (`HttpServing.ready`)."""
        serving = self.http
        if serving is None:
            return None
        port = serving.port
        access = serving.access if keep_secret else serving.access.renewed()
        printed = keep_secret and header_file(self.name).exists()
        self.stop_http()
        url = self.serve_on(port, access)
        if printed:  # the secret is kept, so the command `%mcp_server url` printed keeps working
            from mcp_lab.servers.access import write_header_file

            write_header_file(self.name, access)
        return url

    def detach_clients(self) -> None:
        """Clients made for the old address are closed in the background; the next call connects afresh."""
        owners, self._owners = list(self._owners.values()), {}
        self._tools = set()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        for owner in owners:
            if owner.loop is loop:
                background.keep(loop.create_task(owner.close()))

    @asynccontextmanager
    async def legacy_session(self, answer: AnswerFn) -> AsyncIterator[ClientSession]:
        async with self._make_client("2025-11-25", answer) as client:
            yield client.session

    @property
    def listed(self) -> set[str]:
        """The tool names `tool_names` last listed, without listing (empty before the first listing)."""
        return self._tools

    async def tool_names(self, refresh: bool = False) -> set[str]:
        if refresh or not self._tools:
            session = await self.session("2026-07-28")
            listing = await session.list_tools()
            self._tools = {t.name for t in listing.tools}
            self.tool_schemas = {t.name: dict(t.input_schema) for t in listing.tools}
        return self._tools

    async def drop_session(self, era: str, session: ClientSession | None = None) -> None:
        """Forget a connection that broke (a leg failed in transit): the next leg connects afresh. With
        `session` (the failed leg's), a connection that already replaced it is kept."""
        owner = self._owners.get(era)
        if owner is None or (session is not None and (owner.client is None or owner.client.session is not session)):
            return
        del self._owners[era]
        await owner.close()

    async def close_clients(self) -> None:
        owners, self._owners = list(self._owners.values()), {}
        for owner in owners:
            await owner.close()
        self._tools = set()


class LegCapturing(LegCapture):
    """One leg's capture, and the context manager that fills it: the server's log records and (its leg in
    the recorder) its HTTP exchanges land in it. One object per leg: every leg of every flow makes one.

    `over_http`: the leg's requests cross HTTP, whose exchanges the recorder attributes to the leg in whose
    context they start (`Leg`). An in-process leg starts none -- and its server answers in tasks of its own,
    which no leg's context reaches -- so it enters no `Leg`.
    """

    _name: str
    _leg: Leg | None
    _over_http: bool

    def __init__(self, name: str, over_http: bool) -> None:
        # LegCapture's fields and this one's, written straight into the instance's dict: `super().__init__()` and
        # three attribute stores cost 10 k more instructions per call (tests/servers/test_leg_capturing.py holds
        # the fields to LegCapture's own, so one it gains is not missed here).
        self.__dict__ = {
            "http": (), "server_log": [], "served_by": None, "_name": name, "_leg": None, "_over_http": over_http
        }

    def __enter__(self) -> LegCapture:
        # A server served from this kernel logs a failing handler's traceback on the SDK's loggers: it becomes
        # one line in this leg, not a traceback in the cell (the hooks may have been taken off by an unload).
        if hooks.leg_sink is None:
            install_leg_hooks()
        server_logs.capturing.append(self)
        if self._name:  # `leg_began`, written out: a call fewer on every leg
            server_logs.leg_servers[id(self)] = self._name
        if self._over_http:
            self._leg = Leg(self)
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            if self._leg is not None:
                self._leg.end()
        finally:
            server_logs.leg_servers.pop(id(self), None)  # `leg_ended`
            # By identity: LegCaptures are dataclasses, and two empty ones compare equal. Most often the
            # last one (legs end in the order they began, unless flows run side by side).
            active = server_logs.capturing
            if active and active[-1] is self:
                active.pop()
            else:
                for i in range(len(active) - 1, -1, -1):
                    if active[i] is self:
                        del active[i]


MAX_NAME = 64
"""Characters in a server name: it becomes a file name (the header file) and an audience in every token."""


def shown_name(name: object) -> str:
    """A name as messages quote it: a long one clipped, so a mistake is still one short line."""
    text = repr(name)
    return text if len(text) <= MAX_NAME + 2 else f"{text[:MAX_NAME - 1]}...' ({len(str(name))} characters)"


def check_name(name: str) -> None:
    if not isinstance(name, str):
        raise LabError(f"a server name is text (str), not {type(name).__name__}")
    if len(name) > MAX_NAME:
        raise LabError(f"server names are at most {MAX_NAME} characters; {shown_name(name)} is too long")
    if not name or not name.replace("-", "").replace("_", "").replace(".", "").isalnum():
        raise LabError(f"server names are letters, digits, '-', '_' and '.', not {shown_name(name)}")
