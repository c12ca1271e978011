"""A server's tool listing as it travels, unfiltered: for the header table and the call checks.

Spec context: 2026-07-28 header parameters. `session.list_tools()` drops a tool whose `x-mcp-header` marks
are invalid (2026-07-28 clients must); to show *why* a tool is dropped the lab pages through `tools/list`
itself and keeps every tool in wire form, for a sandbox server, a connected one, or a bare server object.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import mcp.types as T

from mcp_lab.errors import LabError

if TYPE_CHECKING:
    from mcp.client.session import ClientSession

__all__ = ["raw_tool_listing"]


async def _list_all(session: ClientSession) -> list[dict[str, Any]]:
    """The server's own listing, unfiltered (`session.list_tools()` drops tools with invalid marks)."""
    tools: list[dict[str, Any]] = []
    cursor: str | None = None
    for _ in range(100):
        params = T.PaginatedRequestParams(cursor=cursor) if cursor else None
        page = await session.send_request(T.ListToolsRequest(params=params), T.ListToolsResult)
        tools += [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in page.tools]
        cursor = page.next_cursor
        if not cursor:
            break
    return tools


async def raw_tool_listing(server: object) -> tuple[str, str, list[dict[str, Any]]]:
    """(name, kind, tools in wire form) for a sandbox server name (the lab's or a connected one), a LabServer,
    an OutsideServer, or a server object."""
    from mcp import Client
    from mcp.server import MCPServer, Server

    from mcp_lab.servers.lab_server import LabServer
    from mcp_lab.servers.outside import OutsideServer
    from mcp_lab.servers.sandbox import sandbox

    entry: LabServer | OutsideServer | None = sandbox.get(server) if isinstance(server, str) else None
    if isinstance(server, LabServer | OutsideServer):
        entry = server
    if entry is not None:  # listing needs no key: a connected server lists like the lab's own
        era = "2025-11-25" if isinstance(entry, OutsideServer) and entry.legacy_only else "2026-07-28"
        session = await entry.session(era)
        return entry.name, entry.kind, await _list_all(session)
    if isinstance(server, MCPServer | Server):
        kind = "mcpserver" if isinstance(server, MCPServer) else "lowlevel"
        async with Client(server, cache=None) as client:
            return str(server.name), kind, await _list_all(client.session)
    raise LabError(f"header_table() takes a server name, an MCPServer or a lowlevel Server, not {server!r}")
