"""Renderings of the HTTP exchanges recorded in a Round: what crossed the loopback connection in one leg.

Spec context: 2026-07-28 Streamable HTTP. Each request repeats parts of its JSON-RPC body in headers --
`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, and `Mcp-Param-<Name>` for arguments marked
`x-mcp-header` -- so intermediaries can route on them. The views highlight those `Mcp-*` headers, decode
base64-sentinel values (`=?base64?...?=`) beside the raw form, and say which argument went into which
header. `text/plain` lists only the `Mcp-*` headers, sorted, with no ports or times (stable for nbval).
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from typing import Any

from mcp.shared.inbound import decode_header_value

from mcp_lab.inspect.header_labs import rpc_error
from mcp_lab.views.headers import param_usage_html, param_usage_lines

__all__ = ["exchange_head", "exchange_html", "exchange_lines", "exchanges_html", "mcp_headers", "shown_header"]

_UNSTABLE = {"mcp-session-id"}
"""Values that change every run; the text view shows the header but not its value."""


def _is_sentinel(value: str) -> bool:
    return value.startswith("=?base64?") and value.endswith("?=")


def mcp_headers(headers: Sequence[Sequence[str]]) -> list[tuple[str, str]]:
    """The `Mcp-*` request headers, sorted by lowercase name (stable order for text and tests)."""
    found = [(str(k), str(v)) for k, v in headers if str(k).lower().startswith("mcp-")]
    return sorted(found, key=lambda kv: kv[0].lower())


def shown_header(name: str, value: str) -> str:
    if name.lower() in _UNSTABLE:
        return f"{name}: ..."
    if _is_sentinel(value):
        return f"{name}: {value} (decoded {json.dumps(decode_header_value(value), ensure_ascii=False)})"
    return f"{name}: {value}"


def _status(exchange: dict[str, Any]) -> str:
    status = (exchange.get("response") or {}).get("status")
    return str(status) if status is not None else "no response"


def _jsonrpc_error(exchange: dict[str, Any]) -> str:
    error = rpc_error(exchange)
    return f" error {error.get('code')} {error.get('message', '')}" if error is not None else ""


def exchange_head(exchange: dict[str, Any]) -> str:
    """`HTTP POST /mcp tools/call -> 400 error -32020 ...` (no port, no time)."""
    rpc = f" {exchange['rpc']}" if exchange.get("rpc") else ""
    return f"HTTP {exchange.get('method')} {exchange.get('path')}{rpc} -> {_status(exchange)}{_jsonrpc_error(exchange)}"


def exchange_lines(exchange: dict[str, Any], indent: str = "     ") -> list[str]:
    lines = [indent + exchange_head(exchange)]
    headers = mcp_headers((exchange.get("request") or {}).get("headers") or [])
    if headers:
        lines.append(f"{indent}  " + " | ".join(shown_header(k, v) for k, v in headers))
    lines += [f"{indent}  {line}" for line in param_usage_lines(exchange.get("param_headers") or [])]
    return lines


def _headers_html(headers: Sequence[Sequence[str]]) -> str:
    rows = []
    for name, value in headers:
        name, value = str(name), str(value)
        mcp = name.lower().startswith("mcp-")
        decoded = ""
        if _is_sentinel(value):
            decoded = f" &larr; decodes to <code>{html.escape(json.dumps(decode_header_value(value), ensure_ascii=False))}</code>"
        style = " class='mcp-lab-mcp'" if mcp else ""
        rows.append(
            f"<tr{style}><td><code>{html.escape(name)}</code></td><td><code>{html.escape(value)}</code>{decoded}</td></tr>"
        )
    return f"<table class='mcp-lab-headers'>{''.join(rows)}</table>"


def _body_html(body: Any) -> str:
    if body is None:
        return "<i>(empty)</i>"
    text = body if isinstance(body, str) else json.dumps(body, indent=2, ensure_ascii=False)
    return f"<pre style='max-height:20em;overflow:auto'>{html.escape(text)}</pre>"


def exchange_html(exchange: dict[str, Any]) -> str:
    request = exchange.get("request") or {}
    response = exchange.get("response") or {}
    rpc = html.escape(exchange.get("rpc") or "")
    mcp = " ".join(html.escape(shown_header(k, v)) for k, v in mcp_headers(request.get("headers") or []))
    summary = (
        f"<b>{html.escape(str(exchange.get('method')))} {html.escape(str(exchange.get('path')))}</b> {rpc} "
        f"&rarr; <b>{html.escape(_status(exchange))}</b>{html.escape(_jsonrpc_error(exchange))} "
        f"<small>({exchange.get('elapsed_ms', 0)} ms; seen by {', '.join(exchange.get('seen_by', []))})</small>"
        f"<div style='font-size:smaller' class='mcp-lab-mcp'>{mcp}</div>"
    )
    usage = param_usage_html(exchange.get("param_headers") or [])
    return (
        f"<details class='mcp-lab-http'><summary>{summary}</summary>{usage}"
        f"<div><b>request headers</b>{_headers_html(request.get('headers') or [])}</div>"
        f"<div><b>request body</b>{_body_html(request.get('body'))}</div>"
        f"<div><b>response headers</b>{_headers_html(response.get('headers') or [])}</div>"
        f"<div><b>response body</b>{_body_html(response.get('body'))}</div></details>"
    )


def exchanges_html(exchanges: Sequence[dict[str, Any]]) -> str:
    if not exchanges:
        return ""
    style = "<style>.mcp-lab-mcp{background:#fff3c4}.mcp-lab-bad{color:#b00020}</style>"
    return style + "".join(exchange_html(e) for e in exchanges)
