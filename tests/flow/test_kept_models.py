"""The SDK models a round keeps beside its record (the questions as received, the answers as sent) go once no
leg can be sent from it: when the next leg answered its questions, or when the flow ended with it."""

from __future__ import annotations

from dataclasses import fields

import mcp_lab
from mcp_lab.flow.round import Round
from mcp_lab.servers.lab_server import LabServer

ANSWERS = {"ask_region": {"region": "eu"}, "ask_ok": {"ok": True}}
FIELDS = {f.name for f in fields(Round)}


def models_kept(rnd: Round) -> set[str]:
    """What a round holds beyond its record's fields."""
    return set(vars(rnd)) - FIELDS


async def test_a_round_lets_go_of_its_models_once_the_next_leg_answered_it_and_the_last_when_the_flow_ends(
    demo: LabServer,
) -> None:
    flow = await mcp_lab.start("demo", "tools/call", "book", {"city": "Paris"}, answers=ANSWERS)
    first = await flow.step()
    assert first is not None and first.outcome == "input_required" and models_kept(first)
    second = await flow.step()
    assert second is not None and second.outcome == "input_required"
    assert not models_kept(first)  # its questions were answered by the leg just sent
    assert models_kept(second)  # its own questions are still to be answered, by the next leg
    assert second.response_models() is not None  # and the answers it carried, as sent
    last = await flow.step()
    assert last is not None and last.outcome == "result" and flow.status == "done"
    assert [models_kept(rnd) for rnd in flow.rounds] == [set(), set(), set()]
    assert flow.rounds[0].requests()  # read back from the record when asked
    assert flow.text == "Booked Paris in eu (ok=True)"


async def test_a_flow_run_to_its_end_keeps_no_models(demo: LabServer) -> None:
    flow = await mcp_lab.call("demo", "book", {"city": "Rome"}, answers=ANSWERS)
    assert flow.status == "done" and [models_kept(rnd) for rnd in flow.rounds] == [set(), set(), set()]
