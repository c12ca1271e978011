"""A flow that ended for good, once packed, is one object the collector tracks: the flow itself.

Spec context: none of the protocol's -- a kernel keeps up to a thousand finished flows (`mcp_lab.flows`),
and every object they own is visited by each full collection. Packed (flow/kept.py), a finished flow lets
its answerer and its connection go; what is left in its dict is atoms, which the collector stops tracking.
Counts, never times. Whatever was let go, the flow reads, saves and refuses to run again as before.
"""

from __future__ import annotations

import gc

import pytest

import mcp_lab
from mcp_lab.errors import FlowError, LabError
from mcp_lab.flow import kept
from mcp_lab.servers.lab_server import LabServer

ANSWERS = {"ask_region": {"region": "eu"}, "ask_ok": {"ok": True}}


async def test_a_packed_finished_flow_is_one_tracked_object_and_still_refuses_to_run(demo: LabServer) -> None:
    first = await mcp_lab.call("demo", "book", {"city": "Paris"}, answers=ANSWERS)
    saved = first.to_json()
    await mcp_lab.call("demo", "book", {"city": "Rome"}, answers=ANSWERS)  # packs the first
    assert kept.PACKED in vars(first)
    gc.collect()  # the collector untracks a dict of atoms the first time it visits it
    assert gc.is_tracked(first) and not gc.is_tracked(vars(first))
    with pytest.raises(FlowError, match="already ended"):
        await first.step()
    with pytest.raises(LabError, match="already ended"):
        await mcp_lab.resume(first)
    assert (await first.run()) is first and first.status == "done"  # nothing left to run: as it was
    assert first.to_json() == saved and first.text == "Booked Paris in eu (ok=True)"
