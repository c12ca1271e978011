"""`%%mcp_server --lowlevel`: the seed's Provisioner, plaintext state until the boundary is opted into."""

from __future__ import annotations

from tests.kernel.harness import errors_of, run_cells, text_of

PROVISIONER = """%%mcp_server {name} --lowlevel {flags}
from mcp.server import ServerRequestContext
from mcp.types import (CallToolRequestParams, CallToolResult, ElicitRequest, ElicitRequestFormParams,
    ElicitResult, InputRequiredResult, ListToolsResult, PaginatedRequestParams, TextContent, Tool)

ASK_REGION = ElicitRequest(params=ElicitRequestFormParams(
    message="Which region should the database live in?",
    requested_schema={{"type": "object", "properties": {{"region": {{"type": "string"}}}}, "required": ["region"]}}))

async def on_list_tools(ctx: ServerRequestContext, params: PaginatedRequestParams | None) -> ListToolsResult:
    return ListToolsResult(tools=[Tool(name="provision", description="Provision a database.",
        input_schema={{"type": "object", "properties": {{"name": {{"type": "string"}}}}, "required": ["name"]}})])

async def on_call_tool(ctx: ServerRequestContext, params: CallToolRequestParams) -> CallToolResult | InputRequiredResult:
    answer = (params.input_responses or {{}}).get("region")
    if not isinstance(answer, ElicitResult) or answer.content is None:
        return InputRequiredResult(input_requests={{"region": ASK_REGION}}, request_state="provision-v1")
    name = (params.arguments or {{}})["name"]
    return CallToolResult(content=[TextContent(type="text", text=f"Provisioned {{name!r}} in {{answer.content['region']}}.")])
"""

CALL = (
    'f = await %mcp_call {name} provision name=orders --answers \'{{"region": {{"region": "eu-west-1"}}}}\'\n'
    "print(f.text)\nprint(f.rounds[0].request_state[:3], f.rounds[1].sent_request_state == f.rounds[0].request_state)"
)


def test_lowlevel_server_sends_plaintext_until_sealed() -> None:
    cells = run_cells(
        "%load_ext mcp_lab",
        PROVISIONER.format(name="plain", flags=""),
        CALL.format(name="plain"),
        PROVISIONER.format(name="sealed", flags="--seal"),
        CALL.format(name="sealed"),
        "%mcp_server list",
    )
    assert [errors_of(c) for c in cells] == [[]] * len(cells)
    assert text_of(cells[2]).splitlines() == ["Provisioned 'orders' in eu-west-1.", "pro True"]
    assert text_of(cells[4]).splitlines() == ["Provisioned 'orders' in eu-west-1.", "v1. True"]
    listing = text_of(cells[5])
    assert "plain: lowlevel, plaintext (no boundary), in-process" in listing
    assert "sealed: lowlevel, lab-generated key [" in listing
