"""A replay report as stable text (also what the CI command prints), an HTML table, and plain data.

Spec context: replaying recorded multi round-trip requests; each flow's line says whether the server asked
the same questions, took the same number of rounds and gave the same result, and lists what differs.
No times and no tokens appear, so the text is stable for nbval and for CI logs.
"""

from __future__ import annotations

from mcp_lab.json_types import JsonObject
from mcp_lab.markup import code, e, table, tone, wrap
from mcp_lab.replay.record import ReplayEntryRecord, ReplayRecord

__all__ = ["REPLAY_MIME", "replay_bundle", "replay_html", "replay_text"]

REPLAY_MIME = "application/vnd.mcp-lab.replay+json"

_MARK = {"same": "same", "different": "DIFFERENT", "stopped": "STOPPED", "failed": "FAILED"}


def _rounds(entry: ReplayEntryRecord) -> str:
    return f" ({entry.replayed_rounds} round(s))" if entry.status == "same" else ""


def replay_text(report: ReplayRecord) -> str:
    lines = [report.headline]
    for entry in report.entries:
        lines.append(f"  {_MARK[entry.status]:<10} {entry.label}{_rounds(entry)}")
        lines += [f"      - {d.message}" for d in entry.differences]
    return "\n".join(lines)


def replay_html(report: ReplayRecord) -> str:
    rows = []
    for entry in report.entries:
        diffs = "".join(f"<li>{e(d.message)}</li>" for d in entry.differences)
        same = entry.status == "same"
        rows.append(
            f"<tr><td>{tone('ok' if same else 'err', ('✓ ' if same else '✗ ') + _MARK[entry.status])}</td>"
            f"<td>{code(entry.label)}</td><td>{entry.recorded_rounds} &rarr; {entry.replayed_rounds}</td>"
            f"<td><ul>{diffs}</ul></td></tr>"
        )
    return wrap(f"<b>{e(report.headline)}</b>{table(['', 'flow', 'rounds', 'differences'], rows)}", "mcp-lab-replay")


def replay_bundle(report: ReplayRecord) -> JsonObject:
    return report.bundle(replay_text(report), replay_html(report))
