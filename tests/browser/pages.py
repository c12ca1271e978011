"""Driving a notebook in the real JupyterLab page: open, wait for the kernel, run, wait for the cells.

Why these waits: the kernel status in Lab's toolbar can read "idle" while an async cell still awaits
(subshell and control messages publish status too), so a cell counts as finished only when
its prompt shows `[n]`, never `[*]` or `[ ]`. Lab's commands are called through `window.jupyterapp`
(`expose_app_in_browser`); a command is fired inside a `() => { ...; }` wrapper so Playwright does not
wait on the returned promise (run-all would otherwise wait for every cell, including an awaiting one).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import nbformat
from playwright.sync_api import Error, Locator, Page

from tests.browser.harness import ARTIFACTS, Lab

CELL_TIMEOUT_MS = 60_000
SETTLED_POLL_MS = 100
"""How often a wait for a state that stays once reached (a notebook open, a kernel idle, every cell done)
checks the page. Playwright's default checks on every animation frame, which keeps Chromium drawing 60
frames a second for the whole wait and runs the check (every cell's outputs) in each; a state that
lasts is seen as surely at 10 checks a second. Only a theme switch is still waited for frame by frame."""

_CELLS_JS = """() => {
  const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  if (!panel || !panel.content || !panel.content.widgets) { return null; }
  return panel.content.widgets.filter(c => c.model.type === 'code').map(c => ({
    prompt: ((c.node.querySelector('.jp-InputPrompt') || {}).textContent || '').trim(),
    errors: c.model.outputs.toJSON().filter(o => o.output_type === 'error')
      .map(o => `${o.ename}: ${o.evalue}`),
  }));
}"""

# Every code cell shows `[n]`, or one has an error output (Run All stops there): what `_CELLS_JS` reports,
# read without it -- no copy of every output's data (`toJSON`) ten times a second for the whole run.
_FINISHED_JS = """() => {
  const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  if (!panel || !panel.content || !panel.content.widgets) { return false; }
  let done = true;
  for (const c of panel.content.widgets) {
    if (c.model.type !== 'code') { continue; }
    const outputs = c.model.outputs;
    for (let i = 0; i < outputs.length; i++) { if (outputs.get(i).type === 'error') { return true; } }
    done = done && /^\\[\\d+\\]/.test(((c.node.querySelector('.jp-InputPrompt') || {}).textContent || '').trim());
  }
  return done;
}"""

_KERNEL_IDLE_JS = """() => {
  const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const kernel = panel && panel.sessionContext && panel.sessionContext.session
    && panel.sessionContext.session.kernel;
  return !!kernel && kernel.connectionStatus === 'connected' && kernel.status === 'idle';
}"""


def write_notebook(lab: Lab, name: str, notebook: Any) -> str:
    nbformat.validate(notebook)
    (lab.root / name).write_text(nbformat.writes(notebook), encoding="utf-8")
    return name


def wait_notebook_open(page: Page, name: str) -> None:
    """Wait until the page's current document is the notebook `name`, loaded (Lab and Notebook 7 alike)."""
    page.wait_for_function(
        """name => {
          const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
          return !!panel && !!panel.context && panel.context.path === name && panel.context.isReady;
        }""",
        arg=name,
        timeout=CELL_TIMEOUT_MS,
        polling=SETTLED_POLL_MS,
    )


def open_notebook(page: Page, lab: Lab, name: str) -> None:
    page.goto(f"{lab.url}/lab/tree/{name}?reset")
    wait_notebook_open(page, name)


def wait_kernel_idle(page: Page) -> None:
    page.wait_for_function(_KERNEL_IDLE_JS, timeout=CELL_TIMEOUT_MS, polling=SETTLED_POLL_MS)


def run_all(page: Page) -> None:
    wait_kernel_idle(page)
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")


def cells(page: Page) -> list[dict[str, Any]]:
    return page.evaluate(_CELLS_JS) or []


def wait_cells_done(page: Page, timeout_ms: int = CELL_TIMEOUT_MS) -> None:
    """Wait until every code cell shows `[n]`, or one shows an error output (Run All stops there)."""
    page.wait_for_function(_FINISHED_JS, timeout=timeout_ms, polling=SETTLED_POLL_MS)


def wait_cells_finished(page: Page, timeout_ms: int = CELL_TIMEOUT_MS) -> list[dict[str, Any]]:
    """Wait until every code cell shows `[n]` (or one failed); fail with the error outputs if any."""
    wait_cells_done(page, timeout_ms)
    state = cells(page)
    errors = [e for c in state for e in c["errors"]]
    assert not errors, f"notebook cells raised: {errors}"
    return state


def wait_cell_running(page: Page, index: int, timeout_ms: int = CELL_TIMEOUT_MS) -> None:
    """Wait until code cell `index` shows `[*]`: it is executing. For a cell that awaits a person (a form,
    a hung tool waiting for Interrupt: every caller's), a state that lasts until the test acts, so it is
    checked every `SETTLED_POLL_MS`; the check reads that one cell's prompt only."""
    page.wait_for_function(
        """index => {
          const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
          if (!panel || !panel.content || !panel.content.widgets) { return false; }
          const cell = panel.content.widgets.filter(c => c.model.type === 'code')[index];
          const prompt = cell && cell.node.querySelector('.jp-InputPrompt');
          return !!prompt && (prompt.textContent || '').trim().startsWith('[*]');
        }""",
        arg=index,
        timeout=timeout_ms,
        polling=SETTLED_POLL_MS,
    )


def save_notebook(page: Page) -> None:
    page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")


def current_kernel_id(page: Page) -> str | None:
    return page.evaluate(
        """() => {
          const panel = window.jupyterapp.shell.currentWidget;
          const session = panel && panel.sessionContext && panel.sessionContext.session;
          return (session && session.kernel && session.kernel.id) || null;
        }"""
    )


def change_theme(page: Page, theme: str, light: bool) -> None:
    """Switch Lab's theme and wait until it is applied: Lab flips `data-jp-theme-light` once the theme's
    stylesheet has loaded (and the old one is gone), hides its shell, and shows and refits it in the next
    animation frame -- so the flip with the shell shown again is the new theme drawn, not a guess in time."""
    page.evaluate(f"() => {{ window.jupyterapp.commands.execute('apputils:change-theme', {{theme: '{theme}'}}); }}")
    page.wait_for_function(
        "light => document.body.dataset.jpThemeLight === light && !window.jupyterapp.shell.isHidden",
        arg=str(light).lower(),
        timeout=CELL_TIMEOUT_MS,
    )


def present(locator: Locator, timeout_ms: int) -> Locator:
    """`locator` once something it matches is in the page (waited for up to `timeout_ms`), for an `expect`
    to assert on. Playwright's `expect`, each time it looks and finds nothing yet, takes an accessibility
    snapshot of the whole page for the message it would fail with: a test waiting seconds for a form to be
    drawn spent 1.1 of its 9 CPU-s of Chromium's main thread on them (measured, CPU profile of
    tests/browser/test_stale_forms.py). `wait_for` looks for the element without that snapshot."""
    locator.first.wait_for(state="attached", timeout=timeout_ms)
    return locator


def mime_outputs(page: Page, mime: str) -> Any:
    """The output areas JupyterLab rendered with `mime` as the chosen (preferred) MIME type."""
    return page.locator(f'.jp-OutputArea-output[data-mime-type="{mime}"]')


def screenshot_path(name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS / name


def screenshot(page: Page, name: str, selector: str | None = None) -> Path:
    path = screenshot_path(name)
    if selector is None:
        page.screenshot(path=str(path))
    else:
        page.locator(selector).first.screenshot(path=str(path))
    return path


def safe_name(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text)[:80]


def any_page_error(error: Error) -> bool:
    return True


_OUR_CODE = re.compile(r"mcp-lab|mcp_lab|blob:")


def page_error_in_our_code(error: Error) -> bool:
    """An error whose stack runs through the extension's code (not Lab's or Notebook 7's own)."""
    return bool(_OUR_CODE.search(str(error.stack)))
