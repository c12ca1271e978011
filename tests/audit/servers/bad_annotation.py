"""Flaw: `weigh` marks a `number` argument with x-mcp-header -- only integer, string and boolean may carry one,
so the whole tool definition is invalid (a Streamable HTTP client drops it). The lowlevel Server checks none
of its own listings. Invalid whatever the transport the server is reached by."""

from __future__ import annotations

from typing import Any

import mcp.types as T
from mcp.server import Server

from tests.audit.servers.common import CALLS, TOOLS, TTL, Call, lowlevel, main, shop_call, text

NAME = "bad-annotation"
__all__ = ["BREAKS", "CALLS", "NAME", "build"]
WEIGH = T.Tool(
    name="weigh",
    description="Weigh a parcel.",
    input_schema={"type": "object", "properties": {"kg": {"type": "number", "x-mcp-header": "Kg"}}, "required": ["kg"]},
)


async def list_tools(ctx: Any, params: Any) -> T.ListToolsResult:
    return T.ListToolsResult(tools=[*TOOLS, WEIGH])


async def call(ctx: Any, params: T.CallToolRequestParams) -> T.CallToolResult | T.InputRequiredResult:
    if params.name == WEIGH.name:
        return text(f"{(params.arguments or {}).get('kg')} kg")
    return await shop_call(ctx, params)


def build(ttl: float = TTL) -> Server:  # type: ignore[type-arg]
    schemas = {t.name: t.input_schema for t in [*TOOLS, WEIGH]}
    return lowlevel(NAME, call, ttl=ttl, on_list_tools=list_tools, get_tool_input_schema=schemas.get)


CALLS = [*CALLS, Call("tools/call", "weigh", {"kg": 2.5})]
BREAKS: dict[str, set[str]] = {t: {"header-annotations"} for t in ("in-process", "http", "stdio")}

if __name__ == "__main__":
    main(build)
