"""A well-behaved lowlevel Server: the shop's handlers plus the SDK's RequestStateBoundary (which the lowlevel
tier lacks by default), and `get_tool_input_schema` so its header parameters are checked."""

from __future__ import annotations

from mcp.server import Server

from tests.audit.servers.common import CALLS, TTL, lowlevel, main, shop_call

NAME = "good-lowlevel"
__all__ = ["BREAKS", "CALLS", "NAME", "build"]


def build(ttl: float = TTL) -> Server:  # type: ignore[type-arg]
    return lowlevel(NAME, shop_call, ttl=ttl)


BREAKS: dict[str, set[str]] = {"in-process": set(), "http": set(), "stdio": set()}

if __name__ == "__main__":
    main(build)
