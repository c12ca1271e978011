"""A server of the user's, as a module (`tests.deployment.shop_server:mcp`), for fleets of real processes.

`order` asks one question (two legs: the retry carries the sealed request_state); `forecast` routes: its
`region` argument travels in the `Mcp-Param-Region` header too.
"""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import Elicit, MCPServer, Resolve
from pydantic import BaseModel, Field

mcp = MCPServer("shop", log_level="WARNING")


class Size(BaseModel):
    size: str


async def ask_size(item: str) -> Elicit[Size]:
    return Elicit(f"Which size of {item}?", Size)


@mcp.tool()
async def order(item: str, size: Annotated[Size, Resolve(ask_size)]) -> str:
    return f"ordered {item} in size {size.size}"


@mcp.tool()
def forecast(region: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Region"})]) -> str:
    return f"sunny in {region}"
