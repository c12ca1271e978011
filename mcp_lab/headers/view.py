"""Renderings of header parameters: a server's header table, and which argument went into which header.

Spec context: 2026-07-28 header parameters. The table answers "what will a 2026-07-28 client put in the
HTTP headers for this tool, and will it even keep the tool?"; the per-call lines answer "what did it
actually send, and did the server agree?". `text/plain` is stable for nbval (no ports, no times).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from mcp_lab.bounded_json import JsonObject
from mcp_lab.exchanges.record import ParamHeaderUsage
from mcp_lab.headers.record import HeaderRowRecord, HeaderTableRecord
from mcp_lab.markup import code, e, tone, wrap
from mcp_lab.markup import table as html_table

__all__ = ["HEADERS_MIME", "header_table_bundle", "param_usage_html", "param_usage_lines"]

HEADERS_MIME = "application/vnd.mcp-lab.headers+json"


def _value(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _samples_text(row: HeaderRowRecord) -> str:
    return "; ".join(f"{_value(s.value)} -> {s.header_value} ({s.encoding})" for s in row.samples)


def _title(table: HeaderTableRecord) -> str:
    return f"Header parameters of {table.server!r}" + (f" ({table.server_kind})" if table.server_kind else "")


def header_table_text(table: HeaderTableRecord) -> str:
    lines = [_title(table)]
    if not table.tools:
        lines.append("  (no tools)")
    for tool in table.tools:
        if tool.dropped:
            lines.append(f"  {tool.name}: INVALID -- {tool.reason}; {table.dropped_note}")
        elif not tool.rows:
            lines.append(f"  {tool.name}: no header parameters")
            continue
        else:
            lines.append(f"  {tool.name}")
        for row in tool.rows:
            head = f"    {row.argument} -> {row.header} ({row.json_type})"
            lines.append(f"{head}: {_samples_text(row)}" if row.valid else f"{head}: invalid: {row.reason}")
    return "\n".join(lines)


def _row_html(row: HeaderRowRecord, first: bool, span: int, tool_cell: str) -> str:
    tool = f"<td rowspan='{span}'>{tool_cell}</td>" if first else ""
    if row.valid:
        samples = "<br>".join(
            f"{code(_value(s.value))} &rarr; {code(s.header_value)} <i>{e(s.encoding)}</i>" for s in row.samples
        )
    else:
        samples = tone("err", f"✗ {row.reason or ''}")
    return (
        f"<tr>{tool}<td>{code(row.argument)}</td><td class='mcp-lab-mcp'>{code(row.header)}</td>"
        f"<td>{e(row.json_type)}</td><td>{samples}</td></tr>"
    )


def header_table_html(table: HeaderTableRecord) -> str:
    body = []
    for tool in table.tools:
        name = f"<b>{e(tool.name)}</b>"
        if tool.dropped:
            name += f"<div class='mcp-lab-err'>✗ {e(tool.reason or '')}<br><b>{e(table.dropped_note)}</b></div>"
        if not tool.rows:
            body.append(f"<tr><td>{name}</td><td colspan='4'><i>no header parameters</i></td></tr>")
            continue
        for i, row in enumerate(tool.rows):
            body.append(_row_html(row, i == 0, len(tool.rows), name))
    return wrap(
        html_table(
            ["tool", "argument", "HTTP header", "JSON type", "sample value &rarr; header value (encoding)"],
            body,
            caption=e(_title(table)),
        ),
        "mcp-lab-headers",
    )


def header_table_bundle(table: HeaderTableRecord) -> JsonObject:
    return table.bundle(header_table_text(table), header_table_html(table))


def _sent(entry: ParamHeaderUsage) -> str:
    if entry.sent is None:
        return "(not sent)"
    if entry.decoded is not None and entry.decoded != entry.sent:
        return f"{entry.sent} (decoded {_value(entry.decoded)})"
    return entry.sent


def _usage(usage: Sequence[ParamHeaderUsage | JsonObject]) -> list[ParamHeaderUsage]:
    return [u if isinstance(u, ParamHeaderUsage) else ParamHeaderUsage.model_validate(u) for u in usage]


def param_usage_lines(usage: Sequence[ParamHeaderUsage | JsonObject]) -> list[str]:
    """`region=... -> Mcp-Param-Region: eu-west [ok]`, one line per marked argument (records or their dumps)."""
    lines = []
    for entry in _usage(usage):
        value = "(absent)" if entry.value is None else _value(entry.value)
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
            f"<tr><td>{code(entry.argument)} = {code(_value(entry.value))}</td>"
            f"<td class='mcp-lab-mcp'>{code(entry.header)}</td><td>{code(_sent(entry))}</td>"
            f"<td>{e(entry.encoding)}</td><td>{tone('ok' if good else 'err', verdict)}</td></tr>"
        )
    return html_table(["argument", "header", "sent", "encoding", "verdict"], rows, cls="mcp-lab-param-headers")
