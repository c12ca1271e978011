"""The tutorials as a reader meets them: empty exercises whose checks say what is missing.

Spec context: the course teaches the 2026-07-28 features by running them. A reader opens a shipped
notebook (notebooks/NN_*.ipynb): each exercise starts from an empty answer cell, and its check -- run
before anything is written -- says in one line what to write. The reference solutions are proved by nbval
(`./dev test`), and in JupyterLab, where every tutorial runs twice in one kernel (Run All, then Run All
again, the forms answered on screen: tests/browser/tutorial_runs.py).
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
sys.path.insert(0, str(ROOT / "notebooks"))
from build import BEGIN  # noqa: E402


def cells(path: Path, tag: str) -> list[nbformat.NotebookNode]:
    nb = nbformat.read(path, as_version=4)
    return [c for c in nb.cells if tag in c.metadata.get("tags", [])]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_the_shipped_exercise_is_empty_and_graded(path: Path) -> None:
    answers, checks = cells(path, "solution"), cells(path, "check")
    assert answers and len(checks) == 1, "every tutorial ends with one exercise"
    for cell in answers:
        code = [line for line in cell.source.splitlines() if line.strip() and not line.startswith(("#", "%%"))]
        assert code == [] and BEGIN not in cell.source, "the reader starts from an empty answer cell"
        assert cell.outputs == [] and cell.metadata["nbgrader"]["solution"] is True
    (check,) = checks
    assert check.source.startswith("mcp_lab.exercise_needs(") and check.outputs == []
    assert check.metadata["nbgrader"]["grade"] is True and check.metadata["nbgrader"]["points"] == 1


def test_an_untouched_check_says_what_is_missing_in_one_line() -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("%load_ext mcp_lab\nimport mcp_lab")]
    nb.cells += [nbformat.v4.new_code_cell(cells(path, "check")[0].source) for path in NOTEBOOKS]
    NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=True).execute()
    for path, cell in zip(NOTEBOOKS, nb.cells[1:], strict=True):
        (error,) = [o for o in cell.outputs if o.output_type == "error"]
        assert error.ename == "ExerciseIncomplete", (path.stem, error.ename)
        assert len(error.traceback) == 1 and "not done yet: define `" in error.evalue, (path.stem, error.traceback)
