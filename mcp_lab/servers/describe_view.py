"""Renderings of a server's description (`mcp_lab.describe`): text for nbval and plain frontends, HTML.

Spec context: what a client learns before calling anything -- the discover/initialize result and the four
listings. Each tool reads as its signature (`ToolDescription.signature`), so its header parameters sit
where a caller looks; the schemas themselves are one click away in HTML (and
in the extension's view). `text/plain` names no port, no time and no process id: it is stable for nbval,
except the `where` line of a server served over HTTP, which carries its address.
"""

from __future__ import annotations

import json

from mcp_lab.markup import code, e, table, table_row, tone, wrap
from mcp_lab.servers.record import ResourceDescription, ServerDescriptionRecord, ToolDescription

__all__ = ["description_html", "description_text"]


def _capabilities(record: ServerDescriptionRecord) -> str:
    return ", ".join(sorted(record.capabilities)) or "none"


def _info(record: ServerDescriptionRecord) -> str:
    info = record.server_info or {}
    if not info:
        return "(does not say)"
    return " ".join(str(info[k]) for k in ("name", "version") if info.get(k))


def _resource_line(item: ResourceDescription) -> str:
    what = "template " if item.template else ""
    label = f" -- {item.name}" if item.name else ""
    mime = f" ({item.mime_type})" if item.mime_type else ""
    return f"{what}{item.uri}{label}{mime}"


def description_text(record: ServerDescriptionRecord) -> str:
    lines = [
        f"{record.name} ({record.server_kind}): {record.where}",
        f"  server: {_info(record)}; protocol {record.protocol_version or '?'}"
        + (f" (offers {', '.join(record.supported_versions)})" if record.supported_versions else ""),
        f"  capabilities: {_capabilities(record)}",
    ]
    if record.instructions:
        lines.append(f"  instructions: {record.instructions.strip().splitlines()[0]}")
    lines.append(f"  tools ({len(record.tools)}):")
    for tool in record.tools:
        lines.append(f"    {tool.signature}")
        if tool.header_problem:
            lines.append(f"      invalid x-mcp-header: {tool.header_problem} (2026-07-28 clients drop this tool)")
        if tool.description:
            lines.append(f"      {tool.description.strip().splitlines()[0]}")
    if record.prompts:
        lines.append(f"  prompts ({len(record.prompts)}):")
        for prompt in record.prompts:
            args = ", ".join(f"{a.name}{'' if a.required else '?'}" for a in prompt.arguments)
            lines.append(f"    {prompt.name}({args})" + (f": {prompt.description}" if prompt.description else ""))
    elif "prompts" in record.capabilities:
        lines.append("  prompts: none listed")
    if record.resources:
        lines.append(f"  resources ({len(record.resources)}):")
        lines += [f"    {_resource_line(r)}" for r in record.resources]
    elif "resources" in record.capabilities:
        lines.append("  resources: none listed")
    lines += [f"  note: {n}" for n in record.notes]
    return "\n".join(lines)


def _json(value: object) -> str:
    return f"<pre>{e(json.dumps(value, indent=2, ensure_ascii=False))}</pre>"


def _tool_html(tool: ToolDescription) -> str:
    problem = (
        f"<div>{tone('err', '✗ invalid x-mcp-header: ' + tool.header_problem)}</div>" if tool.header_problem else ""
    )
    headers = (
        "".join(f"<div>{code(arg)} &rarr; {code(h)}</div>" for arg, h in tool.headers.items())
        or "<span class='mcp-lab-muted'>none</span>"
    )
    schemas = f"<details><summary>input schema</summary>{_json(tool.input_schema)}</details>"
    if tool.output_schema is not None:
        schemas += f"<details><summary>output schema</summary>{_json(tool.output_schema)}</details>"
    return table_row(f"{code(tool.signature)}{problem}<div>{e(tool.description or '')}</div>{schemas}", headers)


def description_html(record: ServerDescriptionRecord) -> str:
    head = (
        f"<div><b>{e(record.name)}</b> ({e(record.server_kind)}) {code(record.where)}</div>"
        f"<div>server: {e(_info(record))}; protocol {code(record.protocol_version or '?')}</div>"
        f"<div>capabilities: {e(_capabilities(record))}</div>"
    )
    if record.instructions:
        head += f"<div>instructions: {e(record.instructions)}</div>"
    tools = [_tool_html(t) for t in record.tools]
    body = table(["tool", "header parameters"], tools, caption=f"tools ({len(record.tools)})")
    if record.prompts:
        rows = [
            table_row(
                code(p.name), e(", ".join(a.name + ("" if a.required else "?") for a in p.arguments)), e(p.description or "")
            )
            for p in record.prompts
        ]
        body += table([], rows, caption=f"prompts ({len(record.prompts)})")
    elif "prompts" in record.capabilities:
        body += "<div>prompts: none listed</div>"
    if record.resources:
        rows = [
            table_row("template" if r.template else "resource", code(r.uri), e(r.name or ""), e(r.mime_type or ""))
            for r in record.resources
        ]
        body += table([], rows, caption=f"resources ({len(record.resources)})")
    elif "resources" in record.capabilities:
        body += "<div>resources: none listed</div>"
    notes = "".join(f"<div class='mcp-lab-muted'>note: {e(n)}</div>" for n in record.notes)
    return wrap(head + body + notes, "mcp-lab-description")
