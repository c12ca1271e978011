"""The rotation probe: a two-round tool every fleet instance gets, in-process or in a process of its own.

Spec context: key rotation is measured on the instances themselves -- a token minted under one ring (the
probe's first leg) is sent back to another instance (its second leg), which accepts it or refuses it with the
frozen -32602. Kept apart from the fleet so a server process can add it without loading the lab.
"""

from __future__ import annotations

import mcp.types as T
from mcp.server.mcpserver import Context, MCPServer

__all__ = ["PROBE_TOOL", "add_probe_tool"]

PROBE_TOOL = "rotation_probe"
"""A 2-round tool every fleet instance gets, so the rotation matrix can be measured on the instances."""

_PROBE_QUESTION = T.ElicitRequest(
    params=T.ElicitRequestFormParams(
        message="Probe: any answer will do",
        requested_schema={"type": "object", "properties": {"ok": {"type": "boolean"}}},
    )
)


def add_probe_tool(server: MCPServer) -> None:
    """Register the probe: first leg asks one question, second leg returns which instance answered."""

    @server.tool(name=PROBE_TOOL, description="mcp_lab rotation probe: asks once, then answers.")
    async def rotation_probe(ctx: Context) -> str | T.InputRequiredResult:
        if ctx.input_responses is None:
            return T.InputRequiredResult(input_requests={"probe": _PROBE_QUESTION}, request_state="probe")
        return "accepted"
