"""`%mcp_audit` in a real ipykernel: a server defined in a cell, a call recorded, the audit awaited and shown.

Spec context: the 2026-07-28 rules `mcp_lab.audit` checks, run from a notebook while the server is built.
"""

from __future__ import annotations

from tests.kernel.harness import errors_of, run_cells, text_of

SERVER = """%%mcp_server shop --lowlevel
import json
import mcp.types as T
from mcp import MCPError

ASK = T.ElicitRequest(params=T.ElicitRequestFormParams(message="Refund?",
    requested_schema={"type": "object", "properties": {"ok": {"type": "boolean"}}}))

async def on_list_tools(ctx, params):
    return T.ListToolsResult(tools=[T.Tool(name="refund", input_schema={"type": "object",
        "properties": {"order": {"type": "integer"}}})])

async def on_call_tool(ctx, params):
    if not params.input_responses:
        return T.InputRequiredResult(input_requests={"ok": ASK}, request_state=json.dumps({"amount": 25}))
    try:
        amount = json.loads(params.request_state)["amount"]
    except (TypeError, ValueError, KeyError):
        raise MCPError(code=-32602, message="unreadable requestState") from None
    return T.CallToolResult(content=[T.TextContent(type="text", text=f"Refunded {amount} EUR")])"""


def test_mcp_audit_in_a_kernel() -> None:
    cells = run_cells(
        "%load_ext mcp_lab",
        SERVER,
        """f = await %mcp_call shop refund order=1 --answers '{"ok": {"ok": true}}'\nprint(f.text)""",
        "report = await %mcp_audit shop --skip state-lifetime,no-affinity\nprint(report.exit_code, report.failed())",
        "report",
        "%mcp_audit shop --only nonsense",
        timeout=120,
    )
    assert [errors_of(c) for c in cells[:5]] == [[]] * 5, [text_of(c) for c in cells]
    assert text_of(cells[2]).strip() == "Refunded 25 EUR"
    assert text_of(cells[3]).strip() == "1 ['capabilities', 'state-integrity']"
    shown = cells[4]["outputs"][0]["data"]
    assert "application/vnd.mcp-lab.audit+json" in shown
    assert shown["text/plain"].startswith("audit of 'shop' (in-process, 2026-07-28): ")
    assert 'readable plain JSON: {"amount": 25}' in shown["text/plain"]
    error = errors_of(cells[5])
    assert error and error[0]["ename"] == "LabError" and "no check named 'nonsense'" in error[0]["evalue"]
