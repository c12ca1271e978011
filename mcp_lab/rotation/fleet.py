"""A fleet: N instances of one server behind a router, each instance with its own key ring.

Spec context: the SDK docs' "Protecting requestState" -- the default key is process-local, so a retry that
reaches *another instance behind a load balancer* (or the same server after a restart) carries state sealed
under a key that instance lacks, gets the frozen -32602, and the client must start over; `keys=[...]` shared
by every instance fixes that, and rotating those keys is done in three phases. A fleet lets a notebook
watch both happen with real SDK servers.

The router is a request-level (layer 7) round-robin balancer *without session affinity*: every leg of a
flow -- each retry carrying `request_state` -- goes to the next instance in turn, exactly the situation the
SDK docs warn about: a token sealed on one instance must open on whichever instance gets the retry. `pin(i)` sends every leg to one instance, for demos.

All instances share the server's name, hence the token audience; only their rings differ.
"""

from __future__ import annotations

import contextvars
import itertools
from collections.abc import Callable, Sequence
from typing import Any, Literal

from mcp.client.session import ClientSession
from mcp.server.mcpserver import MCPServer

from mcp_lab.errors import LabError
from mcp_lab.exchanges.record import LegCapture
from mcp_lab.protocol.keys import KeyRing, checked_ttl
from mcp_lab.rotation.probe import PROBE_TOOL, add_probe_tool
from mcp_lab.servers.lab_server import AnswerFn, LabServer, check_name
from mcp_lab.servers.sandbox import sandbox

__all__ = ["PROBE_TOOL", "Fleet", "add_probe_tool"]

_chosen: contextvars.ContextVar[LabServer | None] = contextvars.ContextVar("mcp_lab_fleet_instance", default=None)


class _FleetLeg:
    """Picks the instance for one leg and captures what that instance logs."""

    __slots__ = ("_fleet", "_inner", "_token")

    def __init__(self, fleet: Fleet) -> None:
        self._fleet = fleet
        self._inner: Any = None
        self._token: contextvars.Token[LabServer | None] | None = None

    def __enter__(self) -> LegCapture:
        instance = self._fleet.route()
        self._token = _chosen.set(instance)
        self._inner = instance.capture()
        capture: LegCapture = self._inner.__enter__()
        capture.served_by = self._fleet.label(instance)
        return capture

    def __exit__(self, *exc: object) -> None:
        self._inner.__exit__(*exc)
        if self._token is not None:
            _chosen.reset(self._token)


class Fleet:
    """N instances of one server; implements the flow engine's `Connection` through its router."""

    def __init__(
        self,
        name: str,
        define: Callable[[MCPServer], None] | None = None,
        *,
        instances: int = 3,
        keys: object = None,
        ttl: float = 600.0,
        router: Literal["round-robin", "pinned"] = "round-robin",
        http: bool = False,
    ) -> None:
        check_name(name)
        if isinstance(instances, bool) or not isinstance(instances, int):
            raise LabError(f"instances= is a whole number of instances (1 to 16), not {instances!r}")
        if instances < 1 or instances > 16:
            raise LabError("a fleet has between 1 and 16 instances")
        if define is not None and not callable(define):
            raise LabError(f"define= is a function that adds tools to an MCPServer, not {type(define).__name__}")
        if router not in ("round-robin", "pinned"):
            raise LabError(f"router= is 'round-robin' or 'pinned', not {router!r}")
        if not isinstance(http, bool):
            raise LabError(f"http= is True or False, not {http!r}")
        ring = None if keys is None else KeyRing.coerce(keys)  # checked once, before any instance is built
        self.name = name
        self.ttl = checked_ttl(ttl)
        self.shared_keys = ring is not None
        self._define = define
        self.instances: list[LabServer] = [self._build(ring) for _ in range(instances)]
        self._cycle = itertools.cycle(range(instances))
        self.pinned: int | None = 0 if router == "pinned" else None
        self.urls: list[str] = []
        if http:  # each instance on its own loopback port, as separate processes behind a balancer
            from mcp_lab.servers.serving import serve

            self.urls = [serve(instance) for instance in self.instances]

    def _build(self, keys: KeyRing | None) -> LabServer:
        # Ephemeral keys (keys=None): each instance gets its own random key, as separate processes would.
        entry = sandbox.new_mcpserver(self.name, keys=keys, ttl=self.ttl)
        assert isinstance(entry.server, MCPServer)
        add_probe_tool(entry.server)
        if self._define is not None:
            self._define(entry.server)
        return entry

    # ---- routing ---------------------------------------------------------------------------------
    def label(self, instance: LabServer) -> str:
        return f"{self.name}#{self.instances.index(instance)}"

    async def settled(self) -> None:
        """In-process instances take a new ring at once: nothing to wait for."""

    def route(self) -> LabServer:
        if self.pinned is not None:
            return self.instances[self.pinned]
        return self.instances[next(self._cycle)]

    def pin(self, index: int | None) -> None:
        """Send every leg to instance `index` (None: back to round-robin)."""
        self.pinned = None if index is None else self.check_index(index)

    # ---- Connection protocol -------------------------------------------------------------------------
    def capture(self) -> _FleetLeg:
        return _FleetLeg(self)

    async def session(self, era: str) -> ClientSession:
        instance = _chosen.get() or self.instances[0]
        return await instance.session(era)

    def legacy_session(self, answer: AnswerFn) -> object:
        return (_chosen.get() or self.route()).legacy_session(answer)

    async def tool_names(self, refresh: bool = False) -> set[str]:
        return await self.instances[0].tool_names(refresh)

    # ---- lifecycle ---------------------------------------------------------------------------------
    def check_index(self, index: object) -> int:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self.instances):
            raise LabError(f"instance {index!r} does not exist (0..{len(self.instances) - 1})")
        return index

    def set_ring(self, index: int, ring: KeyRing | Sequence[bytes]) -> None:
        self.instances[self.check_index(index)].install_ring(KeyRing.coerce(ring))

    async def restart(self, index: int) -> None:
        """Restart one instance: with ephemeral keys it comes back under a new key of its own."""
        await sandbox.restart_entry(self.instances[self.check_index(index)])

    async def close(self) -> None:
        for instance in self.instances:
            await instance.close_clients()
            stopped = instance.stop_http()
            if stopped is not None:
                await stopped

    def __repr__(self) -> str:
        rings = "; ".join(f"#{i} {inst.ring!r}" for i, inst in enumerate(self.instances))
        where = " over HTTP" if self.urls else " in-process"
        return f"Fleet({self.name!r}, {len(self.instances)} instances{where}: {rings})"
