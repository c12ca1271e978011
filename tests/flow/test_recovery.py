"""Failures a person recovers from: a leg lost in transit is retried by `resume`, a scripted answer finds its
resolver however it is nested, and an answer no question matched is reported however the flow stops.

(No `from __future__ import annotations`: the nested resolvers' annotations must resolve where they are defined.)
"""

import json
from typing import Annotated, Any

import mcp.types as T
import pytest
from mcp.server.mcpserver import Elicit, Resolve
from pydantic import BaseModel

import mcp_lab
from mcp_lab.servers.lab_server import LabServer
from mcp_lab.servers.sandbox import sandbox
from mcp_lab.servers.serving import serve
from tests.sample_servers.booking import build
from tests.sample_servers.loopback import LoopbackServer


def _answer_then_stop(entry: LabServer, asked: list[str]) -> Any:
    """A scripted answer that, while the person "answers", takes the server's HTTP serving down."""

    async def answer(request: T.InputRequest) -> dict[str, int]:
        asked.append(type(request).__name__)
        assert entry.http is not None
        await entry.http.stop()  # the serving thread ends; the lab's client still points at it
        return {"n": 3}

    return answer


async def test_a_leg_lost_in_transit_ends_the_flow_interrupted_and_resume_retries_it(http_demo: LabServer) -> None:
    assert http_demo.http is not None
    port, asked = http_demo.http.port, []
    flow = await mcp_lab.call("demo", "handmade", {"x": 1}, answers={"q1": _answer_then_stop(http_demo, asked)})
    assert flow.status == "interrupted", flow.summary()
    assert flow.stop_reason == "leg 2 failed: Connection closed; resume retries it with the last good token"
    assert [r.outcome for r in flow.rounds] == ["input_required", "error"] and flow.rounds[1].transport_failed
    token = flow.rounds[0].request_state
    assert flow.request_state == token and list(flow.pending_requests) == ["q1"]  # the last good round
    with pytest.raises(mcp_lab.FlowError, match=r"interrupted after 2 legs.*leg 2 failed"):
        flow.raise_for_status()
    serve(http_demo, port)  # the server is back at its address, with the same key
    resumed = await mcp_lab.resume(flow)
    assert resumed is flow and flow.status == "done" and flow.text == 'x=1 n=3 state={"x": 1}'
    assert [r.outcome for r in flow.rounds] == ["input_required", "result"]  # the failed attempt was retried
    retried = flow.rounds[1]
    assert retried.sent_request_state == token and retried.sent_input_responses == {
        "q1": {"action": "accept", "content": {"n": 3}}
    }
    assert asked == ["ElicitRequest"]  # the answer was not asked for again


async def test_the_retry_works_from_the_written_down_flow_too(http_demo: LabServer) -> None:
    assert http_demo.http is not None
    port = http_demo.http.port
    flow = await mcp_lab.call("demo", "handmade", {"x": 2}, answers={"q1": _answer_then_stop(http_demo, [])})
    text = flow.to_json()  # what another process would be handed
    serve(http_demo, port)
    again = await mcp_lab.resume(text)
    assert again.status == "done" and again.text == 'x=2 n=3 state={"x": 2}'


async def test_a_connected_server_that_dies_between_legs_is_retried_once_it_is_back() -> None:
    mcp = build("A")
    first = await LoopbackServer(mcp.streamable_http_app()).start()
    asked: list[int] = []

    async def answer(request: T.InputRequest) -> dict[str, int]:
        asked.append(1)
        await first.stop()
        return {"n": 5}

    second = None
    try:
        await mcp_lab.connect("bk", first.url)
        flow = await mcp_lab.call("bk", "handmade", {"x": 1}, answers={"q1": answer})
        assert flow.status == "interrupted" and (flow.stop_reason or "").startswith("leg 2 failed: ")
        second = await LoopbackServer(mcp.streamable_http_app(), port=first.port).start()
        await mcp_lab.resume(flow)
        assert flow.status == "done" and flow.text == "x=1 n=5" and asked == [1]
    finally:
        await sandbox.stop_all()
        if second is not None:
            await second.stop()


class Size(BaseModel):
    size: str


def make_server(name: str) -> LabServer:
    """Resolvers defined inside a function: their wire keys read `...:make_server.<locals>.ask_size`."""
    entry = sandbox.new_mcpserver(name)

    async def ask_size() -> Elicit[Size]:
        return Elicit("Which size?", Size)

    async def ask_color() -> Elicit[Size]:
        return Elicit("Which color (as a size)?", Size)

    @entry.server.tool()
    async def order(size: Annotated[Size, Resolve(ask_size)], color: Annotated[Size, Resolve(ask_color)]) -> str:
        return f"{size.size} in {color.size}"

    return sandbox.register(entry)


async def test_a_scripted_answer_finds_a_nested_resolver_by_its_bare_name(demo: LabServer) -> None:
    make_server("shop")
    flow = await mcp_lab.call("shop", "order", answers={"ask_size": {"size": "L"}, "ask_color": {"size": "red"}})
    assert flow.status == "done" and flow.text == "L in red", flow.summary()
    keys = set(flow.rounds[0].input_requests or {})
    assert keys == {
        "tests.flow.test_recovery:make_server.<locals>.ask_size",
        "tests.flow.test_recovery:make_server.<locals>.ask_color",
    }
    assert flow.rounds[1].answered_by == {k: "script" for k in keys} and flow.notes == []
    by_qualname = await mcp_lab.call(
        "shop", "order", answers={"make_server.<locals>.ask_size": {"size": "S"}, "ask_color": {"size": "blue"}}
    )
    assert by_qualname.text == "S in blue"


async def test_an_answer_no_question_matched_is_reported_however_the_flow_stops(demo: LabServer) -> None:
    make_server("shop")
    typo = {"ask_sise": {"size": "L"}, "ask_color": {"size": "red"}}
    stopped = await mcp_lab.call("shop", "order", answers=typo)  # the size is never answered: the flow waits
    assert stopped.status == "input_required" and "no answer for" in (stopped.stop_reason or ""), stopped.summary()
    assert stopped.notes == [
        "answers given for keys never asked: ask_sise (asked: tests.flow.test_recovery:make_server.<locals>.ask_color, "
        "tests.flow.test_recovery:make_server.<locals>.ask_size)"
    ]
    failed = await mcp_lab.call("demo", "handmade", {"x": 1}, answers={"q1": {"n": "not a number"}, "q9": {}})
    assert failed.done and any("never asked: q9" in note for note in failed.notes), (failed.summary(), failed.notes)
    capped = await mcp_lab.call("demo", "forever", answers={"again": {"n": 1}, "zz": {}}, max_rounds=1)
    assert capped.status == "stopped" and any("never asked: zz" in note for note in capped.notes)
    fixed = {"ask_size": {"size": "M"}, "ask_color": {"size": "red"}}
    done = await mcp_lab.resume(json.loads(json.dumps(stopped.to_dict())), answers=fixed)
    assert done.status == "done" and done.text == "M in red"
