"""The lab's screens in Korean when JupyterLab is in Korean (issue 27, item 2), answered by a person typing.

Spec context: a 2026-07-28 multi round-trip request (다중 왕복 요청) asks its question as an
`InputRequiredResult`; the person answers it in a live form while the cell awaits, and the client retries
with the answer and the sealed (봉인된) request_state. Here JupyterLab runs with its Korean language pack
(`jupyterlab-language-pack-ko-kr`, a test dependency) and its language setting
(`@jupyterlab/translation-extension:plugin` `{"locale": "ko_KR"}`, in the user settings dir this Lab
reads), so the extension's catalog (mcp_lab/catalogs/locale/ko_KR/LC_MESSAGES/mcp_lab.json) is served with the
page. A person types a wrong answer key by key, reads the Korean inline errors, corrects it and submits;
the test compares what the server received with what was typed, and reads the buttons, the side panel of
waiting questions, the palette's commands, a flow view and a token view in Korean.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from nbformat.v4 import new_code_cell, new_notebook
from playwright.sync_api import Error, Page, expect

from tests.browser.forms_pages import DELAY_MS, PANEL, received, retype
from tests.browser.harness import Lab, start_lab
from tests.browser.pages import (
    any_page_error,
    open_notebook,
    present,
    run_all,
    screenshot,
    wait_cell_running,
    wait_cells_finished,
    write_notebook,
)

pytestmark = pytest.mark.browser

KOREAN = {"locale": "ko_KR"}

SERVER = '''%%mcp_server desk
import json
from typing import Annotated
from pydantic import BaseModel, Field
from mcp.server.mcpserver import Elicit, Resolve

class Placement(BaseModel):
    region: str = Field(title="Region", min_length=2)
    nodes: int = Field(title="Nodes", ge=1, le=9)

async def ask_region(name: str) -> Elicit[Placement]:
    return Elicit(f"Where should {name} run?", Placement)

@mcp.tool()
async def provision(name: str, placement: Annotated[Placement, Resolve(ask_region)]) -> str:
    return "RECEIVED " + json.dumps(placement.model_dump(), sort_keys=True, ensure_ascii=False)'''

AWAITING = 2
"""The cell that awaits the form (after %load_ext and the server cell)."""


def korean_notebook() -> object:
    cells = [
        new_code_cell("%load_ext mcp_lab\nimport mcp_lab"),
        new_code_cell(SERVER),
        new_code_cell('flow = await mcp_lab.call("desk", "provision", {"name": "orders"})\nprint(flow.text)'),
        new_code_cell("flow"),
        new_code_cell("mcp_lab.inspect_token(flow)"),
    ]
    kernel = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    return new_notebook(cells=cells, metadata={"kernelspec": kernel, "language_info": {"name": "python"}})


@pytest.fixture(scope="module")
def korean_lab(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    """A Lab of its own whose language setting is Korean (the session's Lab stays English)."""
    root = tmp_path_factory.mktemp("ko-lab-root")
    home = tmp_path_factory.mktemp("ko-lab-home")
    settings = home / "settings" / "@jupyterlab" / "translation-extension"
    settings.mkdir(parents=True)
    (settings / "plugin.jupyterlab-settings").write_text(json.dumps(KOREAN))
    server = start_lab(root, home)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def page_lab(korean_lab: Lab) -> Lab:
    """The shared `page` fixture (tests/browser/conftest.py) opens this module's pages on the Korean Lab."""
    return korean_lab


@pytest.fixture
def failing_page_error() -> Callable[[Error], bool]:
    """Any error thrown in a page of the Korean Lab fails the test."""
    return any_page_error


def test_a_person_answers_a_korean_form_and_every_screen_reads_korean(korean_lab: Lab, page: Page) -> None:
    name = write_notebook(korean_lab, "korean.ipynb", korean_notebook())
    open_notebook(page, korean_lab, name)
    # JupyterLab itself is in Korean (its language pack), and so are the extension's palette commands.
    expect(page.locator("#jp-menu-panel, .lm-MenuBar").first).to_contain_text("파일")
    labels = page.evaluate(
        """() => ['mcp-lab:show-waiting', 'mcp-lab:cancel-waiting'].map(id => window.jupyterapp.commands.label(id))"""
    )
    assert labels == ["MCP Lab: 대기 중인 질문 보기", "MCP Lab: 대기 중인 흐름 모두 취소"], labels

    run_all(page)
    wait_cell_running(page, AWAITING)
    form = page.locator(".jp-Notebook .jp-CodeCell").nth(AWAITING).locator('.mcp-lab-form[data-key$="ask_region"]')
    expect(present(form, 30_000)).to_be_visible(timeout=30_000)
    # The form's own words are Korean; the server's words (its question, its field titles) are the server's.
    expect(form).to_contain_text("질문")
    expect(form).to_contain_text("Where should orders run?")
    expect(form).to_contain_text("이 서버에 알려도 되는 것만 답하세요")
    submit = form.get_by_role("button", name="제출", exact=True)
    expect(submit).to_be_visible()
    expect(form.get_by_role("button", name="거절", exact=True)).to_be_visible()
    expect(form.get_by_role("button", name="취소", exact=True)).to_be_visible()
    nodes = form.get_by_label("Nodes", exact=True)
    expect(nodes).to_have_attribute("placeholder", "1부터 9까지의 정수")
    expect(form.locator(".mcp-lab-form-buttons")).not_to_contain_text("Submit")

    # The side panel of waiting questions shows the same round, in Korean.
    page.evaluate("() => window.jupyterapp.commands.execute('mcp-lab:show-waiting')")
    panel = page.locator(PANEL)
    expect(panel).to_be_visible()
    expect(panel.locator(".mcp-lab-waiting-title")).to_have_text("대기 중인 질문")
    expect(panel.locator(".mcp-lab-waiting-status")).to_have_text("라운드 1개가 답을 기다립니다.")
    expect(panel.get_by_role("button", name="대기 중인 흐름 모두 취소")).to_be_visible()
    expect(panel.get_by_role("button", name="흐름 중지")).to_be_visible()
    expect(panel.locator(".mcp-lab-forms-title")).to_contain_text("라운드 1")

    # A person types: a region too short, too many nodes; submits; reads the errors; corrects; submits.
    region = form.get_by_label("Region", exact=True)
    region.click()
    region.press_sequentially("a", delay=DELAY_MS)
    nodes.click()
    nodes.press_sequentially("12", delay=DELAY_MS)
    submit.click()
    expect(form.locator('[data-field="region"] .mcp-lab-field-error')).to_have_text("⚠ 2자 이상이어야 합니다")
    expect(form.locator('[data-field="nodes"] .mcp-lab-field-error')).to_have_text("⚠ 9 이하여야 합니다")
    expect(form.locator(".mcp-lab-form-status")).to_have_text("표시된 필드 2개를 고친 뒤 다시 제출하세요.")
    screenshot(page, "korean-form-errors.png")
    retype(region, "ap-northeast-2 서울")
    retype(nodes, "3")
    typed = {"region": region.input_value(), "nodes": int(nodes.input_value())}
    # Valid now, and nobody pressed 제출 yet: the errors clear as the kernel checks the draft.
    for field in ("region", "nodes"):
        expect(form.locator(f'[data-field="{field}"] .mcp-lab-field-error')).to_be_hidden(timeout=5_000)
    expect(form.locator(".mcp-lab-form-status")).to_have_text("")
    screenshot(page, "korean-form-and-panel.png")
    submit.click()

    wait_cells_finished(page)
    assert received(page, AWAITING) == typed == {"region": "ap-northeast-2 서울", "nodes": 3}
    # The panel keeps the answered round as its record, in Korean, and says nothing waits any more.
    expect(panel.locator(".mcp-lab-form-summary")).to_have_text(
        "'desk'의 엘리시테이션 양식 'ask_region': 답함 region='ap-northeast-2 서울', nodes=3"
    )
    expect(panel.locator(".mcp-lab-waiting-status")).to_have_text("이 노트북의 커널에서 기다리는 질문이 없습니다.")

    flow_view = page.locator(".mcp-lab-flow-view").first
    expect(flow_view).to_contain_text("다중 왕복 요청 (InputRequiredResult)")
    expect(flow_view).to_contain_text("보낸 구간 2개")
    expect(flow_view.locator(".mcp-lab-lane-head").first).to_have_text("클라이언트")
    expect(flow_view.locator(".mcp-lab-leg-index").first).to_have_text("구간 1")
    expect(flow_view).to_contain_text("requestState (서버가 봉인함)")
    expect(flow_view).to_contain_text("질문 1개")
    flow_view.scroll_into_view_if_needed()
    screenshot(page, "korean-flow-view.png", ".mcp-lab-flow-view")

    page.set_viewport_size({"width": 1280, "height": 2400})  # the whole token view in one screenshot
    token_view = page.locator(".mcp-lab-token-view").first
    expect(token_view).to_contain_text("인코딩된 토큰")
    expect(token_view).to_contain_text("봉인된 클레임")
    expect(token_view).to_contain_text("서버가 검사하는 순서대로")
    expect(token_view.locator(".mcp-lab-kv th").first).to_have_text("형식")
    token_view.scroll_into_view_if_needed()
    screenshot(page, "korean-token-view.png", ".mcp-lab-token-view")


def test_a_form_whose_kernel_restarted_reads_abandoned_in_korean(korean_lab: Lab, page: Page) -> None:
    name = write_notebook(korean_lab, "korean_restart.ipynb", korean_notebook())
    open_notebook(page, korean_lab, name)
    run_all(page)
    wait_cell_running(page, AWAITING)
    form = page.locator(".jp-Notebook .jp-CodeCell").nth(AWAITING).locator('.mcp-lab-form[data-key$="ask_region"]')
    expect(present(form, 30_000)).to_be_visible(timeout=30_000)
    form.get_by_label("Region", exact=True).press_sequentially("eu", delay=DELAY_MS)
    page.evaluate("() => window.jupyterapp.commands.execute('mcp-lab:show-waiting')")
    panel = page.locator(PANEL)
    expect(panel.locator(".mcp-lab-form")).to_be_visible()

    # The notebook toolbar's restart button, then the dialog's accept button (its label is Korean here).
    page.locator('.jp-NotebookPanel:not(.lm-mod-hidden) [data-command="notebook:restart-kernel"]').first.click()
    dialog = page.locator(".jp-Dialog")
    expect(dialog).to_be_visible(timeout=10_000)
    dialog.locator("button.jp-mod-accept").click()
    expect(dialog).to_have_count(0)

    abandoned = "'desk'의 엘리시테이션 양식 'ask_region': 중단됨: 커널이 재시작되었습니다"
    expect(form).to_have_attribute("data-state", "abandoned", timeout=30_000)
    expect(form.locator(".mcp-lab-form-summary")).to_have_text(abandoned)
    expect(form.locator(".mcp-lab-form-asked")).to_have_text("질문: Where should orders run?")
    expect(page.locator(".jp-Notebook .jp-CodeCell").nth(AWAITING).get_by_role("button")).to_have_count(0)
    expect(panel.locator(".mcp-lab-form-summary")).to_have_text(abandoned)
    expect(panel.get_by_role("button", name="흐름 중지")).to_have_count(0)
    screenshot(page, "korean-abandoned-after-restart.png")
