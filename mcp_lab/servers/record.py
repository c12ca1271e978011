"""Server records: the sandbox's server list, a connection to an outside server, its stderr log, and a
server's description (`mcp_lab.describe`: its info, capabilities, negotiated version and offerings).

Spec context: a server's name is its request_state audience and its ring decides which tokens it accepts,
so the list shows both (key ids only, never keys) and where each server is reachable. A server the kernel
only connected to (Streamable HTTP or stdio) is "not ours": the lab holds no keys for it, so its tokens get
the keyless view only; the connection record says so, with the negotiated protocol era.
"""

from __future__ import annotations

from typing import Any, Literal

from mcp_lab.records.base import Model, Record

__all__ = [
    "ConnectionLogRecord",
    "ConnectionRecord",
    "PromptArgumentDescription",
    "PromptDescription",
    "ResourceDescription",
    "ServerDescriptionRecord",
    "ServerRowRecord",
    "ServersRecord",
    "ToolDescription",
]


class ServerRowRecord(Model):
    name: str
    kind: str
    """mcpserver | lowlevel | outside http | outside stdio ..."""
    sealing: str
    key_ids: list[str] = []
    ttl: float | None = None
    """None for a connected server: its token lifetime is its own business."""
    where: str
    generation: int
    ours: bool
    """False for a connected server: the lab holds no keys for it."""


class ServersRecord(Record):
    kind: Literal["servers"] = "servers"
    version: Literal[1] = 1
    servers: list[ServerRowRecord] = []
    empty_note: str = "no servers (define one with %%mcp_server NAME)"


class ConnectionRecord(Record):
    kind: Literal["connection"] = "connection"
    version: Literal[1] = 1
    name: str
    transport: Literal["http", "stdio"]
    where: str
    protocol_version: str | None = None
    """None while the first connect is still under way."""
    legacy_only: bool = False
    note: str
    pids: list[int] = []
    log_tail: list[str] = []
    """The last lines the stdio server wrote to stderr."""


class ConnectionLogRecord(Record):
    kind: Literal["connection-log"] = "connection-log"
    version: Literal[1] = 1
    name: str
    text: str
    """What the stdio server wrote to stderr (capped), or the server's log."""
    source: Literal["stderr", "log"] = "stderr"
    """stderr: `%mcp_connect log NAME`; log: `%mcp_server log NAME` (its own logging, and a stdio server's stderr)."""


class ToolDescription(Model):
    name: str
    signature: str = ""
    """`forecast(region: string [Mcp-Param-Region], days?: integer) -> object`: arguments (`?` optional), the
    header each marked one travels in, and what it returns (MCPServer's `{"result": ...}` wrapper unwrapped)."""
    title: str | None = None
    description: str | None = None
    input_schema: Any = None
    output_schema: Any = None
    headers: dict[str, str] = {}
    """Argument (dotted path) -> the `Mcp-Param-<Name>` header a 2026-07-28 client sends it in."""
    header_problem: str | None = None
    """Why the x-mcp-header marks are invalid (2026-07-28 clients then drop the tool), if they are."""
    annotations: Any = None


class PromptArgumentDescription(Model):
    name: str
    description: str | None = None
    required: bool = False


class PromptDescription(Model):
    name: str
    title: str | None = None
    description: str | None = None
    arguments: list[PromptArgumentDescription] = []


class ResourceDescription(Model):
    uri: str
    """A resource's URI, or a template's URI template."""
    template: bool = False
    name: str | None = None
    title: str | None = None
    description: str | None = None
    mime_type: str | None = None


class ServerDescriptionRecord(Record):
    """`mcp_lab.describe(NAME)`: what a server says about itself and what it offers (no key needed)."""

    kind: Literal["server-description"] = "server-description"
    version: Literal[1] = 1
    name: str
    """The server's name in the lab."""
    server_kind: str
    """mcpserver | lowlevel | outside http | outside stdio ..."""
    where: str
    protocol_version: str | None = None
    """The protocol version the lab's connection negotiated."""
    supported_versions: list[str] = []
    """What the server's `server/discover` offered (2026-07-28); empty after a 2025-11-25 handshake."""
    server_info: dict[str, Any] | None = None
    """name, version (and title ...) as the server stamps them; None when it does not say."""
    instructions: str | None = None
    capabilities: dict[str, Any] = {}
    tools: list[ToolDescription] = []
    prompts: list[PromptDescription] = []
    resources: list[ResourceDescription] = []
    notes: list[str] = []
