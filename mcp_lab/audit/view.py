"""The audit report as text (notebooks and CI logs), HTML, JUnit XML, and the vendor MIME bundle.

Spec context: one verdict per 2026-07-28 rule (`mcp_lab.audit.rules`), each with the rule's level, section
and words. Why this shape: a person reads the summary first -- rules kept, broken, warned -- then each check;
a broken or warned rule shows the specification's words and every probe's "sent / came back", a kept one a
line. The text carries no times, tokens or ports, so it is stable for nbval and readable in a CI log; the
JUnit XML makes each rule a test case (a broken MUST or SHOULD a failure typed by its level -- the exit code
fails a build only for MUST -- a rule not applicable a skipped case). All of it is drawn from the record.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from mcp_lab.audit.model import AuditCheck, AuditProbe, AuditRecord
from mcp_lab.json_types import JsonObject
from mcp_lab.markup import code, e, table, tone, wrap

__all__ = ["AUDIT_MIME", "audit_bundle", "audit_html", "audit_junit", "audit_text", "headline"]

AUDIT_MIME = "application/vnd.mcp-lab.audit+json"
TRANSPORT = {"http": "Streamable HTTP", "stdio": "stdio", "in-process": "in-process"}
MARK = {"pass": "PASS", "fail": "FAIL", "warn": "WARN", "n/a": "N/A"}
PROBE_MARK = {"pass": "✓", "fail": "✗", "warn": "!", "n/a": "-"}
TONE = {"pass": "ok", "fail": "err", "warn": "warn", "n/a": ""}


def headline(record: AuditRecord) -> str:
    s = record.summary
    over = TRANSPORT[record.transport]
    protocol = f", {record.protocol_version}" if record.protocol_version else ""
    return (
        f"audit of {record.server!r} ({over}{protocol}): {s.kept} rule(s) kept, {s.broken} broken "
        f"({s.broken_must} MUST), {s.warned} warned, {s.not_applicable} not applicable"
    )


def _broken(record: AuditRecord) -> str:
    items = [f"{c.rule.id} ({c.rule.level})" for c in record.checks if c.verdict == "fail"]
    return "broken: " + ", ".join(items) if items else "no rule broken"


def _probe_lines(item: AuditProbe) -> list[str]:
    lines = [
        f"      {PROBE_MARK[item.verdict]} {item.name}: sent {item.sent}",
        f"          came back: {item.came_back}",
    ]
    if item.note:
        lines.append(f"          => {item.note}")
    return lines


def _check_lines(item: AuditCheck) -> list[str]:
    rule = item.rule
    lines = [f"{MARK[item.verdict]:<5} {rule.level:<9} {rule.id:<19} {rule.title}"]
    lines.append(f"      {item.summary}")
    if item.verdict in ("fail", "warn"):
        lines.append(f'      {rule.section}: "{rule.quote}"')
        for probe in item.probes:
            lines += _probe_lines(probe)
    lines += [f"      note: {n}" for n in item.notes if item.verdict in ("fail", "warn")]
    return lines


def audit_text(record: AuditRecord) -> str:
    lines = [record.headline, f"exit code {record.exit_code}: {_broken(record)}"]
    if record.flows:
        lines.append(f"repeated {len(record.flows)} recorded call(s): " + "; ".join(record.flows))
    lines += [f"note: {n}" for n in record.notes]
    for item in record.checks:
        lines.append("")
        lines += _check_lines(item)
    return "\n".join(lines)


def _probe_row(item: AuditProbe) -> str:
    status = f"<code>HTTP {item.status}</code> " if item.status is not None else ""
    note = f"<div>{tone(TONE[item.verdict], item.note)}</div>" if item.note else ""
    return (
        f"<tr><td>{tone(TONE[item.verdict], PROBE_MARK[item.verdict] + ' ' + item.name)}</td>"
        f"<td>{e(item.sent)}</td><td>{status}{e(item.came_back)}{note}</td></tr>"
    )


def _check_html(item: AuditCheck) -> str:
    rule = item.rule
    head = (
        f"{tone(TONE[item.verdict], MARK[item.verdict])} <b>{e(rule.level)}</b> {code(rule.id)} "
        f"{e(rule.title)} — <span class='mcp-lab-muted'>{e(item.summary)}</span>"
    )
    probes = [_probe_row(p) for p in item.probes]
    probe_table = table(["probe", "sent", "came back"], probes) if probes else ""
    notes = "".join(f"<div class='mcp-lab-muted'>note: {e(n)}</div>" for n in item.notes)
    opened = " open" if item.verdict in ("fail", "warn") else ""
    return (
        f"<details{opened}><summary>{head}</summary>"
        f"<div><i>{e(rule.section)}</i>: “{e(rule.quote)}”</div>{probe_table}{notes}</details>"
    )


def audit_html(record: AuditRecord) -> str:
    s = record.summary
    counts = (
        f"{tone('ok', f'{s.kept} kept')} · {tone('err', f'{s.broken} broken ({s.broken_must} MUST)')} · "
        f"{tone('warn', f'{s.warned} warned')} · {s.not_applicable} not applicable · exit code {record.exit_code}"
    )
    flows = f"<div>repeated: {', '.join(code(f) for f in record.flows)}</div>" if record.flows else ""
    notes = "".join(f"<div>note: {e(n)}</div>" for n in record.notes)
    checks = "".join(_check_html(c) for c in record.checks)
    return wrap(f"<div><b>{e(record.headline)}</b></div><div>{counts}</div>{flows}{notes}{checks}", "mcp-lab-audit")


def audit_junit(record: AuditRecord) -> str:
    """JUnit XML: one test case per rule checked."""
    failures = sum(c.verdict == "fail" for c in record.checks)
    skipped = sum(c.verdict == "n/a" for c in record.checks)
    counts = {"tests": str(len(record.checks)), "failures": str(failures), "errors": "0", "skipped": str(skipped)}
    root = ET.Element("testsuites", {"name": "mcp_lab audit", **counts})
    suite = ET.SubElement(root, "testsuite", {"name": f"mcp_lab audit of {record.server}", **counts})
    props = ET.SubElement(suite, "properties")
    for name, value in (
        ("server", record.server),
        ("transport", record.transport),
        ("protocol_version", record.protocol_version or ""),
        ("exit_code", str(record.exit_code)),
    ):
        ET.SubElement(props, "property", {"name": name, "value": value})
    for item in record.checks:
        rule = item.rule
        case = ET.SubElement(
            suite,
            "testcase",
            {"classname": f"mcp_lab.audit.{rule.level.replace(' ', '_')}", "name": f"{rule.id}: {rule.title}"},
        )
        detail = "\n".join(
            [f'{rule.section}: "{rule.quote}"', *[ln.strip() for p in item.probes for ln in _probe_lines(p)]]
        )
        if item.verdict == "fail":
            failure = ET.SubElement(case, "failure", {"type": rule.level, "message": item.summary})
            failure.text = detail
        elif item.verdict == "n/a":
            ET.SubElement(case, "skipped", {"message": item.summary})
        elif item.verdict == "warn":
            ET.SubElement(case, "system-out").text = f"WARN: {item.summary}\n{detail}"
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode")


def audit_bundle(record: AuditRecord) -> JsonObject:
    return record.bundle(audit_text(record), audit_html(record))
