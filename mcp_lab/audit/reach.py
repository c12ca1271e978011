"""How the audit talks to a server: the connection's own session, raw requests, fresh connections.

Spec context: 2026-07-28 requests carry their metadata in every request (`_meta`: protocol version, client
capabilities) and, over Streamable HTTP, in headers (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`,
`Mcp-Param-*`). A check needs to send exactly the request a rule is about -- one header changed or left out,
an `Origin` added, capabilities declared empty -- and to see the result as it came, before the SDK's client
validates it away (an empty `InputRequiredResult`, or one on `tools/list`, never reaches a caller of
`session.call_tool`). So requests go through the connection's own client session (the lab's transport,
recorder and credentials: a server that requires a bearer token gets the token the connection uses), stamped
as the SDK stamps them, then changed, and sent on the session's dispatcher, which hands back the raw result.
With flow/received.py (which keeps a leg's result as the dispatcher received it), this is the only module that
touches SDK internals (`ClientSession._stamp`, `._dispatcher`; mcp is pinned), and the only one that knows how
a connection is built.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Mapping
from typing import Any

import mcp.types as T
from mcp import Client
from mcp.client import ClientRequestContext
from mcp.client.session import ClientSession
from mcp.shared.dispatcher import CallOptions
from mcp_types import CLIENT_CAPABILITIES_META_KEY

from mcp_lab.audit.model import Transport
from mcp_lab.errors import LabError
from mcp_lab.exchanges.client_tls import tls_context
from mcp_lab.flow.flow import Connection, LegCapture
from mcp_lab.json_types import JsonObject, JsonValue
from mcp_lab.protocol.eras import MODERN
from mcp_lab.servers.backchannel import Backchannel

__all__ = ["Reach", "RequestSpec"]


class RequestSpec:
    """One JSON-RPC request as the audit sends it: params, and what to change after the SDK stamped it."""

    __slots__ = ("capabilities", "drop_headers", "headers", "method", "params")

    def __init__(
        self,
        method: str,
        params: Mapping[str, JsonValue] | None = None,
        *,
        headers: Mapping[str, str] | None = None,
        drop_headers: tuple[str, ...] = (),
        capabilities: JsonObject | None = None,
    ) -> None:
        self.method = method
        self.params = dict(params or {})
        self.headers = dict(headers or {})
        """Set (or replace) these HTTP headers; names compare case-insensitively."""
        self.drop_headers = drop_headers
        self.capabilities = capabilities
        """Declare these client capabilities in `_meta` instead of the session's own."""


async def _refuse(context: ClientRequestContext, params: object = None) -> T.ErrorData:
    # Declaring these callbacks makes the client declare the capabilities; the audit answers from recordings.
    return T.ErrorData(code=-32603, message="mcp_lab's audit answers input requests from the recording")


_CALLBACKS = Backchannel(elicitation_callback=_refuse, sampling_callback=_refuse, list_roots_callback=_refuse)


class Reach:
    """The audit's handle on one connection (a server the lab started, or one it connected to)."""

    def __init__(self, connection: Connection, headers: Mapping[str, str] | None = None) -> None:
        self.connection = connection
        self.name: str = connection.name
        self.extra_headers = dict(headers or {})
        """Headers the audit adds to every request (`--header`): a credential the connection lacks."""

    # ---- what the server is -------------------------------------------------------------------------------
    @property
    def transport(self) -> Transport:
        kind = getattr(self.connection, "transport", None)
        if kind in ("http", "stdio"):
            return kind  # type: ignore[no-any-return]
        return "http" if getattr(self.connection, "url", None) else "in-process"

    @property
    def where(self) -> str:
        where = getattr(self.connection, "where", None)
        if isinstance(where, str):
            return where
        return str(getattr(self.connection, "url", None) or "in-process")

    def credentials(self) -> dict[str, str]:
        """The HTTP headers the connection authenticates with (a served lab server's bearer secret, an outside
        server's configured headers); never shown or recorded (the recorders redact `Authorization`)."""
        serving = getattr(self.connection, "http", None)
        access = getattr(serving, "access", None)
        if access is not None and callable(getattr(access, "headers", None)):
            return {**access.headers(), **self.extra_headers}
        return {**(getattr(self.connection, "headers", None) or {}), **self.extra_headers}

    @property
    def lifetime(self) -> float | None:
        """The requestState lifetime the lab knows for a server it seals for (None: not known)."""
        if getattr(self.connection, "ring", None) is None:
            return None
        ttl = getattr(self.connection, "ttl", None)
        return float(ttl) if isinstance(ttl, int | float) else None

    # ---- sending ---------------------------------------------------------------------------------------------
    async def session(self) -> ClientSession:
        return await self.connection.session(MODERN)

    def capture(self) -> contextlib.AbstractContextManager[LegCapture]:
        """A context manager collecting one request's HTTP exchanges and the server's logged reasons."""
        return self.connection.capture()

    async def send(self, spec: RequestSpec, session: ClientSession | None = None) -> dict[str, Any]:
        """Send `spec` as the SDK would, with its changes; the raw result (raises `MCPError` on an error)."""
        session = session if session is not None else await self.session()
        params: JsonObject = dict(spec.params)
        data: JsonObject = {"method": spec.method, "params": params}
        opts: CallOptions = {}
        session._stamp(data, opts)  # writes `_meta` into `params` (the same dict) and the headers into `opts`
        if spec.capabilities is not None:
            meta = params.get("_meta")
            params["_meta"] = {**(meta if isinstance(meta, Mapping) else {}), CLIENT_CAPABILITIES_META_KEY: spec.capabilities}
        headers = opts.setdefault("headers", {})
        headers.update(self.extra_headers)
        wanted = {k.lower() for k in (*spec.drop_headers, *spec.headers)}
        for key in [k for k in headers if k.lower() in wanted]:
            del headers[key]
        headers.update(spec.headers)
        return await session._dispatcher.send_raw_request(spec.method, params, opts)

    async def list_tools(self) -> None:
        """Let the session learn the tools' `x-mcp-header` marks (it mirrors them into headers from then on)."""
        session = await self.session()
        with contextlib.suppress(Exception):  # a server whose listing is broken: its calls go without marks
            await session.list_tools()

    # ---- fresh connections -------------------------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def fresh(self) -> AsyncIterator[ClientSession]:
        """A new connection (entered and left in the calling task): a new in-process client, or a new HTTP
        client -- new TCP connections, the same credentials. A stdio server is one process per connection, so
        there is no fresh connection to the same server."""
        if self.transport == "stdio":
            raise LabError("a stdio server is one process per connection: no second connection reaches it")
        async with self._client() as client:
            with contextlib.suppress(Exception):
                await client.session.list_tools()
            yield client.session

    def _client(self) -> Client:
        if self.transport == "in-process":
            server = getattr(self.connection, "server", None)
            if server is None:
                raise LabError(f"{self.name!r} has no in-process server object")
            return Client(server, mode="auto", cache=None, **_CALLBACKS)
        url = getattr(self.connection, "url", None)
        if not isinstance(url, str):
            raise LabError(f"{self.name!r} has no URL")
        return Client(_http_transport(url, self.credentials()), mode="auto", cache=None, **_CALLBACKS)


@contextlib.asynccontextmanager
async def _http_transport(url: str, headers: dict[str, str]) -> AsyncIterator[Any]:
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    from mcp_lab.exchanges.recorder import http_hooks

    timeout = httpx2.Timeout(30.0, read=300.0)
    async with (
        httpx2.AsyncClient(event_hooks=http_hooks(tag=False), timeout=timeout, headers=headers, verify=tls_context()) as http,
        streamable_http_client(url, http_client=http) as streams,
    ):
        yield streams
