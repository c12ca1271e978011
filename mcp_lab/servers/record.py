"""Server records: the sandbox's server list, a connection to an outside server, and its stderr log.

Spec context: a server's name is its request_state audience and its ring decides which tokens it accepts,
so the list shows both (key ids only, never keys) and where each server is reachable. A server the kernel
only connected to (Streamable HTTP or stdio) is "not ours": the lab holds no keys for it, so its tokens get
the keyless view only; the connection record says so, with the negotiated protocol era.
"""

from __future__ import annotations

from typing import Literal

from mcp_lab.records.base import Model, Record

__all__ = ["ConnectionLogRecord", "ConnectionRecord", "ServerRowRecord", "ServersRecord"]


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
    """What the stdio server wrote to stderr (capped)."""
