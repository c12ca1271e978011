"""Flaw: tools/list answers with an InputRequiredResult ("who are you?") -- a method that may never ask.

Written as a middleware that answers tools/list itself, as a server in another language might. Its tools
work (when called without listing); with no listing, the annotation check has nothing to read."""

from __future__ import annotations

from typing import Any

from mcp.server import Server

from tests.audit.servers.common import CALLS, TTL, confirm, lowlevel, main, shop_call

NAME = "ir-on-list"
__all__ = ["BREAKS", "CALLS", "NAME", "build"]


async def ask_before_listing(ctx: Any, call_next: Any) -> Any:
    if ctx.method == "tools/list":
        question = confirm("Which team's tools?").model_dump(by_alias=True, mode="json", exclude_none=True)
        return {"resultType": "input_required", "inputRequests": {"team": question}}
    return await call_next(ctx)


def build(ttl: float = TTL) -> Server:  # type: ignore[type-arg]
    server = lowlevel(NAME, shop_call, ttl=ttl)
    server.middleware.insert(0, ask_before_listing)
    return server


BREAKS: dict[str, set[str]] = {t: {"ir-methods"} for t in ("in-process", "http", "stdio")}

if __name__ == "__main__":
    main(build)
