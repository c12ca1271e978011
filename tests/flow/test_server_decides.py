"""Calls the server decides (issue 25): a tool missing from `tools/list` is still sent, a tool the SDK client
dropped for an invalid `x-mcp-header` is sent with a note saying why it was dropped, and a result the SDK's
client cannot parse ends the flow with one line saying what the spec expects.

Spec context: 2026-07-28 -- a client may call a tool it has not listed (the conformance suite's
`request-metadata` mock lists none and expects the call); a client drops a tool whose `x-mcp-header` marks
break the rules (Tools > x-mcp-header); a result without `resultType` is a complete result.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import mcp.types as T
import pytest
from mcp.client.session import _CallToolResultAdapter  # private, pinned to mcp==2.3.0: the SDK's own parser
from mcp.server import Server
from pydantic import ValidationError

import mcp_lab
from mcp_lab.flow.legs import refused_result
from mcp_lab.servers.sandbox import sandbox


async def _list(ctx: object, params: object) -> T.ListToolsResult:
    marked = {"type": "object", "properties": {"kg": {"type": "number", "x-mcp-header": "Kg"}}}
    return T.ListToolsResult(tools=[T.Tool(name="weigh", input_schema=marked)])


async def _call(ctx: object, params: T.CallToolRequestParams) -> T.CallToolResult:
    return T.CallToolResult(content=[T.TextContent(type="text", text=f"{params.name} {params.arguments}")])


@pytest.fixture
async def scale() -> AsyncIterator[str]:
    sandbox.add(Server("scale", on_list_tools=_list, on_call_tool=_call), name="scale")
    yield "scale"
    await sandbox.stop_all()


async def test_a_tool_the_sdk_dropped_is_sent_and_the_flow_says_why(scale: str) -> None:
    flow = await mcp_lab.call(scale, "weigh", {"kg": 2.5})
    assert flow.status == "done" and flow.text == "weigh {'kg': 2.5}"
    (note,) = flow.notes
    assert note.startswith("the SDK client dropped 'weigh' from its tool listing: invalid x-mcp-header (")
    assert "only permitted on integer/string/boolean properties (got 'number')" in note
    assert "sent anyway" in note


async def test_a_tool_nobody_listed_is_sent_and_the_server_answers(scale: str) -> None:
    flow = await mcp_lab.call(scale, "tare", {})
    assert flow.status == "done" and flow.text == "tare None"  # this server answers any name
    assert flow.notes == ["'tare' is not in the tools/list of 'scale' (tools: none): sent anyway, the server decides"]


def test_a_result_the_sdk_cannot_parse_is_one_line_with_what_the_spec_expects() -> None:
    with pytest.raises(ValidationError) as raised:
        _CallToolResultAdapter.validate_python({}, by_name=False)  # no resultType, no content
    line = refused_result(raised.value)
    assert line == (
        "the SDK client refused the server's result: it lacks content; the spec reads a result without "
        "resultType as complete (resultType: 'complete'), and a complete result must carry those fields"
    )
    assert _CallToolResultAdapter.validate_python({"content": []}, by_name=False).result_type == "complete"
