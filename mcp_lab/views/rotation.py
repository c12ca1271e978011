"""Renderings of a rotation matrix: which instance accepts a token minted in which phase.

Spec context: key rotation in three phases. Rows are instances with the ring they hold now; columns are
tokens minted under each phase's ring; a cell is a real verification, ✔ or ✘ with the logged reason.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp_lab.inspect.rotation import RotationMatrix

__all__ = ["ROTATION_MIME", "matrix_bundle", "matrix_text"]

ROTATION_MIME = "application/vnd.mcp-lab.rotation+json"


def matrix_text(matrix: RotationMatrix) -> str:
    width = max(len(r) for r in matrix.rows) if matrix.rows else 0
    col_width = max(len(c) for c in matrix.columns) if matrix.columns else 0
    lines = [matrix.title, " " * width + " | " + " | ".join(c.ljust(col_width) for c in matrix.columns)]
    for row, cells in zip(matrix.rows, matrix.cells, strict=True):
        lines.append(row.ljust(width) + " | " + " | ".join(c.mark.ljust(col_width) for c in cells))
    lines += [f"note: {n}" for n in matrix.notes]
    return "\n".join(lines)


def matrix_html(matrix: RotationMatrix) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in matrix.columns)
    body = ""
    for row, cells in zip(matrix.rows, matrix.cells, strict=True):
        tds = "".join(f"<td class='mcp-lab-{'ok' if c.accepted else 'err'}'>{html.escape(c.mark)}</td>" for c in cells)
        body += f"<tr><th>{html.escape(row)}</th>{tds}</tr>"
    notes = "".join(f"<div>{html.escape(n)}</div>" for n in matrix.notes)
    return (
        f"<div class='mcp-lab-rotation'><b>{html.escape(matrix.title)}</b>"
        f"<table><tr><th>instance \\ token</th>{head}</tr>{body}</table>{notes}</div>"
    )


def matrix_bundle(matrix: RotationMatrix) -> dict[str, Any]:
    return {"text/plain": matrix_text(matrix), "text/html": matrix_html(matrix), ROTATION_MIME: matrix.to_dict()}
