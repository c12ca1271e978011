"""Every record the real producers make, drawn by the built extension in JupyterLab, and its HTML fallback.

Spec context: the lab's views of multi round-trip flows (both eras, in memory, over HTTP, to connected
servers), request_state token reports (every verdict, keyless and foreign formats, a 5 MB token), header
tables and labs, the tamper lab, key rotation, servers, connections and replays. A notebook saved with those
outputs is opened with no kernel; the test asserts what a person reads -- each check's name with ✓ or ✗, the
verdict, status codes, each `Mcp-Param-*` header -- and measures the text contrast of every visible piece of
text in the light and the dark theme (WCAG: at least 4.5:1).
"""

from __future__ import annotations

import asyncio
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from mcp_lab.record_schema import KINDS
from tests.browser.harness import Lab
from tests.browser.notebooks import records_notebook
from tests.browser.pages import (
    CELL_TIMEOUT_MS,
    SETTLED_POLL_MS,
    change_theme,
    current_kernel_id,
    open_notebook,
    screenshot,
    screenshot_path,
    write_notebook,
)
from tests.records.producers import Produced, produce_all

pytestmark = pytest.mark.browser

MIN_CONTRAST = 4.5

# The contrast of every visible element that holds text, against the background it is painted on
# (semi-transparent backgrounds composited up the tree; the page's own background at the top).
CONTRAST_JS = """(selector) => {
  const parse = (c) => {
    let m = c.match(/^rgba?\\(([^)]+)\\)/);
    if (m) { const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
      return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; }
    m = c.match(/^color\\(srgb ([^)]+)\\)/);
    if (m) { const p = m[1].split(/[\\s\\/]+/).filter(Boolean).map(Number);
      return [p[0] * 255, p[1] * 255, p[2] * 255, p.length > 3 ? p[3] : 1]; }
    return null;
  };
  const over = (top, under) => {
    const a = top[3];
    return [0, 1, 2].map(i => top[i] * a + under[i] * (1 - a)).concat([1]);
  };
  const lum = (c) => {
    const ch = c.slice(0, 3).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2];
  };
  const background = (el) => {
    const layers = [];
    for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
      const bg = parse(getComputedStyle(n).backgroundColor);
      if (bg && bg[3] > 0) { layers.push(bg); if (bg[3] >= 1) break; }
    }
    let base = parse(getComputedStyle(document.body).backgroundColor) || [255, 255, 255, 1];
    if (base[3] < 1) base = over(base, [255, 255, 255, 1]);
    for (let i = layers.length - 1; i >= 0; i--) base = over(layers[i], base);
    return base;
  };
  const results = [];
  for (const root of document.querySelectorAll(selector)) {
    for (const el of [root, ...root.querySelectorAll('*')]) {
      const own = Array.from(el.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
      if (!own || el.getClientRects().length === 0) continue;
      const style = getComputedStyle(el);
      if (style.visibility !== 'visible' || Number(style.opacity) === 0) continue;
      const fg = parse(style.color);
      if (!fg) continue;
      const bg = background(el);
      const text = over(fg, bg);
      const [hi, lo] = [lum(text), lum(bg)].sort((a, b) => b - a);
      results.push({ ratio: (hi + 0.05) / (lo + 0.05), text: el.textContent.trim().slice(0, 40), color: style.color,
                     cls: el.className && el.className.baseVal === undefined ? String(el.className) : el.tagName });
    }
  }
  return results;
}"""


@pytest.fixture(scope="module")
def produced() -> list[Produced]:
    """The records, made once by the real producers (in a thread: Playwright's sync API owns this one)."""
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, produce_all(Path(tmp))).result(timeout=300)


def _open_without_kernel(page: Page, lab: Lab, name: str) -> None:
    page.set_viewport_size({"width": 1400, "height": 1600})
    open_notebook(page, lab, name)
    # The notebook names no installed kernel: Lab either asks which one to start (a dialog, dismissed: no
    # kernel) or settles on none by itself (its session context ready). Waited for as such, not for a fixed
    # time: under load the dialog came after 10 s and then covered what the test clicks.
    asked = page.wait_for_function(
        """() => {
          if (document.querySelector('.jp-Dialog')) { return 'dialog'; }
          const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
          return !!panel && !!panel.sessionContext && panel.sessionContext.isReady && 'settled';
        }""",
        timeout=CELL_TIMEOUT_MS,
        polling=SETTLED_POLL_MS,
    ).json_value()
    if asked == "dialog":
        page.keyboard.press("Escape")
        expect(page.locator(".jp-Dialog")).to_have_count(0)
    assert current_kernel_id(page) is None


def _output(page: Page, produced: list[Produced], label: str) -> Locator:
    index = next(i for i, p in enumerate(produced) if p.label == label)
    cell = page.locator(".jp-Notebook .jp-CodeCell").nth(index)
    return cell.locator(".jp-OutputArea-output")


def _worst(page: Page, selector: str) -> tuple[float, list[dict[str, Any]]]:
    found = page.evaluate(CONTRAST_JS, selector)
    assert found, f"no text measured under {selector}"
    bad = sorted((r for r in found if r["ratio"] < MIN_CONTRAST), key=lambda r: r["ratio"])
    return min(r["ratio"] for r in found), bad


def _open_all_details(page: Page, selector: str) -> None:
    page.evaluate(f"() => document.querySelectorAll('{selector} details').forEach(d => d.open = true)")


def assert_contrast_in_both_themes(page: Page, selector: str, shot: str) -> None:
    """Every visible text under `selector` (its details opened) reads at >= 4.5:1 in the light and dark theme."""
    _open_all_details(page, selector)
    try:
        for theme, light in (("JupyterLab Light", True), ("JupyterLab Dark", False)):
            change_theme(page, theme, light)
            worst, bad = _worst(page, selector)
            screenshot(page, f"{shot}-{'light' if light else 'dark'}.png")
            assert not bad, f"{theme}: {len(bad)} text element(s) under {MIN_CONTRAST}:1, worst {bad[:5]}"
            assert worst >= MIN_CONTRAST
    finally:
        change_theme(page, "JupyterLab Light", True)


def test_every_record_is_drawn_by_the_extension(lab: Lab, page: Page, produced: list[Produced]) -> None:
    notebook = records_notebook(produced)
    lab.trust(notebook)
    _open_without_kernel(page, lab, write_notebook(lab, "records.ipynb", notebook))

    for kind in KINDS:
        expected = sum(1 for p in produced if p.kind == kind)
        rendered = page.locator(f".mcp-lab-rendered-{kind}")
        expect(rendered, f"{kind} drawn by the extension").to_have_count(expected)
    expect(page.locator(".mcp-lab-render-error")).to_have_count(0)
    expect(page.locator(".jp-OutputArea-output .mcp-lab-html")).to_have_count(0)  # no HTML fallback chosen

    done = _output(page, produced, "in memory: two questions, three legs, done")
    expect(done.locator(".mcp-lab-leg")).to_have_count(3)
    expect(done.locator(".mcp-lab-msg-ok")).to_contain_text("✓ result")
    expect(done.locator(".mcp-lab-msg-ok")).to_contain_text("Booked Paris in eu-west (ok=True)")
    expect(done.locator(".mcp-lab-input-request").first).to_contain_text("Which region for Paris?")
    kids = done.locator(".mcp-lab-token-sealed").evaluate_all("nodes => nodes.map(n => n.dataset.kid)")
    assert len(set(kids)) == 1 and len(kids[0]) == 8, kids

    legacy = _output(page, produced, "2025-11-25 era: back-channel requests")
    expect(legacy.locator(".mcp-lab-flow-view")).to_have_attribute("data-era", "2025-11-25")
    expect(legacy.locator(".mcp-lab-msg-back")).to_have_count(4)

    web = _output(page, produced, "over the lab's HTTP serving with Mcp-Param headers")
    expect(web.locator(".mcp-lab-header-list")).to_contain_text("Mcp-Param-Region: =?base64?")
    expect(web.locator(".mcp-lab-header-list")).to_contain_text("Mcp-Param-Days: 2")
    web.locator("details.mcp-lab-http > summary").first.click()
    expect(web.locator(".mcp-lab-status").first).to_have_text("200")
    for label in ("a connected server over HTTP", "multi round-trip over HTTP"):
        statuses = _output(page, produced, label).locator(".mcp-lab-status")
        assert set(statuses.evaluate_all("nodes => nodes.map(n => n.dataset.status)")) == {"200"}, label
    expect(_output(page, produced, "a 100 kB argument, clipped")).to_contain_text("100,000 chars, sha256")

    ok = _output(page, produced, "verdict ok (the owner's ring)")
    expect(ok.locator(".mcp-lab-verdict")).to_contain_text("✓ Accepted")
    for step in ("codec", "version", "issued-at", "expiry", "request binding", "audience", "principal"):
        expect(ok.locator(f'.mcp-lab-check[data-step="{step}"]')).to_contain_text(f"✓ {step}")
    for label, step, reason in [
        ("verdict seal (a flipped byte)", "codec", "seal"),
        ("verdict expired", "expiry", "expired"),
        ("verdict minted in the future", "issued-at", "minted in the future"),
        ("verdict request binding", "request binding", "request binding"),
        ("verdict audience", "audience", "audience"),
        ("verdict principal drift", "principal", "principal drift"),
        ("verdict unknown key", "codec", "unknown key"),
        ("verdict malformed", "codec", "malformed"),
    ]:
        view = _output(page, produced, label)
        expect(view.locator(".mcp-lab-verdict"), label).to_contain_text("✗ Rejected")
        expect(view.locator(".mcp-lab-verdict-reason"), label).to_have_text(reason)
        expect(view.locator(f'.mcp-lab-check[data-step="{step}"]'), label).to_contain_text(f"✗ {step}")
    keyless = _output(page, produced, "keyless: sealed, no key given")
    expect(keyless.locator(".mcp-lab-verdict")).to_contain_text("? Undetermined")
    expect(_output(page, produced, "a 5 MB token, clipped")).to_contain_text("5,000,003 chars, sha256")
    signed = _output(page, produced, "foreign format: sign-only, keyless")
    expect(signed.locator(".mcp-lab-token-view")).to_contain_text("sign-only")

    tamper = _output(page, produced, "tamper lab on a real flow")
    expect(tamper.locator(".mcp-lab-tamper-agree").first).to_contain_text("✓")
    expect(tamper.locator('.mcp-lab-tamper-case[data-case="flipped byte"]')).to_contain_text("seal")

    table = _output(page, produced, "header table of a served server")
    headers = table.locator(".mcp-lab-param-header").all_text_contents()
    assert {"Mcp-Param-Region", "Mcp-Param-Days"} <= set(headers), headers
    expect(table.locator(".mcp-lab-header-table")).to_contain_text("base64 sentinel")
    mismatch = _output(page, produced, "mismatch lab")
    codes = mismatch.locator(".mcp-lab-probe > td > .mcp-lab-status").evaluate_all(
        "ns => ns.map(n => n.dataset.status)"
    )
    assert "200" in codes and "400" in codes, codes
    expect(mismatch.locator('.mcp-lab-probe[data-case="mismatch"]')).to_contain_text("✗ 400 -32020")
    expect(mismatch.locator('.mcp-lab-probe[data-case="match"]')).to_contain_text("✓ 200 accepted")
    expect(_output(page, produced, "list-before-call lab").locator(".mcp-lab-scenario")).to_have_count(4)

    rotation = _output(page, produced, "rotation matrix, one instance retired OLD early")
    expect(rotation.locator(".mcp-lab-cell-err").first).to_contain_text("✗ rejected")
    expect(rotation.locator(".mcp-lab-cell-err").first).to_contain_text("unknown key")
    expect(rotation.locator(".mcp-lab-cell-ok").first).to_contain_text("✓ accepted")
    expect(_output(page, produced, "replay, a changed server").locator(".mcp-lab-replay-different")).to_contain_text(
        "✗ DIFFERENT"
    )
    expect(_output(page, produced, "the server list").locator(".mcp-lab-servers-table")).to_contain_text("not ours")

    shop = _output(page, produced, "description of own-shop")
    expect(shop.locator('[data-tool="forecast"] .mcp-lab-signature')).to_have_text(
        "forecast(region: string [Mcp-Param-Region], days?: integer) -> object"
    )
    expect(shop.locator('[data-tool="book"] .mcp-lab-param-header')).to_have_text("Mcp-Param-City")
    expect(shop.locator('[data-tool="workspace"]')).to_contain_text("none")
    expect(shop.locator(".mcp-lab-description-capabilities")).to_have_text("capabilities: prompts, resources, tools")
    expect(shop.locator(".mcp-lab-description-prompts")).to_have_text("prompts: none listed")
    shop.locator('[data-tool="forecast"] details > summary').first.click()
    expect(shop.locator('[data-tool="forecast"] .mcp-lab-json').first).to_contain_text('"x-mcp-header": "Region"')
    shop.first.scroll_into_view_if_needed()
    shop.first.screenshot(path=str(screenshot_path("describe-shop.png")))
    desk = _output(page, produced, "description of own-desk")
    expect(desk.locator('[data-tool="ticket"] .mcp-lab-param-header')).to_have_text("Mcp-Param-Priority")
    expect(desk).to_contain_text("note: no prompts capability: the server offers no prompts")
    remote = _output(page, produced, "description of a connected server")
    expect(remote.locator(".mcp-lab-report-title")).to_contain_text("remote (outside http)")
    expect(remote.locator(".mcp-lab-description-server")).to_contain_text("protocol 2026-07-28")
    expect(remote.locator(".mcp-lab-description-server")).to_contain_text("server: booking")
    expect(_output(page, produced, "a server's log").locator(".mcp-lab-report-title")).to_have_text("log of local")
    screenshot(page, "records-light.png")


@pytest.mark.parametrize("fallbacks", [False, True], ids=["extension", "html-fallback"])
def test_text_contrast_in_light_and_dark_themes(
    lab: Lab, page: Page, produced: list[Produced], fallbacks: bool
) -> None:
    notebook = records_notebook(produced, fallbacks=fallbacks)
    lab.trust(notebook)  # trusted: the HTML fallback keeps its stylesheet, as it does when a kernel shows it
    name = write_notebook(lab, f"contrast-{'html' if fallbacks else 'ext'}.ipynb", notebook)
    _open_without_kernel(page, lab, name)
    selector = ".jp-OutputArea-output .mcp-lab-html" if fallbacks else ".mcp-lab-rendered"
    expect(page.locator(selector)).to_have_count(len(produced))
    assert_contrast_in_both_themes(page, selector, f"contrast-{'html' if fallbacks else 'ext'}")
    if fallbacks:
        aligned = page.evaluate(
            "() => Array.from(document.querySelectorAll('.mcp-lab-html td, .mcp-lab-html th'))"
            ".map(n => getComputedStyle(n).textAlign)"
        )
        assert set(aligned) <= {"left", "start"}, set(aligned)
        wrapped = page.evaluate(
            "() => Array.from(document.querySelectorAll('.mcp-lab-html table code:not(.mcp-lab-wrap)'))"
            ".filter(n => n.getClientRects().length > 1).map(n => n.textContent)"
        )
        assert not wrapped, f"values broken across lines: {wrapped[:5]}"
