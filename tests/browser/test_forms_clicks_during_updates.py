"""A click pressed on a live form while the kernel's update arrives lands where the person pressed.

Spec context: a 2026-07-28 `InputRequiredResult` asks a person questions that the cell's form and the
JupyterLab side panel both show. Each view sends a draft of what was typed (debounced); the kernel then
drops the error lines the draft fixed and sends the new record to BOTH views. Before the fix an emptied
error line collapsed, so every field below it jumped up under the pointer: a press on the "go" checkbox
released over another element, and the browser dispatched no click to the checkbox (the CI flake:
"Locator.check: Clicking the checkbox did not change its state"). A person meets it as a lost click, or
as a click on the wrong option. The test points at a control while the kernel's update arrives (from
this view's own draft, from another tab's side panel typing) and checks that the control did not move;
then it holds the button down while another tab submits (its verdict adds error lines above the control)
and releases; it asserts what the screen shows and what the server received.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.forms_pages import (
    AWAITING,
    DELAY_MS,
    PANEL,
    choose,
    echo_notebook,
    error_of,
    output_form,
    profile_on_screen,
    received,
    retype,
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


def point_at(page: Page, control: Locator) -> dict[str, float]:
    """Move the pointer onto the middle of `control` (no button pressed yet); returns where it is."""
    control.scroll_into_view_if_needed()
    box = control.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    return box


def test_a_press_held_while_the_kernel_clears_an_error_above_still_clicks(lab: Lab, page: Page) -> None:
    name = write_notebook(lab, "clicks_during_updates.ipynb", echo_notebook("profile"))
    open_notebook(page, lab, name)
    wait_kernel_idle(page)
    page.locator(".jp-SideBar [title='MCP Lab: waiting questions']").click()
    run_all(page)
    wait_cell_running(page, AWAITING)
    in_cell = output_form(page, "ask_profile")
    in_panel = page.locator(PANEL).locator('.mcp-lab-form[data-key="ask_profile"]')
    expect(present(in_panel, 30_000)).to_be_visible(timeout=30_000)
    expect(in_cell).to_be_visible()

    # The panel submits nothing: both views show the required fields' errors.
    in_panel.get_by_role("button", name="Submit", exact=True).click()
    for field in ("name", "age", "email", "plan", "offers"):
        expect(error_of(in_cell, field)).to_be_visible()
    retype(in_cell.get_by_label("Name", exact=True), "Ada Lovelace")
    retype(in_cell.get_by_label("Age", exact=True), "36")
    retype(in_cell.get_by_label("Height in metres", exact=True), "1.72")
    in_cell.get_by_label("Born", exact=True).focus()
    page.keyboard.type("12101815", delay=DELAY_MS)
    expect(error_of(in_cell, "age")).to_be_hidden()  # the drafts so far have come back

    # 1. This view's own draft: a plan is chosen and the person points at "go" at once; the kernel's
    # record (the plan's error gone) arrives while the pointer is there. Nothing moves under it.
    go = in_cell.get_by_role("group", name="Languages").get_by_label("go")
    choose(in_cell.get_by_label("Plan", exact=True), "team")
    aimed_at = point_at(page, go)
    expect(error_of(in_cell, "plan")).to_be_hidden()
    expect(error_of(in_panel, "plan")).to_be_hidden()
    assert go.bounding_box() == aimed_at  # the plan's emptied error line kept its height
    page.mouse.down()
    page.mouse.up()
    expect(go).to_be_checked()
    screenshot(page, "forms-click-during-own-draft.png")

    # 2. The other view's draft, from a second tab on the same kernel (another window, or another
    # person): its side panel types an email while this tab's pointer rests on "Yes"; the draft clears
    # the email error in both views of this tab.
    other = page.context.new_page()
    open_notebook(other, lab, name)
    other.locator(".jp-SideBar [title='MCP Lab: waiting questions']").click()
    in_other = other.locator(PANEL).locator('.mcp-lab-form[data-key="ask_profile"]')
    email = in_other.get_by_label("Email", exact=True)
    expect(present(email, 30_000)).to_be_visible(timeout=30_000)
    yes = in_cell.get_by_role("radiogroup", name="Offers").get_by_label("Yes")
    aimed_at = point_at(page, yes)
    email.click()
    email.press_sequentially("ada@example.org", delay=DELAY_MS // 2)
    expect(error_of(in_other, "email")).to_be_hidden()
    expect(error_of(in_panel, "email")).to_be_hidden()
    expect(error_of(in_cell, "email")).to_be_hidden()
    assert yes.bounding_box() == aimed_at
    page.mouse.down()
    page.mouse.up()
    expect(yes).to_be_checked()
    expect(email).to_have_value("ada@example.org")  # the other tab kept what was typed there

    # 3. The other view submits while this tab's button is held down on "py": its verdict brings an
    # error line back above "py" (its name "A" is too short). It is drawn once the button is released,
    # after the click reached "py". (The other tab opened with the drafts typed here, so only its name
    # and the Yes/No it never saw are wrong.) This tab shortens its name too, first: the draft that the
    # click on "py" sends carries this tab's values, and a name this tab still had right would clear the
    # verdict's error line again as soon as it was drawn (a draft adds no error line, so none shows yet).
    retype(in_cell.get_by_label("Name", exact=True), "A")
    expect(error_of(in_cell, "name")).to_be_hidden()
    retype(in_other.get_by_label("Name", exact=True), "A")
    py = in_cell.get_by_role("group", name="Languages").get_by_label("py")
    point_at(page, py)
    page.mouse.down()
    in_other.get_by_role("button", name="Submit", exact=True).click()
    expect(error_of(in_other, "name")).to_be_visible()
    expect(error_of(in_panel, "name")).to_be_visible()  # this tab has the verdict too
    expect(error_of(in_cell, "name")).to_be_hidden()  # ...drawn in the pressed form after the release
    page.mouse.up()
    expect(py).to_be_checked()
    expect(error_of(in_cell, "name")).to_be_visible()
    other.close()

    # The person corrects the name (the draft clears its error), types the rest as usual, then the cell's
    # Submit: the server receives what its form shows.
    retype(in_cell.get_by_label("Name", exact=True), "Ada Lovelace")
    expect(error_of(in_cell, "name")).to_be_hidden()
    retype(in_cell.get_by_label("Email", exact=True), "ada@example.org")
    shown = profile_on_screen(in_cell)
    assert shown["langs"] == ["py", "go"] and shown["offers"] is True and shown["plan"] == "team"
    in_cell.get_by_role("button", name="Submit", exact=True).click()
    wait_cells_finished(page)
    assert received(page) == shown
