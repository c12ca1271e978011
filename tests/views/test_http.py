"""HTTP exchange views: stable text (Mcp-* headers sorted, sentinels decoded, no ids), highlighted HTML."""

from __future__ import annotations

from typing import Any

from mcp_lab.views.http import exchange_html, exchange_lines, mcp_headers

EXCHANGE: dict[str, Any] = {
    "method": "POST",
    "path": "/mcp",
    "rpc": "tools/call",
    "request": {
        "headers": [
            ["host", "127.0.0.1:5555"],
            ["Mcp-Param-Region", "=?base64?U8OjbyBQYXVsbw==?="],
            ["mcp-method", "tools/call"],
            ["mcp-session-id", "abc123"],
            ["MCP-Protocol-Version", "2026-07-28"],
        ],
        "body": {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t", "arguments": {}}},
    },
    "response": {
        "status": 400,
        "headers": [["content-type", "application/json"]],
        "body": {"jsonrpc": "2.0", "id": 1, "error": {"code": -32020, "message": "nope"}},
    },
    "seen_by": ["client", "server"],
    "elapsed_ms": 1.5,
    "param_headers": [
        {
            "argument": "region",
            "header": "Mcp-Param-Region",
            "value": "São Paulo",
            "sent": "=?base64?U8OjbyBQYXVsbw==?=",
            "decoded": "São Paulo",
            "expected": "=?base64?U8OjbyBQYXVsbw==?=",
            "encoding": "base64 sentinel",
            "verdict": "ok",
            "reason": None,
        }
    ],
}


def test_text_lists_mcp_headers_sorted_without_ports_or_ids() -> None:
    lines = exchange_lines(EXCHANGE, indent="")
    assert lines[0] == "HTTP POST /mcp tools/call -> 400 error -32020 nope"
    assert lines[1] == (
        '  mcp-method: tools/call | Mcp-Param-Region: =?base64?U8OjbyBQYXVsbw==?= (decoded "São Paulo") | '
        "MCP-Protocol-Version: 2026-07-28 | mcp-session-id: ..."
    )
    assert (
        lines[2] == '  region="São Paulo" -> Mcp-Param-Region: =?base64?U8OjbyBQYXVsbw==?= (decoded "São Paulo") [ok]'
    )
    assert "5555" not in "\n".join(lines)
    assert [k for k, _ in mcp_headers(EXCHANGE["request"]["headers"])] == [
        "mcp-method",
        "Mcp-Param-Region",
        "MCP-Protocol-Version",
        "mcp-session-id",
    ]


def test_html_highlights_mcp_headers_and_decodes_beside_the_raw_value() -> None:
    page = exchange_html(EXCHANGE)
    assert "<tr class='mcp-lab-mcp'><td><code>Mcp-Param-Region</code></td>" in page
    assert "<tr><td><code>host</code></td>" in page
    assert "=?base64?U8OjbyBQYXVsbw==?=</code> &larr; decodes to <code>&quot;São Paulo&quot;</code>" in page
    assert "400" in page and "-32020" in page


def test_missing_response_is_said_plainly() -> None:
    lonely = {"method": "POST", "path": "/mcp", "rpc": None, "request": {"headers": []}, "response": {"status": None}}
    assert exchange_lines(lonely, indent="") == ["HTTP POST /mcp -> no response"]
