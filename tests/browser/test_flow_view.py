"""The labextension draws flows and reports in the real JupyterLab: live from a kernel, and from a saved file.

Spec context: a multi round-trip `tools/call` (2026-07-28) -- two legs, one elicitation, one sealed
request_state whose key id must match the server's ring. The first test runs a notebook in Lab and checks
the flow went through the extension (its renderer, under the flow MIME type) rather than the HTML
fallback; the second opens a notebook saved with outputs and no kernel, including malformed and
future-shaped data for every view, and checks each renders, themes follow Lab, and the collapsibles work
from the keyboard.
"""

from __future__ import annotations

import asyncio
import json
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

import mcp_lab
from mcp_lab.sandbox import sandbox
from tests.browser.harness import Lab
from tests.browser.notebooks import saved_views_notebook, scripted_flow_notebook
from tests.browser.pages import (
    current_kernel_id,
    mime_outputs,
    open_notebook,
    run_all,
    screenshot,
    screenshot_path,
    wait_cells_finished,
    write_notebook,
)
from tests.conftest import build_demo

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

    screenshot(page, "flow-live.png", f'.jp-OutputArea-output[data-mime-type="{FLOW_MIME}"]')
    screenshot(page, "flow-live-page.png")


def _real_flow_bundle() -> dict[str, Any]:
    """A flow recorded in this process against the test suite's demo server (two questions, three legs)."""

    async def record() -> dict[str, Any]:
        build_demo("saved-demo")
        try:
            flow = await mcp_lab.call(
                "saved-demo",
                "book",
                {"city": "Paris"},
                answers={"ask_region": {"region": "eu-west"}, "ask_ok": {"ok": True}},
            )
        finally:
            await sandbox.stop_all()
        assert flow.status == "done", flow.summary()
        return dict(json.loads(json.dumps(flow._repr_mimebundle_())))

    # Playwright's sync API keeps its own loop running in this thread: record in a thread of its own.
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, record()).result(timeout=60)


def test_saved_notebook_renders_without_a_kernel(lab: Lab, page: Page) -> None:
    notebook, counts = saved_views_notebook(_real_flow_bundle())
    name = write_notebook(lab, "saved_views.ipynb", notebook)
    page.set_viewport_size({"width": 1280, "height": 2400})  # tall views fit whole in their screenshots
    open_notebook(page, lab, name)
    # The kernelspec names no installed kernel: Lab asks which kernel to start; Escape keeps none.
    dialog = page.locator(".jp-Dialog")
    try:
        dialog.wait_for(timeout=10_000)
    except PlaywrightTimeoutError:
        pass  # this Lab did not ask: nothing to dismiss
    else:
        page.keyboard.press("Escape")
        expect(dialog).to_have_count(0)
    assert current_kernel_id(page) is None

    for kind, expected in counts.items():
        outputs = mime_outputs(page, f"application/vnd.mcp-lab.{kind}+json")
        expect(outputs).to_have_count(expected)
        expect(outputs.locator(f".mcp-lab-{kind}-view")).to_have_count(expected)
    expect(page.locator(".mcp-lab-render-error")).to_have_count(0)

    real = mime_outputs(page, FLOW_MIME).first
    expect(real.locator(".mcp-lab-leg")).to_have_count(3)
    expect(real.locator(".mcp-lab-msg-ok")).to_contain_text("Booked Paris in eu-west (ok=True)")
    legacy = mime_outputs(page, FLOW_MIME).nth(1)
    expect(legacy).to_have_attribute("data-mime-type", FLOW_MIME)
    expect(legacy.locator(".mcp-lab-msg-back")).to_have_count(4)
    expect(legacy.locator(".mcp-lab-token-plain")).to_have_count(1)
    expect(legacy.locator(".mcp-lab-header-list")).to_contain_text("Mcp-Param-Region: eu")
    expect(legacy.locator(".mcp-lab-other")).to_have_count(2)  # the unknown round and flow fields stay visible
    token = mime_outputs(page, "application/vnd.mcp-lab.token+json").first
    expect(token.locator(".mcp-lab-verdict-err")).to_contain_text("rejected: expired")
    expect(token.locator(".mcp-lab-seg-kid")).to_contain_text("5eed0a11")
    expect(token.locator(".mcp-lab-check-err")).to_contain_text("expired 12 s ago")
    rotation = mime_outputs(page, "application/vnd.mcp-lab.rotation+json").first
    expect(rotation.locator(".mcp-lab-cell-err")).to_have_count(2)
    expect(rotation.locator(".mcp-lab-cell-err").first).to_contain_text("unknown key id 5eed0a11")
    expect(rotation.locator(".mcp-lab-note")).to_contain_text("dropped OLD")

    # Keyboard: a collapsible takes focus and opens with Enter, closes with Space.
    summary = real.locator("details.mcp-lab-raw > summary").last
    summary.focus()
    page.keyboard.press("Enter")
    expect(real.locator("details.mcp-lab-raw").last).to_have_attribute("open", "")
    page.keyboard.press(" ")
    expect(real.locator("details.mcp-lab-raw").last).not_to_have_attribute("open", "")

    for kind in ("token", "headers", "rotation"):
        screenshot(
            page, f"view-{kind}.png", f'.jp-OutputArea-output[data-mime-type="application/vnd.mcp-lab.{kind}+json"]'
        )
    legacy.screenshot(path=str(screenshot_path("view-flow-legacy.png")))
    light = real.locator(".mcp-lab-flow-view").evaluate("n => getComputedStyle(n).color")
    try:
        page.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Dark'})")
        page.wait_for_function("() => document.body.dataset.jpThemeLight === 'false'")
        page.wait_for_function(
            "([sel, before]) => getComputedStyle(document.querySelector(sel)).color !== before",
            arg=[".mcp-lab-flow-view", light],
        )
        real.screenshot(path=str(screenshot_path("view-flow-dark.png")))
        token.screenshot(path=str(screenshot_path("view-token-dark.png")))
    finally:
        page.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Light'})")
