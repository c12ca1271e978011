"""Build the tutorial notebooks from their sources, executing them so the saved outputs are real.

The sources (`notebooks/src/NN_name.py`) are plain Python with `# %%` cell markers and `# %% [markdown]`
cells whose lines start with `# `; they read well in review and diff cleanly. This script turns each into
`notebooks/NN_name.ipynb` and runs it in a real kernel (nbclient), so what GitHub shows is what the code
printed. nbval then re-runs the notebooks in the test suite and compares the outputs.

Exercises: a source marks an exercise's answer cell `# %% solution` and its check `# %% check`. The answer
cell holds the reference solution between nbgrader's `### BEGIN SOLUTION` / `### END SOLUTION` markers.
The notebook is executed WITH the solutions (so every output is real), then written for the reader: the
answer cells keep only what stands outside the markers (a comment saying what to write) and the check
cells lose their outputs, so the reader starts from an empty cell. Cells carry nbgrader metadata too.
`--reference DIR` writes the shipped notebooks with the solutions put back, for the test suite (nbval) to
prove every check against its reference solution; `--course DIR` writes the same notebooks as an nbgrader
course (source/NN_name/NN_name.ipynb plus class/nbgrader_config.py), whose `nbgrader generate_assignment`
gives back the shipped notebooks.

Run: python notebooks/build.py [NAME ...]   (all sources when no name is given)
     python notebooks/build.py --reference DIR
     python notebooks/build.py --course DIR
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent
SOURCES = HERE / "src"
BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
EXERCISE_TAGS = ("solution", "check")
CELL_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
"""nbformat's cell id rule (4.5 schema); notebooks/CLAIMS.md cites cells as `notebook:cell-id`."""


def stable_ids(cells: list[nbformat.NotebookNode], requested: list[str | None]) -> None:
    """Give every cell an id that survives rebuilds (nbformat would draw a random one each time).

    `# %% id=NAME` in the source names a cell (the ledger cites it); any other cell gets a digest of its
    kind and text, so editing one cell leaves the others' ids alone.
    """
    taken: set[str] = set()
    for cell, name in zip(cells, requested, strict=True):
        if name is not None:
            if not CELL_ID.match(name) or name in taken:
                raise SystemExit(f"cell id {name!r}: letters, digits, '-' and '_' (at most 64), once per notebook")
        else:
            digest = hashlib.sha256(f"{cell.cell_type}\n{cell.source}".encode()).hexdigest()
            name, n = f"{cell.cell_type[:2]}-{digest[:8]}", 1
            while name in taken:
                n += 1
                name = f"{cell.cell_type[:2]}-{digest[:8]}-{n}"
        taken.add(name)
        cell.id = name


def parse(text: str) -> list[nbformat.NotebookNode]:
    cells: list[nbformat.NotebookNode] = []
    kind, lines, tags, name = None, [], [], None
    names: list[str | None] = []

    def flush() -> None:
        if kind is None or kind == "korean":
            return
        body = "\n".join(lines).strip("\n")
        if kind == "markdown":
            body = "\n".join(line[2:] if line.startswith("# ") else line.lstrip("#") for line in body.splitlines())
            cells.append(nbformat.v4.new_markdown_cell(body))
            names.append(name)
        elif body:
            cell = nbformat.v4.new_code_cell(body)
            if tags:
                cell.metadata["tags"] = list(tags)
            cells.append(cell)
            names.append(name)

    for line in text.splitlines():
        if line.startswith("# %%"):
            flush()
            # A `[markdown ko]` cell is the Korean rendering of the markdown cell before it: not part of this edition.
            kind = "korean" if "[markdown ko]" in line else "markdown" if "[markdown]" in line else "code"
            lines = []
            # "# %% nbval-ignore-output" tags the cell for nbval (a comment would break a leading %%magic).
            tags = [word for word in line.split()[2:] if word.startswith("nbval-") or word in EXERCISE_TAGS]
            name = next((word[3:] for word in line.split()[2:] if word.startswith("id=")), None)
        elif kind is not None:
            lines.append(line)
    flush()
    stable_ids(cells, names)
    return cells


def student_source(source: str) -> str:
    """What stands outside the solution markers: the reader's starting point."""
    kept, inside = [], False
    for line in source.splitlines():
        if line.strip() == BEGIN:
            inside = True
        elif line.strip() == END:
            inside = False
        elif not inside:
            kept.append(line)
    return "\n".join(kept).rstrip("\n")


def mark_exercises(nb: nbformat.NotebookNode, stem: str) -> None:
    """nbgrader metadata: answer cells are solution cells, checks are autograded test cells worth a point."""
    answers = 0
    for cell in nb.cells:
        tags = cell.metadata.get("tags", [])
        if "solution" in tags:
            answers += 1
            cell.metadata["nbgrader"] = {
                "grade": False,
                "solution": True,
                "locked": False,
                "grade_id": f"{stem}-answer-{answers}",
                "schema_version": 3,
            }
        elif "check" in tags:
            cell.metadata["nbgrader"] = {
                "grade": True,
                "solution": False,
                "locked": True,
                "points": 1,
                "grade_id": f"{stem}-check",
                "schema_version": 3,
            }


def for_the_reader(nb: nbformat.NotebookNode) -> None:
    """Empty the exercise: answer cells keep their instructions only; checks keep no output."""
    for cell in nb.cells:
        tags = cell.metadata.get("tags", [])
        if "solution" in tags or "check" in tags:
            cell.outputs, cell.execution_count = [], None
            if "solution" in tags:
                cell.source = student_source(cell.source)


def build(source: Path, execute: bool = True) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    nb.cells = parse(source.read_text())
    mark_exercises(nb, source.stem)
    target = HERE / f"{source.stem}.ipynb"
    if execute:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(HERE.parent), env.get("PYTHONPATH", "")) if p)
        env["MCP_LAB_UNATTENDED"] = "1"  # nobody answers the forms: the sources' unattended(...) answers do
        client = NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(HERE)}})
        client.execute(env=env)
    for_the_reader(nb)
    nbformat.write(nb, target)
    return target


def with_solutions(source: Path) -> nbformat.NotebookNode:
    """The shipped notebook with its reference solutions put back: the instructor's version."""
    shipped = nbformat.read(HERE / f"{source.stem}.ipynb", as_version=4)
    solutions = iter(c.source for c in parse(source.read_text()) if "solution" in c.metadata.get("tags", []))
    for cell in shipped.cells:
        if "solution" in cell.metadata.get("tags", []):
            cell.source = next(solutions)
    return shipped


def reference(directory: Path) -> list[Path]:
    """The shipped notebooks with their solutions put back, for nbval: every check proved by its solution."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for source in sorted(SOURCES.glob("*.py")):
        nb = with_solutions(source)
        for cell in nb.cells:
            tags = cell.metadata.get("tags", [])
            if "solution" in tags or "check" in tags:
                cell.metadata["tags"] = [*tags, "nbval-ignore-output"]
        target = directory / f"{source.stem}.ipynb"
        nbformat.write(nb, target)
        written.append(target)
    return written


def course(directory: Path) -> list[Path]:
    """An nbgrader course: `source/NN_name/NN_name.ipynb` (one assignment per tutorial, with its reference
    solution) and class/nbgrader_config.py. `nbgrader generate_assignment NN_name` there writes the student
    version, which is the shipped notebook (tests/classroom/test_grading.py proves it)."""
    written = []
    for source in sorted(SOURCES.glob("*.py")):
        target = directory / "source" / source.stem / f"{source.stem}.ipynb"
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(with_solutions(source), target)
        written.append(target)
    config = directory / "nbgrader_config.py"
    config.write_text((HERE.parent / "class" / "nbgrader_config.py").read_text())
    return [config, *written]


def main(names: list[str]) -> None:
    for option, write in (("--reference", reference), ("--course", course)):
        if names[:1] == [option]:
            if len(names) != 2:
                raise SystemExit(f"usage: python notebooks/build.py {option} DIR")
            for path in write(Path(names[1])):
                print(option[2:], path)
            return
    sources = sorted(SOURCES.glob("*.py"))
    if names:
        sources = [s for s in sources if s.stem in names or s.name in names]
    for source in sources:
        print("built", build(source).relative_to(HERE.parent))


if __name__ == "__main__":
    main(sys.argv[1:])
