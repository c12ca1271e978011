"""A leg's error and back-channel traffic are typed (`flow.leg_data`) and read back from a saved flow as they
were written -- keys beyond the declared ones included -- while a wrongly typed one is one LabError line."""

from __future__ import annotations

import pytest

import mcp_lab
from mcp_lab.errors import LabError
from mcp_lab.flow.flow import Flow

BASE = {"server": "s", "method": "tools/call", "target": "t"}


async def test_an_answered_flow_and_a_back_channel_flow_read_back_equal(demo: object) -> None:
    answered = await mcp_lab.call("demo", "handmade", {"x": 3}, answers={"q1": {"n": 5}})
    legacy = await mcp_lab.call("demo", "book", {"city": "Lima"}, legacy=True, answers={"ask_region": {"region": "eu"}, "ask_ok": {"ok": True}})
    assert legacy.rounds[0].backchannel and legacy.rounds[0].backchannel[0]["key"]
    for flow in (answered, legacy):
        again = Flow.from_json(flow.to_json())
        assert again.to_dict() == flow.to_dict()
        assert [r.backchannel for r in again.rounds] == [r.backchannel for r in flow.rounds]


def test_saved_error_keys_are_kept_and_wrong_types_are_one_line() -> None:
    error = {"code": -32602, "message": "Invalid or expired requestState", "data": {"reason": "x"}, "reason": "seal", "extra": [1]}
    flow = Flow.from_dict({**BASE, "status": "error", "rounds": [{"index": 0, "outcome": "error", "error": error}]})
    assert flow.rounds[0].error == error and flow.rounds[0].state_rejected
    assert flow.text == "error: -32602 Invalid or expired requestState — server logged: seal"
    with pytest.raises(LabError) as bad:
        Flow.from_dict({**BASE, "rounds": [{"index": 0, "outcome": "error", "error": {"code": "-32602"}}]})
    assert str(bad.value).startswith("round 0: 'error.code' must be int"), str(bad.value)
    with pytest.raises(LabError) as bad:
        Flow.from_dict({**BASE, "rounds": [{"index": 0, "backchannel": [{"key": 3}]}]})
    assert str(bad.value).startswith("round 0: 'backchannel.0.key' must be str"), str(bad.value)
