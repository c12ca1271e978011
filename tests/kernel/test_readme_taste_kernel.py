"""The README's "A taste" cells, read out of README.md and executed VERBATIM in one real kernel (issue 26).

Nobody is there to type the region, so -- as the tutorials do -- the kernel runs with MCP_LAB_UNATTENDED=1 and
one cell before the call says what the reader would answer (`mcp_lab.forms.unattended(...)`). The live form is
still drawn, validated and submitted through the buttons' own code; the booked result is asserted from the
README's own `flow` cell and from the flow it left behind.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.kernel.harness import errors_of, run_cells, text_of

ROOT = Path(__file__).resolve().parents[2]

ANSWER = 'import mcp_lab\nmcp_lab.forms.unattended(ask_region={"region": "eu-west"})'


def taste_cells() -> list[str]:
    """The ```python blocks of the README's "A taste" section, exactly as written there."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## A taste\n", 1)[1].split("\n## ", 1)[0]
    return [m.group(1) for m in re.finditer(r"```python\n(.*?)\n```", section, flags=re.S)]


def test_taste_cells_are_the_three_the_readme_describes() -> None:
    cells = taste_cells()
    assert len(cells) == 3, f"expected 3 python cells under 'A taste', found {len(cells)}"
    assert cells[0] == "%load_ext mcp_lab", f"expected the first cell to load the extension, found {cells[0]!r}"
    assert cells[1].startswith("%%mcp_server demo"), f"expected a server cell, found {cells[1][:40]!r}"
    assert cells[2].startswith("flow = await %mcp_call demo book city=Paris"), f"found {cells[2][:60]!r}"


def test_the_taste_runs_verbatim_and_books(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MCP_LAB_UNATTENDED", "1")
    load, server, call = taste_cells()
    cells = run_cells(
        load,
        server,
        ANSWER,
        call,
        "print('TEXT', flow.text)\nprint('LEGS', len(flow.rounds))\nprint('SAME', mcp_lab.last() is flow)\n"
        "print('QUEUE', mcp_lab.forms.prearranged())",
        "%mcp_server stop demo",
        timeout=120,
    )
    for cell in cells:
        assert not errors_of(cell), f"expected no error, found {text_of(cell)!r} in {cell['source'][:60]!r}"
    shown = text_of(cells[3])
    assert "Booked Paris in eu-west" in shown, f"expected the README's `flow` cell to show the booking, found {shown!r}"
    after = text_of(cells[4])
    assert "TEXT Booked Paris in eu-west" in after, f"expected the booked text, found {after!r}"
    assert "LEGS 2" in after, f"expected two legs (the question, then the answered retry), found {after!r}"
    assert "SAME True" in after, f"expected mcp_lab.last() to be the README's flow, found {after!r}"
    assert "QUEUE {'keyed': {}, 'in_order': []}" in after, f"expected the answer used up, found {after!r}"
