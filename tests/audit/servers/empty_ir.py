"""Flaw: `ping_team` answers with an InputRequiredResult that carries neither inputRequests nor requestState
-- nothing a client could act on (its SDK client refuses it as malformed). Written as a middleware, as a
server in another language might; the rest is a well-behaved shop."""

from __future__ import annotations

from typing import Any

import mcp.types as T
from mcp.server import Server

from tests.audit.servers.common import CALLS, TOOLS, TTL, Call, lowlevel, main, shop_call

NAME = "empty-ir"
__all__ = ["BREAKS", "CALLS", "NAME", "build"]
PING = T.Tool(name="ping_team", description="Ping the team.", input_schema={"type": "object", "properties": {}})


async def empty_answer(ctx: Any, call_next: Any) -> Any:
    params = ctx.params or {}
    if ctx.method == "tools/call" and params.get("name") == PING.name:
        return {"resultType": "input_required"}
    return await call_next(ctx)


async def list_tools(ctx: Any, params: Any) -> T.ListToolsResult:
    return T.ListToolsResult(tools=[*TOOLS, PING])


def build(ttl: float = TTL) -> Server:  # type: ignore[type-arg]
    schemas = {t.name: t.input_schema for t in [*TOOLS, PING]}
    server = lowlevel(NAME, shop_call, ttl=ttl, on_list_tools=list_tools, get_tool_input_schema=schemas.get)
    server.middleware.insert(0, empty_answer)
    return server


CALLS = [*CALLS, Call("tools/call", "ping_team", {})]
BREAKS: dict[str, set[str]] = {t: {"ir-nonempty"} for t in ("in-process", "http", "stdio")}

if __name__ == "__main__":
    main(build)
