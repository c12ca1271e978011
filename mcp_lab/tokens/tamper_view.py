"""The tamper experiment as a table: what changed, the frozen wire answer, the server's real reason, the prediction.

Spec context: the SDK docs' "On verification failure" -- one frozen `-32602` for every failed check, the
real reason in the server log only. Putting the two side by side, with `inspect_token`'s prediction and
whether it agreed, is the lesson. `text/plain` holds no tokens or times (the rows are stable for nbval).
"""

from __future__ import annotations

from mcp_lab.json_types import JsonObject
from mcp_lab.markup import code, e, table, tone, wrap
from mcp_lab.tokens.record import TamperRecord

__all__ = ["TAMPER_MIME", "tamper_bundle", "tamper_html", "tamper_text"]

TAMPER_MIME = "application/vnd.mcp-lab.tamper+json"


def _title(report: TamperRecord) -> str:
    return f"Tamper lab: {report.method} {report.target!r} on {report.server!r}"


def tamper_text(report: TamperRecord) -> str:
    lines = [f"{_title(report)} — {report.agreed}/{len(report.cases)} predictions agree with the server"]
    for c in report.cases:
        logged = c.logged if c.logged is not None else "-"
        mark = "✔" if c.agree else "✘"
        lines.append(f"  {mark} {c.case:<17} {c.changed}")
        lines.append(f"      wire: {c.wire} — server logged: {logged} — predicted: {c.predicted}")
        if c.note:
            lines.append(f"      {c.note}")
    lines += [f"  note: {n}" for n in report.notes]
    return "\n".join(lines)


def tamper_html(report: TamperRecord) -> str:
    rows = "".join(
        f"<tr><td><b>{e(c.case)}</b></td><td>{e(c.changed)}</td><td>{e(c.wire)}</td>"
        f"<td>{code(c.logged or '-')}</td><td>{code(c.predicted)}</td>"
        f"<td>{tone('ok' if c.agree else 'err', '✓ agree' if c.agree else '✗ differ')}</td><td>{e(c.note)}</td></tr>"
        for c in report.cases
    )
    head = ["case", "what changed", "wire answer", "server logged", "inspector predicted", "agree", ""]
    notes = "".join(f"<div>note: {e(n)}</div>" for n in report.notes)
    summary = f"{report.agreed}/{len(report.cases)} predictions agree with the server"
    return wrap(
        f"<b>{e(_title(report))}</b> — {e(summary)}{table(head, [rows])}{notes}",
        "mcp-lab-tamper",
    )


def tamper_bundle(report: TamperRecord) -> JsonObject:
    return report.bundle(tamper_text(report), tamper_html(report))
