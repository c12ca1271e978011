"""The labextension draws a flow live from a kernel in the real JupyterLab (saved records: test_records_view).

Spec context: a multi round-trip `tools/call` (2026-07-28) -- two legs, one elicitation, one sealed
request_state whose key id must match the server's ring. The test runs a notebook in Lab and checks the
flow went through the extension (its renderer, under the flow MIME type) rather than the HTML fallback,
and that a collapsible opens and closes from the keyboard.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.harness import Lab
from tests.browser.notebooks import scripted_flow_notebook
from tests.browser.pages import (
    mime_outputs,
    open_notebook,
    run_all,
    screenshot,
    wait_cells_finished,
    write_notebook,
)

pytestmark = pytest.mark.browser

FLOW_MIME = "application/vnd.mcp-lab.flow+json"


def test_flow_renders_through_the_extension(lab: Lab, page: Page) -> None:
    name = write_notebook(lab, "scripted_flow.ipynb", scripted_flow_notebook())
    open_notebook(page, lab, name)
    run_all(page)
    wait_cells_finished(page)

    flows = mime_outputs(page, FLOW_MIME)
    expect(flows).to_have_count(1)
    view = flows.locator(".mcp-lab-flow-view")
    expect(view).to_have_count(1)
    expect(view).to_have_attribute("data-status", "done")
    expect(view.locator(".mcp-lab-leg")).to_have_count(2)
    expect(view.locator(".mcp-lab-msg-ask")).to_have_count(1)
    expect(view.locator(".mcp-lab-msg-ok")).to_contain_text("Booked Paris in eu-west")
    expect(view.locator(".mcp-lab-input-request")).to_contain_text("Which region for Paris?")
    expect(view.locator(".mcp-lab-input-response")).to_contain_text("eu-west")
    # The HTML fallback (views/flow.py's table) is not what Lab chose.
    expect(page.locator(".jp-OutputArea-output .mcp-lab-flow")).to_have_count(0)

    # The sealed token's key id is the server's: the token sent back (leg 1) names the same key.
    kids = view.locator(".mcp-lab-token-sealed").evaluate_all("nodes => nodes.map(n => n.dataset.kid)")
    assert len(kids) == 2 and kids[0] == kids[1] and re.fullmatch(r"[0-9a-f]{8}", kids[0]), kids
    servers = mime_outputs(page, "application/vnd.mcp-lab.servers+json")
    expect(servers.locator(".mcp-lab-servers-table")).to_contain_text(kids[0])

    # Keyboard: a collapsible takes focus and opens with Enter, closes with Space.
    summary = view.locator("details.mcp-lab-raw > summary").last
    summary.focus()
    page.keyboard.press("Enter")
    expect(view.locator("details.mcp-lab-raw").last).to_have_attribute("open", "")
    page.keyboard.press(" ")
    expect(view.locator("details.mcp-lab-raw").last).not_to_have_attribute("open", "")

    screenshot(page, "flow-live.png", f'.jp-OutputArea-output[data-mime-type="{FLOW_MIME}"]')
    screenshot(page, "flow-live-page.png")
