"""A Python SDK (`mcp` 2.3.0) server with the fixture tools the conformance suite's 2026-07-28 server scenarios
call, written the way the SDK's documentation shows handmade multi round-trip tools: each returns an
`InputRequiredResult` until the retry carries the answer it needs, keeping its state in `request_state`
(which `MCPServer` seals with AES-GCM before it leaves).

`python -m tests.interop.python_server` serves it over Streamable HTTP on 127.0.0.1 (a free port) and prints
`listening on http://127.0.0.1:PORT/mcp`. Like the SDK documentation's handmade tools, the elicitation tools
ask whatever the client declared -- `test_input_required_result_capabilities` alone reads the declared
capabilities -- which is what the audit's `capabilities` rule catches and the suite does not score.
"""

from __future__ import annotations

import json
import socket
import sys
from typing import Annotated, Any

import mcp.types as T
from mcp.server.mcpserver import Context, MCPServer
from pydantic import Field

mcp = MCPServer("py-fixture")

NAME_SCHEMA = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
CONFIRM_SCHEMA = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}


def _elicit(message: str, schema: dict[str, Any] = NAME_SCHEMA) -> T.ElicitRequest:
    return T.ElicitRequest(params=T.ElicitRequestFormParams(message=message, requested_schema=schema))


def _sample(text: str, tokens: int = 100) -> T.CreateMessageRequest:
    message = T.SamplingMessage(role="user", content=T.TextContent(type="text", text=text))
    return T.CreateMessageRequest(params=T.CreateMessageRequestParams(messages=[message], max_tokens=tokens))


def _accepted(ctx: Context, key: str) -> dict[str, Any] | None:
    answer = (ctx.input_responses or {}).get(key)
    if isinstance(answer, T.ElicitResult) and answer.action == "accept":
        return dict(answer.content or {})
    return None


def _state(ctx: Context) -> dict[str, Any]:
    try:
        value = json.loads(ctx.request_state or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


@mcp.tool()
async def test_input_required_result_elicitation(ctx: Context) -> str | T.InputRequiredResult:
    """Asks for your name with a form."""
    answer = _accepted(ctx, "user_name")
    if answer is None or not isinstance(answer.get("name"), str):
        return T.InputRequiredResult(input_requests={"user_name": _elicit("What is your name?")})
    return f"Hello, {answer['name']}!"


@mcp.tool()
async def test_input_required_result_sampling(ctx: Context) -> str | T.InputRequiredResult:
    """Asks your model a question."""
    answer = (ctx.input_responses or {}).get("capital_question")
    if not isinstance(answer, T.CreateMessageResult):
        return T.InputRequiredResult(input_requests={"capital_question": _sample("What is the capital of France?")})
    content = answer.content
    return f"Sampling response: {content.text if isinstance(content, T.TextContent) else content}"


@mcp.tool()
async def test_input_required_result_list_roots(ctx: Context) -> str | T.InputRequiredResult:
    """Asks for your roots."""
    answer = (ctx.input_responses or {}).get("client_roots")
    if not isinstance(answer, T.ListRootsResult):
        return T.InputRequiredResult(input_requests={"client_roots": T.ListRootsRequest()})
    return f"Client exposed {len(answer.roots)} root(s): {', '.join(str(r.uri) for r in answer.roots)}"


@mcp.tool()
async def test_input_required_result_request_state(ctx: Context) -> str | T.InputRequiredResult:
    """Keeps its state in requestState while it asks."""
    if _accepted(ctx, "confirm") is None:
        state = json.dumps({"tool": "request_state"})
        return T.InputRequiredResult(
            input_requests={"confirm": _elicit("Please confirm", CONFIRM_SCHEMA)}, request_state=state
        )
    return "state-ok" if _state(ctx).get("tool") == "request_state" else "state missing"


@mcp.tool()
async def test_input_required_result_multiple_inputs(ctx: Context) -> str | T.InputRequiredResult:
    """Asks a form, your model and your roots at once."""
    responses = ctx.input_responses or {}
    name = _accepted(ctx, "user_name")
    greeting, roots = responses.get("greeting"), responses.get("client_roots")
    if name is None or not isinstance(greeting, T.CreateMessageResult) or not isinstance(roots, T.ListRootsResult):
        return T.InputRequiredResult(
            input_requests={
                "user_name": _elicit("What is your name?"),
                "greeting": _sample("Generate a greeting", 50),
                "client_roots": T.ListRootsRequest(),
            },
            request_state=json.dumps({"tool": "multiple_inputs"}),
        )
    text = greeting.content.text if isinstance(greeting.content, T.TextContent) else "hello"
    return f"{text} {name.get('name')} ({len(roots.roots)} root(s))"


@mcp.tool()
async def test_input_required_result_multi_round(ctx: Context) -> str | T.InputRequiredResult:
    """Two rounds of questions; the round number lives in requestState."""
    state = _state(ctx)
    step = state.get("round", 0) if state.get("tool") == "multi_round" else 0
    if step == 0:
        return T.InputRequiredResult(
            input_requests={"step1": _elicit("Step 1: What is your name?")},
            request_state=json.dumps({"tool": "multi_round", "round": 1}),
        )
    if step == 1:
        name = (_accepted(ctx, "step1") or {}).get("name", "unknown")
        color = {"type": "object", "properties": {"color": {"type": "string"}}, "required": ["color"]}
        return T.InputRequiredResult(
            input_requests={"step2": _elicit("Step 2: What is your favorite color?", color)},
            request_state=json.dumps({"tool": "multi_round", "round": 2, "name": name}),
        )
    return f"Multi-round complete: {state.get('name')} likes {(_accepted(ctx, 'step2') or {}).get('color')}"


@mcp.tool()
async def test_input_required_result_tampered_state(ctx: Context) -> str | T.InputRequiredResult:
    """Completes only with the requestState it sealed (the SDK refuses any other)."""
    if ctx.request_state is not None and _accepted(ctx, "confirm") is not None:
        return "integrity-ok"
    return T.InputRequiredResult(
        input_requests={"confirm": _elicit("Please confirm", CONFIRM_SCHEMA)},
        request_state=json.dumps({"tool": "tampered_state"}),
    )


@mcp.tool()
async def test_input_required_result_capabilities(ctx: Context) -> str | T.InputRequiredResult:
    """Asks only for what the client declared it can answer."""
    if ctx.input_responses is not None:
        return "Capability-aware input requests fulfilled"
    declared = ctx.client_capabilities
    wanted: dict[str, T.InputRequest] = {}
    if declared is not None and declared.elicitation is not None:
        wanted["user_name"] = _elicit("What is your name?")
    if declared is not None and declared.sampling is not None:
        wanted["greeting"] = _sample("Generate a short greeting", 50)
    if declared is not None and declared.roots is not None:
        wanted["client_roots"] = T.ListRootsRequest()
    if not wanted:
        return "No declared client capability supports an input request"
    return T.InputRequiredResult(input_requests=wanted)


@mcp.tool()
def test_x_mcp_header(
    region: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Region"})], level: int = 0
) -> str:
    """Today's weather; gateways route on the Region header."""
    return f"region={region}"


@mcp.tool()
async def test_missing_capability(ctx: Context) -> str | T.InputRequiredResult:
    """Asks your model (hand-made, as the SDK docs show: it does not read the declared capabilities)."""
    if (ctx.input_responses or {}).get("llm_answer") is not None:
        return "sampled"
    return T.InputRequiredResult(input_requests={"llm_answer": _sample("Reply with one word", 16)})


@mcp.tool()
async def test_streaming_elicitation() -> str:
    """Answers with a result and nothing else on the stream."""
    return "result only"


@mcp.tool()
async def test_logging_tool(ctx: Context) -> str:
    """Logs through the request."""
    await ctx.info("test_logging_tool ran")
    return "logged"


@mcp.prompt()
async def test_input_required_result_prompt(ctx: Context) -> str | T.InputRequiredResult:
    """A prompt that asks for its context first."""
    answer = _accepted(ctx, "user_context")
    if answer is None:
        schema = {"type": "object", "properties": {"context": {"type": "string"}}, "required": ["context"]}
        return T.InputRequiredResult(
            input_requests={"user_context": _elicit("What context should the prompt use?", schema)}
        )
    return f"Use the following context: {answer.get('context')}"


def main() -> None:
    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(mcp.streamable_http_app(), log_level="warning")
    server = uvicorn.Server(config)
    print(f"listening on http://127.0.0.1:{port}/mcp", flush=True)
    server.run(sockets=[sock])


if __name__ == "__main__":
    main()
