"""A help desk, written as a user writes a lowlevel Server: hand-made input requests, a header parameter.

The server seals its own request_state (the SDK's `RequestStateBoundary`, as its docs advise for a lowlevel
server) and answers `get_tool_input_schema`, so header checks need no internal listing.

    python -m tests.sample_servers.own.desk              # stdio
    python -m tests.sample_servers.own.desk --http 8000  # Streamable HTTP on 127.0.0.1:8000/mcp
"""

from __future__ import annotations

import argparse
import json
from typing import Any

import anyio
import mcp.types as T
from mcp.server import Server, ServerRequestContext
from mcp.server.request_state import RequestStateBoundary, RequestStateSecurity
from mcp.server.stdio import stdio_server

TOOLS = [
    T.Tool(
        name="ticket",
        description="Open a ticket; the desk asks for details and drafts a summary with the client's model.",
        input_schema={
            "type": "object",
            "properties": {
                "title": {"type": "string"},
                "priority": {"type": "string", "enum": ["low", "high"], "x-mcp-header": "Priority"},
            },
            "required": ["title", "priority"],
        },
        output_schema={
            "type": "object",
            "properties": {"ticket": {"type": "string"}, "severity": {"type": "string"}, "summary": {"type": "string"}},
            "required": ["ticket", "severity", "summary"],
        },
    ),
    T.Tool(
        name="login",
        description="Sign in to the desk out of band (URL-mode elicitation).",
        input_schema={"type": "object", "properties": {"account": {"type": "string"}}, "required": ["account"]},
    ),
]

DETAILS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "severity": {"type": "string", "enum": ["minor", "major"]},
        "component": {"type": "string", "title": "Component"},
    },
    "required": ["severity"],
}


async def list_tools(ctx: ServerRequestContext, params: T.PaginatedRequestParams | None) -> T.ListToolsResult:
    return T.ListToolsResult(tools=TOOLS)


def input_schema(name: str) -> dict[str, Any] | None:
    return next((dict(tool.input_schema) for tool in TOOLS if tool.name == name), None)


def _text(result: T.CreateMessageResult | None) -> str:
    return result.content.text if result is not None and isinstance(result.content, T.TextContent) else ""


async def ticket(args: dict[str, Any], params: T.CallToolRequestParams) -> T.CallToolResult | T.InputRequiredResult:
    answers = params.input_responses or {}
    details, summary = answers.get("details"), answers.get("summary")
    if not isinstance(details, T.ElicitResult) or not isinstance(summary, T.CreateMessageResult):
        ask_details = T.ElicitRequestFormParams(
            message=f"Details for {args['title']!r}?", requested_schema=DETAILS_SCHEMA
        )
        draft = T.CreateMessageRequestParams(
            messages=[
                T.SamplingMessage(
                    role="user", content=T.TextContent(type="text", text=f"Summarise the ticket {args['title']!r}.")
                )
            ],
            system_prompt="You write one-line ticket summaries.",
            max_tokens=40,
        )
        return T.InputRequiredResult(
            input_requests={
                "details": T.ElicitRequest(params=ask_details),
                "summary": T.CreateMessageRequest(params=draft),
            },
            request_state=json.dumps({"title": args["title"]}),
        )
    severity = (details.content or {}).get("severity", "none") if details.action == "accept" else details.action
    opened = {"ticket": f"T-{len(args['title'])}", "severity": str(severity), "summary": _text(summary)}
    text = f"Opened {opened['ticket']}: {opened['summary']}"
    return T.CallToolResult(content=[T.TextContent(type="text", text=text)], structured_content=opened)


async def login(args: dict[str, Any], params: T.CallToolRequestParams) -> T.CallToolResult | T.InputRequiredResult:
    answer = (params.input_responses or {}).get("login")
    if not isinstance(answer, T.ElicitResult):
        url = f"https://sso.example.com/desk?account={args['account']}"
        question = T.ElicitRequestURLParams(message=f"Sign in to the desk as {args['account']}", url=url)
        return T.InputRequiredResult(input_requests={"login": T.ElicitRequest(params=question)}, request_state="login")
    return T.CallToolResult(content=[T.TextContent(type="text", text=f"{args['account']}: {answer.action}")])


async def call_tool(
    ctx: ServerRequestContext, params: T.CallToolRequestParams
) -> T.CallToolResult | T.InputRequiredResult:
    handlers = {"ticket": ticket, "login": login}
    if params.name not in handlers:
        return T.CallToolResult(content=[T.TextContent(type="text", text=f"no tool {params.name}")], is_error=True)
    return await handlers[params.name](dict(params.arguments or {}), params)


server = Server("desk", on_list_tools=list_tools, on_call_tool=call_tool, get_tool_input_schema=input_schema)
server.middleware.append(RequestStateBoundary(RequestStateSecurity.ephemeral(), default_audience="desk"))


async def serve_stdio() -> None:
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def main() -> None:
    parser = argparse.ArgumentParser(description="the help desk MCP server (lowlevel)")
    parser.add_argument("--http", type=int, metavar="PORT", help="serve Streamable HTTP on 127.0.0.1:PORT")
    args = parser.parse_args()
    if args.http is None:
        anyio.run(serve_stdio)
    else:
        import uvicorn

        uvicorn.run(server.streamable_http_app(host="127.0.0.1"), host="127.0.0.1", port=args.http, log_level="warning")


if __name__ == "__main__":
    main()
