"""The tamper lab as a table: what changed, the frozen wire answer, the server's real reason, the prediction.

Spec context: the SDK docs' "On verification failure" -- one frozen `-32602` for every failed check, the
real reason in the server log only. Putting the two side by side, with `inspect_token`'s prediction and
whether it agreed, is the lesson. `text/plain` holds no tokens or times (the rows are stable for nbval).
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp_lab.inspect.tamper import TamperReport

__all__ = ["TAMPER_MIME", "tamper_bundle", "tamper_html", "tamper_text"]

TAMPER_MIME = "application/vnd.mcp-lab.tamper+json"


def tamper_text(report: TamperReport) -> str:
    agreed = sum(c.agree for c in report.cases)
    lines = [
        f"Tamper lab: {report.method} {report.target!r} on {report.server!r} — "
        f"{agreed}/{len(report.cases)} predictions agree with the server",
    ]
    for c in report.cases:
        logged = c.logged if c.logged is not None else "-"
        mark = "✔" if c.agree else "✘"
        lines.append(f"  {mark} {c.case:<17} {c.changed}")
        lines.append(f"      wire: {c.wire} — server logged: {logged} — predicted: {c.predicted}")
        if c.note:
            lines.append(f"      {c.note}")
    lines += [f"  note: {n}" for n in report.notes]
    return "\n".join(lines)


def tamper_html(report: TamperReport) -> str:
    def cell(value: Any) -> str:
        return f"<td>{html.escape(str(value))}</td>"

    rows = "".join(
        f"<tr style='background:{'#f0fdf4' if c.agree else '#fef2f2'}'>"
        + cell(c.case)
        + cell(c.changed)
        + cell(c.wire)
        + f"<td><code>{html.escape(c.logged or '-')}</code></td>"
        + f"<td><code>{html.escape(c.predicted)}</code></td>"
        + cell("✔" if c.agree else "✘")
        + cell(c.note)
        + "</tr>"
        for c in report.cases
    )
    head = (
        "<tr><th>case</th><th>what changed</th><th>wire answer</th><th>server logged</th>"
        "<th>inspector predicted</th><th>agree</th><th></th></tr>"
    )
    notes = "".join(f"<div>note: {html.escape(n)}</div>" for n in report.notes)
    title = html.escape(f"Tamper lab: {report.method} {report.target!r} on {report.server!r}")
    return f"<div class='mcp-lab-tamper'><b>{title}</b><table>{head}{rows}</table>{notes}</div>"


def tamper_bundle(report: TamperReport) -> dict[str, Any]:
    return {"text/plain": tamper_text(report), "text/html": tamper_html(report), TAMPER_MIME: report.to_dict()}
