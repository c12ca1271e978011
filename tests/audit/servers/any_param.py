"""Flaw: the server accepts any Mcp-Param-* value -- its schema lookup finds no schema, so the SDK skips the
header check (fail-open), and a gateway routing on the header can be told one region while the tool runs in
another. Only Streamable HTTP carries headers, so only there is it broken."""

from __future__ import annotations

from mcp.server import Server

from tests.audit.servers.common import CALLS, TTL, lowlevel, main, shop_call

NAME = "any-param"
__all__ = ["BREAKS", "CALLS", "NAME", "build"]


def build(ttl: float = TTL) -> Server:  # type: ignore[type-arg]
    return lowlevel(NAME, shop_call, ttl=ttl, get_tool_input_schema=lambda name: None)


BREAKS: dict[str, set[str]] = {
    "in-process": set(),
    "http": {"header-mismatch", "header-missing"},
    "stdio": set(),
}

if __name__ == "__main__":
    main(build)
