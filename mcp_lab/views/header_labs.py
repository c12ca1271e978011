"""Renderings of the header-parameter labs: the server's verdict per raw POST, the POSTs each client
needed when it had never listed tools, and how often a lowlevel server ran its list handler.

Spec context: 2026-07-28 header parameters. `text/plain` carries no ports, times or ids (stable for nbval);
`text/html` adds every exchange in full; the vendor JSON carries the plain data.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

from mcp_lab.views.http import exchange_head, exchange_html, mcp_headers, shown_header

if TYPE_CHECKING:
    from mcp_lab.inspect.header_labs import ListFirstLab, MismatchLab, Probe, SchemaLookupLab

__all__ = ["list_first_bundle", "mismatch_bundle", "schema_lookup_bundle"]

MISMATCH_MIME = "application/vnd.mcp-lab.header-mismatch+json"
LIST_FIRST_MIME = "application/vnd.mcp-lab.list-first+json"
SCHEMA_LOOKUP_MIME = "application/vnd.mcp-lab.schema-lookups+json"

_STYLE = (
    "<style>.mcp-lab-lab td,.mcp-lab-lab th{text-align:left;padding:2px 8px;vertical-align:top}"
    ".mcp-lab-mcp{background:#fff3c4}.mcp-lab-bad{color:#b00020}.mcp-lab-good{color:#1b5e20}</style>"
)


def _verdict(probe: Probe) -> str:
    if probe.accepted:
        return f"{probe.status} accepted"
    code = f" {probe.code}" if probe.code is not None else ""
    return f"{probe.status if probe.status is not None else 'no response'}{code} {probe.message or ''}".rstrip()


def _sent_headers(probe: Probe) -> list[tuple[str, str]]:
    headers = (probe.exchange.get("request") or {}).get("headers") or []
    return mcp_headers(headers)


def mismatch_text(lab: MismatchLab) -> str:
    lines = [
        f"Header mismatch lab: tools/call {lab.tool!r} on {lab.server!r}, argument {lab.argument!r} -> {lab.header}"
    ]
    for probe in lab.probes:
        lines.append(f"  {probe.case}: {probe.description} -> {_verdict(probe)}")
        lines.append("      sent " + " | ".join(shown_header(k, v) for k, v in _sent_headers(probe)))
    lines += [f"  note: {n}" for n in lab.notes]
    return "\n".join(lines)


def mismatch_html(lab: MismatchLab) -> str:
    rows = []
    for probe in lab.probes:
        sent = "<br>".join(f"<code>{html.escape(shown_header(k, v))}</code>" for k, v in _sent_headers(probe))
        cls = "mcp-lab-good" if probe.accepted else "mcp-lab-bad"
        rows.append(
            f"<tr><td><b>{html.escape(probe.case)}</b><br>{html.escape(probe.description)}</td>"
            f"<td class='mcp-lab-mcp'>{sent}</td><td class='{cls}'>{html.escape(_verdict(probe))}</td></tr>"
            f"<tr><td></td><td colspan='2'>{exchange_html(probe.exchange)}</td></tr>"
        )
    caption = html.escape(
        f"tools/call {lab.tool!r} on {lab.server!r}: argument {lab.argument!r} travels in {lab.header}"
    )
    notes = "".join(f"<div><i>{html.escape(n)}</i></div>" for n in lab.notes)
    return (
        f"{_STYLE}<table class='mcp-lab-lab'><caption>{caption}</caption><thead><tr><th>case</th>"
        f"<th>Mcp-* headers sent</th><th>server answered</th></tr></thead><tbody>{''.join(rows)}</tbody></table>{notes}"
    )


def mismatch_bundle(lab: MismatchLab) -> dict[str, Any]:
    return {"text/plain": mismatch_text(lab), "text/html": mismatch_html(lab), MISMATCH_MIME: lab.to_dict()}


def list_first_text(lab: ListFirstLab) -> str:
    lines = [f"List-before-call lab: tools/call {lab.tool!r} on {lab.server!r}"]
    for scenario in lab.scenarios:
        relisted = " (leg marked relisted)" if scenario.relisted else ""
        lines.append(f"  {scenario.description}: {scenario.posts} POST(s){relisted}")
        lines += [f"     {exchange_head(e)}" for e in scenario.exchanges]
        lines.append(f"     => {scenario.outcome}")
    lines += [f"  note: {n}" for n in lab.notes]
    return "\n".join(lines)


def list_first_html(lab: ListFirstLab) -> str:
    parts = []
    for scenario in lab.scenarios:
        relisted = " &mdash; leg marked <code>relisted</code>" if scenario.relisted else ""
        exchanges = "".join(exchange_html(e) for e in scenario.exchanges)
        parts.append(
            f"<div><b>{html.escape(scenario.description)}</b>: {scenario.posts} POST(s){relisted}"
            f"<div style='margin-left:1.5em'>{exchanges}<div>&rArr; {html.escape(scenario.outcome)}</div></div></div>"
        )
    notes = "".join(f"<div><i>{html.escape(n)}</i></div>" for n in lab.notes)
    title = html.escape(f"A client that never listed tools: tools/call {lab.tool!r} on {lab.server!r}")
    return f"{_STYLE}<div class='mcp-lab-lab'><h4>{title}</h4>{''.join(parts)}{notes}</div>"


def list_first_bundle(lab: ListFirstLab) -> dict[str, Any]:
    return {"text/plain": list_first_text(lab), "text/html": list_first_html(lab), LIST_FIRST_MIME: lab.to_dict()}


def _times(n: int) -> str:
    return "1 time" if n == 1 else f"{n} times"


def schema_lookup_text(lab: SchemaLookupLab) -> str:
    lines = [f"get_tool_input_schema lab: lowlevel Bookshop, 1 list_tools() + {lab.calls} call_tool({lab.tool!r})"]
    for run in lab.runs:
        label = "with" if run["get_tool_input_schema"] else "without"
        lines.append(f"  {label} get_tool_input_schema: on_list_tools ran {_times(run['on_list_tools'])}")
    return "\n".join(lines)


def schema_lookup_html(lab: SchemaLookupLab) -> str:
    rows = "".join(
        f"<tr><td>{'with' if r['get_tool_input_schema'] else 'without'} <code>get_tool_input_schema</code></td>"
        f"<td>{r['list_calls']}</td><td>{r['tool_calls']}</td><td><b>{r['on_list_tools']}</b></td></tr>"
        for r in lab.runs
    )
    return (
        f"{_STYLE}<table class='mcp-lab-lab'><caption>lowlevel Bookshop: how often <code>on_list_tools</code> ran"
        "</caption><thead><tr><th>server</th><th>list_tools()</th><th>call_tool()</th><th>on_list_tools ran</th>"
        f"</tr></thead><tbody>{rows}</tbody></table>"
    )


def schema_lookup_bundle(lab: SchemaLookupLab) -> dict[str, Any]:
    return {
        "text/plain": schema_lookup_text(lab),
        "text/html": schema_lookup_html(lab),
        SCHEMA_LOOKUP_MIME: lab.to_dict(),
    }
