"""Renderings of header parameters: a server's header table (which argument went into which header on one call
is drawn with the HTTP exchange, `exchanges.view`).

Spec context: 2026-07-28 header parameters. The table answers "what will a 2026-07-28 client put in the
HTTP headers for this tool, and will it even keep the tool?"; the per-call lines answer "what did it
actually send, and did the server agree?". `text/plain` is stable for nbval (no ports, no times).
"""

from __future__ import annotations

from mcp_lab.exchanges.view import value_text
from mcp_lab.headers.record import HeaderRowRecord, HeaderTableRecord
from mcp_lab.json_types import JsonObject
from mcp_lab.markup import code, e, tone, wrap
from mcp_lab.markup import table as html_table

__all__ = ["HEADERS_MIME", "header_table_bundle"]

HEADERS_MIME = "application/vnd.mcp-lab.headers+json"


def _samples_text(row: HeaderRowRecord) -> str:
    return "; ".join(f"{value_text(s.value)} -> {s.header_value} ({s.encoding})" for s in row.samples)


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
            f"{code(value_text(s.value))} &rarr; {code(s.header_value)} <i>{e(s.encoding)}</i>" for s in row.samples
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
