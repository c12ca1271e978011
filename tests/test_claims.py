"""notebooks/CLAIMS.md maps every claim of the seed pages to the notebook cells that prove it.

Each row's evidence column is a list of `NN:cell-id (note)` items: `NN` names a tutorial notebook, `cell-id` is
an nbformat cell id (set in the sources with `# %% id=NAME`, stable across rebuilds), and every fragment the
note quotes in backticks is evidence the cell must hold, in its source or in its saved output (`a ... b`
quotes two pieces of one line). A row must quote at least one fragment that the cells printed: what a
cell's code says proves nothing until it runs.
"""

from __future__ import annotations

import importlib.util
import re
from functools import cache
from pathlib import Path
from typing import Any

import nbformat
import pytest

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
CLAIMS = NOTEBOOKS / "CLAIMS.md"
ROW = re.compile(r"^\|\s*(?P<id>[A-Z]\d+)\s*\|(?P<rest>.*)\|\s*$")
REFERENCE = re.compile(r"(?P<notebook>\d\d):(?P<cell>[A-Za-z0-9_-]+)\s*")
SEPARATOR = re.compile(r"[\s;,]*")


def _rows() -> list[tuple[str, str]]:
    """(claim id, evidence column) of every claim row."""
    rows = []
    for line in CLAIMS.read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match:
            columns = re.split(r"(?<!\\)\|", match["rest"])  # `\|` inside a cell is an escaped pipe
            assert len(columns) == 2, f"{match['id']}: a row is | id | claim | evidence |"
            rows.append((match["id"], columns[1].strip()))
    return rows


def _note(text: str, start: int) -> tuple[str, int]:
    """The parenthesised note opening at `text[start]`, and where it ends (notes may nest parentheses;
    those inside a quoted fragment do not count)."""
    depth, quoted = 0, False
    for i in range(start, len(text)):
        quoted ^= text[i] == "`"
        depth += 0 if quoted else {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return text[start + 1 : i], i + 1
    raise AssertionError(f"unbalanced parentheses in {text[start:]!r}")


def references(evidence: str) -> list[tuple[str, str, list[str]]]:
    """`NN:cell (note with `fragments`)`, `;`-separated -> [(notebook, cell id, fragments)]."""
    found = []
    position = SEPARATOR.match(evidence, 0).end()  # type: ignore[union-attr]
    while position < len(evidence):
        reference = REFERENCE.match(evidence, position)
        assert reference, f"expected NN:cell-id at {evidence[position : position + 40]!r}"
        position = reference.end()
        assert evidence.startswith("(", position), f"{reference.group().strip()} names no evidence: add (`...`)"
        note, position = _note(evidence, position)
        fragments = [fragment.replace("\\|", "|") for fragment in re.findall(r"`([^`]+)`", note)]
        found.append((reference["notebook"], reference["cell"], fragments))
        position = SEPARATOR.match(evidence, position).end()  # type: ignore[union-attr]
    return found


def _flat(text: str) -> str:
    return " ".join(text.split())


@cache
def _cells(notebook: str) -> dict[str, tuple[str, str, str]]:
    """cell id -> (cell type, source, saved text output) for notebook `NN`."""
    (path,) = NOTEBOOKS.glob(f"{notebook}_*.ipynb")
    return cells_of(path)


def cells_of(path: Path) -> dict[str, tuple[str, str, str]]:
    """cell id -> (cell type, source, saved text output) of the notebook at `path` (either edition)."""
    cells = {}
    for cell in nbformat.read(path, as_version=4).cells:
        printed = []
        for output in cell.get("outputs", []):
            printed.append(output.get("text", ""))
            printed.append(output.get("data", {}).get("text/plain", ""))
            if output.get("output_type") == "error":
                printed.append(f"{output['ename']}: {output['evalue']}")
        cells[cell.id] = (cell.cell_type, _flat(cell.source), _flat("\n".join(printed)))
    return cells


def _found(fragment: str, text: str) -> bool:
    return all(_flat(piece) in text for piece in fragment.split("..."))


def test_claims_cover_both_seed_pages() -> None:
    ids = [claim for claim, _ in _rows()]
    assert len(ids) == len(set(ids)), "claim ids are unique"
    assert {i[0] for i in ids} >= {"A", "B", "D", "H", "L"}
    assert len(ids) >= 150


@pytest.mark.parametrize(("claim", "evidence"), _rows(), ids=[claim for claim, _ in _rows()])
def test_every_claim_cites_cells_that_hold_its_evidence(claim: str, evidence: str) -> None:
    cited = references(evidence)
    assert cited, f"{claim} cites no cell"
    printed_anywhere = False
    for notebook, cell_id, fragments in cited:
        cells = _cells(notebook)
        assert cell_id in cells, f"{claim}: notebook {notebook} has no cell with id {cell_id!r}"
        kind, source, printed = cells[cell_id]
        assert fragments, f"{claim}: {notebook}:{cell_id} quotes no evidence in backticks"
        for fragment in fragments:
            assert _found(fragment, source) or _found(fragment, printed), (
                f"{claim}: {notebook}:{cell_id} holds no {fragment!r} (source or saved output)"
            )
            printed_anywhere |= _found(fragment, printed) or kind == "markdown"
    assert printed_anywhere, f"{claim}: quote at least one thing a cited cell printed, not only its code"


def test_the_reference_parser_reads_notes_and_fragments() -> None:
    parsed = references("01:leg-one (asks `region` (a key) and `a ... b`); 08:posts (`POSTs: {'tools/call': 2}`, `f(`)")
    assert parsed == [("01", "leg-one", ["region", "a ... b"]), ("08", "posts", ["POSTs: {'tools/call': 2}", "f("])]
    with pytest.raises(AssertionError, match="names no evidence"):
        references("01:leg-one; 01:leg-two (`x`)")
    with pytest.raises(AssertionError, match="expected NN:cell-id"):
        references("cell 6 (`x`)")


def _build_module() -> Any:
    spec = importlib.util.spec_from_file_location("notebook_build", NOTEBOOKS / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cell_ids_are_stable_across_rebuilds() -> None:
    build = _build_module()
    for source in sorted((NOTEBOOKS / "src").glob("*.py")):
        text = source.read_text(encoding="utf-8")
        first, second = ([cell.id for cell in build.parse(text)] for _ in range(2))
        assert first == second and len(set(first)) == len(first), source.name
        named = re.findall(r"^# %%.*\bid=([A-Za-z0-9_-]+)", text, flags=re.MULTILINE)
        assert set(named) <= set(first), source.name
        saved = {cell.id for cell in nbformat.read(NOTEBOOKS / f"{source.stem}.ipynb", as_version=4).cells}
        assert set(named) <= saved, f"{source.stem}.ipynb lacks ids its source names: rebuild it"
