"""Helpers for the inspector tests: one real leg to a sandbox server, and tokens sealed by a server's keys."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from mcp.server.mcpserver import AESGCMRequestStateCodec
from mcp.server.request_state import compact_json

from mcp_lab import Flow, Round
from mcp_lab.flow.legs import send_leg
from mcp_lab.servers.lab_server import LabServer
from mcp_lab.tokens.claims import request_identity


async def send(
    entry: LabServer, token: str | None, target: str = "handmade", arguments: Mapping[str, Any] | None = None
) -> Round:
    """One tools/call leg through the flow engine, echoing `token`; the round records the logged reason."""
    probe = Flow(server=entry.name, method="tools/call", target=target, arguments=dict(arguments or {"x": 1}))
    probe.bind(entry)
    rnd = Round(index=0, sent_request_state=token)
    await send_leg(probe, rnd, entry, None)
    return rnd


def observed(rnd: Round) -> str:
    """What the server decided: "ok", or the reason it logged."""
    if rnd.outcome != "error":
        return "ok"
    assert rnd.error is not None and rnd.error["code"] == -32602, rnd.error
    assert rnd.error["message"] == "Invalid or expired requestState"
    return str(rnd.error["reason"])


def forge(entry: LabServer, **overrides: Any) -> str:
    """What the server itself would seal for handmade(x=1), with some claims overridden (the owner's power)."""
    assert entry.ring is not None
    now = time.time()
    target, digest = request_identity("tools/call", "handmade", {"x": 1})
    claims: dict[str, Any] = {
        "v": 1,
        "iat": now,
        "exp": now + 600,
        "m": "tools/call",
        "t": target,
        "a": digest,
        "s": '{"x": 1}',
        "aud": entry.name,
    }
    for key, value in overrides.items():
        if value is None:
            claims.pop(key, None)
        else:
            claims[key] = value
    return AESGCMRequestStateCodec(entry.ring.secret_keys()).seal(compact_json(claims).encode())
