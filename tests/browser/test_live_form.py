"""The course in the real JupyterLab, as a person meets it: forms typed into, a saved notebook reopened, Interrupt.

Spec context: the client side of multi round-trip requests -- an `InputRequiredResult` asks, the person
answers in a form in the waiting cell, the answer goes back with the echoed request_state. These tests run
tutorial 1 itself (with its exercise solution put back, `notebooks/build.py --reference`) under Run All,
type the answer character by character, and then look at what the server got and what the page shows --
also after saving, shutting the kernel down and reopening the notebook -- and a notebook's waiting form and
hung tool ended by Interrupt (■). Every tutorial run twice in one kernel, its forms answered on screen:
tests/browser/tutorial_runs.py.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from playwright.sync_api import Page, expect

from tests.browser.harness import Lab
from tests.browser.pages import (
    CELL_TIMEOUT_MS,
    SETTLED_POLL_MS,
    cells,
    current_kernel_id,
    open_notebook,
    present,
    run_all,
    screenshot,
    wait_cell_running,
    wait_cells_finished,
    write_notebook,
)
from tests.browser.tutorial_runs import (
    DEAD_WIDGET,
    NOTEBOOK,
    code_cell,
    code_index,
    solved_tutorial,
    type_region_with_a_correction,
)

pytestmark = pytest.mark.browser


def saved(page: Page) -> None:
    page.evaluate("() => { window.jupyterapp.commands.execute('docmanager:save'); }")
    page.wait_for_function(
        "() => { const p = window.jupyterapp.shell.currentWidget; return !!p && !p.context.model.dirty; }",
        timeout=CELL_TIMEOUT_MS,
        polling=SETTLED_POLL_MS,
    )


def test_tutorial_one_typed_then_saved_and_reopened_without_its_kernel(lab: Lab, page: Page, tmp_path: Path) -> None:
    nb = solved_tutorial(tmp_path, "01_first_round_trip")
    name = write_notebook(lab, "01_first_round_trip.ipynb", nb)
    open_notebook(page, lab, name)
    run_all(page)
    awaiting = code_index(nb, "flow = await %mcp_call Provisioner")
    wait_cell_running(page, awaiting)
    form = code_cell(page, awaiting).locator(".mcp-lab-form")
    expect(present(form.locator(".mcp-lab-form-name").first, CELL_TIMEOUT_MS)).to_have_text("region", timeout=CELL_TIMEOUT_MS)
    region = form.get_by_label("region", exact=True)
    type_region_with_a_correction(region)
    expect(region).to_have_value("eu-west-1")
    screenshot(page, "tutorial1-typed.png", NOTEBOOK)
    region.press("Enter")

    wait_cells_finished(page, timeout_ms=120_000)
    output = code_cell(page, awaiting).locator(".jp-OutputArea")
    expect(output).to_contain_text("Provisioned 'orders' in eu-west-1.")  # what the server received
    expect(output).to_contain_text("answered region='eu-west-1'")  # the form is now its record
    screenshot(page, "tutorial1-answered.png", NOTEBOOK)

    saved(page)
    kernel = current_kernel_id(page)
    assert kernel is not None
    lab.api(f"/api/kernels/{kernel}", method="DELETE")
    open_notebook(page, lab, name)  # a reload: the saved notebook, no widget models anywhere
    expect(code_cell(page, awaiting).locator(".jp-OutputArea")).to_contain_text("answered region='eu-west-1'")
    page.wait_for_timeout(1500)  # give any widget renderer the time to complain
    expect(page.locator(NOTEBOOK).get_by_text(DEAD_WIDGET)).to_have_count(0)
    screenshot(page, "tutorial1-reopened.png", NOTEBOOK)


INTERRUPT_NOTEBOOK = [
    "%load_ext mcp_lab\nimport mcp_lab",
    """%%mcp_server desk
from typing import Annotated
import anyio
from pydantic import BaseModel, Field
from mcp.server.mcpserver import Elicit, Resolve

class Region(BaseModel):
    region: str = Field(title="Region")

async def ask_region() -> Elicit[Region]:
    return Elicit("Which region?", Region)

@mcp.tool()
async def place(region: Annotated[Region, Resolve(ask_region)]) -> str:
    return f"placed in {region.region}"

@mcp.tool()
async def hang() -> str:
    print("the tool is running")
    await anyio.sleep(600)
    return "woke up"
""",
    'placed = await mcp_lab.call("desk", "place")',
    'print(mcp_lab.last().status, "|", mcp_lab.last().stop_reason)',
    'hung = await mcp_lab.call("desk", "hang")',
    'print(mcp_lab.last().target, mcp_lab.last().status, "hung" in dir())',
]


def interrupt(page: Page) -> None:
    """The notebook toolbar's ■ button, as a person presses it."""
    page.locator('.jp-NotebookPanel:not(.lm-mod-hidden) [data-command="notebook:interrupt-kernel"]').first.click()


def run_cell(page: Page, index: int) -> None:
    code_cell(page, index).locator(".jp-InputArea-editor").click()
    page.keyboard.press("Shift+Enter")


def test_interrupt_ends_a_waiting_form_and_a_hung_tool(lab: Lab, page: Page) -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source) for source in INTERRUPT_NOTEBOOK]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    name = write_notebook(lab, "interrupt.ipynb", nb)
    open_notebook(page, lab, name)
    run_all(page)
    wait_cell_running(page, 2)
    expect(present(code_cell(page, 2).locator(".mcp-lab-form"), CELL_TIMEOUT_MS)).to_be_visible(timeout=CELL_TIMEOUT_MS)
    code_cell(page, 2).locator(".mcp-lab-form").get_by_label("Region", exact=True).press_sequentially("nor", delay=60)
    interrupt(page)
    error = code_cell(page, 2).locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    expect(error).to_contain_text("interrupted (Interrupt pressed) after 1 leg", timeout=10_000)
    assert len(error.inner_text().strip().splitlines()) == 1  # one line, no traceback
    expect(code_cell(page, 2).locator(".jp-OutputArea")).to_contain_text("abandoned")  # the form's record
    screenshot(page, "interrupt-form.png", NOTEBOOK)

    run_cell(page, 3)  # the kernel is usable, the flow is kept
    expect(code_cell(page, 3).locator(".jp-OutputArea")).to_contain_text(
        "interrupted | interrupted (Interrupt pressed)"
    )

    run_cell(page, 4)
    expect(code_cell(page, 4).locator(".jp-OutputArea")).to_contain_text("the tool is running", timeout=20_000)
    interrupt(page)
    expect(code_cell(page, 4).locator(".jp-OutputArea")).to_contain_text(
        "interrupted (Interrupt pressed)", timeout=10_000
    )
    run_cell(page, 5)
    expect(code_cell(page, 5).locator(".jp-OutputArea")).to_contain_text("hang interrupted False")
    assert not [c for c in cells(page) if any("CancelledError" in e for e in c["errors"])]
