"""The course in the real JupyterLab, as a person meets it: forms typed into, a saved notebook reopened, Interrupt.

Spec context: the client side of multi round-trip requests -- an `InputRequiredResult` asks, the person
answers in a form in the waiting cell, the answer goes back with the echoed request_state. These tests run
the tutorials themselves (with their exercise solutions put back, `notebooks/build.py --reference`) under
Run All, type the answers character by character, and then look at what the server got and what the page
shows -- also after saving, shutting the kernel down and reopening the notebook, and after Interrupt (■).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import nbformat
import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.harness import Lab
from tests.browser.pages import (
    CELL_TIMEOUT_MS,
    cells,
    current_kernel_id,
    open_notebook,
    run_all,
    screenshot,
    wait_cell_running,
    wait_cells_finished,
    write_notebook,
)

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook"
DEAD_WIDGET = re.compile(r"model not found|Error displaying widget", re.IGNORECASE)
TYPING_DELAY_MS = 60


def solved_tutorial(tmp: Path, stem: str) -> Any:
    """A tutorial as shipped, its exercise solved (reference solution), without saved outputs."""
    import sys

    sys.path.insert(0, str(ROOT / "notebooks"))
    from build import reference

    (path,) = [p for p in reference(tmp) if p.stem == stem]
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    return nb


def code_index(nb: Any, prefix: str) -> int:
    code = [c for c in nb.cells if c.cell_type == "code"]
    return next(i for i, c in enumerate(code) if c.source.startswith(prefix))


def code_cell(page: Page, index: int) -> Locator:
    return page.locator(f"{NOTEBOOK} .jp-CodeCell").nth(index)


def type_like_a_person(field: Locator, text: str) -> None:
    field.click()
    field.press_sequentially(text, delay=TYPING_DELAY_MS)


def saved(page: Page) -> None:
    page.evaluate("() => { window.jupyterapp.commands.execute('docmanager:save'); }")
    page.wait_for_function(
        "() => { const p = window.jupyterapp.shell.currentWidget; return !!p && !p.context.model.dirty; }",
        timeout=CELL_TIMEOUT_MS,
    )


def answer_tutorial_forms(page: Page, stem: str, nb: Any) -> None:
    """Answer the forms a tutorial asks under Run All, typing as a person does (with a correction)."""
    if stem == "01_first_round_trip":
        wait_cell_running(page, code_index(nb, "flow = await %mcp_call Provisioner"))
        form = page.locator(f"{NOTEBOOK} .mcp-lab-form").first
        region = form.get_by_label("region", exact=True)
        type_like_a_person(region, "eu-wst")
        region.press("Backspace")
        region.press("Backspace")
        region.press_sequentially("est-1", delay=TYPING_DELAY_MS)
        region.press("Enter")  # Enter in a single-line field submits a valid form
    elif stem == "02_dependencies":
        forms = page.locator(f"{NOTEBOOK} .mcp-lab-forms").first
        expect(forms.locator(".mcp-lab-form")).to_have_count(2, timeout=CELL_TIMEOUT_MS)
        type_like_a_person(forms.get_by_label("Region", exact=True), "Kreuzberg")
        type_like_a_person(forms.get_by_label("Nights", exact=True), "three")
        forms.get_by_role("button", name="Submit all").click()
        expect(forms.get_by_text(re.compile("whole number"))).to_be_visible()  # refused in the form
        nights = forms.get_by_label("Nights", exact=True)
        nights.fill("")
        type_like_a_person(nights, "3")
        forms.get_by_role("button", name="Submit all").click()
    elif stem == "04_prompts_and_resources":
        form = page.locator(f"{NOTEBOOK} .mcp-lab-form").first
        expect(form).to_be_visible(timeout=CELL_TIMEOUT_MS)
        audience = form.get_by_label("audience", exact=True)
        type_like_a_person(audience, "the board")
        form.get_by_role("button", name="Submit").click()


def test_tutorial_one_typed_then_saved_and_reopened_without_its_kernel(lab: Lab, page: Page, tmp_path: Path) -> None:
    nb = solved_tutorial(tmp_path, "01_first_round_trip")
    name = write_notebook(lab, "01_first_round_trip.ipynb", nb)
    open_notebook(page, lab, name)
    run_all(page)
    awaiting = code_index(nb, "flow = await %mcp_call Provisioner")
    wait_cell_running(page, awaiting)
    form = code_cell(page, awaiting).locator(".mcp-lab-form")
    expect(form.locator(".mcp-lab-form-name").first).to_have_text("region", timeout=CELL_TIMEOUT_MS)
    region = form.get_by_label("region", exact=True)
    type_like_a_person(region, "eu-wst")
    region.press("Backspace")
    region.press("Backspace")
    region.press_sequentially("est-1", delay=TYPING_DELAY_MS)
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
    expect(code_cell(page, 2).locator(".mcp-lab-form")).to_be_visible(timeout=CELL_TIMEOUT_MS)
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


TUTORIALS = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


@pytest.mark.parametrize("stem", TUTORIALS)
def test_run_all_twice_in_one_kernel(lab: Lab, page: Page, tmp_path: Path, stem: str) -> None:
    nb = solved_tutorial(tmp_path, stem)
    name = write_notebook(lab, f"twice-{stem}.ipynb", nb)
    open_notebook(page, lab, name)
    for run in (1, 2):
        run_all(page)
        answer_tutorial_forms(page, stem, nb)
        wait_cells_finished(page, timeout_ms=180_000)
        assert not page.locator(NOTEBOOK).get_by_text(DEAD_WIDGET).count()
        if run == 1:
            page.evaluate("() => { window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs'); }")
    screenshot(page, f"twice-{stem}.png", NOTEBOOK)
