"""A real stdio server subprocess joined to the sandbox: every call path, its log, replay A/B, and reaping.

One server process (variant A) serves the whole module -- starting one costs seconds -- so these tests share
a module-scoped event loop; the last test disconnects it and checks its pid is gone.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

import mcp_lab
from mcp_lab.errors import LabError
from mcp_lab.servers.connect import OutsideServer, connection_log
from mcp_lab.servers.sandbox import sandbox
from mcp_lab.servers.transports import alive
from mcp_lab.servers.view import ServerList
from tests.sample_servers.booking import command

pytestmark = pytest.mark.asyncio(loop_scope="module")

NAME = "bk-stdio"
RESOLVER = "__main__:ask_region"
"""Run as a script, the server's resolver key carries the module name `__main__`."""


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def booking() -> AsyncIterator[OutsideServer]:
    entry = await mcp_lab.connect(NAME, stdio=command("A"))
    try:
        yield entry
    finally:
        if sandbox.servers.get(NAME) is entry:
            await mcp_lab.disconnect(NAME)


async def test_connects_over_stdio_and_calls_with_answers(booking: OutsideServer) -> None:
    assert booking.protocol_version == "2026-07-28"
    assert sandbox.get(NAME) is booking and booking.ring is None
    assert booking.pids and all(alive(p) for p in booking.pids)
    flow = await mcp_lab.call(NAME, "book", {"city": "Oslo"}, answers={"ask_region": {"region": "north"}})
    assert flow.status == "done", flow.summary()
    assert [r.outcome for r in flow.rounds] == ["input_required", "result"]
    assert list(flow.rounds[0].input_requests or {}) == [RESOLVER]
    assert flow.rounds[0].request_state is not None and flow.rounds[0].request_state.startswith("v1.")
    assert flow.rounds[1].sent_request_state == flow.rounds[0].request_state
    assert flow.text == "Booked Oslo in north"


async def test_step_mode_prompts_and_resources_work_as_in_the_kernel(booking: OutsideServer) -> None:
    step = await mcp_lab.start(NAME, "tools/call", "handmade", {"x": 4})
    await step.step()
    assert step.status == "input_required" and list(step.pending_requests) == ["q1"]
    await step.run(answers={"q1": {"n": 9}})
    assert step.text == "x=4 n=9"
    prompt = await mcp_lab.get_prompt(NAME, "briefing", answers={"audience": {"n": 12}})
    assert prompt.text == "Write a briefing for 12."
    doc = await mcp_lab.read_resource(NAME, "doc://7", answers={"why": {"n": 1}})
    assert doc.text == "doc 7 for reason 1"
    unlisted = await mcp_lab.call(NAME, "nope")  # not listed: sent anyway, the server decides
    assert unlisted.status == "error" and "is not in the tools/list" in unlisted.notes[0]


async def test_legacy_call_uses_the_back_channel_of_a_second_client(booking: OutsideServer) -> None:
    flow = await mcp_lab.call(NAME, "book", {"city": "Rome"}, answers={"ask_region": {"region": "south"}}, legacy=True)
    assert flow.era == "2025-11-25" and flow.status == "done", flow.summary()
    assert len(flow.rounds) == 1 and flow.rounds[0].backchannel[0]["kind"] == "elicitation"
    assert flow.rounds[0].backchannel[0]["response"] == {"action": "accept", "content": {"region": "south"}}
    assert flow.text == "Booked Rome in south"
    assert len(booking.pids) == 2  # one process per era


async def test_stderr_goes_to_a_log_the_lab_shows(booking: OutsideServer) -> None:
    flow = await mcp_lab.call(NAME, "echo", {"text": "hi"})
    assert flow.text == "hi"
    assert flow.rounds[0].server_log == ["stderr: echo asked for 'hi'"]
    log = connection_log(NAME)
    assert f"booking server variant A, pid {booking.pids[0]}" in log
    assert "echo asked for 'hi'" in log
    assert booking.log_path is not None and Path(booking.log_path).is_file()


async def test_views_say_the_lab_holds_no_keys(booking: OutsideServer) -> None:
    row = next(
        line
        for line in ServerList.from_sandbox(sandbox)._repr_mimebundle_()["text/plain"].splitlines()
        if line.startswith(NAME)
    )
    assert re.fullmatch(rf"{NAME}: outside stdio, not ours: keyless view only, stdio: .*booking\.py --variant A", row)
    bundle = booking._repr_mimebundle_()
    assert "not ours: keyless view only" in bundle["text/plain"]
    assert "protocol 2026-07-28" in bundle["text/plain"]
    assert "%mcp_connect log bk-stdio" in bundle["text/plain"]
    assert str(booking.pids[0]) not in bundle["text/plain"]  # nbval-stable
    data = bundle["application/vnd.mcp-lab.connection+json"]
    assert data["note"] == "not ours: keyless view only" and data["pids"] == booking.pids
    assert "keys" not in data and "log_path" not in data  # no key material, no local paths in a saved notebook
    with pytest.raises(LabError, match="not a server the lab started"):
        booking.install_ring(None)
    with pytest.raises(LabError, match="connected server the lab did not start"):
        sandbox.lab_server(NAME)


async def test_saved_recording_replays_the_same_then_reports_a_changed_server(
    booking: OutsideServer, tmp_path: Path
) -> None:
    flows = [
        await mcp_lab.call(NAME, "book", {"city": "Oslo"}, answers={"ask_region": {"region": "north"}}),
        await mcp_lab.call(NAME, "echo", {"text": "same"}),
    ]
    path = mcp_lab.save_flows(tmp_path / "stdio.flows.json", flows)
    same = await mcp_lab.replay(path, server=NAME)
    assert same.ok, same.text()
    changed = await mcp_lab.connect("bk-stdio-b", stdio=command("B"))
    try:
        report = await mcp_lab.replay(path, server=changed)
    finally:
        await mcp_lab.disconnect("bk-stdio-b")
    assert not report.ok
    assert [e.status for e in report.entries] == ["different", "same"]
    assert [d.message for d in report.differences] == [
        f"$.rounds[0].inputRequests[{RESOLVER!r}].params.message: 'Which region for Oslo?' -> 'In which region is Oslo?'",
        "$.result.content[0].text: 'Booked Oslo in north' -> 'Booked Oslo (north)'",
        "$.result.structuredContent.result: 'Booked Oslo in north' -> 'Booked Oslo (north)'",
    ]


async def test_a_server_that_died_is_started_again_for_the_next_call(booking: OutsideServer) -> None:
    modern = booking._owners["2026-07-28"].pids[0]
    os.kill(modern, signal.SIGKILL)
    while alive(modern):
        await asyncio.sleep(0.01)
    flow = await mcp_lab.call(NAME, "echo", {"text": "back"})
    assert flow.text == "back"
    assert modern not in booking.pids and len(booking.pids) == 2
    assert "[mcp_lab] the server process exited; starting it again" in connection_log(NAME)


async def test_disconnect_reaps_every_process(booking: OutsideServer) -> None:
    pids = booking.pids
    assert len(pids) == 2 and all(alive(p) for p in pids)
    await mcp_lab.disconnect(NAME)
    assert not [p for p in pids if alive(p)]
    assert NAME not in sandbox.servers
    with pytest.raises(LabError, match="was disconnected"):
        await booking.session("2026-07-28")
    assert "booking server variant A" in connection_log(NAME)  # the log outlives the connection
