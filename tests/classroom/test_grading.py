"""The tutorials as an nbgrader course: released as shipped, graded by their own checks.

Spec context: every tutorial teaching the 2026-07-28 features ends with an exercise whose check cell
proves the reader's answer on a real server. An instructor runs the course with nbgrader: the answer
cells are nbgrader solution cells (the reference between `### BEGIN SOLUTION` / `### END SOLUTION`),
each check an autograded test cell worth one point. One mechanism: `build.py` writes the nbgrader
metadata and the shipped student version; `nbgrader generate_assignment` on the reference versions
(`build.py --course`) must give back those same student versions, and `nbgrader autograde` must give the
reference answers full marks and untouched notebooks zero -- with every other cell running cleanly.

Nobody answers the tutorials' live forms under nbgrader's executor: autograde runs with
MCP_LAB_UNATTENDED=1, which its kernel inherits, so the tutorials' `unattended(...)` cells answer them.
The two students are graded at the same time, each in a copy of the course (its own gradebook).
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "notebooks"))
from build import SOURCES, course  # noqa: E402

from tests.startup import BLOCK  # noqa: E402

TUTORIALS = [source.stem for source in sorted(SOURCES.glob("*.py"))]
STUDENTS = ("reference", "untouched")
"""`reference` submits the released notebooks with the reference answers typed in; `untouched` as released."""


def nbgrader(directory: Path, *args: str, unattended: bool = False) -> subprocess.Popen[bytes]:
    # nbgrader runs `alembic` from PATH to create a gradebook: this environment's scripts come first.
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    if unattended:
        env["MCP_LAB_UNATTENDED"] = "1"
    if args[0] == "autograde":
        # Its kernels over Unix sockets at a path of this run's own, as the suite's are (tests/isolation.py): a
        # TCP port picked free and bound by the kernel later can be taken in between by a parallel test.
        sockets = tempfile.mkdtemp(prefix="ag-", dir=os.environ.get("JUPYTER_RUNTIME_DIR"))
        args = (*args, "--KernelManager.transport=ipc", f"--KernelManager.ip={sockets}/k")
    log = (directory / f"nbgrader-{args[0]}.log").open("wb")
    # `python -m nbgrader`, without the grammar module jsonschema would build on import (tests/startup.py).
    command = [sys.executable, "-c", f"{BLOCK}from nbgrader.apps.nbgraderapp import main; main()", *args]
    return subprocess.Popen(command, cwd=directory, env=env, stdout=log, stderr=subprocess.STDOUT)


def finished(process: subprocess.Popen[bytes], directory: Path, step: str) -> None:
    code = process.wait(timeout=900)
    text = (directory / f"nbgrader-{step}.log").read_text(errors="replace")
    assert code == 0 and "ERROR" not in text, f"nbgrader {step} in {directory}:\n{text[-4000:]}"


def children_cpu() -> float:
    """CPU seconds of this process's finished children and everything they reaped (nbgrader, its kernels)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def grade_ids(nb: nbformat.NotebookNode, kind: str) -> dict[str, nbformat.NotebookNode]:
    return {c.metadata["nbgrader"]["grade_id"]: c for c in nb.cells if c.metadata.get("nbgrader", {}).get(kind)}


def submit(directory: Path) -> None:
    """Both students hand in every tutorial: `reference` with the reference answers typed into the released
    answer cells (nothing else touched), `untouched` exactly as released."""
    for name in TUTORIALS:
        released = directory / "release" / name / f"{name}.ipynb"
        answers = grade_ids(nbformat.read(directory / "source" / name / f"{name}.ipynb", as_version=4), "solution")
        solved = nbformat.read(released, as_version=4)
        for grade_id, cell in grade_ids(solved, "solution").items():
            cell.source = answers[grade_id].source
        for student, nb in (("reference", solved), ("untouched", nbformat.read(released, as_version=4))):
            target = directory / "submitted" / student / name / f"{name}.ipynb"
            target.parent.mkdir(parents=True, exist_ok=True)
            nbformat.write(nb, target)


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory, say: Callable[[str], None]) -> dict[str, Any]:
    """The course generated, submitted by both students and autograded (both at once)."""
    directory = tmp_path_factory.mktemp("course")
    began, cpu = time.perf_counter(), children_cpu()
    course(directory)
    finished(nbgrader(directory, "generate_assignment", "*"), directory, "generate_assignment")
    say(
        f"nbgrader generate_assignment: {len(TUTORIALS)} tutorials in {time.perf_counter() - began:.1f} s"
        f" ({children_cpu() - cpu:.1f} CPU-s)"
    )
    submit(directory)
    copies = {}
    for student in STUDENTS:  # one gradebook each, so the two autogrades never share a database
        copies[student] = directory.parent / f"{directory.name}-{student}"
        shutil.copytree(directory, copies[student])
    began, cpu = time.perf_counter(), children_cpu()
    running = {s: nbgrader(copies[s], "autograde", "*", "--student", s, unattended=True) for s in STUDENTS}
    for student, process in running.items():
        finished(process, copies[student], "autograde")
    say(
        f"nbgrader autograde: {len(STUDENTS)} students x {len(TUTORIALS)} tutorials in {time.perf_counter() - began:.1f} s"
        f" ({children_cpu() - cpu:.1f} CPU-s: nbgrader, its kernels and what they reaped)"
    )
    return {"directory": directory, "copies": copies}


def scores(copy: Path, student: str) -> dict[str, tuple[float, float]]:
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{copy / 'gradebook.db'}", "mcp-lab") as book:
        return {
            name: (book.find_submission(name, student).score, book.find_submission(name, student).max_score)
            for name in TUTORIALS
        }


def autograded(graded: dict[str, Any], student: str, name: str) -> nbformat.NotebookNode:
    path = graded["copies"][student] / "autograded" / student / name / f"{name}.ipynb"
    return nbformat.read(path, as_version=4)


def errors(nb: nbformat.NotebookNode) -> list[tuple[str, str, str]]:
    """(grade id or cell id, error name, message) of every cell that raised."""
    return [
        (cell.metadata.get("nbgrader", {}).get("grade_id", cell.get("id", "?")), o.ename, o.evalue)
        for cell in nb.cells
        for o in cell.get("outputs", [])
        if o.output_type == "error"
    ]


@pytest.mark.parametrize("name", TUTORIALS)
def test_generate_assignment_gives_the_shipped_notebook(graded: dict[str, Any], name: str) -> None:
    released = nbformat.read(graded["directory"] / "release" / name / f"{name}.ipynb", as_version=4)
    shipped = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)
    assert [c.id for c in released.cells] == [c.id for c in shipped.cells]
    for ours, theirs in zip(released.cells, shipped.cells, strict=True):
        assert ours.cell_type == theirs.cell_type
        # nbgrader puts its (empty) stub where the solution was: a blank line to write the answer on.
        assert ours.source.rstrip("\n") == theirs.source, ours.id
        assert ours.get("outputs") == theirs.get("outputs"), ours.id
        mark, shipped_mark = ours.metadata.get("nbgrader"), theirs.metadata.get("nbgrader")
        if shipped_mark is None:
            assert mark is None, ours.id
            continue
        # nbgrader adds what it checks a submission against: the locked cells' checksums and cell types.
        assert {k: v for k, v in mark.items() if k not in ("checksum", "cell_type")} == shipped_mark
        assert "checksum" in mark
    assert BEGIN_SOLUTION not in nbformat.writes(released)


BEGIN_SOLUTION = "### BEGIN SOLUTION"


def test_the_reference_answers_score_full_marks(graded: dict[str, Any], say: Callable[[str], None]) -> None:
    got = scores(graded["copies"]["reference"], "reference")
    total, most = sum(s for s, _ in got.values()), sum(m for _, m in got.values())
    say(
        f"reference answers: {total:g} / {most:g} points ({', '.join(f'{n[:2]} {s:g}/{m:g}' for n, (s, m) in got.items())})"
    )
    assert most == len(TUTORIALS) and total == most, got
    for name in TUTORIALS:
        assert errors(autograded(graded, "reference", name)) == [], name
    # The forms were answered by the tutorial's unattended(...) cell: the grading kernel saw MCP_LAB_UNATTENDED.
    first = autograded(graded, "reference", TUTORIALS[0])
    (form,) = [
        c for c in first.cells if c.source.startswith("flow = await %mcp_call Provisioner provision name=orders")
    ]
    # One print can reach the notebook as several stream outputs (the kernel flushes when it likes): join them.
    assert "".join(o.get("text", "") for o in form.outputs if o.output_type == "stream") == (
        "Provisioned 'orders' in eu-west-1.\n"
    )
    records = [o.data.get("text/plain", "") for o in form.outputs if o.output_type == "display_data"]
    assert any("elicitation form 'region' from 'Provisioner': answered region='eu-west-1'" in r for r in records)


def test_untouched_notebooks_score_zero_and_fail_only_their_checks(
    graded: dict[str, Any], say: Callable[[str], None]
) -> None:
    got = scores(graded["copies"]["untouched"], "untouched")
    total, most = sum(s for s, _ in got.values()), sum(m for _, m in got.values())
    say(f"untouched notebooks: {total:g} / {most:g} points")
    assert most == len(TUTORIALS) and total == 0, got
    cells = 0
    for name in TUTORIALS:
        nb = autograded(graded, "untouched", name)
        cells += sum(1 for c in nb.cells if c.cell_type == "code")
        # Every cell but the check ran cleanly; the check says in one line what is missing.
        found = errors(nb)
        assert len(found) == 1, (name, found)
        ((where, ename, message),) = found
        assert where == f"{name}-check" and ename == "ExerciseIncomplete", (where, ename, message)
        assert message.startswith("not done yet: define ")
    say(f"autograded {cells} code cells per student across {len(TUTORIALS)} tutorials")
