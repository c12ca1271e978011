"""Renderings of HTTP exchange records: what crossed the connection in one leg.

Spec context: 2026-07-28 Streamable HTTP. Each request repeats parts of its JSON-RPC body in headers --
`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, and `Mcp-Param-<Name>` for arguments marked
`x-mcp-header` -- so intermediaries can route on them. The views highlight those `Mcp-*` headers, decode
base64-sentinel values (`=?base64?...?=`) beside the raw form, and say which argument went into which
header. `text/plain` lists only the `Mcp-*` headers, sorted, with no ports or times (stable for nbval).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from mcp.shared.inbound import decode_header_value

from mcp_lab.exchanges.record import Body, Header, HttpExchange, ParamHeaderUsage
from mcp_lab.json_types import JsonObject
from mcp_lab.markup import code, e, table, tone
from mcp_lab.records.base import clipped_text

__all__ = ["exchange_head", "exchange_html", "exchange_lines", "exchanges_html", "mcp_headers", "param_usage_html", "param_usage_lines", "shown_header", "value_text"]

_UNSTABLE = {"mcp-session-id"}
"""Values that change every run; the text view shows the header but not its value."""


def _is_sentinel(value: str) -> bool:
    return value.startswith("=?base64?") and value.endswith("?=")


def mcp_headers(headers: Sequence[Header]) -> list[tuple[str, str]]:
    """The `Mcp-*` request headers, sorted by lowercase name (stable order for text and tests)."""
    found = [(k, v) for k, v in headers if k.lower().startswith("mcp-")]
    return sorted(found, key=lambda kv: kv[0].lower())


def shown_header(name: str, value: str) -> str:
    if name.lower() in _UNSTABLE:
        return f"{name}: ..."
    if _is_sentinel(value):
        return f"{name}: {value} (decoded {json.dumps(decode_header_value(value), ensure_ascii=False)})"
    return f"{name}: {value}"


def _jsonrpc_error(exchange: HttpExchange) -> str:
    error = exchange.rpc_error
    return f" error {error.code} {error.message}" if error is not None else ""


def exchange_head(exchange: HttpExchange) -> str:
    """`HTTP POST /mcp tools/call -> 400 error -32020 ...` (no port, no time)."""
    rpc = f" {exchange.rpc}" if exchange.rpc else ""
    return f"HTTP {exchange.method} {exchange.path}{rpc} -> {exchange.status_text}{_jsonrpc_error(exchange)}"


def exchange_lines(exchange: HttpExchange, indent: str = "     ") -> list[str]:
    lines = [indent + exchange_head(exchange)]
    headers = mcp_headers(exchange.request.headers)
    if headers:
        lines.append(f"{indent}  " + " | ".join(shown_header(k, v) for k, v in headers))
    lines += [f"{indent}  {line}" for line in param_usage_lines(exchange.param_headers)]
    return lines


def _headers_html(headers: Sequence[Header]) -> str:
    if not headers:
        return "<div class='mcp-lab-muted'>no headers recorded</div>"
    rows = []
    for name, value in headers:
        decoded = ""
        if _is_sentinel(value):
            decoded = f" &larr; decodes to {code(json.dumps(decode_header_value(value), ensure_ascii=False))}"
        style = " class='mcp-lab-mcp'" if name.lower().startswith("mcp-") else ""
        rows.append(f"<tr{style}><th>{code(name)}</th><td>{code(value)}{decoded}</td></tr>")
    return table([], rows, cls="mcp-lab-headers")


def body_text(body: Body) -> str:
    if body.kind == "empty":
        return ""
    if body.kind == "json":
        return json.dumps(body.value, indent=2, ensure_ascii=False)
    if body.kind == "sse":
        return "\n\n".join(
            (f"event: {ev.event}\n" if ev.event else "") + json.dumps(ev.data, indent=2, ensure_ascii=False)
            for ev in body.events
        )
    return clipped_text(body.text)


def _body_html(body: Body) -> str:
    if body.kind == "empty":
        return "<div class='mcp-lab-muted'>(empty)</div>"
    mark = f" <span class='mcp-lab-warn'>truncated: first {len(body_text(body))} chars of {body.size} bytes</span>"
    note = f"<div class='mcp-lab-muted'>{e(body.kind)}, {body.size} bytes{mark if body.truncated else ''}</div>"
    return f"{note}<pre>{e(body_text(body))}</pre>"


def exchange_html(exchange: HttpExchange) -> str:
    request, response = exchange.request, exchange.response
    mcp = " ".join(code(shown_header(k, v)) for k, v in mcp_headers(request.headers))
    status_tone = "err" if response is None or response.status >= 400 else "ok"
    summary = (
        f"<b>{e(exchange.method)} {e(exchange.path)}</b> {e(exchange.rpc or '')} &rarr; "
        f"<b>{tone(status_tone, exchange.status_text)}</b>{tone('err', _jsonrpc_error(exchange))} "
        f"<span class='mcp-lab-muted'>({exchange.elapsed_ms or 0} ms; seen by {', '.join(exchange.seen_by)})</span>"
        f"<div class='mcp-lab-mcp'>{mcp}</div>"
    )
    response_part = (
        f"<div><b>response headers</b>{_headers_html(response.headers)}</div>"
        f"<div><b>response body</b>{_body_html(response.body)}</div>"
        if response is not None
        else "<div class='mcp-lab-err'>no response</div>"
    )
    return (
        f"<details class='mcp-lab-http'><summary>{summary}</summary>{param_usage_html(exchange.param_headers)}"
        f"<div><b>request headers</b>{_headers_html(request.headers)}</div>"
        f"<div><b>request body</b>{_body_html(request.body)}</div>{response_part}</details>"
    )


def exchanges_html(exchanges: Sequence[HttpExchange]) -> str:
    return "".join(exchange_html(x) for x in exchanges)


def value_text(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _sent(entry: ParamHeaderUsage) -> str:
    if entry.sent is None:
        return "(not sent)"
    if entry.decoded is not None and entry.decoded != entry.sent:
        return f"{entry.sent} (decoded {value_text(entry.decoded)})"
    return entry.sent


def _usage(usage: Sequence[ParamHeaderUsage | JsonObject]) -> list[ParamHeaderUsage]:
    return [u if isinstance(u, ParamHeaderUsage) else ParamHeaderUsage.model_validate(u) for u in usage]


def param_usage_lines(usage: Sequence[ParamHeaderUsage | JsonObject]) -> list[str]:
    """`region=... -> Mcp-Param-Region: eu-west [ok]`, one line per marked argument (records or their dumps)."""
    lines = []
    for entry in _usage(usage):
        value = "(absent)" if entry.value is None else value_text(entry.value)
        line = f"{entry.argument}={value} -> {entry.header}: {_sent(entry)} [{entry.verdict}]"
        if entry.reason:
            line += f" {entry.reason}"
        lines.append(line)
    return lines


def param_usage_html(usage: Sequence[ParamHeaderUsage | JsonObject]) -> str:
    if not usage:
        return ""
    rows = []
    for entry in _usage(usage):
        good = entry.verdict in ("ok", "absent")
        verdict = ("✓ " if good else "✗ ") + entry.verdict + (f": {entry.reason}" if entry.reason else "")
        rows.append(
            f"<tr><td>{code(entry.argument)} = {code(value_text(entry.value))}</td>"
            f"<td class='mcp-lab-mcp'>{code(entry.header)}</td><td>{code(_sent(entry))}</td>"
            f"<td>{e(entry.encoding)}</td><td>{tone('ok' if good else 'err', verdict)}</td></tr>"
        )
    return table(["argument", "header", "sent", "encoding", "verdict"], rows, cls="mcp-lab-param-headers")
