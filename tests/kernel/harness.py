"""Run notebook cells in a real ipykernel (through nbclient), as a user's notebook would run."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[2]


def kernel_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    return env


def run_cells(*sources: str, timeout: int = 60, allow_errors: bool = True) -> list[dict[str, Any]]:
    """Execute the cells in one fresh kernel; return each cell's outputs."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(s) for s in sources]
    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        allow_errors=allow_errors,
        resources={"metadata": {"path": str(ROOT)}},
    )
    client.km = client.create_kernel_manager()
    client.km.kernel_spec  # noqa: B018 - resolve the spec before overriding the environment
    client.execute(env=kernel_env())
    return [dict(cell) for cell in nb.cells]


def text_of(cell: dict[str, Any]) -> str:
    """All text a cell showed: streams, text/plain results, and error names + values."""
    text = ""
    for out in cell.get("outputs", []):
        if out["output_type"] == "stream":
            text += out["text"]  # a busy kernel may flush one print() in several pieces: they join as printed
            continue
        if out["output_type"] in ("execute_result", "display_data"):
            part = out["data"].get("text/plain", "")
        elif out["output_type"] == "error":
            part = f"{out['ename']}: {out['evalue']}"
        else:
            continue
        text += ("\n" if text and not text.endswith("\n") else "") + part
    return text


def errors_of(cell: dict[str, Any]) -> list[dict[str, Any]]:
    return [o for o in cell.get("outputs", []) if o["output_type"] == "error"]
