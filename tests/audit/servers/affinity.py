"""Flaw: the server remembers which order a connection is confirming, and refuses a retry that arrives on
another connection -- it needs session affinity, which 2026-07-28 does away with. Over stdio a client has
one connection to one process, so there the flaw cannot show.

The 2026-07-28 SDK gives a handler no connection of its own (every request gets a fresh `Connection`), so
this server digs one out: over HTTP the client's TCP peer, in-process the client's dispatcher (reached
through the SDK's in-process dispatch context -- a flaw written for the test, nothing to imitate)."""

from __future__ import annotations

import weakref
from typing import Any

import mcp.types as T
from mcp import MCPError
from mcp.server import Server

from tests.audit.servers.common import CALLS, TTL, answer, lowlevel, main, shop_call

NAME = "affinity"
__all__ = ["BREAKS", "CALLS", "NAME", "build"]
BY_PEER: dict[tuple[str, int], int] = {}
"""Streamable HTTP: the client's TCP connection (host, port) -> the order it was asked to confirm."""
BY_CLIENT: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()
"""In-process: the client's dispatcher -> the order (weak: a new client is never an old one)."""
STDIO: dict[str, int] = {}
"""Over stdio the process has one client."""


def memory(ctx: Any) -> tuple[Any, Any]:
    """Where this connection's pending order lives, and its key."""
    client = getattr(getattr(ctx, "request", None), "client", None)
    if client is not None:
        return BY_PEER, (client.host, client.port)
    inner = getattr(ctx.session._request_outbound, "_inner", None)
    back = getattr(inner, "_back_request", None)
    cells = getattr(back, "__closure__", None) or ()
    peer = next((c.cell_contents for c in cells if type(c.cell_contents).__name__ == "DirectDispatcher"), None)
    if peer is not None:
        return BY_CLIENT, peer
    return STDIO, "stdio"


async def call(ctx: Any, params: T.CallToolRequestParams) -> T.CallToolResult | T.InputRequiredResult:
    if params.name == "refund":
        order = int((params.arguments or {}).get("order", 0))
        store, key = memory(ctx)
        if answer(params) is None:
            store[key] = order
        elif store.get(key) != order:
            raise MCPError(code=-32600, message="no refund is being confirmed on this connection")
    return await shop_call(ctx, params)


def build(ttl: float = TTL) -> Server:  # type: ignore[type-arg]
    return lowlevel(NAME, call, ttl=ttl)


BREAKS: dict[str, set[str]] = {"in-process": {"no-affinity"}, "http": {"no-affinity"}, "stdio": set()}

if __name__ == "__main__":
    main(build)
