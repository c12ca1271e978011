"""The tutorials run in the real JupyterLab as a person runs them: Run All, the forms answered on screen.

Spec context: a reader may run a whole tutorial twice in one kernel (Run All, then Run All again):
re-running a `%%mcp_server` cell replaces the server, as re-running a `def` redefines a function, and the
lab's hooks (its logging handlers among them) are installed once per kernel. `run_all_twice` does that in
a person's Lab: both runs answer the tutorial's forms by typing, with a correction, and after each run it
reads every code cell's output from the screen. The second run must show no dead widget, no cell with an
error output, and no cell with more `[server log]` lines than the same cell showed on the first run (a
logging handler installed twice prints each line twice). Its output is otherwise not compared with the
first: the second run rightly differs where a cell shows the kernel's state (`%mcp_server list` names the
servers the first run started later; `%load_ext` says the extension is already loaded). That each shipped
output is what the code prints is nbval's part (`./dev test`, one run per tutorial in a fresh kernel).

The tutorials are split over tests/browser/test_run_all_twice_*.py, so that no one file (one pytest-xdist
worker under `--dist loadfile`) holds them all.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
from playwright.sync_api import Locator, Page, expect

from tests.browser.harness import Lab
from tests.browser.pages import (
    CELL_TIMEOUT_MS,
    open_notebook,
    present,
    run_all,
    screenshot,
    screenshot_path,
    wait_cell_running,
    wait_cells_done,
    write_notebook,
)

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook"
DEAD_WIDGET = re.compile(r"model not found|Error displaying widget", re.IGNORECASE)
TYPING_DELAY_MS = 60
LOGGED = "[server log]"
TUTORIALS = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
RUN_TIMEOUT_MS = 180_000


def tutorials(first: int, last: int) -> list[str]:
    """The tutorials numbered `first` to `last` (both included)."""
    chosen = [stem for stem in TUTORIALS if first <= int(stem[:2]) <= last]
    assert chosen, f"no tutorial numbered {first}-{last}"
    return chosen


def solved_tutorial(tmp: Path, stem: str) -> Any:
    """A tutorial as shipped, its exercise solved (reference solution), without saved outputs."""
    sys.path.insert(0, str(ROOT / "notebooks"))
    from build import reference

    (path,) = [p for p in reference(tmp) if p.stem == stem]
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    return nb


def code_index(nb: Any, prefix: str) -> int:
    code = [c for c in nb.cells if c.cell_type == "code"]
    return next(i for i, c in enumerate(code) if c.source.startswith(prefix))


def code_cell(page: Page, index: int) -> Locator:
    return page.locator(f"{NOTEBOOK} .jp-CodeCell").nth(index)


def type_like_a_person(field: Locator, text: str) -> None:
    field.click()
    field.press_sequentially(text, delay=TYPING_DELAY_MS)


def type_region_with_a_correction(region: Locator) -> None:
    """Tutorial 1's answer, "eu-west-1", typed with a slip corrected."""
    type_like_a_person(region, "eu-wst")
    region.press("Backspace")
    region.press("Backspace")
    region.press_sequentially("est-1", delay=TYPING_DELAY_MS)


def answer_tutorial_forms(page: Page, stem: str, nb: Any) -> None:
    """Answer the forms a tutorial asks under Run All, typing as a person does (with a correction)."""
    if stem == "01_first_round_trip":
        wait_cell_running(page, code_index(nb, "flow = await %mcp_call Provisioner"))
        form = page.locator(f"{NOTEBOOK} .mcp-lab-form").first
        region = form.get_by_label("region", exact=True)
        type_region_with_a_correction(region)
        region.press("Enter")  # Enter in a single-line field submits a valid form
    elif stem == "02_dependencies":
        forms = page.locator(f"{NOTEBOOK} .mcp-lab-forms").first
        expect(forms.locator(".mcp-lab-form")).to_have_count(2, timeout=CELL_TIMEOUT_MS)
        type_like_a_person(forms.get_by_label("Region", exact=True), "Kreuzberg")
        type_like_a_person(forms.get_by_label("Nights", exact=True), "three")
        forms.get_by_role("button", name="Submit all").click()
        expect(forms.get_by_text(re.compile("whole number"))).to_be_visible()  # refused in the form
        nights = forms.get_by_label("Nights", exact=True)
        nights.fill("")
        type_like_a_person(nights, "3")
        forms.get_by_role("button", name="Submit all").click()
    elif stem == "04_prompts_and_resources":
        form = page.locator(f"{NOTEBOOK} .mcp-lab-form").first
        expect(present(form, CELL_TIMEOUT_MS)).to_be_visible(timeout=CELL_TIMEOUT_MS)
        audience = form.get_by_label("audience", exact=True)
        type_like_a_person(audience, "the board")
        form.get_by_role("button", name="Submit").click()


# Each code cell as the page draws it: every output's type (from the cell's output model, drawn in the same
# order) and the text its rendered output node shows. textContent, not innerText: Lab's default windowing
# mode keeps every cell in the page but lets the browser skip drawing those out of view
# (`content-visibility`), and their text is still there.
_SCREEN_JS = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  return panel.content.widgets.filter(c => c.model.type === 'code').map(c => {
    const area = c.outputArea;
    return {
      id: c.model.id,
      source: c.model.sharedModel.getSource(),
      outputs: area.widgets.map((widget, i) => ({
        type: i < area.model.length ? area.model.get(i).type : 'none',
        text: Array.from(widget.node.querySelectorAll('.jp-OutputArea-output'))
          .map(node => node.textContent).join('\\n'),
      })),
    };
  });
}"""


@dataclass(frozen=True)
class ScreenCell:
    """A code cell's outputs as the screen shows them after a run."""

    number: int
    id: str
    source: str
    outputs: list[tuple[str, str]]
    """(output type, text shown) per output."""

    def name(self) -> str:
        first = self.source.splitlines()[0] if self.source.strip() else "(empty)"
        return f"code cell {self.number} (id {self.id!r}: {first[:70]!r})"

    def errors(self) -> list[str]:
        return [text.strip().splitlines()[-1] if text.strip() else "" for kind, text in self.outputs if kind == "error"]

    def logged(self) -> list[str]:
        """The `[server log]` lines the cell shows (their count shows a handler installed twice)."""
        return [line for _, text in self.outputs for line in text.splitlines() if line.startswith(LOGGED)]


def read_screen(page: Page) -> list[ScreenCell]:
    return [
        ScreenCell(n, cell["id"], cell["source"], [(o["type"], o["text"]) for o in cell["outputs"]])
        for n, cell in enumerate(page.evaluate(_SCREEN_JS))
    ]


def assert_no_error_shown(cells: list[ScreenCell], run: int) -> None:
    raised = [f"{cell.name()}: {cell.errors()}" for cell in cells if cell.errors()]
    assert not raised, f"on Run All number {run} these cells show an error: {raised}"


def logged_more(first: list[ScreenCell], second: list[ScreenCell]) -> list[tuple[ScreenCell, ScreenCell]]:
    """The cells (first run, second run) that show more `[server log]` lines on the second run."""
    assert [c.id for c in second] == [c.id for c in first], "the notebook's code cells changed between the runs"
    return [(once, again) for once, again in zip(first, second, strict=True) if len(again.logged()) > len(once.logged())]


def run_all_twice(lab: Lab, page: Page, tmp_path: Path, stem: str) -> None:
    """Run All twice in one kernel, the forms answered on screen both times, each run read from the screen."""
    nb = solved_tutorial(tmp_path, stem)
    name = write_notebook(lab, f"twice-{stem}.ipynb", nb)
    open_notebook(page, lab, name)
    runs: list[list[ScreenCell]] = []
    for run in (1, 2):
        run_all(page)
        answer_tutorial_forms(page, stem, nb)
        wait_cells_done(page, timeout_ms=RUN_TIMEOUT_MS)
        runs.append(read_screen(page))
        assert_no_error_shown(runs[-1], run)
        assert not page.locator(NOTEBOOK).get_by_text(DEAD_WIDGET).count()
        if run == 1:
            page.evaluate("() => { window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs'); }")
    screenshot(page, f"twice-{stem}.png", NOTEBOOK)
    doubled = logged_more(*runs)
    if doubled:  # the first such cell as the person sees it
        cell = code_cell(page, doubled[0][1].number)
        cell.scroll_into_view_if_needed()
        cell.screenshot(path=str(screenshot_path(f"twice-{stem}-logged-more.png")))
    assert not doubled, "on the second Run All these cells log more than on the first: " + "; ".join(
        f"{again.name()} shows {len(again.logged())} {LOGGED} line(s), {len(once.logged())} on the first run: "
        f"{again.logged()}"
        for once, again in doubled
    )
