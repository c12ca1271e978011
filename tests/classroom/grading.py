"""The tutorials as an nbgrader course, for the grading tests (test_grading.py, test_grading_servers.py).

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

The course is graded in two parts, one per test file, so that neither file holds a test worker for the
whole course (~450 s in CI as one file): tutorials 10 and 11 (audit and fleet: tutorial 11 alone starts
fifteen server processes and takes as long as several others together), and tutorials 1 to 9. Each part
is a course of its own: generated, submitted and autograded by real nbgrader commands, one
`generate_assignment` for the part and one `autograde` per student for all its tutorials.
"""

from __future__ import annotations

import json
import os
import re
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
SERVERS = ["10_audit_your_server", "11_many_instances"]
"""Graded in test_grading_servers.py; the others in test_grading.py."""
STUDENTS = ("reference", "untouched")
"""`reference` submits the released notebooks with the reference answers typed in; `untouched` as released."""
BEGIN_SOLUTION = "### BEGIN SOLUTION"

ARCHIVES = """
import importlib, types
def _unpacker(name):
    def unpack(*args, **kwargs):  # the first call imports setuptools' own module and hands over to it
        if getattr(sys.modules.get('setuptools.archive_util'), 'stand_in', False):
            del sys.modules['setuptools.archive_util']
        return getattr(importlib.import_module('setuptools.archive_util'), name)(*args, **kwargs)
    return unpack
_archives = types.ModuleType('setuptools.archive_util')
_archives.stand_in = True
for _name in ('unpack_archive', 'unpack_tarfile', 'unpack_zipfile'):
    setattr(_archives, _name, _unpacker(_name))
sys.modules.setdefault('setuptools.archive_util', _archives)
"""
"""nbgrader.utils imports three functions of `setuptools.archive_util` (for `nbgrader zip_collect`, which the
course never runs), and importing it imports setuptools and pkg_resources: ~0.3 of the ~2 CPU-s every nbgrader
process pays for its imports (measured), and again in its `alembic heads`. Until one is called they are stand-ins
that import the real module then and call it: what nbgrader runs is the same, the import happens when used."""
NBGRADER = BLOCK + ARCHIVES + "from nbgrader.apps.nbgraderapp import main; main()"
"""`python -m nbgrader`, without the grammar module jsonschema would build on import (tests/startup.py), and with
setuptools' archive helpers imported on first use (ARCHIVES). Its kernels are exec'd, as a course's are: forked
(tests/forked_kernels.py), one of them logged a ZMQ error as nbgrader shut it down (a full run, tutorial 8)."""
SCORES = """
import json, pathlib
from nbgrader.api import Gradebook
student = sys.argv[sys.argv.index('--student') + 1]
with Gradebook('sqlite:///gradebook.db', 'mcp-lab') as book:
    found = {a.name: book.find_submission(a.name, student) for a in book.assignments}
    scores = {name: [s.score, s.max_score] for name, s in found.items()}
pathlib.Path('scores.json').write_text(json.dumps(scores))
"""
"""After `autograde`, in the same process: the scores it recorded, read with nbgrader's own gradebook API
(the test process would pay seconds of CPU importing nbgrader only to read them)."""


ALEMBIC = f"""#!{sys.executable}
{BLOCK}
{ARCHIVES}
from alembic.config import main
sys.exit(main())
"""
"""This environment's `alembic` command, started without the grammar module (tests/startup.py) as nbgrader is (and
with ARCHIVES):
nbgrader runs `alembic heads` to create a gradebook, and that imports nbgrader (so nbformat and jsonschema)
again -- 2.7 of its 5 CPU-s went to building the grammars (measured)."""


def tools(directory: Path) -> Path:
    """A folder for the front of nbgrader's PATH, holding `alembic` as above."""
    folder = directory.parent / f"{directory.name}-tools"
    folder.mkdir()
    (folder / "alembic").write_text(ALEMBIC)
    (folder / "alembic").chmod(0o755)
    return folder


def nbgrader(directory: Path, path: Path, *args: str, unattended: bool = False) -> subprocess.Popen[bytes]:
    # nbgrader runs `alembic` from PATH to create a gradebook: `path` (tools()), then this environment's scripts.
    front = f"{path}{os.pathsep}{Path(sys.executable).parent}"
    env = {**os.environ, "PATH": f"{front}{os.pathsep}{os.environ.get('PATH', '')}"}
    if unattended:
        env["MCP_LAB_UNATTENDED"] = "1"
    code = NBGRADER
    if args[0] == "autograde":
        # Its kernels over Unix sockets at a path of this run's own, as the suite's are (tests/isolation.py): a
        # TCP port picked free and bound by the kernel later can be taken in between by a parallel test.
        sockets = tempfile.mkdtemp(prefix="ag-", dir=os.environ.get("JUPYTER_RUNTIME_DIR"))
        args = (*args, "--KernelManager.transport=ipc", f"--KernelManager.ip={sockets}/k")
        code += SCORES
    log = (directory / f"nbgrader-{args[0]}.log").open("wb")
    command = [sys.executable, "-c", code, *args]
    return subprocess.Popen(command, cwd=directory, env=env, stdout=log, stderr=subprocess.STDOUT)


SHUTDOWN_RACE = re.compile(
    r"^(?:ERROR:tornado\.general:)?Uncaught exception in ZMQStream callback\nTraceback \(most recent call last\):\n"
    r"((?: .*\n)+?)zmq\.error\.ZMQError: Socket operation on non-socket\n",
    re.MULTILINE,
)
"""ipykernel 7.4's own race as a kernel shuts down, logged twice on the kernel's stderr (which nbgrader's log holds):
its control thread, done with the shutdown request, flushes stdout (`process_control`) into the IOPub pipe that
the main thread has closed meanwhile. Seen under load in a full run, with kernels exec'd as a course's are, after
the notebook had been graded and written; nothing of the course runs then."""


def without_shutdown_race(text: str) -> str:
    """`text` less `SHUTDOWN_RACE`'s tracebacks (only those raised from process_control's flush)."""

    def drop(found: re.Match[str]) -> str:
        frames = found.group(1)
        return "" if "in process_control" in frames and "iostream.py" in frames else found.group(0)

    return SHUTDOWN_RACE.sub(drop, text)


def finished(process: subprocess.Popen[bytes], directory: Path, step: str) -> None:
    code = process.wait(timeout=900)
    text = without_shutdown_race((directory / f"nbgrader-{step}.log").read_text(errors="replace"))
    errors = [line for line in text.splitlines() if "ERROR" in line]
    shown = "\n".join(errors[:5])
    assert code == 0 and not errors, f"nbgrader {step} in {directory} (exit {code}):\n{shown}\n...\n{text[-4000:]}"


def children_cpu() -> float:
    """CPU seconds of this process's finished children and everything they reaped (nbgrader, its kernels)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def grade_ids(nb: nbformat.NotebookNode, kind: str) -> dict[str, nbformat.NotebookNode]:
    return {c.metadata["nbgrader"]["grade_id"]: c for c in nb.cells if c.metadata.get("nbgrader", {}).get(kind)}


def submit(directory: Path, tutorials: list[str]) -> None:
    """Both students hand in every tutorial: `reference` with the reference answers typed into the released
    answer cells (nothing else touched), `untouched` exactly as released."""
    for name in tutorials:
        released = directory / "release" / name / f"{name}.ipynb"
        answers = grade_ids(nbformat.read(directory / "source" / name / f"{name}.ipynb", as_version=4), "solution")
        solved = nbformat.read(released, as_version=4)
        for grade_id, cell in grade_ids(solved, "solution").items():
            cell.source = answers[grade_id].source
        for student, nb in (("reference", solved), ("untouched", nbformat.read(released, as_version=4))):
            target = directory / "submitted" / student / name / f"{name}.ipynb"
            target.parent.mkdir(parents=True, exist_ok=True)
            nbformat.write(nb, target)


def grade(tmp_path_factory: pytest.TempPathFactory, say: Callable[[str], None], tutorials: list[str]) -> dict[str, Any]:
    """The course of these tutorials generated, submitted by both students and autograded (both at once)."""
    directory = tmp_path_factory.mktemp("course")
    began, cpu = time.perf_counter(), children_cpu()
    course(directory)
    for other in set(TUTORIALS) - set(tutorials):  # build.py writes the whole course; this part grades these
        shutil.rmtree(directory / "source" / other)
    path = tools(directory)
    finished(nbgrader(directory, path, "generate_assignment", "*"), directory, "generate_assignment")
    say(
        f"nbgrader generate_assignment: {len(tutorials)} tutorials in {time.perf_counter() - began:.1f} s"
        f" ({children_cpu() - cpu:.1f} CPU-s)"
    )
    submit(directory, tutorials)
    copies = {}
    for student in STUDENTS:  # one gradebook each, so the two autogrades never share a database
        copies[student] = directory.parent / f"{directory.name}-{student}"
        shutil.copytree(directory, copies[student])
    began, cpu = time.perf_counter(), children_cpu()
    running = {s: nbgrader(copies[s], path, "autograde", "*", "--student", s, unattended=True) for s in STUDENTS}
    for student, process in running.items():
        finished(process, copies[student], "autograde")
    say(
        f"nbgrader autograde: {len(STUDENTS)} students x {len(tutorials)} tutorials in"
        f" {time.perf_counter() - began:.1f} s ({children_cpu() - cpu:.1f} CPU-s: nbgrader, its kernels and what"
        " they reaped)"
    )
    return {"directory": directory, "copies": copies, "tutorials": tutorials}


def scores(graded: dict[str, Any], student: str) -> dict[str, tuple[float, float]]:
    """Each tutorial's (score, most) in the student's gradebook, as nbgrader recorded them."""
    got = json.loads((graded["copies"][student] / "scores.json").read_text())
    assert sorted(got) == sorted(graded["tutorials"]), got
    return {name: (got[name][0], got[name][1]) for name in graded["tutorials"]}


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


def check_release(graded: dict[str, Any], name: str) -> None:
    """`nbgrader generate_assignment` gave back the shipped notebook."""
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


def check_reference(graded: dict[str, Any], say: Callable[[str], None]) -> None:
    """The reference answers score full marks, and no cell of theirs raised."""
    got = scores(graded, "reference")
    total, most = sum(s for s, _ in got.values()), sum(m for _, m in got.values())
    say(
        f"reference answers: {total:g} / {most:g} points ({', '.join(f'{n[:2]} {s:g}/{m:g}' for n, (s, m) in got.items())})"
    )
    assert most == len(graded["tutorials"]) and total == most, got
    for name in graded["tutorials"]:
        raised = errors(autograded(graded, "reference", name))
        assert raised == [], f"{name}: {raised}"


def check_untouched(graded: dict[str, Any], say: Callable[[str], None]) -> None:
    """Untouched notebooks score zero; every cell but the check ran cleanly, the check says what is missing."""
    got = scores(graded, "untouched")
    total, most = sum(s for s, _ in got.values()), sum(m for _, m in got.values())
    say(f"untouched notebooks: {total:g} / {most:g} points")
    assert most == len(graded["tutorials"]) and total == 0, got
    cells = 0
    for name in graded["tutorials"]:
        nb = autograded(graded, "untouched", name)
        cells += sum(1 for c in nb.cells if c.cell_type == "code")
        # Every cell but the check ran cleanly; the check says in one line what is missing.
        found = errors(nb)
        assert len(found) == 1, (name, found)
        ((where, ename, message),) = found
        assert where == f"{name}-check" and ename == "ExerciseIncomplete", (where, ename, message)
        assert message.startswith("not done yet: define ")
    say(f"autograded {cells} code cells per student across {len(graded['tutorials'])} tutorials")
