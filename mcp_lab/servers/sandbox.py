"""The kernel's servers by name: those it started (`LabServer`) and those it connected to (`OutsideServer`)
-- the first part of the servers' registry (registry.py).

Spec context: a 2026-07-28 server's name is the audience of the tokens it seals; a notebook names its
servers (`%%mcp_server NAME`, `%mcp_connect NAME`) and every call, inspector and lab finds them here.
Re-running the cell that defines a server replaces it (the old one stops); stopping and restarting go
through the server itself (`LabServer.stop_http`, `close_clients`), so there is one way to stop each.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any, TypeVar

from mcp.server import Server
from mcp.server.mcpserver import MCPServer, RequestStateSecurity

from mcp_lab.background import background
from mcp_lab.errors import LabError
from mcp_lab.protocol.keys import KeyRing, checked_ttl
from mcp_lab.servers.header_files import forget_header_file
from mcp_lab.servers.lab_server import LabServer, check_name, shown_name
from mcp_lab.servers.log_book import contained

if TYPE_CHECKING:
    from mcp_lab.servers.outside import OutsideServer

__all__ = ["Sandbox", "sandbox"]

_Entry = TypeVar("_Entry", bound="LabServer | OutsideServer")


class Sandbox:
    """Every server the kernel started -- and every outside server it connected to (connect.py) -- by name."""

    def __init__(self) -> None:
        self.servers: dict[str, LabServer | OutsideServer] = {}
        """Name -> server."""

    def begin_connect(self, entry: OutsideServer) -> None:
        """Start connecting `entry` in the background; if its first connect fails, it is forgotten."""
        entry.begin_connect(lambda: self.forget(entry))

    def forget(self, entry: LabServer | OutsideServer) -> None:
        """Drop `entry` (a connection whose first connect failed): nothing of it is left registered."""
        if self.servers.get(entry.name) is entry:
            del self.servers[entry.name]
        entry.retired = True

    def get(self, name: str) -> LabServer | OutsideServer:
        if not isinstance(name, str):
            raise LabError(f"a server is named by text (str), not {type(name).__name__}")
        try:
            return self.servers[name]
        except KeyError:
            known = ", ".join(sorted(self.servers)) or "none yet; define one with %%mcp_server NAME"
            raise LabError(f"no server named {shown_name(name)} (servers: {known})") from None

    def lab_server(self, name: str) -> LabServer:
        """A server the lab started (it holds the keys); a connected outside server is refused."""
        entry = self.get(name)
        if not isinstance(entry, LabServer):
            raise LabError(f"{name!r} is a connected server the lab did not start: it holds no keys for it")
        return entry

    def new_mcpserver(self, name: str, *, keys: Any = None, ttl: float = 600.0, **kwargs: Any) -> LabServer:
        """An `MCPServer` sealing under a ring the lab holds; not registered until `register`."""
        check_name(name)
        ring = KeyRing.fresh() if keys is None else KeyRing.coerce(keys)
        ttl = checked_ttl(ttl)
        security: RequestStateSecurity = ring.security(ttl=ttl)
        kwargs.setdefault("log_level", "WARNING")  # INFO makes MCPServer call logging.basicConfig on the root logger
        with contained(name, announce=False):  # MCPServer() calls logging.basicConfig on the root logger
            server = MCPServer(name, request_state_security=security, **kwargs)
        return LabServer(name=name, server=server, kind="mcpserver", ring=ring, ttl=ttl)

    def new_lowlevel(
        self, name: str, handlers: dict[str, Any], *, seal: bool = False, keys: object = None, ttl: float = 600.0
    ) -> LabServer:
        """A lowlevel `Server`; `seal=True` appends the RequestStateBoundary it lacks by default."""
        check_name(name)
        ttl = checked_ttl(ttl)
        ring = None if keys is None else KeyRing.coerce(keys)  # checked before the server is built
        try:
            server: Server[Any] = Server(name, **handlers)
        except TypeError as exc:
            raise LabError(f"lowlevel Server rejected the handlers: {exc}") from None
        entry = LabServer(name=name, server=server, kind="lowlevel", ring=None, ttl=ttl)
        if seal or ring is not None:
            entry.install_ring(ring or KeyRing.fresh(), ttl=ttl)
        return entry

    def register(self, entry: _Entry, *, replace: bool = True) -> _Entry:
        """Add `entry` under its name; by default an older server of that name is replaced (and stopped), as
        re-running a notebook cell that defines it should do."""
        old = self.servers.get(entry.name)
        if old is not None and old is not entry:
            if not replace:
                raise LabError(
                    f"a server named {entry.name!r} already exists; stop it first (%mcp_server stop {entry.name}) "
                    "or pick another name"
                )
            self.retire(old)
        self.servers[entry.name] = entry
        entry.retired = False
        return entry

    def retire(self, entry: LabServer | OutsideServer) -> None:
        """Forget `entry` now; its HTTP serving stops and its clients close in the background.

        Serving stops first: a server no longer in the sandbox must not be left serving, out of every
        magic's reach, whatever happens after."""
        if isinstance(entry, LabServer):
            entry.stop_http()
        if self.servers.get(entry.name) is entry:
            del self.servers[entry.name]
            forget_header_file(entry.name)
        entry.retired = True
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        background.keep(loop.create_task(entry.close_clients()))

    def add(self, server: MCPServer | Server[Any], *, keys: object = None, name: str | None = None) -> LabServer:
        """Adopt a server built in Python. MCPServers get a lab-held ring swapped in."""
        label = name or server.name
        check_name(label)
        if isinstance(server, MCPServer):
            entry = LabServer(name=label, server=server, kind="mcpserver", ring=None)
            entry.install_ring(KeyRing.fresh() if keys is None else KeyRing.coerce(keys))
        else:
            entry = LabServer(name=label, server=server, kind="lowlevel", ring=None)
            if keys is not None:
                entry.install_ring(KeyRing.coerce(keys))
        return self.register(entry)

    async def stop(self, name: str) -> None:
        entry = self.get(name)
        await entry.close_clients()
        if isinstance(entry, LabServer):
            stopped = entry.stop_http()
            if stopped is not None:
                await stopped  # the serving thread has ended and the port is free
        self.forget(entry)

    async def restart(self, name: str, *, keep_secret: bool = False) -> LabServer | OutsideServer:
        """Clients reconnect; a lab-generated ring gets a new key, so outstanding tokens stop verifying; a
        server served over HTTP gets a new bearer secret unless `keep_secret`."""
        return await self.restart_entry(self.get(name), keep_secret=keep_secret)

    async def restart_entry(
        self, entry: LabServer | OutsideServer, *, keep_secret: bool = False
    ) -> LabServer | OutsideServer:
        await entry.close_clients()
        if isinstance(entry, LabServer) and entry.ring is not None and entry.ring.generated:
            entry.install_ring(KeyRing.fresh())
        if (
            isinstance(entry, LabServer) and entry.http is not None
        ):  # a fresh app on the same port, as a restarted process would have
            entry.restart_http(keep_secret=keep_secret)
        entry.generation += 1
        entry.started = time.time()
        return entry

    async def stop_all(self) -> None:
        for name in list(self.servers):
            await self.stop(name)


sandbox = Sandbox()
"""The kernel's sandbox (one per process; part of `mcp_lab.servers.registry`)."""
