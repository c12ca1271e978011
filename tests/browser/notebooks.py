"""Notebook fixtures for the browser tests, written fresh into Lab's root dir by each test.

Kept as code (not committed .ipynb files) so no stale outputs or widget state ride along. A live scenario
runs its cells in a real kernel; the saved-views notebook holds only outputs the real producers made
(tests/records/producers.py), never a hand-written payload. Spec context: a tool whose resolver asks one
elicitation question -- the smallest multi round-trip request (two legs, one sealed request_state).
"""

from __future__ import annotations

from typing import Any

from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from tests.records.producers import Produced

SERVER_CELL = '''%%mcp_server demo
from typing import Annotated
from pydantic import BaseModel, Field
from mcp.server.mcpserver import Elicit, Resolve

class Region(BaseModel):
    region: str = Field(title="Region")

async def ask_region(city: str) -> Elicit[Region]:
    return Elicit(f"Which region for {city}?", Region)

@mcp.tool()
async def book(city: str, region: Annotated[Region, Resolve(ask_region)]) -> str:
    return f"Booked {city} in {region.region}"'''


def _notebook(cells: list[Any]) -> Any:
    return new_notebook(
        cells=cells,
        metadata={
            "kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"},
            "language_info": {"name": "python"},
        },
    )


def scripted_flow_notebook() -> Any:
    """A flow answered by script: runs headless-safe, and its output goes through the extension."""
    return _notebook(
        [
            new_markdown_cell("# A scripted round trip"),
            new_code_cell("%load_ext mcp_lab\nimport mcp_lab"),
            new_code_cell(SERVER_CELL),
            new_code_cell(
                'flow = await %mcp_call demo book city=Paris --answers \'{"ask_region": {"region": "eu-west"}}\''
            ),
            new_code_cell("flow"),
            new_code_cell("%mcp_server list"),
        ]
    )


def records_notebook(produced: list[Produced], *, fallbacks: bool = False) -> Any:
    """A notebook saved with the real producers' outputs and *no kernel*: one cell per record.

    `fallbacks=True` keeps only each bundle's `text/html` and `text/plain`: what a person sees where the
    extension is absent. Its kernelspec names no installed kernel, so Lab starts none: the renderers must
    work from the saved output alone.
    """
    cells = [new_markdown_cell("# mcp_lab records, as the real producers made them (no kernel)")]
    for n, item in enumerate(produced, start=1):
        data = dict(item.bundle)
        if fallbacks:
            data = {k: v for k, v in data.items() if k in ("text/html", "text/plain")}
        output = new_output("display_data", data=data)
        cells.append(new_code_cell(f"# {item.kind}: {item.label}", execution_count=n, outputs=[output]))
    return new_notebook(
        cells=cells,
        metadata={"kernelspec": {"name": "mcp-lab-no-such-kernel", "display_name": "none", "language": "none"}},
    )
