"""A failed call says so in one line, even when its flow is assigned; a refusal in the client is not a leg sent.

Spec context: a multi round-trip request ends in a JSON-RPC error (here `-32603 Unknown prompt`), or the
client refuses a server's sampling request (Reject: `ErrorData(code=-1, "User rejected sampling request")`,
which ends the flow as the SDK does, before anything is sent). Issue 26: `f = await %mcp_prompt rs nosuch`
printed nothing -- the failure was seen only by displaying `f`; after Reject `flow.text` was empty and the
refusal was drawn as a leg sent to the server. One real kernel, many cells.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.kernel.harness import errors_of, run_cells, text_of

SERVER = '''%%mcp_server rs
from typing import Annotated
from mcp.server.mcpserver import Resolve, Sample
from mcp.types import CreateMessageResult, SamplingMessage, TextContent

@mcp.prompt()
def greet(name: str) -> str:
    return f"Hello, {name}!"

def write_haiku(topic: str) -> Sample:
    prompt = TextContent(type="text", text=f"Write a haiku about {topic}.")
    return Sample([SamplingMessage(role="user", content=prompt)], max_tokens=60)

@mcp.tool()
async def haiku(topic: str, reply: Annotated[CreateMessageResult, Resolve(write_haiku)]) -> str:
    return reply.content.text'''


def stderr_of(cell: dict[str, Any]) -> str:
    return "".join(o["text"] for o in cell["outputs"] if o["output_type"] == "stream" and o["name"] == "stderr")


@pytest.fixture(scope="module")
def cells() -> list[dict[str, Any]]:
    return run_cells(
        "%load_ext mcp_lab\nimport mcp_lab",
        SERVER,
        "f = await %mcp_prompt rs nosuch",  # 2: assigned, failed
        "print(f.status, mcp_lab.last() is f, '|', f.text)",  # 3
        "%mcp_prompt rs nosuch",  # 4: bare: the flow is displayed, which says it already
        "g = await %mcp_prompt rs greet name=Ada\nprint(g.status, '|', g.text)",  # 5: success: silent
        "h = await %mcp_prompt rs nosuch\nh",  # 6: assigned, then shown
        "mcp_lab.forms.prearrange(write_haiku=mcp_lab.decline())\n"
        'r = await mcp_lab.call("rs", "haiku", {"topic": "autumn"})',  # 7: Reject in the client
        "print(r.status, '|', r.text)\nprint(r.summary())\nprint(repr(r))",  # 8
        "r",  # 9: its view
    )


def test_an_assigned_failed_call_prints_one_line_and_keeps_its_flow(cells: list[dict[str, Any]]) -> None:
    assert not errors_of(cells[2]), cells[2]
    line = stderr_of(cells[2])
    assert len(line.strip().splitlines()) == 1, line
    assert "prompts/get 'nosuch' on 'rs'" in line and "failed" in line, line
    assert "Unknown prompt: nosuch" in line and "mcp_lab.last()" in line, line
    assert "Traceback" not in text_of(cells[2])
    shown = text_of(cells[3])
    assert shown.startswith("error True | error: -32603"), shown
    assert "Unknown prompt: nosuch" in shown, shown


def test_a_displayed_failure_is_not_said_twice_and_a_success_says_nothing(cells: list[dict[str, Any]]) -> None:
    assert stderr_of(cells[4]) == "", cells[4]
    assert "failed after 1 leg" in text_of(cells[4]), text_of(cells[4])
    assert stderr_of(cells[5]) == "", cells[5]
    assert text_of(cells[5]).startswith("done | "), text_of(cells[5])
    assert stderr_of(cells[6]) == "", cells[6]  # the cell's last line displayed the flow: no second line
    assert "failed after 1 leg" in text_of(cells[6])


def test_a_reject_is_drawn_as_not_sent_and_leaves_a_text(cells: list[dict[str, Any]]) -> None:
    assert not errors_of(cells[7]), cells[7]
    printed = text_of(cells[8]).splitlines()
    status, _, text = printed[0].partition(" | ")
    assert status == "error"
    assert text == "refused in the client, not sent: answer for '__main__:write_haiku' refused: -1 User rejected sampling request" or (
        text.startswith("refused in the client, not sent: ") and "User rejected sampling request" in text
    ), printed
    assert "failed after 1 leg:" in printed[1] and "refused in the client, not sent" in printed[1], printed
    view = text_of(cells[9])
    assert "leg 1 sent the request" in view, view
    assert "leg 2 not sent: the client refused" in view, view
    assert "leg 2 sent" not in view, view
    bundle = next(o for o in cells[9]["outputs"] if o["output_type"] == "execute_result")["data"]
    assert "not sent" in bundle["text/html"] and "refused in the client" in bundle["text/html"]
    record = bundle["application/vnd.mcp-lab.flow+json"]
    assert record["rounds"][1]["error"]["where"] == "client"
