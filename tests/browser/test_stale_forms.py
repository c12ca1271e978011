"""A waiting form whose kernel goes away, seen as a person sees it: after a restart, a shutdown, a reopen.

Spec context: a 2026-07-28 `InputRequiredResult` waits for a person's answer in an awaiting cell. When the
kernel that asked restarts or is shut down, nothing typed into its form can reach a server any more (issue
26): every live form on the page -- in its cell and in the side panel -- turns into its record ("abandoned:
the kernel restarted") and loses its buttons. A notebook saved while the form waited (autosave does it)
reopens showing what was asked and that it was not answered, never "Error displaying widget: model not
found". These tests type into the form first, as a person would, and check the kernel received nothing.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.browser.forms_pages import (
    AWAITING,
    DELAY_MS,
    PANEL,
    echo_notebook,
    open_in_notebook7,
    output_form,
    retype,
    run_until_form,
)
from tests.browser.harness import Lab
from tests.browser.pages import (
    CELL_TIMEOUT_MS,
    SETTLED_POLL_MS,
    current_kernel_id,
    open_notebook,
    present,
    run_all,
    screenshot,
    screenshot_path,
    wait_cell_running,
    wait_kernel_idle,
    write_notebook,
)

pytestmark = pytest.mark.browser

NOTEBOOK = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook"
DEAD_WIDGET = re.compile(r"model not found|Error displaying widget", re.IGNORECASE)


def restart_kernel_as_a_person(page: Page) -> None:
    """The notebook toolbar's restart button, then Restart in the dialog that asks."""
    page.locator('.jp-NotebookPanel:not(.lm-mod-hidden) [data-command="notebook:restart-kernel"]').first.click()
    dialog = page.locator(".jp-Dialog")
    expect(dialog).to_be_visible(timeout=10_000)
    accept = dialog.locator("button.jp-mod-accept")
    expect(accept).to_contain_text("Restart")
    accept.click()
    expect(dialog).to_have_count(0)


def saved(page: Page) -> None:
    page.evaluate("() => { window.jupyterapp.commands.execute('docmanager:save'); }")
    page.wait_for_function(
        "() => { const p = window.jupyterapp.shell.currentWidget; return !!p && !p.context.model.dirty; }",
        timeout=CELL_TIMEOUT_MS,
        polling=SETTLED_POLL_MS,
    )


@pytest.mark.parametrize("frontend", ["lab", "notebook7"])
def test_a_restart_turns_the_waiting_form_into_its_record_in_the_cell_and_the_side_panel(
    lab: Lab, page: Page, frontend: str
) -> None:
    if frontend == "lab":
        form = run_until_form(page, lab, "restart_waiting.ipynb", "profile", "ask_profile")
    else:
        name = write_notebook(lab, "restart_waiting_nb7.ipynb", echo_notebook("profile"))
        open_in_notebook7(page, lab, name)
        run_all(page)
        wait_cell_running(page, AWAITING)
        form = output_form(page, "ask_profile")
        expect(present(form, 30_000)).to_be_visible(timeout=30_000)
    retype(form.get_by_label("Name", exact=True), "Ada")
    page.evaluate("() => window.jupyterapp.commands.execute('mcp-lab:show-waiting')")
    panel = page.locator(PANEL)
    panel_form = panel.locator('.mcp-lab-form[data-key="ask_profile"]')
    expect(present(panel_form, 30_000)).to_be_visible(timeout=30_000)
    screenshot(page, f"stale-restart-before-{frontend}.png")

    restart_kernel_as_a_person(page)

    # The cell's form: a record saying why, with what it asked; no field, no button left to press.
    expect(form).to_have_attribute("data-state", "abandoned", timeout=30_000)
    expect(form).to_contain_text("abandoned: the kernel restarted")
    expect(form).to_contain_text("Tell us about you.")
    cell_forms = page.locator(".jp-Notebook .jp-CodeCell").nth(AWAITING).locator(".mcp-lab-forms")
    expect(cell_forms.get_by_role("button")).to_have_count(0)
    expect(cell_forms.locator("input")).to_have_count(0)
    # The side panel says the same, and keeps the record rather than dropping it silently.
    expect(panel_form).to_have_attribute("data-state", "abandoned")
    expect(panel_form).to_contain_text("abandoned: the kernel restarted")
    expect(panel.locator(".mcp-lab-waiting-round").get_by_role("button")).to_have_count(0)
    screenshot(page, f"stale-restart-after-{frontend}.png")

    # The new kernel knows nothing of the old flow, and nothing was sent to the server: no RECEIVED line.
    wait_kernel_idle(page)
    output = page.locator(".jp-Notebook .jp-CodeCell").nth(AWAITING).locator(".jp-OutputArea")
    expect(output).not_to_contain_text("RECEIVED")
    expect(page.locator(NOTEBOOK).get_by_text(DEAD_WIDGET)).to_have_count(0)


def test_a_notebook_saved_while_a_form_waits_reopens_with_the_question_not_answered(
    lab: Lab, page: Page, context: BrowserContext
) -> None:
    name = "saved_waiting.ipynb"
    form = run_until_form(page, lab, name, "profile", "ask_profile")
    name_field = form.get_by_label("Name", exact=True)
    name_field.click()
    name_field.press_sequentially("Grace", delay=DELAY_MS)
    saved(page)  # as autosave would, while the cell still awaits the answer
    kernel = current_kernel_id(page)
    assert kernel is not None
    page.close()  # the person leaves; later the kernel is shut down (the Running panel, a server restart)
    lab.api(f"/api/kernels/{kernel}", method="DELETE")

    tab = context.new_page()
    open_notebook(tab, lab, name)  # reopened: the saved output, its widget model gone with its kernel
    wait_kernel_idle(tab)
    output = tab.locator(f"{NOTEBOOK} .jp-CodeCell").nth(AWAITING).locator(".jp-OutputArea")
    reopened = output.locator('.mcp-lab-form[data-key="ask_profile"]')
    expect(present(reopened, 30_000)).to_be_visible(timeout=30_000)
    expect(reopened).to_contain_text("Tell us about you.")  # the question
    expect(reopened).to_contain_text("not answered")  # and that nobody answered it
    expect(reopened.get_by_role("button")).to_have_count(0)
    tab.wait_for_timeout(1500)  # give the widget renderer every chance to complain
    expect(tab.locator(NOTEBOOK).get_by_text(DEAD_WIDGET)).to_have_count(0)
    # What was typed is the person's, not the notebook's: the draft was not saved with the question.
    assert "Grace" not in (lab.root / name).read_text()
    output.scroll_into_view_if_needed()
    output.screenshot(path=str(screenshot_path("stale-reopened.png")))


def test_shutting_the_kernel_down_ends_the_waiting_form(lab: Lab, page: Page) -> None:
    form = run_until_form(page, lab, "shutdown_waiting.ipynb", "profile", "ask_profile")
    retype(form.get_by_label("Name", exact=True), "Ada")
    page.evaluate("() => { window.jupyterapp.commands.execute('kernelmenu:shutdown'); }")
    dialog = page.locator(".jp-Dialog")
    try:
        dialog.wait_for(timeout=3_000)
    except PlaywrightTimeoutError:
        pass  # this Lab shuts down without asking
    else:
        dialog.locator("button.jp-mod-accept").click()
    output = page.locator(".jp-Notebook .jp-CodeCell").nth(AWAITING).locator(".jp-OutputArea")
    # Whichever notices first -- the kernel ending its own wait, or the page seeing the kernel go -- the
    # form becomes a record saying it was abandoned, and nothing is left to press.
    expect(output).to_contain_text("abandoned", timeout=30_000)
    expect(output.get_by_role("button")).to_have_count(0)
    expect(output.locator("input")).to_have_count(0)
    expect(output).not_to_contain_text("RECEIVED")
    screenshot(page, "stale-shutdown.png", NOTEBOOK)
