"""Reloading the page while a form waits never strands the kernel: the side panel shows the question again.

Spec context: a 2026-07-28 multi round-trip request may wait for a person inside an awaiting cell. Issue 12,
item 4: after a reload the cell's live form is gone but the kernel still waits; the labextension's plugin
subscribes to the kernel's waiting rounds over the `mcp_lab.waiting` comm when the page reconnects, opens
the side panel by itself, and the person answers there (or cancels every waiting flow from the command
palette or the panel). JupyterLab and Notebook 7 alike.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.forms_pages import (
    AWAITING,
    DELAY_MS,
    PANEL,
    answer_profile_as_a_person,
    echo_notebook,
    error_of,
    open_in_notebook7,
    output_form,
    received,
    reload_notebook,
    retype,
    run_last_cell,
    run_until_form,
)
from tests.browser.harness import Lab
from tests.browser.pages import (
    open_notebook,
    present,
    run_all,
    screenshot,
    wait_cell_running,
    wait_cells_finished,
    wait_kernel_idle,
    write_notebook,
)

pytestmark = pytest.mark.browser


def test_after_a_reload_the_side_panel_answers_the_waiting_form(lab: Lab, page: Page) -> None:
    form = run_until_form(page, lab, "reload_answer.ipynb", "profile", "ask_profile")
    retype(form.get_by_label("Name", exact=True), "Ada")
    reload_notebook(page, "reload_answer.ipynb")

    # Nobody asked for it: the plugin found the waiting round when the page reconnected to the kernel.
    panel = page.locator(PANEL)
    expect(present(panel, 30_000)).to_be_visible(timeout=30_000)
    expect(panel.locator(".mcp-lab-waiting-status")).to_contain_text("One round waits")
    waiting = panel.locator('.mcp-lab-form[data-key="ask_profile"]')
    # What was typed before the reload came back too: the pending draft was sent as the page went away.
    expect(waiting.get_by_label("Name", exact=True)).to_have_value("Ada")
    screenshot(page, "forms-panel-after-reload.png")
    shown = answer_profile_as_a_person(page, waiting, "forms-panel")

    expect(panel.locator(".mcp-lab-waiting-status")).to_contain_text("No question is waiting")
    expect(panel.locator(".mcp-lab-form-record")).to_contain_text("ask_profile")  # what was just sent
    output = run_last_cell(page)
    expect(output).to_contain_text("next cell ran: RECEIVED ", timeout=30_000)
    match = re.search(r"RECEIVED (.+)", output.inner_text())
    assert match and json.loads(match.group(1)) == shown
    output.scroll_into_view_if_needed()
    screenshot(page, "forms-panel-answered.png")


def test_after_a_reload_a_command_cancels_every_waiting_flow(lab: Lab, page: Page) -> None:
    run_until_form(page, lab, "reload_cancel.ipynb", "profile", "ask_profile")
    reload_notebook(page, "reload_cancel.ipynb")
    panel = page.locator(PANEL)
    expect(present(panel.locator('.mcp-lab-form[data-key="ask_profile"]'), 30_000)).to_be_visible(timeout=30_000)

    # The command palette, as a person reaches it: Ctrl+Shift+C, type, Enter.
    page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook").click()
    page.keyboard.press("Control+Shift+C")
    palette = page.locator("#command-palette input")
    expect(palette).to_be_focused()
    palette.press_sequentially("Cancel every waiting", delay=DELAY_MS // 2)
    expect(page.locator("#command-palette .lm-CommandPalette-item").first).to_contain_text(
        "MCP Lab: Cancel every waiting flow"
    )
    page.keyboard.press("Enter")

    expect(panel.locator(".mcp-lab-waiting-status")).to_contain_text("No question is waiting")
    output = run_last_cell(page)
    expect(output).to_contain_text("next cell ran:", timeout=30_000)
    screenshot(page, "forms-panel-cancelled.png")


def test_notebook7_shows_the_waiting_form_again_after_a_reload(lab: Lab, page: Page) -> None:
    name = write_notebook(lab, "reload_nb7.ipynb", echo_notebook("profile"))
    open_in_notebook7(page, lab, name)
    run_all(page)
    wait_cell_running(page, AWAITING)
    expect(present(output_form(page, "ask_profile"), 30_000)).to_be_visible(timeout=30_000)
    page.reload()
    panel = page.locator(PANEL)
    expect(present(panel.locator('.mcp-lab-form[data-key="ask_profile"]'), 30_000)).to_be_visible(timeout=30_000)
    screenshot(page, "forms-panel-nb7-after-reload.png")

    panel.get_by_role("button", name="Cancel every waiting flow").click()
    expect(panel.locator(".mcp-lab-waiting-status")).to_contain_text("No question is waiting")
    expect(panel.locator(".mcp-lab-form-record.mcp-lab-not-ok")).to_contain_text("ask_profile")
    wait_kernel_idle(page)  # the stopped cell has finished; the reloaded page then runs the next one
    expect(run_last_cell(page)).to_contain_text("next cell ran:", timeout=30_000)


def test_the_open_panel_notices_mcp_lab_loaded_later_and_answers_with_the_cell(lab: Lab, page: Page) -> None:
    name = write_notebook(lab, "panel_first.ipynb", echo_notebook("profile"))
    open_notebook(page, lab, name)
    wait_kernel_idle(page)
    page.locator(".jp-SideBar [title='MCP Lab: waiting questions']").click()  # the side bar's tab
    panel = page.locator(PANEL)
    expect(panel.locator(".mcp-lab-waiting-status")).to_contain_text("mcp_lab is not loaded")

    run_all(page)  # %load_ext mcp_lab runs first: the open panel asks the kernel again once it is idle
    wait_cell_running(page, AWAITING)
    in_cell = output_form(page, "ask_profile")
    in_panel = panel.locator('.mcp-lab-form[data-key="ask_profile"]')
    expect(present(in_panel, 30_000)).to_be_visible(timeout=30_000)
    expect(in_cell).to_be_visible()

    retype(in_panel.get_by_label("Name", exact=True), "A")
    in_panel.get_by_role("button", name="Submit", exact=True).click()
    # The kernel's verdict reaches both views of the round; what the cell's form holds is untouched.
    expect(error_of(in_cell, "name")).to_be_visible()
    expect(error_of(in_panel, "name")).to_be_visible()
    screenshot(page, "forms-cell-and-panel.png")

    shown = answer_profile_as_a_person(page, in_cell, "forms-cell-with-panel")
    wait_cells_finished(page)
    assert received(page) == shown
    expect(panel.locator(".mcp-lab-form-record.mcp-lab-ok")).to_contain_text("ask_profile")
