"""The extension's flow view shows which real process served each leg of a flow through the proxy.

Spec context: the default request_state key lives and dies with its process. Two uvicorn processes behind
Caddy (round-robin, no affinity) each seal with their own key, so the retry of a two-leg call lands on the
sibling and is refused (-32602). The view must say where each leg went -- taken from the response's own
`Mcp-Lab-Instance` header -- so a person sees leg 1 on one instance and the refused retry on the other.
"""

from __future__ import annotations

import re

import pytest
from nbformat.v4 import new_code_cell
from playwright.sync_api import Page, expect

from tests.browser.harness import Lab
from tests.browser.notebooks import _notebook
from tests.browser.pages import mime_outputs, open_notebook, run_all, screenshot, wait_cells_finished, write_notebook

pytestmark = pytest.mark.browser

FLOW_MIME = "application/vnd.mcp-lab.flow+json"

SERVER = '''%%mcp_server hats
from pydantic import BaseModel
from typing import Annotated
from mcp.server.mcpserver import Elicit, Resolve

class Size(BaseModel):
    size: str

async def ask_size(item: str) -> Elicit[Size]:
    return Elicit(f"Which size for the {item}?", Size)

@mcp.tool()
async def hat(item: str, size: Annotated[Size, Resolve(ask_size)]) -> str:
    return f"a {item} hat, size {size.size}"'''

FLEET = '''fleet = await mcp_lab.start_fleet("hats", instances=2)  # each process on its own default key
flow = await mcp_lab.call(fleet.name, "hat", {"item": "red"}, answers={"ask_size": {"size": "7"}})
print([r.served_by for r in flow.rounds])'''


def test_the_flow_view_names_the_instance_of_each_leg(lab: Lab, page: Page) -> None:
    notebook = _notebook(
        [
            new_code_cell("%load_ext mcp_lab\nimport mcp_lab"),
            new_code_cell(SERVER),
            new_code_cell(FLEET),
            new_code_cell("flow"),
            new_code_cell("await fleet.stop()"),
        ]
    )
    name = write_notebook(lab, "fleet_flow.ipynb", notebook)
    open_notebook(page, lab, name)
    run_all(page)
    wait_cells_finished(page)

    printed = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stdout']").first
    served = re.findall(r"'(hats-fleet#\d)'", printed.inner_text())
    assert len(served) == 2 and served[0] != served[1], printed.inner_text()  # no affinity: leg 2 on the sibling

    view = mime_outputs(page, FLOW_MIME).locator(".mcp-lab-flow-view")
    expect(view).to_have_count(1)
    expect(view.locator(".mcp-lab-leg")).to_have_count(2)
    legs = view.locator(".mcp-lab-leg")
    expect(legs.nth(0)).to_contain_text(f"served by {served[0]}")
    expect(legs.nth(1)).to_contain_text(f"served by {served[1]}")
    expect(view).to_contain_text("-32602")  # the sibling's key cannot open the first instance's token
    screenshot(page, "fleet-flow-served-by.png", f'.jp-OutputArea-output[data-mime-type="{FLOW_MIME}"]')
