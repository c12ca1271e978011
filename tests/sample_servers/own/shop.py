"""A travel shop, written as a user writes an MCPServer: resolvers, a header parameter, structured output.

python -m tests.sample_servers.own.shop              # stdio
python -m tests.sample_servers.own.shop --http 8000  # Streamable HTTP on 127.0.0.1:8000/mcp
"""

from __future__ import annotations

import argparse
from typing import Annotated

from mcp.server.mcpserver import Context, Elicit, ListRoots, MCPServer, Resolve, Sample
from mcp.types import (
    CreateMessageResult,
    ElicitRequest,
    ElicitRequestURLParams,
    ElicitResult,
    InputRequiredResult,
    ListRootsResult,
    ModelHint,
    ModelPreferences,
    SamplingMessage,
    TextContent,
)
from pydantic import BaseModel, Field

mcp = MCPServer("shop", log_level="WARNING")


class Forecast(BaseModel):
    region: str
    days: int
    high: int
    summary: str


@mcp.tool()
def forecast(region: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Region"})], days: int = 3) -> Forecast:
    """The weather for the next days; gateways route on the Region header."""
    return Forecast(region=region, days=days, high=20 + days, summary=f"{days} sunny days in {region}")


class Traveller(BaseModel):
    name: str
    seats: int = Field(ge=1, le=9)


async def ask_traveller(city: str) -> Elicit[Traveller]:
    return Elicit(f"Who travels to {city}?", Traveller)


@mcp.tool()
async def book(
    city: Annotated[str, Field(json_schema_extra={"x-mcp-header": "City"})],
    traveller: Annotated[Traveller, Resolve(ask_traveller)],
) -> str:
    """Book seats; the client is asked who travels."""
    return f"Booked {traveller.seats} seat(s) to {city} for {traveller.name}"


def write_poem(topic: str) -> Sample:
    prompt = SamplingMessage(role="user", content=TextContent(type="text", text=f"Write a haiku about {topic}."))
    return Sample(
        [prompt],
        max_tokens=60,
        system_prompt="You are a terse poet.",
        model_preferences=ModelPreferences(hints=[ModelHint(name="haiku")], intelligence_priority=0.7),
    )


@mcp.tool()
async def poem(topic: str, draft: Annotated[CreateMessageResult, Resolve(write_poem)]) -> str:
    """A poem from the client's model."""
    text = draft.content.text if isinstance(draft.content, TextContent) else ""
    return f"{topic}: {text}"


def project_roots() -> ListRoots:
    return ListRoots()


@mcp.tool()
async def workspace(roots: Annotated[ListRootsResult, Resolve(project_roots)]) -> str:
    """Which folders the client lets the shop see."""
    return "roots: " + ", ".join(str(root.uri) for root in roots.roots)


@mcp.tool()
async def signin(account: str, ctx: Context) -> str | InputRequiredResult:
    """Sign in out of band: the client is sent to a URL (URL-mode elicitation)."""
    answer = (ctx.input_responses or {}).get("signin")
    if not isinstance(answer, ElicitResult):
        url = f"https://auth.example.com/connect?account={account}"
        question = ElicitRequestURLParams(message=f"Sign in as {account}", url=url)
        return InputRequiredResult(input_requests={"signin": ElicitRequest(params=question)}, request_state="signin")
    return f"{account}: {answer.action}"


class Consent(BaseModel):
    ok: bool


@mcp.tool()
async def newsletter(email: str, ctx: Context) -> str:
    """Subscribe; asks for consent the 2025-11-25 way (ctx.elicit, over the back channel)."""
    answer = await ctx.elicit(f"Send the shop's news to {email}?", Consent)
    agreed = answer.data.ok if answer.action == "accept" else False
    return f"{email}: {'subscribed' if agreed else 'not subscribed'}"


def main() -> None:
    parser = argparse.ArgumentParser(description="the travel shop MCP server")
    parser.add_argument("--http", type=int, metavar="PORT", help="serve Streamable HTTP on 127.0.0.1:PORT")
    args = parser.parse_args()
    if args.http is None:
        mcp.run()
    else:
        mcp.run("streamable-http", host="127.0.0.1", port=args.http)


if __name__ == "__main__":
    main()
