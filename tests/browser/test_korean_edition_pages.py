"""The Korean edition opened as a reader opens it: `./dev lab --ko` in JupyterLab, and Notebook 7 in Korean.

Spec context: tutorial 01 is the first multi round-trip request (다중 왕복 요청): the Provisioner's tool
(the SDK docs' lowlevel example, whose request_state is plain text) answers `InputRequiredResult`, and the
client retries with the answer and the request_state echoed byte for byte.
Its Korean edition (notebooks/ko/01_first_round_trip.ipynb -- or, before the translation is merged, the
same notebook built from synthetic Korean cells) is opened
- in JupyterLab started the way `./dev lab --ko` starts it: the Korean folder as the root and the settings
  override `dev` writes (`@jupyterlab/translation-extension:plugin` `locale: ko_KR`, in an app settings
  dir passed for this run only; read from `dev` itself here, so the test follows what `dev` does): the
  menus, the extension's commands, the Korean prose and the saved flow view read in Korean;
- in Notebook 7 (`jupyter notebook`) with the same override: its outputs cleared, three of its cells run in
  the real kernel (the lab, the Provisioner, a call answered by script), and the flow view the real code
  drew reads in Korean (the extension's strings, through JupyterLab's ITranslator).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest
from playwright.sync_api import Error, Page, expect

from tests.browser.harness import Lab, start_lab
from tests.browser.pages import (
    CELL_TIMEOUT_MS,
    SETTLED_POLL_MS,
    page_error_in_our_code,
    present,
    screenshot,
    wait_kernel_idle,
    wait_notebook_open,
)
from tests.notebooks.korean_sources import NOTEBOOKS, ROOT, build, with_synthetic_korean

pytestmark = pytest.mark.browser

TUTORIAL = "01_first_round_trip"
HANGUL = re.compile(r"[\uac00-\ud7a3]")
RUN = ("co-e1ab8074", "provisioner", "co-3e1caa96")
"""Tutorial 01's cells run in Notebook 7: %load_ext, the Provisioner, the call answered by script (its flow)."""


def dev_korean_option() -> tuple[dict[str, Any], list[str]]:
    """What `./dev lab --ko` writes (the overrides) and which apps it passes the settings dir to."""
    lab_branch = (ROOT / "dev").read_text(encoding="utf-8").split("\n  lab)\n", 1)[1].split("\n    ;;", 1)[0]
    korean = lab_branch.split('if [ "${1:-}" = --ko ]; then', 1)[1].split("\n    fi", 1)[0]
    written = re.search(r"echo '(\{.*\})' > \"\$settings/overrides\.json\"", korean)
    assert written, "./dev lab --ko writes the overrides it runs with"
    apps = re.findall(r'--(\w+)\.app_settings_dir="\$PWD/\$settings"', korean)
    assert 'root+=/ko' in korean and apps, "./dev lab --ko serves notebooks/ko with its own app settings dir"
    return json.loads(written[1]), apps


def korean_tutorial() -> Any:
    """The Korean edition of tutorial 01: the built one, or the build's own output for synthetic Korean cells."""
    built = NOTEBOOKS / "ko" / f"{TUTORIAL}.ipynb"
    if built.exists():
        return nbformat.read(built, as_version=4)
    source = (NOTEBOOKS / "src" / f"{TUTORIAL}.py").read_text(encoding="utf-8")
    translated, problems = build.korean_problems(with_synthetic_korean(source), TUTORIAL, build.glossary())
    assert not problems, problems
    return build.korean_edition(nbformat.read(NOTEBOOKS / f"{TUTORIAL}.ipynb", as_version=4), translated, TUTORIAL)


def _start(tmp_path_factory: pytest.TempPathFactory, app: str) -> Lab:
    overrides, apps = dev_korean_option()
    root = tmp_path_factory.mktemp("ko")  # what `./dev lab --ko` serves: the Korean notebooks' folder
    home = tmp_path_factory.mktemp("ko-home")
    settings = tmp_path_factory.mktemp("lab") / "settings-ko"
    settings.mkdir()
    (settings / "overrides.json").write_text(json.dumps(overrides))
    # Every cell in the DOM (no windowing) in Notebook 7 too, whose user settings live in the config dir.
    tracker = home / "config" / "lab" / "user-settings" / "@jupyterlab" / "notebook-extension"
    tracker.mkdir(parents=True)
    (tracker / "tracker.jupyterlab-settings").write_text(json.dumps({"windowingMode": "none"}))
    lab = start_lab(root, home, [f"--{name}.app_settings_dir={settings}" for name in apps], app=app)
    notebook = korean_tutorial()
    lab.trust(notebook)  # as a reader's own saved notebook: its HTML outputs drawn, not sanitized away
    (root / f"{TUTORIAL}.ipynb").write_text(nbformat.writes(notebook), encoding="utf-8")
    return lab


@pytest.fixture(scope="module")
def korean_lab(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    lab = _start(tmp_path_factory, "jupyterlab.labapp")
    try:
        yield lab
    finally:
        lab.stop()


@pytest.fixture(scope="module")
def korean_notebook7(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    lab = _start(tmp_path_factory, "notebook.app")
    try:
        yield lab
    finally:
        lab.stop()


@pytest.fixture
def page_lab() -> None:
    """The shared `page` fixture (tests/browser/conftest.py) needs no Lab of the session's here: each test
    opens its page on a server of this module's own."""
    return None


@pytest.fixture
def failing_page_error() -> Callable[[Error], bool]:
    """Errors thrown by our code fail the test; Notebook 7.6.5 itself throws one "reading 'schema'"
    TypeError while loading, which is not ours."""
    return page_error_in_our_code


def _first_heading(notebook: Any) -> str:
    return str(notebook.cells[0].source.splitlines()[0].lstrip("# "))


def test_dev_lab_ko_opens_the_korean_edition_with_lab_in_korean(korean_lab: Lab, page: Page) -> None:
    page.goto(f"{korean_lab.url}/lab?reset")
    # The file browser at the root shows the Korean folder's notebooks, as `./dev lab --ko` does (the first page
    # of a Lab builds its app: as long as a notebook takes to open, not expect's 5 s).
    listing = page.locator(".jp-DirListing-content")
    expect(listing).to_contain_text(f"{TUTORIAL}.ipynb", timeout=CELL_TIMEOUT_MS)
    # Opened as a reader opens it, from that listing (a double click): the page Lab built, not a second load.
    listing.locator(".jp-DirListing-item", has_text=f"{TUTORIAL}.ipynb").dblclick()
    wait_notebook_open(page, f"{TUTORIAL}.ipynb")
    menus = page.locator("#jp-menu-panel, .lm-MenuBar").first
    for menu in ("파일", "편집", "보기", "설정", "도움말"):
        expect(menus).to_contain_text(menu)
    labels = page.evaluate("() => ['mcp-lab:show-waiting'].map(id => window.jupyterapp.commands.label(id))")
    assert labels == ["MCP Lab: 대기 중인 질문 보기"]
    notebook = korean_tutorial()
    prose = page.locator(".jp-MarkdownCell .jp-RenderedMarkdown").first
    expect(prose).to_contain_text(_first_heading(notebook))
    assert HANGUL.search(prose.inner_text())
    # The saved flow view (cell `co-6d911278`, drawn by the extension from the saved output) reads in Korean.
    flow_view = page.locator(".mcp-lab-flow-view").first
    flow_view.scroll_into_view_if_needed()
    expect(flow_view).to_contain_text("다중 왕복 요청 (InputRequiredResult)")
    expect(flow_view.locator(".mcp-lab-leg-index").first).to_have_text("구간 1")
    page.locator(".jp-MarkdownCell").first.scroll_into_view_if_needed()
    screenshot(page, "korean-edition-lab.png")

    # The same server's Notebook 7 pages (Lab's "노트북" button) read in Korean too: dev passes them the override.
    page.goto(f"{korean_lab.url}/tree")
    expect(page.locator(".lm-MenuBar").first).to_contain_text("파일", timeout=CELL_TIMEOUT_MS)
    expect(page.locator(".jp-DirListing-content")).to_contain_text(f"{TUTORIAL}.ipynb", timeout=CELL_TIMEOUT_MS)


def _run_cell(page: Page, index: int) -> None:
    page.evaluate(
        """index => {
          const notebook = window.jupyterapp.shell.currentWidget.content;
          notebook.activeCellIndex = index;
          window.jupyterapp.commands.execute('notebook:run-cell');
        }""",
        index,
    )
    page.wait_for_function(
        """index => {
          const cell = window.jupyterapp.shell.currentWidget.content.widgets[index];
          const prompt = cell.node.querySelector('.jp-InputPrompt');
          return !!prompt && /^\\[\\d+\\]/.test(prompt.textContent.trim());
        }""",
        arg=index,
        timeout=60_000,
        polling=SETTLED_POLL_MS,
    )


def test_notebook7_in_korean_runs_the_korean_edition_and_draws_its_flow_in_korean(
    korean_notebook7: Lab, page: Page
) -> None:
    name = f"{TUTORIAL}.ipynb"
    page.goto(f"{korean_notebook7.url}/notebooks/{name}")
    wait_notebook_open(page, name)
    expect(page.locator(".lm-MenuBar").first).to_contain_text("파일")
    notebook = korean_tutorial()
    expect(page.locator(".jp-MarkdownCell .jp-RenderedMarkdown").first).to_contain_text(_first_heading(notebook))
    wait_kernel_idle(page)
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
    expect(page.locator(".mcp-lab-flow-view")).to_have_count(0)  # what follows is drawn by this run

    index = {cell.id: n for n, cell in enumerate(notebook.cells)}
    for cell_id in RUN:
        _run_cell(page, index[cell_id])
    cell = page.locator(".jp-Notebook .jp-Cell").nth(index["co-3e1caa96"])
    flow_view = cell.locator(".mcp-lab-flow-view")
    expect(present(flow_view, 30_000)).to_be_visible(timeout=30_000)
    expect(flow_view).to_contain_text("다중 왕복 요청 (InputRequiredResult)")
    expect(flow_view).to_contain_text("보낸 구간 2개")
    expect(flow_view.locator(".mcp-lab-lane-head").first).to_have_text("클라이언트")
    expect(flow_view.locator(".mcp-lab-leg-index").first).to_have_text("구간 1")
    expect(flow_view).to_contain_text("requestState (평문: 이 서버는 봉인하지 않음)")  # the docs' lowlevel example
    expect(flow_view).to_contain_text("us-east-1")  # the scripted answer, as the server got it
    expect(cell.locator(".jp-OutputArea")).not_to_contain_text("Traceback")
    flow_view.scroll_into_view_if_needed()
    screenshot(page, "korean-edition-notebook7.png")
    screenshot(page, "korean-edition-notebook7-flow.png", f".jp-Cell:nth-child({index['co-3e1caa96'] + 1}) .mcp-lab-flow-view")
