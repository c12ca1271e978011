"""Renderings of header parameters: a server's header table, and which argument went into which header.

Spec context: 2026-07-28 header parameters. The table answers "what will a 2026-07-28 client put in the
HTTP headers for this tool, and will it even keep the tool?"; the per-call lines answer "what did it
actually send, and did the server agree?". `text/plain` is stable for nbval (no ports, no times).
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from mcp_lab.inspect.headers import DROPPED

if TYPE_CHECKING:
    from mcp_lab.inspect.headers import HeaderRow, HeaderTable

__all__ = ["HEADERS_MIME", "header_table_bundle", "param_usage_html", "param_usage_lines"]

HEADERS_MIME = "application/vnd.mcp-lab.headers+json"

_STYLE = (
    "<style>.mcp-lab-headers td,.mcp-lab-headers th{text-align:left;padding:2px 8px;vertical-align:top}"
    ".mcp-lab-bad{color:#b00020}.mcp-lab-mcp{background:#fff3c4}</style>"
)


def _value(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _samples_text(row: HeaderRow) -> str:
    return "; ".join(f"{_value(s['value'])} -> {s['header_value']} ({s['encoding']})" for s in row.samples)


def header_table_text(table: HeaderTable) -> str:
    lines = [f"Header parameters of {table.server!r}" + (f" ({table.kind})" if table.kind else "")]
    if not table.tools:
        lines.append("  (no tools)")
    for tool in table.tools:
        if tool.dropped:
            lines.append(f"  {tool.name}: INVALID -- {tool.reason}; {DROPPED}")
        elif not tool.rows:
            lines.append(f"  {tool.name}: no header parameters")
            continue
        else:
            lines.append(f"  {tool.name}")
        for row in tool.rows:
            head = f"    {row.argument} -> {row.header} ({row.json_type})"
            lines.append(f"{head}: {_samples_text(row)}" if row.valid else f"{head}: invalid: {row.reason}")
    return "\n".join(lines)


def _row_html(row: HeaderRow, first: bool, span: int, tool_cell: str) -> str:
    tool = f"<td rowspan='{span}'>{tool_cell}</td>" if first else ""
    if row.valid:
        samples = "<br>".join(
            f"<code>{html.escape(_value(s['value']))}</code> &rarr; <code>{html.escape(str(s['header_value']))}</code>"
            f" <i>{html.escape(s['encoding'])}</i>"
            for s in row.samples
        )
    else:
        samples = f"<span class='mcp-lab-bad'>{html.escape(row.reason or '')}</span>"
    return (
        f"<tr>{tool}<td><code>{html.escape(row.argument)}</code></td>"
        f"<td class='mcp-lab-mcp'><code>{html.escape(row.header)}</code></td>"
        f"<td>{html.escape(row.json_type)}</td><td>{samples}</td></tr>"
    )


def header_table_html(table: HeaderTable) -> str:
    body = []
    for tool in table.tools:
        name = f"<b>{html.escape(tool.name)}</b>"
        if tool.dropped:
            name += f"<div class='mcp-lab-bad'>{html.escape(tool.reason or '')}<br><b>{DROPPED}</b></div>"
        if not tool.rows:
            body.append(f"<tr><td>{name}</td><td colspan='4'><i>no header parameters</i></td></tr>")
            continue
        for i, row in enumerate(tool.rows):
            body.append(_row_html(row, i == 0, len(tool.rows), name))
    caption = html.escape(f"Header parameters of {table.server!r}" + (f" ({table.kind})" if table.kind else ""))
    return (
        f"{_STYLE}<table class='mcp-lab-headers'><caption>{caption}</caption>"
        "<thead><tr><th>tool</th><th>argument</th><th>HTTP header</th><th>JSON type</th>"
        f"<th>sample value &rarr; header value</th></tr></thead><tbody>{''.join(body)}</tbody></table>"
    )


def header_table_bundle(table: HeaderTable) -> dict[str, Any]:
    return {
        "text/plain": header_table_text(table),
        "text/html": header_table_html(table),
        HEADERS_MIME: table.to_dict(),
    }


def _sent(entry: dict[str, Any]) -> str:
    raw = entry.get("sent")
    if raw is None:
        return "(not sent)"
    decoded = entry.get("decoded")
    if decoded is not None and decoded != raw:
        return f"{raw} (decoded {_value(decoded)})"
    return str(raw)


def param_usage_lines(usage: Sequence[dict[str, Any]]) -> list[str]:
    """`region=... -> Mcp-Param-Region: eu-west [ok]`, one line per marked argument."""
    lines = []
    for entry in usage:
        value = "(absent)" if entry.get("value") is None else _value(entry["value"])
        line = f"{entry['argument']}={value} -> {entry['header']}: {_sent(entry)} [{entry['verdict']}]"
        if entry.get("reason"):
            line += f" {entry['reason']}"
        lines.append(line)
    return lines


def param_usage_html(usage: Sequence[dict[str, Any]]) -> str:
    if not usage:
        return ""
    rows = "".join(
        f"<tr class='{'' if e['verdict'] in ('ok', 'absent') else 'mcp-lab-bad'}'>"
        f"<td><code>{html.escape(e['argument'])}</code> = <code>{html.escape(_value(e.get('value')))}</code></td>"
        f"<td class='mcp-lab-mcp'><code>{html.escape(e['header'])}</code></td>"
        f"<td><code>{html.escape(_sent(e))}</code></td><td>{html.escape(e['encoding'])}</td>"
        f"<td>{html.escape(e['verdict'])}{': ' + html.escape(e['reason']) if e.get('reason') else ''}</td></tr>"
        for e in usage
    )
    return (
        "<table class='mcp-lab-headers'><thead><tr><th>argument</th><th>header</th><th>sent</th>"
        f"<th>encoding</th><th>verdict</th></tr></thead><tbody>{rows}</tbody></table>"
    )
