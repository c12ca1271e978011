"""notebooks/CLAIMS.md maps every claim of the seed pages to a notebook cell: each one named must exist."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
CLAIMS = NOTEBOOKS / "CLAIMS.md"
ROW = re.compile(r"^\|\s*(?P<id>[A-Z]\d+)\s*\|(?P<rest>.*)\|\s*$")
FRAMING_ONLY = {"H1"}
"""Claims that are framing, not behaviour (said in a notebook's introduction)."""


def _notebook(token: str) -> Path:
    token = token.strip()
    matches = sorted(NOTEBOOKS.glob(f"{token}*.ipynb")) if len(token) == 2 else [NOTEBOOKS / f"{token}.ipynb"]
    assert matches and matches[0].exists(), f"no notebook {token!r}"
    return matches[0]


def _code_cells(path: Path) -> int:
    return sum(1 for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code")


def _references(notebooks: str, cells: str) -> list[tuple[Path, int]]:
    default = _notebook(re.split(r"[ /,]+", notebooks.strip())[0])
    refs = []
    if cells.startswith("whole notebook"):
        return [(default, 0)]
    without_notes = re.sub(r"\([^()]*(\([^()]*\)[^()]*)*\)", "", cells).replace("`", "")
    for segment in without_notes.split(";"):
        plain = segment
        where = re.match(r"\s*(\d\d):\s*(.*)", plain)
        notebook = _notebook(where.group(1)) if where else default
        numbers = where.group(2) if where else plain
        for first, last in re.findall(r"(?<![\w.-])(\d+)(?:\s*[-–]\s*(\d+))?(?![\w.])", numbers.split(" and ")[0]):
            for n in range(int(first), int(last or first) + 1):
                refs.append((notebook, n))
    return refs


def _rows() -> list[tuple[str, list[str]]]:
    rows = []
    for line in CLAIMS.read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match:
            columns = re.split(r"(?<!\\)\|", match["rest"])  # `\|` inside a cell is an escaped pipe
            rows.append((match["id"], [c.strip() for c in columns]))
    return rows


def test_claims_cover_both_seed_pages() -> None:
    ids = [claim for claim, _ in _rows()]
    assert len(ids) == len(set(ids)), "claim ids are unique"
    assert {i[0] for i in ids} >= {"A", "B", "H", "L"}
    assert len(ids) >= 150


@pytest.mark.parametrize(("claim", "columns"), _rows(), ids=[claim for claim, _ in _rows()])
def test_every_claim_names_cells_that_exist(claim: str, columns: list[str]) -> None:
    notebooks, cells = columns[1], columns[2]
    refs = _references(notebooks, cells)
    if claim in FRAMING_ONLY:
        return
    assert refs, f"{claim} names no cell"
    for path, cell in refs:
        assert cell < _code_cells(path), f"{claim}: {path.name} has no code cell {cell}"
