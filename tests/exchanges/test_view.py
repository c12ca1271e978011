"""HTTP exchange views, drawn from exchanges a real served server answered: stable text (Mcp-* headers sorted,
sentinels decoded, no ports or ids, the real status), and HTML that highlights the Mcp-* headers."""

from __future__ import annotations

import mcp_lab
from mcp_lab.exchanges.record import HttpExchange
from mcp_lab.exchanges.view import exchange_html, exchange_lines, mcp_headers
from mcp_lab.servers.lab_server import LabServer


async def _call(region: str) -> HttpExchange:
    flow = await mcp_lab.call("shop", "forecast", {"region": region})
    assert flow.status == "done", flow.summary()
    return HttpExchange.model_validate(flow.rounds[0].http[-1])


async def test_text_lists_mcp_headers_sorted_without_ports(served_shop: LabServer) -> None:
    exchange = await _call("São Paulo")
    lines = exchange_lines(exchange, indent="")
    assert lines[0] == "HTTP POST /mcp tools/call -> 200"
    assert lines[1] == (
        "  mcp-method: tools/call | mcp-name: forecast | "
        'Mcp-Param-Region: =?base64?U8OjbyBQYXVsbw==?= (decoded "São Paulo") | mcp-protocol-version: 2026-07-28'
    )
    assert lines[2] == (
        '  region="São Paulo" -> Mcp-Param-Region: =?base64?U8OjbyBQYXVsbw==?= (decoded "São Paulo") [ok]'
    )
    assert str(served_shop.http.port if served_shop.http else "") not in "\n".join(lines)
    assert next(k for k, _ in mcp_headers(exchange.request.headers)) == "mcp-method"


async def test_html_highlights_mcp_headers_and_decodes_beside_the_raw_value(served_shop: LabServer) -> None:
    page = exchange_html(await _call("São Paulo"))
    assert "<tr class='mcp-lab-mcp'><th><code>Mcp-Param-Region</code></th>" in page
    assert "<tr><th><code>host</code></th>" in page.lower()
    assert "=?base64?U8OjbyBQYXVsbw==?=</code> &larr; decodes to <code>&quot;São Paulo&quot;</code>" in page
    assert "200" in page and "✓ ok" in page


async def test_a_rejected_call_shows_its_status_and_jsonrpc_error(served_shop: LabServer) -> None:
    lab = await mcp_lab.mismatch_lab("shop", "forecast")
    mismatch = lab.record().probes[1]
    head = exchange_lines(mismatch.exchange, indent="")[0]
    assert head.startswith("HTTP POST /mcp tools/call -> 400 error -32020 Mcp-Param-Region header does not match")
