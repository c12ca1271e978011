"""Flaw: the requestState is sealed (AES-GCM, with an expiry and the tool's name) but not bound to the
call's arguments, so a token minted for one order is accepted on another -- and pays its amount.

The server seals its own state instead of using the SDK's boundary (which binds the arguments' digest).
Tampering is refused and tokens expire; only the binding to the originating request is missing.
"""

from __future__ import annotations

import base64
import json
import os
import time
from typing import Any

import mcp.types as T
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from mcp import MCPError
from mcp.server import Server

from tests.audit.servers.common import (
    AMOUNTS,
    CALLS,
    KEY,
    TTL,
    answer,
    confirm,
    lowlevel,
    main,
    require_elicitation,
    text,
)

NAME = "unbound-sealed"
__all__ = ["BREAKS", "CALLS", "NAME", "build"]
_AEAD = AESGCM(KEY)


def seal(claims: dict[str, Any]) -> str:
    nonce = os.urandom(12)
    blob = nonce + _AEAD.encrypt(nonce, json.dumps(claims).encode(), b"s1")
    return "s1." + base64.urlsafe_b64encode(blob).decode().rstrip("=")


def unseal(token: str | None) -> dict[str, Any]:
    try:
        assert token is not None and token.startswith("s1.")
        blob = base64.urlsafe_b64decode(token[3:] + "=" * (-len(token[3:]) % 4))
        claims: dict[str, Any] = json.loads(_AEAD.decrypt(blob[:12], blob[12:], b"s1"))
    except (AssertionError, ValueError, InvalidTag):
        raise MCPError(code=-32602, message="Invalid or expired requestState") from None
    return claims


def make_call(ttl: float) -> Any:
    async def call(ctx: Any, params: T.CallToolRequestParams) -> T.CallToolResult | T.InputRequiredResult:
        args = params.arguments or {}
        if params.name == "stock":
            return text(f"{args.get('title')}: 3 copies in {args.get('region')}")
        order = int(args.get("order", 0))
        ok = answer(params)
        if ok is None:
            require_elicitation(ctx)
            claims = {"tool": params.name, "exp": time.time() + ttl, "amount": AMOUNTS.get(order, 0)}
            question = confirm(f"{params.name} order {order}?")
            return T.InputRequiredResult(input_requests={"confirm": question}, request_state=seal(claims))
        claims = unseal(params.request_state)
        if claims["tool"] != params.name or claims["exp"] < time.time():  # bound to the tool, not the arguments
            raise MCPError(code=-32602, message="Invalid or expired requestState")
        verb = "Refunded" if params.name == "refund" else "Cancelled"
        return text(f"{verb} order {order} ({claims['amount']} EUR)" if ok else f"order {order} left alone")

    return call


def build(ttl: float = TTL) -> Server:  # type: ignore[type-arg]
    return lowlevel(NAME, make_call(ttl), seal=False)


BREAKS: dict[str, set[str]] = {t: {"state-binding"} for t in ("in-process", "http", "stdio")}

if __name__ == "__main__":
    main(build)
