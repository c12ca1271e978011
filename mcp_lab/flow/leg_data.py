"""The JSON a leg records besides its answers: the error it ended in and the 2025-11-25 back-channel traffic.

Spec: a JSON-RPC error (`code`, `message`, `data`) as the wire carried it, or a refusal in the client; and
the server->client requests a 2025-11-25 handler sent during its one leg. Typed dictionaries, since a
`Round` is saved and read back as plain JSON: keys a saved flow holds beyond these are kept as they are.
"""

from __future__ import annotations

from pydantic import ConfigDict, with_config
from typing_extensions import TypedDict

from mcp_lab.json_types import JsonObject, JsonValue

__all__ = ["BackchannelEntry", "LegError"]


@with_config(ConfigDict(extra="allow"))
class LegError(TypedDict, total=False):
    """How a leg failed: the server's JSON-RPC error, or the client's refusal, with the reason logged."""

    code: int | None
    """The JSON-RPC error code; None when the client refused or the transport failed."""
    message: str
    data: JsonValue
    where: str
    """client | transport | tool: who failed, when it was not the server answering an error."""
    reason: str
    """What the server logged for it (its own log, or the proxy's answer), when the lab can read that."""


@with_config(ConfigDict(extra="allow"))
class BackchannelEntry(TypedDict, total=False):
    """One server->client request sent during a 2025-11-25 leg, and what the lab answered."""

    key: str
    kind: str
    request: JsonObject
    response: JsonObject
    error: str
