"""Renderings of the header-parameter experiments: the server's verdict per raw POST, the POSTs each client
needed when it had never listed tools, and how often a lowlevel server ran its list handler.

Spec context: 2026-07-28 header parameters. `text/plain` carries no ports, times or ids (stable for nbval);
`text/html` adds every exchange in full; the vendor JSON carries the plain data.
"""

from __future__ import annotations

from mcp_lab.exchanges.view import exchange_head, exchange_html, shown_header
from mcp_lab.headers.record import ListFirstRecord, MismatchRecord, SchemaLookupRecord
from mcp_lab.json_types import JsonObject
from mcp_lab.markup import code, e, table, tone, wrap

__all__ = ["list_first_bundle", "mismatch_bundle", "schema_lookup_bundle"]


def mismatch_text(record: MismatchRecord) -> str:
    lines = [
        f"Header mismatch lab: tools/call {record.tool!r} on {record.server!r}, argument {record.argument!r} -> {record.header}"
    ]
    for probe in record.probes:
        lines.append(f"  {probe.case}: {probe.description} -> {probe.verdict}")
        lines.append("      sent " + " | ".join(shown_header(k, v) for k, v in probe.sent_headers))
    lines += [f"  note: {n}" for n in record.notes]
    return "\n".join(lines)


def mismatch_html(record: MismatchRecord) -> str:
    rows = []
    for probe in record.probes:
        sent = "<br>".join(code(shown_header(k, v)) for k, v in probe.sent_headers)
        mark = "✓ " if probe.accepted else "✗ "
        rows.append(
            f"<tr><td><b>{e(probe.case)}</b><br>{e(probe.description)}</td>"
            f"<td class='mcp-lab-mcp'>{sent}</td><td>{tone('ok' if probe.accepted else 'err', mark + probe.verdict)}</td></tr>"
            f"<tr><td></td><td colspan='2'>{exchange_html(probe.exchange)}</td></tr>"
        )
    caption = e(f"tools/call {record.tool!r} on {record.server!r}: argument {record.argument!r} travels in {record.header}")
    notes = "".join(f"<div><i>{e(n)}</i></div>" for n in record.notes)
    return wrap(
        table(["case", "Mcp-* headers sent", "server answered"], rows, caption=caption) + notes,
        "mcp-lab-mismatch",
    )


def mismatch_bundle(record: MismatchRecord) -> JsonObject:
    return record.bundle(mismatch_text(record), mismatch_html(record))


def list_first_text(record: ListFirstRecord) -> str:
    lines = [f"List-before-call lab: tools/call {record.tool!r} on {record.server!r}"]
    for scenario in record.scenarios:
        relisted = " (leg marked relisted)" if scenario.relisted else ""
        lines.append(f"  {scenario.description}: {scenario.posts} POST(s){relisted}")
        lines += [f"     {exchange_head(x)}" for x in scenario.exchanges]
        lines.append(f"     => {scenario.outcome}")
    lines += [f"  note: {n}" for n in record.notes]
    return "\n".join(lines)


def list_first_html(record: ListFirstRecord) -> str:
    parts = []
    for scenario in record.scenarios:
        relisted = " &mdash; leg marked <code>relisted</code>" if scenario.relisted else ""
        exchanges = "".join(exchange_html(x) for x in scenario.exchanges)
        parts.append(
            f"<div><b>{e(scenario.description)}</b>: {scenario.posts} POST(s){relisted}"
            f"<div style='margin-left:1.5em'>{exchanges}<div>&rArr; {e(scenario.outcome)}</div></div></div>"
        )
    notes = "".join(f"<div><i>{e(n)}</i></div>" for n in record.notes)
    title = e(f"A client that never listed tools: tools/call {record.tool!r} on {record.server!r}")
    return wrap(f"<h4>{title}</h4>{''.join(parts)}{notes}", "mcp-lab-list-first")


def list_first_bundle(record: ListFirstRecord) -> JsonObject:
    return record.bundle(list_first_text(record), list_first_html(record))


def _times(n: int) -> str:
    return "1 time" if n == 1 else f"{n} times"


def schema_lookup_text(record: SchemaLookupRecord) -> str:
    lines = [f"get_tool_input_schema record: lowlevel Bookshop, 1 list_tools() + {record.calls} call_tool({record.tool!r})"]
    for run in record.runs:
        label = "with" if run.get_tool_input_schema else "without"
        lines.append(f"  {label} get_tool_input_schema: on_list_tools ran {_times(run.on_list_tools)}")
    return "\n".join(lines)


def schema_lookup_html(record: SchemaLookupRecord) -> str:
    rows = "".join(
        f"<tr><td>{'with' if r.get_tool_input_schema else 'without'} <code>get_tool_input_schema</code></td>"
        f"<td>{r.list_calls}</td><td>{r.tool_calls}</td><td><b>{r.on_list_tools}</b></td></tr>"
        for r in record.runs
    )
    return wrap(
        table(
            ["server", "list_tools()", "call_tool()", "on_list_tools ran"],
            [rows],
            caption="lowlevel Bookshop: how often <code>on_list_tools</code> ran",
        ),
        "mcp-lab-schema-lookups",
    )


def schema_lookup_bundle(record: SchemaLookupRecord) -> JsonObject:
    return record.bundle(schema_lookup_text(record), schema_lookup_html(record))
