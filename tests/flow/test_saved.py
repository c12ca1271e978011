"""A saved flow is read back through the dataclasses' own declarations (pydantic, strict): every field of
Flow and Round is checked by its annotation, and anything malformed is one LabError line naming where."""

from __future__ import annotations

import pytest

import mcp_lab
from mcp_lab.flow.flow import Flow, Round

BASE = {"server": "s", "method": "tools/call", "target": "t"}


async def test_a_written_down_flow_reads_back_equal(demo: object) -> None:
    flow = await mcp_lab.call("demo", "handmade", {"x": 3}, answers={"q1": {"n": 5}})
    again = Flow.from_json(flow.to_json())
    assert again.to_dict() == flow.to_dict()
    assert Flow.from_dict(flow.to_dict()).to_dict() == flow.to_dict()
    assert isinstance(again.rounds[0], Round) and again.rounds[0].to_dict() == flow.rounds[0].to_dict()


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (5, "not a saved flow: expected an object, not int"),
        ({"server": "s"}, "not a saved flow: it has no method, target"),
        ({**BASE, "max_rounds": True}, "flow: 'max_rounds' must be int, not bool"),
        ({**BASE, "max_rounds": -1}, "flow: max_rounds must be >= 0, not -1"),
        ({**BASE, "rounds": [{"index": 0, "request_state": 7}]}, "round 0: 'request_state' must be str or null, not int"),
        ({**BASE, "rounds": [{"index": 0, "input_requests": [1]}]}, "round 0: 'input_requests' must be dict or null, not list"),
        ({**BASE, "era": "1999"}, "flow: era must be 2026-07-28 or 2025-11-25, not '1999'"),
        ({**BASE, "status": "nope"}, "flow: status must be one of new, input_required, done, error, stopped, interrupted, not 'nope'"),
        ({**BASE, "server": None}, "flow: 'server' must be str, not null"),
        ({**BASE, "arguments": [1]}, "flow: 'arguments' must be dict, not list"),
        ({**BASE, "notes": [1]}, "flow: 'notes.0' must be str, not int"),
        ({**BASE, "arguments": {"x": object()}}, "flow: holds a value a saved flow cannot"),
        ({**BASE, "rounds": {}}, "flow: 'rounds' must be a list, not dict"),
        ({**BASE, "rounds": [5]}, "round 0 must be an object, not int"),
        ({**BASE, "rounds": [{"outcome": "result"}]}, "round 0: 'index' is missing"),
        ({**BASE, "rounds": [{"index": "0"}]}, "round 0: 'index' must be int, not str"),
        ({**BASE, "rounds": [{"index": 0, "outcome": "x"}]}, "round 0: outcome must be one of input_required, result, error, not 'x'"),
        ({**BASE, "rounds": [{"index": 0, "backoff": True}]}, "round 0: 'backoff' must be int or float, not bool"),
        (
            {**BASE, "rounds": [{"index": 0, "sent_input_responses": {"a": 3}}]},
            "round 0: the answer sent for 'a' must be an object, not int",
        ),
        (
            {**BASE, "rounds": [{"index": 0, "input_requests": {"a": {"method": "x"}}}]},
            "round 0: its input requests are malformed:",
        ),
        ({**BASE, "method": "tools/x"}, "method must be one of tools/call, prompts/get, resources/read, not 'tools/x'"),
    ],
)
def test_a_malformed_saved_flow_is_one_line(data: object, line: str) -> None:
    with pytest.raises(mcp_lab.LabError) as caught:
        Flow.from_dict(data)  # type: ignore[arg-type]
    assert str(caught.value).startswith(line) and "\n" not in str(caught.value), str(caught.value)


def test_a_round_alone_is_read_the_same_way() -> None:
    assert Round.from_dict({"index": 2, "outcome": "result"}).index == 2
    with pytest.raises(mcp_lab.LabError, match=r"^round: 'index' must be int, not bool$"):
        Round.from_dict({"index": True})
    with pytest.raises(mcp_lab.LabError, match=r"^round must be an object, not list$"):
        Round.from_dict([])  # type: ignore[arg-type]


def test_unknown_fields_are_left_out_and_a_read_flow_is_alive() -> None:
    flow = Flow.from_dict({**BASE, "later_field": 1, "rounds": [{"index": 0, "new_thing": True}]})
    assert not hasattr(flow, "later_field") and flow.rounds[0].index == 0
    assert not flow.running and flow.displays == 0  # __post_init__ ran: the flow can be driven


def test_a_flow_at_the_round_bound_reads_back_whole() -> None:
    rounds = [{"index": i, "outcome": "input_required", "request_state": "s"} for i in range(1000)]
    flow = Flow.from_dict({**BASE, "status": "input_required", "rounds": rounds})
    assert [r.index for r in flow.rounds] == list(range(1000)) and flow.request_state == "s"
