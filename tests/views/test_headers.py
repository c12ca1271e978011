"""Header table and lab views: text for nbval, HTML for people, vendor JSON for the labextension."""

from __future__ import annotations

from mcp_lab.inspect.header_labs import MismatchLab, Probe, SchemaLookupLab
from mcp_lab.inspect.headers import header_table_from_tools
from mcp_lab.views.headers import HEADERS_MIME

SCHEMA = {
    "type": "object",
    "properties": {
        "region": {"type": "string", "x-mcp-header": "Region"},
        "amount": {"type": "number", "x-mcp-header": "Amount"},
    },
}


def test_header_table_bundle() -> None:
    table = header_table_from_tools(
        "shop", [{"name": "bad", "inputSchema": SCHEMA}, {"name": "none", "inputSchema": {}}]
    )
    bundle = table._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html", HEADERS_MIME}
    assert bundle[HEADERS_MIME] == table.to_dict()
    text = bundle["text/plain"].splitlines()
    assert text[0] == "Header parameters of 'shop'"
    assert text[1].startswith("  bad: INVALID -- property 'amount'") and text[1].endswith("drop this whole tool")
    assert text[2].startswith('    region -> Mcp-Param-Region (string): "eu-west" -> eu-west (plain)')
    assert text[3].startswith("    amount -> Mcp-Param-Amount (number): invalid: property 'amount'")
    assert text[4] == "  none: no header parameters"
    page = bundle["text/html"]
    assert "<td class='mcp-lab-mcp'><code>Mcp-Param-Region</code></td>" in page
    assert "2026-07-28 clients drop this whole tool" in page


def test_lab_bundles_carry_plain_data() -> None:
    exchange = {
        "method": "POST",
        "path": "/mcp",
        "rpc": "tools/call",
        "request": {"headers": [["Mcp-Param-Region", "x"]]},
        "response": {"status": 400, "body": {"error": {"code": -32020, "message": "bad"}}},
    }
    probe = Probe.from_exchange("mismatch", "disagrees", exchange)
    assert (probe.status, probe.code, probe.message, probe.accepted) == (400, -32020, "bad", False)
    lab = MismatchLab(server="s", tool="t", argument="region", header="Mcp-Param-Region", arguments={}, probes=[probe])
    bundle = lab._repr_mimebundle_()
    assert "  mismatch: disagrees -> 400 -32020 bad" in bundle["text/plain"]
    assert bundle["application/vnd.mcp-lab.header-mismatch+json"]["probes"][0]["accepted"] is False
    lookups = SchemaLookupLab(
        calls=2, tool="t", runs=[{"get_tool_input_schema": False, "list_calls": 1, "tool_calls": 2, "on_list_tools": 3}]
    )
    assert "on_list_tools ran 3 times" in lookups._repr_mimebundle_()["text/plain"]
