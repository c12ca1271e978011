"""What a reader meets on screen (issue 26): the stepper widget, the token view's width, an inline error.

Spec context: the three-phase key rotation (the stepper rolls each phase to the instances of a real fleet);
a sealed 2026-07-28 request_state opened by the token inspector (its claims, the key id it carries); and a
form answering an elicitation whose `format: email` field is checked before anything is sent. Each test
runs the real Python code in a real kernel and looks at the page as a person does, in JupyterLab and --
for the stepper -- Notebook 7; screenshots land in test-artifacts/.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from nbformat.v4 import new_code_cell, new_notebook
from playwright.sync_api import Page, expect

from tests.browser.forms_pages import (
    AWAITING,
    DELAY_MS,
    choose,
    echo_notebook,
    error_of,
    open_in_notebook7,
    output_form,
    received,
    retype,
    run_until_form,
)
from tests.browser.harness import Lab
from tests.browser.pages import (
    change_theme,
    open_notebook,
    present,
    run_all,
    screenshot,
    screenshot_path,
    wait_cells_finished,
    write_notebook,
)

pytestmark = pytest.mark.browser

KERNEL = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
NOTEBOOK = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook, #main-panel .jp-Notebook"

SHOP = '''from typing import Annotated
from mcp.server.mcpserver import Elicit, Resolve
from pydantic import BaseModel

class Size(BaseModel):
    size: str

async def ask_size(item: str) -> Elicit[Size]:
    return Elicit(f"Which size of {item}?", Size)

def shop(mcp):
    @mcp.tool()
    async def order(item: str, size: Annotated[Size, Resolve(ask_size)]) -> str:
        return f"ordered {item} in size {size.size}"'''


def notebook(*sources: str) -> Any:
    return new_notebook(
        cells=[new_code_cell(s) for s in sources],
        metadata={"kernelspec": KERNEL, "language_info": {"name": "python"}},
    )


def stepper_notebook() -> Any:
    return notebook(
        "%load_ext mcp_lab\nimport mcp_lab",
        SHOP,
        'stepper = mcp_lab.RotationStepper(mcp_lab.Fleet("shop", shop, instances=2))\n'
        "widget = mcp_lab.StepperWidget(stepper, flows_per_step=2)\nwidget",
    )


@pytest.mark.parametrize("frontend", ["lab", "notebook7"])
def test_the_stepper_widget_displays_and_steps(lab: Lab, page: Page, frontend: str) -> None:
    name = write_notebook(lab, f"stepper_{frontend}.ipynb", stepper_notebook())
    if frontend == "lab":
        open_notebook(page, lab, name)
    else:
        open_in_notebook7(page, lab, name)
    run_all(page)
    wait_cells_finished(page, timeout_ms=120_000)  # no cell raised: the TypeError traceback is gone
    cell = page.locator(".jp-Notebook .jp-CodeCell").nth(2)
    button = cell.get_by_role("button", name="Next phase")
    expect(present(button, 30_000)).to_be_visible(timeout=30_000)
    expect(cell).to_contain_text("shop")
    expect(cell).not_to_contain_text("TypeError")
    expect(cell).not_to_contain_text("Error displaying widget")
    status_before = cell.locator(".widget-html").first.inner_text()

    button.click()  # the real phase 1 on both instances, with two flows in flight
    expect(cell).to_contain_text(re.compile(r"in-flight flows: \d+ finished, \d+ dropped"), timeout=60_000)
    expect(cell.locator('.jp-OutputArea-output[data-mime-type="application/vnd.mcp-lab.rotation+json"]')).to_have_count(
        1
    )
    expect(button).to_be_enabled()
    assert cell.locator(".widget-html").first.inner_text() != status_before  # the phase moved on
    screenshot(page, f"stepper-{frontend}.png", ".jp-Notebook .jp-CodeCell:nth-child(3)")


LONG_STATE = '''%%mcp_server cart
from mcp.server.mcpserver import Context
from mcp.types import ElicitRequest, ElicitRequestFormParams, InputRequiredResult

CART = "cart:" + ",".join(f"sku-{n:04d}" for n in range(90))  # one long claim: 800+ characters

@mcp.tool()
async def checkout(ctx: Context) -> str | InputRequiredResult:
    if ctx.input_responses is None:
        ask = ElicitRequest(params=ElicitRequestFormParams(
            message="Pay now?", requested_schema={"type": "object", "properties": {}}))
        return InputRequiredResult(input_requests={"pay": ask}, request_state=CART)
    return "paid"'''

_FITS_JS = """view => {
  const area = view.closest('.jp-OutputArea-output');
  const box = area.getBoundingClientRect();
  const heads = [...view.querySelectorAll('.mcp-lab-claims thead th')].map(th => th.getBoundingClientRect());
  return {
    areaWidth: box.width, areaRight: box.right, viewWidth: view.scrollWidth,
    headsRight: heads.map(r => r.right), headsWidth: heads.map(r => r.width),
  };
}"""


def test_the_token_view_fits_a_notebook_in_both_themes_with_one_key_id_spelling(lab: Lab, page: Page) -> None:
    page.set_viewport_size({"width": 1100, "height": 1000})  # a laptop-sized notebook
    name = write_notebook(
        lab,
        "token_width.ipynb",
        notebook(
            "%load_ext mcp_lab\nimport mcp_lab",
            LONG_STATE,
            'flow = await mcp_lab.start("cart", "tools/call", "checkout")\nawait flow.step()\n'
            "mcp_lab.inspect_token(flow)",
        ),
    )
    open_notebook(page, lab, name)
    run_all(page)
    wait_cells_finished(page, timeout_ms=120_000)
    view = page.locator(".mcp-lab-token-view").first
    expect(view).to_be_visible()
    expect(view.locator(".mcp-lab-claims")).to_contain_text("sku-0089")  # the whole claim is there, wrapped
    for theme in ("JupyterLab Light", "JupyterLab Dark"):
        light = "true" if theme.endswith("Light") else "false"
        change_theme(page, theme, light == "true")
        expect(page.locator("body")).to_have_attribute("data-jp-theme-light", light)
        fits = view.evaluate(_FITS_JS)
        assert fits["viewWidth"] <= fits["areaWidth"] + 1, fits  # nothing scrolls or stretches sideways
        assert len(fits["headsRight"]) == 4, fits  # claim, value, meaning, note
        assert all(right <= fits["areaRight"] + 1 for right in fits["headsRight"]), fits  # every column in view
        assert min(fits["headsWidth"][:3]) > 20, fits
        page.set_viewport_size({"width": 1100, "height": 2600})  # the whole view in one picture, same width
        view.scroll_into_view_if_needed()
        screenshot(page, f"token-view-{'light' if light == 'true' else 'dark'}.png", ".mcp-lab-token-view")
        page.set_viewport_size({"width": 1100, "height": 1000})
    change_theme(page, "JupyterLab Light", True)

    # One spelling of the key id: the encoded strip's kid part is labelled with the hex id the facts give.
    key_id = view.locator(".mcp-lab-kv .mcp-lab-seg-kid code").inner_text().strip()
    assert re.fullmatch(r"[0-9a-f]{8}", key_id), key_id
    expect(view.locator(".mcp-lab-seg.mcp-lab-seg-kid .mcp-lab-seg-label")).to_have_text(f"key id {key_id}")


def test_an_inline_error_clears_as_soon_as_the_value_is_valid(lab: Lab, page: Page) -> None:
    form = run_until_form(page, lab, "email_error.ipynb", "profile", "ask_profile")
    retype(form.get_by_label("Name", exact=True), "Ada Lovelace")
    retype(form.get_by_label("Age", exact=True), "36")
    retype(form.get_by_label("Height in metres", exact=True), "1.72")
    email = form.get_by_label("Email", exact=True)
    retype(email, "bob@@example.com")
    form.get_by_label("Born", exact=True).focus()
    page.keyboard.type("12101815", delay=DELAY_MS)
    choose(form.get_by_label("Plan", exact=True), "team")
    form.get_by_role("radiogroup", name="Offers").get_by_label("No").check()
    submit = form.get_by_role("button", name="Submit", exact=True)
    submit.click()
    expect(error_of(form, "email")).to_have_text("⚠ not a valid email address")  # the maintained validator

    retype(email, "a@")  # still wrong: the error stays
    page.wait_for_timeout(800)  # longer than the draft's debounce: the kernel has seen "a@"
    expect(error_of(form, "email")).to_be_visible()
    submit.click()
    expect(error_of(form, "email")).to_have_text("⚠ not a valid email address")
    screenshot(page, "inline-error-shown.png", ".jp-Notebook .jp-CodeCell:nth-child(3)")

    email.press_sequentially("example.org", delay=DELAY_MS)  # a@example.org: valid, and nobody pressed Submit
    expect(error_of(form, "email")).to_be_hidden(timeout=5_000)
    expect(form.locator(".mcp-lab-form-status")).to_have_text("")
    screenshot(page, "inline-error-cleared.png", ".jp-Notebook .jp-CodeCell:nth-child(3)")

    submit.click()
    assert received(page)["email"] == "a@example.org"  # what the server got is what the screen showed
    assert received(page)["name"] == "Ada Lovelace"
    output = page.locator(".jp-Notebook .jp-CodeCell").nth(AWAITING).locator(".jp-OutputArea")
    expect(output).not_to_contain_text("bob@@")
    assert output_form(page, "ask_profile").count() in (0, 1)


def test_reject_is_drawn_as_not_sent_and_the_flow_says_why(lab: Lab, page: Page) -> None:
    nb = echo_notebook("haiku")
    nb.cells.append(new_code_cell("mcp_lab.last()"))
    name = write_notebook(lab, "reject.ipynb", nb)
    open_notebook(page, lab, name)
    run_all(page)
    form = output_form(page, "__main__:write_haiku")
    expect(present(form, 60_000)).to_be_visible(timeout=60_000)
    reply = form.get_by_label("Reply", exact=True)
    reply.click()
    reply.press_sequentially("no thanks", delay=DELAY_MS // 2)  # typed, then thought better of it
    form.get_by_role("button", name="Reject", exact=True).click()
    wait_cells_finished(page, timeout_ms=120_000)

    cells = page.locator(".jp-Notebook .jp-CodeCell")
    printed = cells.nth(AWAITING).locator(".jp-OutputArea")
    expect(printed).to_contain_text("refused in the client, not sent")  # flow.text is no longer empty
    expect(printed).to_contain_text("User rejected sampling request")
    expect(printed).not_to_contain_text("RECEIVED")  # the tool never ran: nothing reached it
    view = cells.last.locator(".mcp-lab-flow-view")
    expect(view.locator(".mcp-lab-leg")).to_have_count(2)
    expect(view.locator('.mcp-lab-leg[data-leg="1"] .mcp-lab-leg-index')).to_have_text("leg 1")
    refused = view.locator('.mcp-lab-leg[data-leg="2"]')
    expect(refused).to_have_class(re.compile("mcp-lab-leg-not-sent"))
    expect(refused).to_contain_text("refused in the client, nothing was sent to the server")
    expect(refused.locator(".mcp-lab-to-server")).to_have_count(0)  # no arrow to the server for it
    expect(view).to_contain_text("1 leg sent")
    view.scroll_into_view_if_needed()
    view.screenshot(path=str(screenshot_path("flow-reject-not-sent.png")))
