"""Header table and lab views: text for nbval, HTML for people, vendor JSON for the labextension."""

from __future__ import annotations

from mcp_lab.headers.analysis import header_table_from_tools
from mcp_lab.headers.record import HeaderTableRecord
from mcp_lab.headers.view import HEADERS_MIME

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
    assert HeaderTableRecord.model_validate(bundle[HEADERS_MIME]).tools[0].dropped
    text = bundle["text/plain"].splitlines()
    assert text[0] == "Header parameters of 'shop'"
    assert text[1].startswith("  bad: INVALID -- property 'amount'") and text[1].endswith("drop this whole tool")
    assert text[2].startswith('    region -> Mcp-Param-Region (string): "eu-west" -> eu-west (plain)')
    assert text[3].startswith("    amount -> Mcp-Param-Amount (number): invalid: property 'amount'")
    assert text[4] == "  none: no header parameters"
    page = bundle["text/html"]
    assert "<td class='mcp-lab-mcp'><code>Mcp-Param-Region</code></td>" in page
    assert "2026-07-28 clients drop this whole tool" in page
