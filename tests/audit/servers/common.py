"""What the audit's test servers share: a small shop (refund, cancel, stock), and how each one is started.

Spec context: the 2026-07-28 rules `mcp_lab.audit` checks. Each server in this package is a well-behaved shop
except for the one flaw its module is named after, written out in that module; the parts every shop does
right live here: the lowlevel handlers ask for a confirmation only of a client that declared elicitation
(else -32021, Server Requirements item 7), ask again when the answer is missing (Error Handling), ignore
answers nobody asked for, and mark `stock`'s `region` with `x-mcp-header`. `python -m tests.audit.servers.NAME
--stdio` serves a module's server over stdio; `--http` serves it on 127.0.0.1 and prints its URL.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import mcp.types as T
from mcp import MCPError
from mcp.server import Server
from mcp.server.mcpserver import RequestStateBoundary, RequestStateSecurity
from mcp_types import CLIENT_CAPABILITIES_META_KEY, MISSING_REQUIRED_CLIENT_CAPABILITY

AMOUNTS = {1: 25, 2: 40, 3: 10}
KEY = b"audit-test-key-for-the-shops-01!"
"""A fixed key (>= 32 bytes), so a server started in another process seals the same way."""
TTL = 600.0

CONFIRM_SCHEMA = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}


def confirm(message: str) -> T.ElicitRequest:
    return T.ElicitRequest(params=T.ElicitRequestFormParams(message=message, requested_schema=CONFIRM_SCHEMA))


ORDER = {"type": "object", "properties": {"order": {"type": "integer"}}, "required": ["order"]}
TOOLS = [
    T.Tool(name="refund", description="Refund an order (asks for a confirmation).", input_schema=ORDER),
    T.Tool(name="cancel", description="Cancel an order (asks for a confirmation).", input_schema=ORDER),
    T.Tool(
        name="stock",
        description="Copies of a title in one region.",
        input_schema={
            "type": "object",
            "properties": {"title": {"type": "string"}, "region": {"type": "string", "x-mcp-header": "Region"}},
            "required": ["title", "region"],
        },
    ),
]


@dataclass
class Call:
    """One call the tests record (and the audit repeats)."""

    method: str
    target: str
    arguments: dict[str, Any]
    answers: dict[str, Any] = field(default_factory=dict)


YES = {"confirm": {"ok": True}}
CALLS = [
    Call("tools/call", "refund", {"order": 1}, YES),
    Call("tools/call", "refund", {"order": 2}, YES),
    Call("tools/call", "cancel", {"order": 1}, YES),
    Call("tools/call", "stock", {"title": "Dune", "region": "eu-west"}),
]


def require_elicitation(ctx: Any) -> None:
    """-32021 for a client that did not declare form elicitation (what MCPServer's resolvers do too)."""
    capabilities = (ctx.meta or {}).get(CLIENT_CAPABILITIES_META_KEY) or {}
    if not isinstance(capabilities, dict) or "elicitation" not in capabilities:
        raise MCPError(
            code=MISSING_REQUIRED_CLIENT_CAPABILITY,
            message="Client did not declare the form elicitation capability this tool asks with",
            data={"requiredCapabilities": {"elicitation": {"form": {}}}},
        )


def answer(params: T.CallToolRequestParams, key: str = "confirm") -> bool | None:
    """The confirmation the client sent under `key` (None: not answered -- ask again)."""
    given = (params.input_responses or {}).get(key)
    if isinstance(given, T.ElicitResult) and given.content is not None:
        return bool(given.content.get("ok"))
    return None


def text(value: str) -> T.CallToolResult:
    return T.CallToolResult(content=[T.TextContent(type="text", text=value)])


async def list_tools(ctx: Any, params: Any) -> T.ListToolsResult:
    return T.ListToolsResult(tools=TOOLS)


def schema_of(name: str) -> dict[str, Any] | None:
    return next((t.input_schema for t in TOOLS if t.name == name), None)


async def shop_call(ctx: Any, params: T.CallToolRequestParams) -> T.CallToolResult | T.InputRequiredResult:
    """refund / cancel / stock, done right: state is the order as plain JSON (sealed by the boundary)."""
    args = params.arguments or {}
    if params.name == "stock":
        return text(f"{args.get('title')}: 3 copies in {args.get('region')}")
    order = int(args.get("order", 0))
    ok = answer(params)
    if ok is None:
        require_elicitation(ctx)
        state = json.dumps({"order": order})
        return T.InputRequiredResult(
            input_requests={"confirm": confirm(f"{params.name} order {order}?")}, request_state=state
        )
    if json.loads(params.request_state or "{}").get("order") != order:
        raise MCPError(code=-32602, message="requestState belongs to another order")
    verb = "Refunded" if params.name == "refund" else "Cancelled"
    return text(f"{verb} order {order} ({AMOUNTS.get(order, 0)} EUR)" if ok else f"order {order} left alone")


def boundary(name: str, ttl: float = TTL) -> RequestStateBoundary:
    """The SDK's sealing boundary under the shops' fixed key."""
    return RequestStateBoundary(RequestStateSecurity(keys=[KEY], ttl=ttl), default_audience=name)


def lowlevel(
    name: str, call: Callable[..., Any], *, seal: bool = True, ttl: float = TTL, **handlers: Any
) -> Server[Any]:
    handlers.setdefault("on_list_tools", list_tools)
    handlers.setdefault("get_tool_input_schema", schema_of)
    server: Server[Any] = Server(name, on_call_tool=call, **handlers)
    if seal:
        server.middleware.append(boundary(name, ttl))
    return server


def main(build: Callable[[], Any]) -> None:
    """`--stdio`: serve over stdio. `--http`: serve on 127.0.0.1 (any free port); print the URL, then serve."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--stdio", action="store_true")
    parser.add_argument("--http", action="store_true")
    args = parser.parse_args()
    server = build()
    if args.stdio:
        print(f"{server.name} over stdio, pid {os.getpid()}", file=sys.stderr, flush=True)
        _run_stdio(server)
        return
    _run_http(server)


def _run_stdio(server: Any) -> None:
    from mcp.server.mcpserver import MCPServer

    if isinstance(server, MCPServer):
        server.run(transport="stdio")
        return
    import anyio
    from mcp.server.stdio import stdio_server

    async def serve() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(serve)


def _run_http(server: Any) -> None:
    import socket

    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)  # listening before the URL is printed: a client may connect at once (uvicorn accepts later)
    app = server.streamable_http_app(host="127.0.0.1")
    print(f"http://127.0.0.1:{sock.getsockname()[1]}/mcp", flush=True)
    uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on")).run(sockets=[sock])
