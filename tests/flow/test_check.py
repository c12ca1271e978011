"""A saved flow is checked field by field when it is read; every field of Flow and Round is covered."""

from __future__ import annotations

import pytest

import mcp_lab
from mcp_lab.flow.check import _FLOW_FIELDS, _ROUND_FIELDS, checked_flow
from mcp_lab.flow.flow import Flow, Round


def test_every_field_of_a_flow_and_a_round_is_checked() -> None:
    # A field missing from the tables would be dropped silently when a flow is read back.
    assert set(Flow.__dataclass_fields__) - {"rounds"} == set(_FLOW_FIELDS)
    assert set(Round.__dataclass_fields__) == set(_ROUND_FIELDS)


async def test_a_written_down_flow_reads_back_equal(demo: object) -> None:
    flow = await mcp_lab.call("demo", "handmade", {"x": 3}, answers={"q1": {"n": 5}})
    again = Flow.from_json(flow.to_json())
    assert again.to_dict() == flow.to_dict()


def test_a_bool_is_not_a_number_here() -> None:
    with pytest.raises(mcp_lab.LabError, match="'max_rounds' must be int, not bool"):
        checked_flow({"server": "s", "method": "tools/call", "target": "t", "max_rounds": True})
