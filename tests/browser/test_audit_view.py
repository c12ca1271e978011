"""A real audit report drawn by the built extension: summary first, each rule expandable, evidence as a flow.

Spec context: the 2026-07-28 rules `mcp_lab.audit` checks. The reports are made by the real audit of real
servers (tests/records/producers.py: a well-behaved MCPServer over the lab's HTTP serving, and a server whose
plaintext requestState sets a refund amount), saved in a notebook and opened with no kernel. The test reads
what a person reads: the counts and the exit code, which rules are broken with the specification's words,
the probe whose tampered token changed the refund, its evidence flow opened with the keyboard, the 403 the
Origin probe got, and the text contrast of the opened report in the light and the dark theme.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.harness import Lab
from tests.browser.notebooks import records_notebook
from tests.browser.pages import screenshot, write_notebook
from tests.browser.test_records_view import _open_without_kernel, assert_contrast_in_both_themes
from tests.records.producers import Produced, produce_audits

pytestmark = pytest.mark.browser

GOOD = "audit of a well-behaved MCPServer over HTTP"
BROKEN = "audit of a server with a plaintext refund amount"


async def _produce() -> list[Produced]:
    from mcp_lab.servers.sandbox import sandbox

    out: list[Produced] = []
    try:
        await produce_audits(out)
    finally:
        await sandbox.stop_all()
    return out


@pytest.fixture(scope="module")
def audits() -> list[Produced]:
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, _produce()).result(timeout=300)


def _report(page: Page, audits: list[Produced], label: str) -> Locator:
    index = next(i for i, p in enumerate(audits) if p.label == label)
    return page.locator(".jp-Notebook .jp-CodeCell").nth(index).locator(".mcp-lab-audit-view")


def _check(report: Locator, check_id: str) -> Locator:
    return report.locator(f'details.mcp-lab-audit-check[data-check="{check_id}"]')


def test_an_audit_report_reads_summary_first_then_each_rule(lab: Lab, page: Page, audits: list[Produced]) -> None:
    notebook = records_notebook(audits)
    lab.trust(notebook)
    _open_without_kernel(page, lab, write_notebook(lab, "audits.ipynb", notebook))
    expect(page.locator(".mcp-lab-rendered-audit")).to_have_count(2)
    expect(page.locator(".mcp-lab-render-error")).to_have_count(0)

    good = _report(page, audits, GOOD)
    expect(good).to_have_attribute("data-exit-code", "0")
    expect(good.locator(".mcp-lab-audit-exit")).to_have_text(" exit code 0")
    expect(good.locator(".mcp-lab-audit-summary")).to_contain_text("0 broken (0 MUST)")
    expect(good).to_contain_text("no rule broken")
    verdicts = good.locator("details.mcp-lab-audit-check").evaluate_all("ns => ns.map(n => n.dataset.verdict)")
    assert verdicts.count("pass") == 15 and verdicts.count("n/a") == 1, verdicts
    expect(_check(good, "state-lifetime")).to_contain_text("skipped")
    origin = _check(good, "origin")
    expect(origin).not_to_have_attribute("open", "")  # a kept rule starts closed
    origin.locator("summary").first.focus()
    page.keyboard.press("Enter")  # keyboard-reachable: Enter opens it
    expect(origin).to_have_attribute("open", "")
    expect(origin.locator(".mcp-lab-audit-probe .mcp-lab-audit-status")).to_have_text("HTTP 403 ")
    expect(origin.locator(".mcp-lab-audit-quote")).to_contain_text("MUST respond with HTTP 403 Forbidden")
    mismatch = _check(good, "header-mismatch")
    mismatch.locator("summary").first.click()
    statuses = mismatch.locator(".mcp-lab-audit-probe .mcp-lab-audit-status").evaluate_all(
        "ns => ns.map(n => n.dataset.status)"
    )
    assert statuses == ["400", "400"], statuses
    expect(mismatch.locator(".mcp-lab-audit-probe").first).to_contain_text("error -32020")

    broken = _report(page, audits, BROKEN)
    expect(broken).to_have_attribute("data-exit-code", "1")
    expect(broken.locator(".mcp-lab-audit-broken")).to_contain_text("state-integrity (MUST)")
    expect(broken.locator(".mcp-lab-audit-broken")).to_contain_text("state-binding (SHOULD)")
    expect(broken.locator(".mcp-lab-audit-broken")).to_contain_text("state-lifetime (SHOULD)")
    integrity = _check(broken, "state-integrity")
    expect(integrity).to_have_attribute("open", "")  # a broken rule starts open
    expect(integrity.locator(".mcp-lab-audit-quote")).to_contain_text("MUST protect its integrity (e.g. HMAC or AEAD)")
    acted = integrity.locator('.mcp-lab-audit-probe[data-verdict="fail"]')
    expect(acted).to_contain_text("amount 25 raised by one")
    expect(acted).to_contain_text("result 'Refunded order 1 (26 EUR)'")
    evidence = acted.locator("details.mcp-lab-audit-evidence")
    evidence.locator("summary").first.focus()
    page.keyboard.press("Enter")
    flow = evidence.locator(".mcp-lab-flow-view")
    expect(flow).to_be_visible()
    expect(flow.locator(".mcp-lab-leg")).to_have_count(2)
    expect(flow.locator(".mcp-lab-msg-ok")).to_contain_text("Refunded order 1 (26 EUR)")
    readable = _check(broken, "state-readable")
    expect(readable).to_have_attribute("data-verdict", "warn")
    expect(readable).to_contain_text('readable plain JSON: {"order": 1, "amount": 25}')
    screenshot(page, "audit-light.png")


def test_an_opened_audit_reads_in_both_themes(lab: Lab, page: Page, audits: list[Produced]) -> None:
    notebook = records_notebook(audits)
    lab.trust(notebook)
    _open_without_kernel(page, lab, write_notebook(lab, "audits-contrast.ipynb", notebook))
    selector = ".mcp-lab-rendered-audit"
    expect(page.locator(selector)).to_have_count(2)
    assert_contrast_in_both_themes(page, selector, "audit")
