"""Live forms read well: every text keeps >= 4.5:1 contrast in JupyterLab Light and Dark, focus is visible.

Spec context: the forms are where a person answers a 2026-07-28 input request; issue 12 found the old
error red at 2.8:1 in the dark theme. Measured in Chromium on a real waiting form with errors showing, in
its cell and in the side panel (whose background differs), colours resolved as the browser resolves them.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.forms_pages import PANEL, error_of, fill_profile_with_mistakes, run_until_form
from tests.browser.harness import Lab
from tests.browser.pages import change_theme, screenshot

pytestmark = pytest.mark.browser

# Every visible text in `root`, with its colour composited over the backgrounds it sits on, and the contrast
# ratio of WCAG 2 (relative luminance). Colours are resolved by a canvas, which reads any CSS colour syntax
# (rgba(), color(srgb ...) from color-mix(), ...). Placeholders are measured as text on their input.
_CONTRAST_JS = """root => {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 1;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  const rgba = color => {
    ctx.clearRect(0, 0, 1, 1);
    ctx.fillStyle = 'rgba(0, 0, 0, 0)';
    ctx.fillStyle = color;
    ctx.fillRect(0, 0, 1, 1);
    const d = ctx.getImageData(0, 0, 1, 1).data;
    return [d[0], d[1], d[2], d[3] / 255];
  };
  const over = (top, bottom) => [0, 1, 2].map(i => top[i] * top[3] + bottom[i] * (1 - top[3])).concat([1]);
  const background = node => {
    const layers = [];
    for (let n = node; n; n = n.parentElement) {
      const c = rgba(getComputedStyle(n).backgroundColor);
      if (c[3] > 0) { layers.push(c); }
      if (c[3] >= 1) { break; }
    }
    return layers.reverse().reduce((below, layer) => over(layer, below), [255, 255, 255, 1]);
  };
  const luminance = c => {
    const [r, g, b] = c.slice(0, 3).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (fg, bg) => {
    const [a, b] = [luminance(fg), luminance(bg)].sort((x, y) => y - x);
    return (a + 0.05) / (b + 0.05);
  };
  const rows = [];
  const measure = (node, text, color) => {
    const bg = background(node);
    const fg = over(rgba(color), bg);
    rows.push({ text: text.slice(0, 40), ratio: Math.round(ratio(fg, bg) * 100) / 100, color, bg: bg.join(',') });
  };
  for (const node of root.querySelectorAll('*')) {
    if (!node.getClientRects().length) { continue; }
    const own = [...node.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent.trim()).join(' ');
    if (own) { measure(node, own, getComputedStyle(node).color); }
    if ((node.tagName === 'INPUT' || node.tagName === 'TEXTAREA') && node.placeholder && !node.value) {
      measure(node, `placeholder: ${node.placeholder}`, getComputedStyle(node, '::placeholder').color);
    }
    if ((node.tagName === 'INPUT' || node.tagName === 'TEXTAREA') && node.value && node.type !== 'checkbox' && node.type !== 'radio') {
      measure(node, `value: ${node.value}`, getComputedStyle(node).color);
    }
  }
  return rows;
}"""


def low_contrast(page: Page, selector: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for handle in page.locator(selector).element_handles():
        rows += handle.evaluate(_CONTRAST_JS)
    assert rows, f"nothing measured under {selector}"
    return [row for row in rows if row["ratio"] < 4.5]


def test_forms_read_well_in_the_light_and_dark_themes(lab: Lab, page: Page) -> None:
    form = run_until_form(page, lab, "themes.ipynb", "profile", "ask_profile")
    fill_profile_with_mistakes(page, form)
    form.get_by_role("button", name="Submit", exact=True).click()
    expect(error_of(form, "age")).to_be_visible()
    # The same round in the side panel too (its background differs from the cell's).
    page.evaluate("() => { window.jupyterapp.commands.execute('mcp-lab:show-waiting'); }")
    panel = page.locator(PANEL)
    expect(panel.locator('.mcp-lab-form[data-key="ask_profile"]')).to_be_visible()
    try:
        for theme, light in (("JupyterLab Light", True), ("JupyterLab Dark", False)):
            change_theme(page, theme, light)
            expect(error_of(form, "age")).to_be_visible()
            assert low_contrast(page, ".jp-CodeCell .mcp-lab-forms") == [], theme
            assert low_contrast(page, f"{PANEL}") == [], theme
            # Keyboard focus on a button draws a ring.
            form.get_by_role("button", name="Decline").focus()
            page.keyboard.press("Shift+Tab")
            page.keyboard.press("Tab")
            ring = form.get_by_role("button", name="Decline").evaluate(
                "b => { const s = getComputedStyle(b); return [s.outlineStyle, s.outlineWidth]; }"
            )
            assert ring[0] != "none" and ring[1] != "0px", (theme, ring)
            screenshot(page, f"forms-{'light' if light else 'dark'}-errors.png")
    finally:
        change_theme(page, "JupyterLab Light", True)  # the theme is a user setting: leave Lab as it was
