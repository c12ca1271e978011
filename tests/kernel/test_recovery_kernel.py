"""In a real kernel: a resolver defined inside a function (wire key `__main__:make_server.<locals>.ask_size`) is
answered by its bare name from a magic -- no form opens -- and a typo is reported, not waited on forever."""

from __future__ import annotations

from tests.kernel.harness import errors_of, run_cells, text_of

FACTORY = """
from typing import Annotated
from pydantic import BaseModel
from mcp.server.mcpserver import MCPServer, Elicit, Resolve
import mcp_lab

class Size(BaseModel):
    size: str

def make_server():
    mcp = MCPServer("nested")

    async def ask_size() -> Elicit[Size]:
        return Elicit("Which size?", Size)

    @mcp.tool()
    async def order(size: Annotated[Size, Resolve(ask_size)]) -> str:
        return f"size {size.size}"

    return mcp

mcp_lab.sandbox.add(make_server())
"""


def test_a_nested_resolver_is_answered_by_its_bare_name_from_a_magic() -> None:
    cells = run_cells(
        "%load_ext mcp_lab",
        FACTORY,
        """f = await %mcp_call nested order --answers '{"ask_size": {"size": "L"}}' --timeout 20\n"""
        "print(f.status, f.text, list(f.rounds[0].input_requests), f.notes)",
        """g = await %mcp_call nested order --answers {"ask_sise": {"size": "L"}} --timeout 1\n"""
        "print(g.status, g.notes)",
    )
    assert [errors_of(c) for c in cells] == [[]] * len(cells), [text_of(c) for c in cells]
    assert text_of(cells[2]).strip() == "done size L ['__main__:make_server.<locals>.ask_size'] []"
    assert (
        "stopped ['answers given for keys never asked: ask_sise (asked: __main__:make_server.<locals>.ask_size)']"
        in (text_of(cells[3]))
    )
