"""A well-behaved MCPServer: resolvers ask (sealed state, -32021 for a client that cannot answer), a header
parameter on `stock`. It must keep every rule the audit can check."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import Elicit, MCPServer, RequestStateSecurity, Resolve
from pydantic import BaseModel, Field

from tests.audit.servers.common import AMOUNTS, KEY, TTL, Call, main

NAME = "good-mcpserver"


class Confirm(BaseModel):
    ok: bool


async def confirm(order: int) -> Elicit[Confirm]:
    return Elicit(f"Go ahead with order {order}?", Confirm)


def build(ttl: float = TTL) -> MCPServer:
    mcp = MCPServer(NAME, log_level="WARNING", request_state_security=RequestStateSecurity(keys=[KEY], ttl=ttl))

    @mcp.tool()
    async def refund(order: int, ok: Annotated[Confirm, Resolve(confirm)]) -> str:
        return f"Refunded order {order} ({AMOUNTS.get(order, 0)} EUR)" if ok.ok else f"order {order} left alone"

    @mcp.tool()
    async def cancel(order: int, ok: Annotated[Confirm, Resolve(confirm)]) -> str:
        return f"Cancelled order {order}" if ok.ok else f"order {order} left alone"

    @mcp.tool()
    def stock(title: str, region: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Region"})]) -> str:
        return f"{title}: 3 copies in {region}"

    return mcp


YES: dict[str, Any] = {"confirm": {"ok": True}}
CALLS = [
    Call("tools/call", "refund", {"order": 1}, YES),
    Call("tools/call", "refund", {"order": 2}, YES),
    Call("tools/call", "cancel", {"order": 1}, YES),
    Call("tools/call", "stock", {"title": "Dune", "region": "eu-west"}),
]
BREAKS: dict[str, set[str]] = {"in-process": set(), "http": set(), "stdio": set()}

if __name__ == "__main__":
    main(build)
