"""Views cap what they embed: a 5 MB token displayed in a real kernel adds less than 64 KiB to the notebook."""

from __future__ import annotations

import json

from tests.kernel.harness import errors_of, run_cells

CELLS = (
    "import mcp_lab",
    'report = mcp_lab.inspect_token("v1." + "A" * 5_000_000)\nreport',
    'flow = mcp_lab.Flow(server="s", method="tools/call", target="t", arguments={"blob": "B" * 5_000_000})\nflow',
)


def test_a_5_mb_token_or_argument_adds_less_than_64_kib_to_the_notebook() -> None:
    cells = run_cells(*CELLS, timeout=120)
    assert not any(errors_of(c) for c in cells), [errors_of(c) for c in cells]
    for cell in cells[1:]:
        saved = len(json.dumps(cell["outputs"]))
        assert saved < 64 * 1024, saved
        [output] = cell["outputs"]
        assert set(output["data"]) == {"text/plain", "text/html", *(k for k in output["data"] if "vnd.mcp-lab" in k)}
        assert "5,000,003 chars" in output["data"]["text/html"] or "5,000,000 chars" in output["data"]["text/html"]
