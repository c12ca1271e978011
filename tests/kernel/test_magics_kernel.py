"""The magics in a real ipykernel: define a server in a cell, call it, see the flow; bad input is one line."""

from __future__ import annotations

from tests.kernel.harness import errors_of, run_cells, text_of

SERVER_CELL = """%%mcp_server demo
from typing import Annotated
from pydantic import BaseModel
from mcp.server.mcpserver import Elicit, Resolve

class Region(BaseModel):
    region: str

async def ask_region(city: str) -> Elicit[Region]:
    return Elicit(f"Which region for {city}?", Region)

@mcp.tool()
async def book(city: str, region: Annotated[Region, Resolve(ask_region)]) -> str:
    return f"Booked {city} in {region.region}"
"""


def test_notebook_defines_a_server_and_calls_it_with_scripted_answers() -> None:
    cells = run_cells(
        "%load_ext mcp_lab",
        SERVER_CELL,
        "%mcp_server list",
        """flow = await %mcp_call demo book city=Paris --answers '{"ask_region": {"region": "eu-west"}}'\nflow""",
        "import mcp_lab\nf2 = await mcp_lab.call('demo', 'book', {'city': 'Rome'}, answers={'ask_region': {'region': 'south'}})\nprint(f2.text)",
        "step = await %mcp_call demo book city=Oslo --step\nprint(step.status, list(step.pending_requests))",
        "await step.run(answers={'ask_region': {'region': 'north'}})\nprint(step.text)",
    )
    assert [errors_of(c) for c in cells] == [[]] * len(cells)
    assert "demo: mcpserver, lab-generated key [" in text_of(cells[2])
    assert "in-process" in text_of(cells[2])
    flow_text = text_of(cells[3])
    assert "Flow tools/call 'book' on 'demo' (2026-07-28): done after 2 legs" in flow_text
    assert '__main__:ask_region = accept {"region": "eu-west"} (script); token echoed' in flow_text
    assert "result: 'Booked Paris in eu-west'" in flow_text
    html = next(o for o in cells[3]["outputs"] if o["output_type"] == "execute_result")["data"]
    assert "application/vnd.mcp-lab.flow+json" in html and "text/html" in html
    assert text_of(cells[4]).strip() == "Booked Rome in south"
    assert text_of(cells[5]).strip() == "input_required ['__main__:ask_region']"
    assert text_of(cells[6]).strip() == "Booked Oslo in north"


def test_bad_input_is_one_line_and_the_kernel_keeps_working() -> None:
    cells = run_cells(
        "%load_ext mcp_lab",
        SERVER_CELL,
        SERVER_CELL,  # re-running the cell replaces the server, as re-running a `def` would
        "%%mcp_server broken\nraise ValueError('oops')",
        "%mcp_call nope book",
        "x = await %mcp_call demo nope\nprint(x.notes[0])",  # not listed: sent anyway, the server decides
        "%mcp_call demo book {not json",
        "%mcp_call demo book city=X --answers [1]",
        "%mcp_server frobnicate",
        "%%mcp_server bad --ttl -1\npass",
        "%%mcp_server t1\nfrom typing import Annotated\nfrom mcp.server.mcpserver import Resolve, Elicit\n"
        "from pydantic import BaseModel\nclass A(BaseModel):\n    a: str\n"
        "async def q() -> Elicit[A]:\n    return Elicit('?', A)\n"
        "@mcp.tool()\nasync def t1(v: Annotated[A, Resolve(q)] | None = None) -> str:\n    return ''",
        'f = await %mcp_call demo book city=Y --answers \'{"ask_region": {"region": "ok"}}\'\nprint(f.text)',
    )
    expected = [
        None,
        None,
        None,
        "the cell raised ValueError: oops; the server was not registered",
        "no server named 'nope'",
        None,
        "arguments are not valid JSON",
        "--answers must be a JSON object",
        "expected list, serve NAME, url NAME, log NAME, stop NAME or restart NAME",
        "--ttl must be a positive number",
        "the cell raised InvalidSignature: Parameter 'v' of 't1' wraps `Resolve(...)` in a union",
    ]
    for cell, message in zip(cells, expected, strict=False):
        errors = errors_of(cell)
        if message is None:
            assert errors == []
            continue
        assert len(errors) == 1, cell["source"]
        assert errors[0]["ename"] in ("LabError", "UsageError")
        assert message in errors[0]["evalue"], (message, errors[0]["evalue"])
        # One line, no traceback through mcp_lab's internals.
        assert len(errors[0]["traceback"]) == 1, errors[0]["traceback"]
    assert text_of(cells[-1]).strip() == "Booked Y in ok"
    assert "'nope' is not in the tools/list of 'demo' (tools: book): sent anyway" in text_of(cells[5])


def test_stop_and_restart_from_magics() -> None:
    cells = run_cells(
        "%load_ext mcp_lab",
        SERVER_CELL,
        "import mcp_lab\nf = await mcp_lab.start('demo', 'tools/call', 'book', {'city': 'A'})\nawait f.step()\n"
        "saved = f.to_json()\nprint(f.status)",
        "%mcp_server restart demo",
        "import asyncio\nawait asyncio.sleep(0.1)\n"
        "g = await mcp_lab.resume(saved, answers={'ask_region': {'region': 'r'}})\nprint(g.status, g.error['message'])",
        "%mcp_server stop demo",
        "%mcp_server list",
    )
    assert text_of(cells[2]).strip() == "input_required"
    assert "restarting 'demo' with a new lab-generated key" in text_of(cells[3])
    # A restart with a lab-generated ring gets a new key: the outstanding token no longer verifies.
    assert text_of(cells[4]).strip() == "error Invalid or expired requestState"
    assert "stopped 'demo'" in text_of(cells[5])
    assert "no servers" in text_of(cells[6])
