"""How the notebook reaches a fleet: through its proxy (`ProxiedServer`) or one instance directly.

Spec context: multi round-trip requests through a load balancer -- every leg is a separate POST, so each may
land on a different instance -- and header parameters, which a gateway routes on.

A `ProxiedServer` is an ordinary outside HTTP connection (flows, step mode, replays work unchanged) whose leg
recorder reads *which instance served the leg* from the response itself: the `Mcp-Lab-Instance` header each
instance adds (`app.InstanceHeader`). It then takes that instance's log lines written during the leg, so a
refused retry says why the instance refused it (under concurrent load a line may belong to a sibling leg on
the same instance); a request the proxy answered itself with an HTTP error (no instance named) says that. `rewrite` makes a client that lies in a header (the gateway case): the recorded request
is what went on the wire.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2

from mcp_lab.deployment.app import INSTANCE_HEADER
from mcp_lab.errors import LabError
from mcp_lab.exchanges.record import ExchangeFacts, LegCapture, exchange_facts
from mcp_lab.servers.outside import OutsideServer
from mcp_lab.servers.transports import LegRecorder, http_transport, read_log

__all__ = ["InstanceConnection", "ProxiedServer", "proxy_refusal", "served_by"]


_CALLS = ("tools/call", "prompts/get", "resources/read")
RECONNECT_TRIES = 5
RECONNECT_PAUSE = 0.05
"""After a proxy reload the connection through it is made again up to five times, 50 ms more between tries."""


def served_by(http: list[dict[str, Any]]) -> str | None:
    """The instances that answered one leg's call, in order ("a then b" when a resent call moved). Other
    requests of the leg -- the listing a client makes to validate a result, or to re-list after -32020 --
    count only when the leg has no call exchange at all."""
    facts: list[ExchangeFacts] = []
    for exchange in http:
        response = exchange.get("response") or {}
        headers = [(str(k), str(v)) for k, v in response.get("headers") or []]
        facts.append((exchange.get("rpc"), response.get("status"), headers))
    return _served_by(facts)


def _served_by(facts: list[ExchangeFacts]) -> str | None:
    calls = [x for x in facts if x[0] in _CALLS] or facts
    seen: list[str] = []
    wanted = INSTANCE_HEADER.lower()
    for _, _, headers in calls:
        for name, value in headers:
            if name.lower() == wanted and (not seen or seen[-1] != value):
                seen.append(value)
    return " then ".join(seen) if seen else None


class _ServedByRecorder(LegRecorder):
    """A leg recorder that names the instance from the response, then reads that instance's log lines."""

    __slots__ = ("logs", "offsets", "owner")

    def __init__(self, owner: ProxiedServer) -> None:
        super().__init__(None, owner.name)
        self.owner = owner
        self.logs = owner.instance_logs()
        self.offsets = {label: _size(path) for label, path in self.logs.items()}

    def __enter__(self) -> LegCapture:
        capture = super().__enter__()
        self.owner.legs_in_flight += 1  # counted once entered: a failed enter has no exit to uncount it
        return capture

    def __exit__(self, *exc: object) -> None:
        self.owner.legs_in_flight -= 1
        super().__exit__(*exc)
        capture: LegCapture = self
        facts = exchange_facts(capture)  # from the kept exchanges: their records stay unbuilt until read
        capture.served_by = _served_by(facts)
        for label in (capture.served_by or "").split(" then "):
            instance = label.split("/pid")[0]  # under --workers: one log for the whole process group
            path = self.logs.get(instance)
            if path is not None:
                text, _ = read_log(path, self.offsets.get(instance, 0))
                capture.server_log.extend(ln for ln in text.splitlines() if ln.strip())
        if capture.served_by is None:
            refused = _refusal(facts)
            if refused is not None:
                capture.server_log.append(refused)


def proxy_refusal(http: list[dict[str, Any]]) -> str | None:
    """The line a leg gets when the proxy answered an error itself (no instance named in the response): the
    failed leg then says why, as one an instance refused says what the instance logged."""
    return _refusal([(None, (exchange.get("response") or {}).get("status"), []) for exchange in http])


def _refusal(facts: list[ExchangeFacts]) -> str | None:
    for _, status, _ in facts:
        if isinstance(status, int) and status >= 400:
            return f"the proxy answered HTTP {status} itself: no instance served this request"
    return None


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _lying(rewrite: dict[str, str | None]) -> Callable[[httpx2.Request], Awaitable[None]]:
    """A request hook that replaces (None: removes) the `rewrite` headers of every tools/call."""

    async def lie(request: httpx2.Request) -> None:
        # Only calls carry argument headers; listings stay honest so the client learns the schema.
        if request.headers.get("mcp-method") != "tools/call":
            return
        for name, value in rewrite.items():
            if value is None:
                request.headers.pop(name, None)
            elif name in request.headers:
                request.headers[name] = value

    return lie


@dataclass(eq=False)
class ProxiedServer(OutsideServer):
    """A fleet's proxy as a connection; every leg knows the instance that answered it."""

    instance_logs: Callable[[], dict[str, Path]] = field(default=dict, repr=False)
    """Label -> log file of each instance (the fleet's, as it is now)."""
    rewrite: dict[str, str | None] = field(default_factory=dict, repr=False)
    """Request headers replaced on every tools/call (None: removed) -- a client that lies in a header."""
    legs_in_flight: int = field(default=0, repr=False)
    """Legs sent through this connection that have not come back yet (a proxy reload waits for none)."""

    @property
    def kind(self) -> str:
        return "fleet proxy"

    def capture(self) -> LegRecorder:
        return _ServedByRecorder(self)

    async def reconnect_after_reload(self) -> None:
        """Close the clients and connect again through the proxy, waited for and tried again. For a moment
        after `caddy reload` the old configuration's server may still take a connection and close it unanswered
        ("Server disconnected without sending a response", seen under load); connected in the background, a
        failed first connect left this connection forgotten and every later call through it refused. A connect
        that fails every try, or by the connection's own timeout, is left as it failed: the next call says why,
        in one line (a connection closed unanswered fails at once; one that never answers uses the time up)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        for attempt in range(1, RECONNECT_TRIES + 1):
            await self.close_clients()
            self.begin_connect(lambda: None)  # a failed try forgets nothing: the next one replaces it
            try:
                await self.ready()
                return
            except LabError:
                pause = RECONNECT_PAUSE * attempt
                if attempt == RECONNECT_TRIES or loop.time() + pause >= deadline:
                    return
                await asyncio.sleep(pause)

    def _transport(self, owner: Any) -> object:
        if not self.rewrite:
            return super()._transport(owner)
        return http_transport(self.url or "", self.schema_book, on_status=self._saw_status, before_send=_lying(self.rewrite))


@dataclass(eq=False)
class InstanceConnection(ProxiedServer):
    """One instance reached directly (its own port), bypassing the proxy: for matrices and restarts."""

    @property
    def kind(self) -> str:
        return "fleet instance"
