"""Rotation under load on a fleet of four real HTTP instances (uvicorn on 127.0.0.1, one port each)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

import mcp_lab
from mcp_lab.flow.flow import Flow
from mcp_lab.rotation.fleet import PROBE_TOOL, Fleet
from mcp_lab.rotation.load import WRONG_ORDER, run_rotation_load
from mcp_lab.rotation.stepper import RotationStepper


@pytest.fixture
async def http_fleet() -> AsyncIterator[Fleet]:
    fleet = Fleet("svc", instances=4, keys=[b"s" * 32], http=True)
    try:
        yield fleet
    finally:
        await fleet.close()


async def test_400_concurrent_flows_in_the_right_order_lose_nothing(http_fleet: Fleet) -> None:
    assert len(http_fleet.urls) == 4 and all(u.startswith("http://127.0.0.1:") for u in http_fleet.urls)
    report = await run_rotation_load(RotationStepper(http_fleet), flows_per_step=100)
    assert (report.flows, report.finished, report.lost) == (400, 400, 0)
    assert report.agrees
    assert [s["after"] for s in report.steps][-1] == ["[NEW]"] * 4


async def test_400_concurrent_flows_in_the_wrong_order_lose_exactly_the_predicted(http_fleet: Fleet) -> None:
    report = await run_rotation_load(RotationStepper(http_fleet), WRONG_ORDER, flows_per_step=100, order="wrong")
    assert report.flows == 400
    why = (report.reasons, report.mismatches[:5])
    assert report.lost == report.predicted_lost == 25, why  # minted on #0 sealing NEW, retried on #2 still [OLD]
    assert report.agrees and report.reasons == {"unknown key": 25}
    assert "as predicted" in report._repr_mimebundle_()["text/plain"]


async def test_a_custom_codec_instance_takes_part_and_refuses_foreign_tokens() -> None:
    fleet = Fleet("svc", instances=2, keys=[b"s" * 32])
    envelope = mcp_lab.EnvelopeCodec(mcp_lab.EnvelopeCodec.unwrap_data_key())
    mcp_lab.use_codec(fleet.instances[1], envelope)
    try:
        flow = Flow(server="svc", method="tools/call", target=PROBE_TOOL).bind(fleet)
        await flow.run(answers={"probe": {"ok": True}})
        minted, retried = flow.rounds
        assert (minted.served_by, retried.served_by) == ("svc#0", "svc#1")
        assert retried.state_rejected and (retried.error or {}).get("reason") == "unknown token format"
        report = mcp_lab.inspect_token(minted.request_state or "", codec=envelope)
        assert report.verdict != "ok"
        assert "cannot open that format" in report._repr_mimebundle_()["text/plain"]
        fleet.route()  # the next leg starts on the envelope instance
        own = Flow(server="svc", method="tools/call", target=PROBE_TOOL).bind(fleet)
        await own.step()
        assert (own.rounds[0].request_state or "").startswith("kms1.")
    finally:
        await fleet.close()
