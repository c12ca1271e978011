"""The claims ledger covers the Korean edition too: every `NN:cell-id` of notebooks/CLAIMS.md resolves there.

The Korean notebook (notebooks/ko/NN_name.ipynb) is the English one with its markdown in Korean, under the
same cell ids, so a citation names the same cell in both editions. A cited code cell must hold every quoted
fragment in the Korean edition as well (its code and saved outputs are the English ones); a cited markdown
cell must be there as the Korean counterpart of the English cell that holds the quote (tests/test_claims.py
checks the English side), translated.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from tests.test_claims import NOTEBOOKS, _found, _rows, cells_of, references


@cache
def _korean(notebook: str) -> Path | None:
    (english,) = NOTEBOOKS.glob(f"{notebook}_*.ipynb")
    korean = NOTEBOOKS / "ko" / english.name
    return korean if korean.exists() else None


_cells = cache(cells_of)


CITED = sorted({notebook for _, evidence in _rows() for notebook, _, _ in references(evidence)})


def test_every_cited_notebook_has_its_korean_edition() -> None:
    missing = [notebook for notebook in CITED if _korean(notebook) is None]
    assert not missing, f"no notebooks/ko/ edition of {', '.join(missing)} (python notebooks/build.py --korean)"


@pytest.mark.parametrize(("claim", "evidence"), _rows(), ids=[claim for claim, _ in _rows()])
def test_every_citation_resolves_in_the_korean_edition(claim: str, evidence: str) -> None:
    cited = references(evidence)
    if not any(_korean(notebook) for notebook, _, _ in cited):
        pytest.skip("its notebooks have no Korean edition yet (see the test above)")
    for notebook, cell_id, fragments in cited:
        korean = _korean(notebook)
        if korean is None:
            continue
        cells = _cells(korean)
        assert cell_id in cells, f"{claim}: notebooks/ko/{korean.name} has no cell with id {cell_id!r}"
        kind, source, printed = cells[cell_id]
        (english,) = NOTEBOOKS.glob(f"{notebook}_*.ipynb")
        english_kind, english_source, _ = _cells(english)[cell_id]
        assert kind == english_kind, f"{claim}: {notebook}:{cell_id} is a {kind} cell in Korean, {english_kind} in English"
        if kind == "markdown":
            assert source and source != english_source, f"{claim}: {notebook}:{cell_id} is not translated"
            continue
        for fragment in fragments:
            assert _found(fragment, source) or _found(fragment, printed), (
                f"{claim}: ko/{notebook}:{cell_id} holds no {fragment!r} (source or saved output)"
            )
