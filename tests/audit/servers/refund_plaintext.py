"""Flaw: the refund amount travels in a plaintext requestState, and the retry pays what the state says.

No sealing boundary: the state crosses the wire as the handler wrote it, so a client can read it, edit the
amount, or carry it to another order -- and nothing expires it. Otherwise a well-behaved shop.
"""

from __future__ import annotations

import json
from typing import Any

import mcp.types as T
from mcp import MCPError
from mcp.server import Server

from tests.audit.servers.common import (
    AMOUNTS,
    CALLS,
    TTL,
    answer,
    confirm,
    lowlevel,
    main,
    require_elicitation,
    shop_call,
    text,
)

NAME = "refund-plaintext"
__all__ = ["BREAKS", "CALLS", "NAME", "build"]


async def call(ctx: Any, params: T.CallToolRequestParams) -> T.CallToolResult | T.InputRequiredResult:
    if params.name != "refund":
        return await shop_call(ctx, params)
    order = int((params.arguments or {}).get("order", 0))
    ok = answer(params)
    if ok is None:
        require_elicitation(ctx)
        state = json.dumps({"order": order, "amount": AMOUNTS.get(order, 0)})
        return T.InputRequiredResult(input_requests={"confirm": confirm(f"refund order {order}?")}, request_state=state)
    try:
        amount = json.loads(params.request_state or "")["amount"]
    except (ValueError, KeyError, TypeError):
        raise MCPError(code=-32602, message="unreadable requestState") from None
    return text(f"Refunded order {order} ({amount} EUR)" if ok else f"order {order} left alone")


def build(ttl: float = TTL) -> Server:  # type: ignore[type-arg]
    server = lowlevel(NAME, call, seal=False)
    return server


_STATE = {"state-integrity", "state-binding"}
BREAKS: dict[str, set[str]] = {"in-process": _STATE, "http": _STATE, "stdio": _STATE}

if __name__ == "__main__":
    main(build)
