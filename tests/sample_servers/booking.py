"""A small booking server outside the kernel, for connection and replay tests, in two variants.

Variant A asks "Which region for CITY?" and answers "Booked CITY in REGION"; variant B rewords the question
and changes the result, so a replay of a recording made against A reports exactly those two differences.
`python tests/sample_servers/booking.py [--variant B]` serves it over stdio (its pid goes to
stderr first, so tests can check it is reaped); tests import `build()` to serve it over HTTP.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Annotated

import mcp.types as T
from mcp.server.mcpserver import Context, Elicit, MCPServer, Resolve
from pydantic import BaseModel

VARIANTS: dict[int, str] = {}


class Region(BaseModel):
    region: str


async def ask_region(city: str, ctx: Context) -> Elicit[Region]:
    if VARIANTS.get(id(ctx.mcp_server), "A") == "B":
        return Elicit(f"In which region is {city}?", Region)
    return Elicit(f"Which region for {city}?", Region)


def _pick(message: str) -> T.ElicitRequest:
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    return T.ElicitRequest(params=T.ElicitRequestFormParams(message=message, requested_schema=schema))


def build(variant: str = "A") -> MCPServer:
    mcp = MCPServer("booking", log_level="WARNING")
    VARIANTS[id(mcp)] = variant

    @mcp.tool()
    async def book(city: str, region: Annotated[Region, Resolve(ask_region)]) -> str:
        if variant == "B":
            return f"Booked {city} ({region.region})"
        return f"Booked {city} in {region.region}"

    @mcp.tool()
    def echo(text: str) -> str:
        print(f"echo asked for {text!r}", file=sys.stderr, flush=True)  # shows in the lab's stderr capture
        return text

    @mcp.tool()
    async def handmade(x: int, ctx: Context) -> str | T.InputRequiredResult:
        responses = ctx.input_responses
        if responses is None:
            return T.InputRequiredResult(input_requests={"q1": _pick("pick a number")}, request_state=json.dumps({}))
        first = responses.get("q1")
        if isinstance(first, T.ElicitResult) and first.content is not None:
            n = first.content["n"]
            if variant == "B":  # B asks a second question, carrying the first answer in its state
                state = json.dumps({"n": n})
                return T.InputRequiredResult(input_requests={"q2": _pick("and another?")}, request_state=state)
        else:
            n = json.loads(ctx.request_state or "{}").get("n")
        return f"x={x} n={n}"

    @mcp.prompt()
    async def briefing(ctx: Context) -> str | T.InputRequiredResult:
        answer = (ctx.input_responses or {}).get("audience")
        if not isinstance(answer, T.ElicitResult) or answer.content is None:
            return T.InputRequiredResult(input_requests={"audience": _pick("how many readers?")})
        return f"Write a briefing for {answer.content['n']}."

    @mcp.resource("doc://{docid}")
    async def doc(docid: str, ctx: Context) -> str | T.InputRequiredResult:
        answer = (ctx.input_responses or {}).get("why")
        if not isinstance(answer, T.ElicitResult) or answer.content is None:
            return T.InputRequiredResult(input_requests={"why": _pick("why do you need it?")})
        return f"doc {docid} for reason {answer.content['n']}"

    return mcp


def command(variant: str = "A") -> list[str]:
    """How a test starts this server over stdio."""
    return [sys.executable, __file__, "--variant", variant]


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--variant", default="A", choices=["A", "B"])
    args = parser.parse_args()
    print(f"booking server variant {args.variant}, pid {os.getpid()}", file=sys.stderr, flush=True)
    build(args.variant).run(transport="stdio")
