"""A bare `%mcp_call` (not awaited): its cell ends at once, and its live form still reaches the page.

Output sent after a cell has finished is dropped by JupyterLab, so the form must land in the widget area
the bare call displayed while its cell ran (views/live.py), not as late output of some other cell.
"""

from __future__ import annotations

from tests.kernel.harness import errors_of, run_cells, text_of
from tests.kernel.test_magics_kernel import SERVER_CELL

WIDGET = "application/vnd.jupyter.widget-view+json"


def test_bare_call_shows_its_form_in_its_own_live_area() -> None:
    cells = run_cells(
        "%load_ext mcp_lab\nimport mcp_lab",
        SERVER_CELL,
        "run = %mcp_call demo book city=Oslo\nrun",
        "import asyncio\nfor _ in range(100):\n    if run.area.forms.outputs:\n        break\n"
        "    await asyncio.sleep(0.02)\nform = mcp_lab.forms.last()\nform.fill(region='north')\nform.submit()\n"
        "print(len(run.area.forms.outputs), WIDGET_KEY in run.area.forms.outputs[0]['data'])".replace(
            "WIDGET_KEY", repr(WIDGET)
        ),
        "flow = await run\nprint(flow.text)\nprint(flow.rounds[1].answered_by)",
        "print(run.area.view.outputs[-1]['data']['text/plain'].splitlines()[0])",
    )
    assert [errors_of(c) for c in cells] == [[]] * len(cells)
    # The bare call's cell shows one widget (the live area) and nothing else.
    assert [sorted(o.get("data", {})) for o in cells[2]["outputs"]] == [sorted(["text/plain", WIDGET])]
    # The form went into that area, not into the cell that happened to be running.
    assert text_of(cells[3]).strip() == "1 True"
    assert not [o for o in cells[3]["outputs"] if WIDGET in o.get("data", {})]
    assert text_of(cells[4]).splitlines() == ["Booked Oslo in north", "{'__main__:ask_region': 'form'}"]
    assert text_of(cells[5]).strip() == "Flow tools/call 'book' on 'demo' (2026-07-28): done after 2 legs"


def test_a_bare_call_line_waits_and_shows_the_flow() -> None:
    cells = run_cells(
        "%load_ext mcp_lab\nimport mcp_lab",
        SERVER_CELL,
        '%mcp_call demo book city=Rome --answers \'{"ask_region": {"region": "south"}}\'',
        "print(mcp_lab.last().text)",
    )
    assert [errors_of(c) for c in cells] == [[]] * len(cells)
    results = [o for o in cells[2]["outputs"] if o["output_type"] == "execute_result"]
    assert results and results[0]["data"]["text/plain"].startswith("Flow tools/call 'book' on 'demo'")
    assert WIDGET not in results[0]["data"]  # the cell waited: its output is the finished flow, no live widget
    assert text_of(cells[3]).strip() == "Booked Rome in south"
