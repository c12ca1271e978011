"""A replay report as stable text (also what the CI command prints), an HTML table, and plain data.

Spec context: replaying recorded multi round-trip requests; each flow's line says whether the server asked
the same questions, took the same number of rounds and gave the same result, and lists what differs.
No times and no tokens appear, so the text is stable for nbval and for CI logs.
"""

from __future__ import annotations

import html
import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp_lab.replay import ReplayEntry, ReplayReport

__all__ = ["REPLAY_MIME", "replay_bundle", "replay_html", "replay_text"]

REPLAY_MIME = "application/vnd.mcp-lab.replay+json"

_MARK = {"same": "same", "different": "DIFFERENT", "stopped": "STOPPED", "failed": "FAILED"}


def _headline(report: ReplayReport) -> str:
    where = f"against {report.server!r}" if report.server else "against the recorded servers"
    counts = {s: sum(1 for e in report.entries if e.status == s) for s in ("different", "stopped", "failed")}
    tally = ", ".join(f"{n} {s}" for s, n in counts.items() if n) or "no differences"
    return f"replay {where}: {len(report.entries)} flow(s), {tally}"


def _rounds(entry: ReplayEntry) -> str:
    if entry.status == "same":
        return f" ({entry.replayed_rounds} round(s))"
    return ""


def replay_text(report: ReplayReport) -> str:
    lines = [_headline(report)]
    for entry in report.entries:
        lines.append(f"  {_MARK[entry.status]:<10} {entry.label}{_rounds(entry)}")
        lines += [f"      - {d.message}" for d in entry.differences]
    return "\n".join(lines)


def replay_html(report: ReplayReport) -> str:
    rows = []
    for entry in report.entries:
        diffs = "".join(f"<li>{html.escape(d.message)}</li>" for d in entry.differences)
        cls = "ok" if entry.status == "same" else "err"
        rows.append(
            f"<tr class='mcp-lab-{cls}'><td>{_MARK[entry.status]}</td><td><code>{html.escape(entry.label)}</code></td>"
            f"<td>{entry.recorded_rounds} &rarr; {entry.replayed_rounds}</td><td><ul>{diffs}</ul></td></tr>"
        )
    return (
        f"<div class='mcp-lab-replay'><b>{html.escape(_headline(report))}</b><table><thead><tr><th></th>"
        "<th>flow</th><th>rounds</th><th>differences</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def replay_bundle(report: ReplayReport) -> dict[str, Any]:
    data = json.loads(json.dumps(report.to_dict(), default=str))  # plain JSON all the way down
    return {"text/plain": replay_text(report), "text/html": replay_html(report), REPLAY_MIME: data}
