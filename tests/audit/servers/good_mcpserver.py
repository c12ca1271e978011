"""A well-behaved MCPServer: resolvers ask (sealed state, -32021 for a client that cannot answer), a header
parameter on `stock`, and a prompt and a template resource that return their own InputRequiredResult -- asking
only a client that declared elicitation, which the SDK does not check for them. It must keep every rule the
audit can check."""

from __future__ import annotations

from typing import Annotated, Any

import mcp.types as T
from mcp import MCPError
from mcp.server.mcpserver import Context, Elicit, MCPServer, RequestStateSecurity, Resolve
from mcp_types import MISSING_REQUIRED_CLIENT_CAPABILITY
from pydantic import BaseModel, Field

from tests.audit.servers.common import AMOUNTS, KEY, TTL, Call, main

NAME = "good-mcpserver"


class Confirm(BaseModel):
    ok: bool


async def confirm(order: int) -> Elicit[Confirm]:
    return Elicit(f"Go ahead with order {order}?", Confirm)


def build(ttl: float = TTL) -> MCPServer:
    mcp = MCPServer(NAME, log_level="WARNING", request_state_security=RequestStateSecurity(keys=[KEY], ttl=ttl))

    @mcp.tool()
    async def refund(order: int, ok: Annotated[Confirm, Resolve(confirm)]) -> str:
        return f"Refunded order {order} ({AMOUNTS.get(order, 0)} EUR)" if ok.ok else f"order {order} left alone"

    @mcp.tool()
    async def cancel(order: int, ok: Annotated[Confirm, Resolve(confirm)]) -> str:
        return f"Cancelled order {order}" if ok.ok else f"order {order} left alone"

    @mcp.tool()
    def stock(title: str, region: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Region"})]) -> str:
        return f"{title}: 3 copies in {region}"

    @mcp.prompt()
    async def briefing(topic: str, ctx: Context) -> str | T.InputRequiredResult:
        answer = (ctx.input_responses or {}).get("audience")
        if not isinstance(answer, T.ElicitResult) or answer.content is None:
            return ask(ctx, "audience", f"Who is the briefing on {topic} for?", topic)
        return f"Write a briefing on {ctx.request_state} for {answer.content['value']}."

    @mcp.resource("doc://{docid}")
    async def doc(docid: str, ctx: Context) -> str | T.InputRequiredResult:
        answer = (ctx.input_responses or {}).get("reason")
        if not isinstance(answer, T.ElicitResult) or answer.content is None:
            return ask(ctx, "reason", f"Why do you need document {docid}?", docid)
        return f"document {ctx.request_state}, read for {answer.content['value']}"

    return mcp


def ask(ctx: Context, key: str, message: str, state: str) -> T.InputRequiredResult:
    """A hand-made question, for a client that declared elicitation only (the SDK checks this for resolvers)."""
    capabilities = ctx.client_capabilities
    if capabilities is None or capabilities.elicitation is None:
        raise MCPError(code=MISSING_REQUIRED_CLIENT_CAPABILITY, message=f"declare elicitation to be asked {key!r}")
    schema = {"type": "object", "properties": {"value": {"type": "string"}}, "required": ["value"]}
    question = T.ElicitRequest(params=T.ElicitRequestFormParams(message=message, requested_schema=schema))
    return T.InputRequiredResult(input_requests={key: question}, request_state=state)


YES: dict[str, Any] = {"confirm": {"ok": True}}
CALLS = [
    Call("tools/call", "refund", {"order": 1}, YES),
    Call("tools/call", "refund", {"order": 2}, YES),
    Call("tools/call", "cancel", {"order": 1}, YES),
    Call("tools/call", "stock", {"title": "Dune", "region": "eu-west"}),
    Call("prompts/get", "briefing", {"topic": "refunds"}, {"audience": {"value": "the board"}}),
    Call("resources/read", "doc://42", {}, {"reason": {"value": "the audit"}}),
]
BREAKS: dict[str, set[str]] = {"in-process": set(), "http": set(), "stdio": set()}

if __name__ == "__main__":
    main(build)
