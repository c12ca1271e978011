"""A leg keeps its result as the SDK received it (mcp_lab/flow/received.py), not the SDK's model written back out.

Over an in-process server and over loopback HTTP: the record holds what the model would have written for
the SDK's own server, a leg writes no model out when its result arrived as plain data, each flow keeps its own
results when two run at once on one connection, and a request sent outside any leg lands in no leg's slot.
"""

from __future__ import annotations

import asyncio

import mcp.types as T
import pytest

import mcp_lab
from mcp_lab import Flow
from mcp_lab.flow.legs import wire
from mcp_lab.flow.received import keep_received, received
from mcp_lab.servers.lab_server import LabServer

ANSWERS = {"ask_region": {"region": "eu"}, "ask_ok": {"ok": True}}


def _as_the_model_writes_it(flow: Flow) -> None:
    for rnd in flow.rounds:
        if rnd.input_requests:
            asked = rnd.requests()
            assert rnd.input_requests == {key: wire(model) for key, model in asked.items()}
        if rnd.result is not None:
            assert rnd.result == wire(T.CallToolResult.model_validate(rnd.result))


async def test_the_record_is_what_the_model_would_write_in_process(demo: LabServer) -> None:
    flow = await mcp_lab.call("demo", "book", {"city": "Porto"}, answers=ANSWERS)
    assert flow.status == "done" and flow.text == "Booked Porto in eu (ok=True)"
    assert sum(1 for r in flow.rounds if r.input_requests) >= 1
    _as_the_model_writes_it(flow)


async def test_the_record_is_what_the_model_would_write_over_http(http_demo: LabServer) -> None:
    flow = await mcp_lab.call("demo", "book", {"city": "Faro"}, answers=ANSWERS)
    assert flow.status == "done" and flow.text == "Booked Faro in eu (ok=True)"
    _as_the_model_writes_it(flow)


async def test_a_leg_writes_no_model_out_when_its_result_arrived(
    demo: LabServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    import mcp_lab.flow.legs as legs

    def refused(model: object) -> object:
        raise AssertionError(f"{type(model).__name__} written back out")

    monkeypatch.setattr(legs, "wire", refused)
    flow = await mcp_lab.call("demo", "book", {"city": "Porto"}, answers=ANSWERS)
    assert flow.status == "done" and flow.text == "Booked Porto in eu (ok=True)"


async def test_flows_side_by_side_on_one_connection_keep_their_own_results(http_demo: LabServer) -> None:
    cities = ["Porto", "Faro", "Braga", "Lisboa"]
    flows = await asyncio.gather(*(mcp_lab.call("demo", "book", {"city": c}, answers=ANSWERS) for c in cities))
    assert [f.text for f in flows] == [f"Booked {c} in eu (ok=True)" for c in cities]
    for flow in flows:
        tokens = [r.request_state for r in flow.rounds if r.request_state]
        assert [r.sent_request_state for r in flow.rounds[1:]] == tokens  # each leg echoes its own flow's token


async def test_a_request_outside_a_leg_lands_in_no_legs_slot(demo: LabServer) -> None:
    session = await demo.session("2026-07-28")
    slot = keep_received(session)  # what a leg does before its request
    wrapped = vars(session._dispatcher)["send_raw_request"]
    assert received(slot) is None  # nothing sent yet; and this context's slot is cleared
    direct = await session.call_tool("book", {"city": "Evora"}, allow_input_required=True)  # outside a leg
    assert isinstance(direct, T.InputRequiredResult)
    assert slot == [None]  # it landed nowhere
    assert received(keep_received(session)) is None  # a new leg's slot starts empty
    assert vars(session._dispatcher)["send_raw_request"] is wrapped  # wrapped once, however often asked
    flow = await mcp_lab.call("demo", "book", {"city": "Porto"}, answers=ANSWERS)
    assert flow.text == "Booked Porto in eu (ok=True)"
    _as_the_model_writes_it(flow)


async def test_a_legs_slot_holds_nothing_before_its_request(demo: LabServer) -> None:
    assert received(None) is None
    other = mcp_lab.sandbox.get("demo")
    session = await other.session("2025-11-25")
    assert received(keep_received(session)) is None
