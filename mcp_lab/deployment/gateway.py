"""The gateway case the header-parameters page warns about, on a real proxy routing on `Mcp-Param-Region`.

Spec context: a gateway routes on the `Mcp-Param-*` header without parsing the body; the server checks that the
header and the body agree and refuses a request whose header says otherwise (400, -32020 HEADER_MISMATCH), so a
header cannot smuggle a request into a pool its body does not belong to. A client that did not list the tool
sends no header at all: the proxy sends it to the default pool, the instance refuses it the same way, and the
SDK's `Client.call_tool` re-lists the tools and resends once -- now with the header, to the right pool.

`lying_client` is a connection whose every tools/call carries a header value of our choosing (the record shows
what went out); `unlisted_call` runs the SDK's own `Client` without a listing and returns every POST it sent:
status, the instance that answered (from the response) and the header value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import httpx2
from mcp import Client, MCPError
from mcp.client.streamable_http import streamable_http_client

from mcp_lab.deployment.connection import ProxiedServer, served_by
from mcp_lab.errors import LabError
from mcp_lab.exchanges.client_tls import tls_context
from mcp_lab.exchanges.record import HttpExchange, LegCapture
from mcp_lab.exchanges.recorder import http_hooks, leg_scope
from mcp_lab.given import shown
from mcp_lab.json_types import JsonObject
from mcp_lab.servers.lab_server import check_name
from mcp_lab.servers.sandbox import sandbox

if TYPE_CHECKING:
    from mcp_lab.deployment.fleet import ProcessFleet

__all__ = ["UnlistedCall", "lying_client", "unlisted_call"]


def _check_fleet(fleet: object) -> None:
    from mcp_lab.deployment.fleet import ProcessFleet

    if not isinstance(fleet, ProcessFleet):
        raise LabError(f"the first argument is a fleet of processes (await mcp_lab.start_fleet(...)), not {shown(fleet)}")


def lying_client(fleet: ProcessFleet, name: str, headers: dict[str, str | None]) -> ProxiedServer:
    """A connection to `fleet`'s proxy, registered as `name`, whose tools/call requests carry `headers` instead of
    what the body implies (None: the header is left out)."""
    _check_fleet(fleet)
    check_name(name)
    if not isinstance(headers, dict) or not headers or not all(
        isinstance(k, str) and k and (v is None or isinstance(v, str)) for k, v in headers.items()
    ):
        raise LabError("headers= maps header names to the value to send instead (str), or None to leave it out")
    liar = ProxiedServer(
        name=name,
        transport="http",
        url=fleet.url,
        instance_logs=fleet.instance_logs,
        rewrite={k.lower(): v for k, v in headers.items()},
    )
    sandbox.register(liar, replace=True)
    sandbox.begin_connect(liar)
    return liar


@dataclass
class UnlistedCall:
    """Every POST of one `Client.call_tool` made without a prior listing."""

    posts: list[JsonObject]
    result: str | None
    error: str | None

    def text(self) -> str:
        lines = []
        for post in self.posts:
            header = post["header"] if post["header"] is not None else "(no header)"
            code = f" {post['code']}" if post["code"] is not None else ""
            lines.append(f"{post['method']:<10} {post['header_name']}: {header:<12} -> {post['status']}{code} on {post['served_by']}")
        lines.append(f"result: {self.result}" if self.result is not None else f"error: {self.error}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.text()


async def unlisted_call(
    fleet: ProcessFleet, tool: str, arguments: JsonObject, header: str = "Mcp-Param-Region"
) -> UnlistedCall:
    """The SDK's `Client.call_tool` through the proxy, with no `list_tools` before it."""
    _check_fleet(fleet)
    if not isinstance(tool, str) or not tool:
        raise LabError(f"tool= is a tool's name (str), not {shown(tool)}")
    if not isinstance(arguments, dict) or not all(isinstance(k, str) for k in arguments):
        raise LabError(f"arguments= is a dict of the tool's arguments, not {shown(arguments)}")
    if not isinstance(header, str) or not header:
        raise LabError(f"header= is the routing header's name (str), not {shown(header)}")
    capture = LegCapture()
    result = error = None
    async with (
        httpx2.AsyncClient(event_hooks=http_hooks(None, tag=False), verify=tls_context()) as http,
        Client(streamable_http_client(fleet.url, http_client=http), cache=None) as client,
    ):
        with leg_scope(capture):
            try:
                called = await client.call_tool(tool, arguments)
                texts = [getattr(c, "text", "") for c in called.content]
                result = " ".join(t for t in texts if t)
            except MCPError as exc:
                error = f"{exc.error.code} {exc.error.message}"
    posts: list[JsonObject] = []
    for exchange in capture.http:
        seen = HttpExchange.model_validate(exchange)  # the record it was dumped from, typed again
        sent = {k.lower(): v for k, v in seen.request.headers}
        posts.append(
            {
                "method": seen.rpc,
                "header_name": header,
                "header": sent.get(header.lower()),
                "status": seen.response.status if seen.response is not None else None,
                "code": seen.rpc_error.code if seen.rpc_error is not None else None,
                "served_by": served_by([exchange]),
            }
        )
    return UnlistedCall(posts, result, error)
