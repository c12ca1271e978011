"""Build the tutorial notebooks from their sources, executing them so the saved outputs are real.

The sources (`notebooks/src/NN_name.py`) are plain Python with `# %%` cell markers and `# %% [markdown]`
cells whose lines start with `# `; they read well in review and diff cleanly. This script turns each into
`notebooks/NN_name.ipynb` and runs it in a real kernel (nbclient), so what GitHub shows is what the code
printed. nbval then re-runs the notebooks in the test suite and compares the outputs.

Run: python notebooks/build.py [NAME ...]   (all sources when no name is given)
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
        if kind is None:
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
            kind, lines = ("markdown" if "[markdown]" in line else "code"), []
            # "# %% nbval-ignore-output" tags the cell for nbval (a comment would break a leading %%magic).
            tags = [word for word in line.split()[2:] if word.startswith("nbval-")]
            name = next((word[3:] for word in line.split()[2:] if word.startswith("id=")), None)
        elif kind is not None:
            lines.append(line)
    flush()
    stable_ids(cells, names)
    return cells


def build(source: Path, execute: bool = True) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    nb.cells = parse(source.read_text())
    target = HERE / f"{source.stem}.ipynb"
    if execute:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(HERE.parent), env.get("PYTHONPATH", "")) if p)
        client = NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(HERE)}})
        client.execute(env=env)
    nbformat.write(nb, target)
    return target


def main(names: list[str]) -> None:
    sources = sorted(SOURCES.glob("*.py"))
    if names:
        sources = [s for s in sources if s.stem in names or s.name in names]
    for source in sources:
        print("built", build(source).relative_to(HERE.parent))


if __name__ == "__main__":
    main(sys.argv[1:])
