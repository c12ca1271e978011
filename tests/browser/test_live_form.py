"""A person answers the server's question in a live form while the cell awaits, in the real JupyterLab.

Spec context: the client side of a multi round-trip request -- an `InputRequiredResult` asks one
elicitation question; the lab shows it as a live form *in the awaiting cell* (one anywidget per round
whose front end sends every value in one message; ipykernel >= 7.4 dispatches it meanwhile), the answer
is sent with the echoed request_state, and the tool's result comes back. The scenario is the first tutorial itself, run from top to bottom, with its
headless shortcut (the `prearrange` cell) removed so that a person has to type and click.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from playwright.sync_api import Page, expect

from tests.browser.harness import Lab
from tests.browser.pages import (
    mime_outputs,
    open_notebook,
    run_all,
    screenshot,
    wait_cell_running,
    wait_cells_finished,
    write_notebook,
)

pytestmark = pytest.mark.browser

TUTORIAL = Path(__file__).resolve().parents[2] / "notebooks" / "01_first_round_trip.ipynb"


def _tutorial_for_a_person() -> tuple[object, int]:
    """Tutorial 1 without saved outputs and without its prearranged answer; the awaiting cell's index."""
    nb = nbformat.read(TUTORIAL, as_version=4)
    nb.cells = [c for c in nb.cells if not (c.cell_type == "code" and "forms.prearrange(" in c.source)]
    code = [c for c in nb.cells if c.cell_type == "code"]
    for cell in code:
        cell.outputs, cell.execution_count = [], None
    awaiting = next(i for i, c in enumerate(code) if c.source.startswith("flow = await %mcp_call Provisioner"))
    return nb, awaiting


def test_answer_a_live_form_in_the_first_tutorial(lab: Lab, page: Page) -> None:
    notebook, awaiting = _tutorial_for_a_person()
    name = write_notebook(lab, "01_first_round_trip.ipynb", notebook)
    open_notebook(page, lab, name)
    run_all(page)
    wait_cell_running(page, awaiting)

    cell = page.locator(".jp-Notebook .jp-CodeCell").nth(awaiting)
    form = cell.locator(".mcp-lab-form").filter(has=page.get_by_role("button", name="Submit"))
    expect(form.first).to_be_visible(timeout=30_000)
    field = form.first.get_by_label(re.compile(r"^\s*region\s*$", re.IGNORECASE))
    field.click()
    field.press_sequentially("eu-west-1", delay=80)  # as a person types: every key must arrive
    screenshot(page, "live-form.png", ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook")
    form.first.get_by_role("button", name="Submit").click()

    wait_cells_finished(page)
    expect(cell.locator(".jp-OutputArea").first).to_contain_text("Provisioned 'orders' in eu-west-1.")
    view = mime_outputs(page, "application/vnd.mcp-lab.flow+json").locator(".mcp-lab-flow-view")
    expect(view.first).to_be_visible()
    expect(view.first.locator(".mcp-lab-leg")).to_have_count(2)
    expect(view.first.locator(".mcp-lab-input-response")).to_contain_text("eu-west-1")
    last = page.locator(".jp-Notebook .jp-CodeCell").last
    expect(last.locator(".jp-OutputArea")).to_contain_text("well done")
    screenshot(page, "live-form-answered.png", ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook")
