"""Renderings of key rotation: the acceptance matrix, and a rotation under load.

Spec context: key rotation in three phases. Rows are instances with the ring they hold now; columns are
tokens minted under each phase's ring; a cell is a real verification, ✔ or ✘ with the logged reason.
"""

from __future__ import annotations

from mcp_lab.json_types import JsonObject
from mcp_lab.markup import e, table, table_row, tone, wrap
from mcp_lab.rotation.record import RotationLoadRecord, RotationRecord

__all__ = ["ROTATION_MIME", "load_bundle", "matrix_bundle", "matrix_text"]

ROTATION_MIME = "application/vnd.mcp-lab.rotation+json"


def matrix_text(matrix: RotationRecord) -> str:
    width = max(len(r) for r in matrix.rows) if matrix.rows else 0
    col_width = max(len(c) for c in matrix.columns) if matrix.columns else 0
    lines = [matrix.title, " " * width + " | " + " | ".join(c.ljust(col_width) for c in matrix.columns)]
    for row, cells in zip(matrix.rows, matrix.cells, strict=True):
        lines.append(row.ljust(width) + " | " + " | ".join(c.mark.ljust(col_width) for c in cells))
    lines += [f"note: {n}" for n in matrix.notes]
    return "\n".join(lines)


def matrix_html(matrix: RotationRecord) -> str:
    body = []
    for name, cells in zip(matrix.rows, matrix.cells, strict=True):
        tds = "".join(f"<td>{tone('ok' if c.accepted else 'err', c.mark)}</td>" for c in cells)
        body.append(f"<tr><th>{e(name)}</th>{tds}</tr>")
    notes = "".join(f"<div>{e(n)}</div>" for n in matrix.notes)
    head = ["instance \\ token", *(e(c) for c in matrix.columns)]
    return wrap(f"<b>{e(matrix.title)}</b>{table(head, body)}{notes}", "mcp-lab-rotation")


def matrix_bundle(matrix: RotationRecord) -> JsonObject:
    return matrix.bundle(matrix_text(matrix), matrix_html(matrix))


def load_html(report: RotationLoadRecord) -> str:
    steps = [
        table_row(e(", ".join(s.before)), e(", ".join(s.after)), tone("err" if s.lost else "ok", s.lost)) for s in report.steps
    ]
    verdict = tone("ok" if report.agrees else "err", ("✓ " if report.agrees else "✗ ") + report.summary)
    head = ["rings before", "rings after", "retries lost"]
    return wrap(f"<div>{verdict}</div>{table(head, steps)}", "mcp-lab-rotation-load")


def load_bundle(report: RotationLoadRecord) -> JsonObject:
    return report.bundle(report.summary, load_html(report))
