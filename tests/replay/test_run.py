"""Replay: answers come from the recording only; the report names exactly what changed."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import mcp_lab
from mcp_lab.replay.run import ReplayReport, replay_flow
from mcp_lab.servers.lab_server import LabServer
from mcp_lab.servers.sandbox import sandbox
from tests.sample_servers.booking import build
from tests.sample_servers.loopback import LoopbackServer

RESOLVER = "tests.sample_servers.booking:ask_region"


@pytest.fixture
async def servers_a_b() -> AsyncIterator[tuple[str, str]]:
    """Variant A and variant B of the booking server, each on its own loopback port, connected as `a` and `b`."""
    a = await LoopbackServer(build("A").streamable_http_app()).start()
    b = await LoopbackServer(build("B").streamable_http_app()).start()
    try:
        await mcp_lab.connect("a", a.url)
        await mcp_lab.connect("b", b.url)
        yield a.url, b.url
    finally:
        await sandbox.stop_all()
        await a.stop()
        await b.stop()


async def test_a_recording_of_in_kernel_flows_replays_the_same(demo: LabServer, tmp_path: Path) -> None:
    flows = [
        await mcp_lab.call(
            "demo", "book", {"city": "Paris"}, answers={"ask_region": {"region": "eu"}, "ask_ok": {"ok": True}}
        ),
        await mcp_lab.call("demo", "poem", answers={"write_haiku": "old pond", "my_roots": ["file:///tmp"]}),
        await mcp_lab.call("demo", "handmade", {"x": 1}, answers={"q1": mcp_lab.decline()}),
        await mcp_lab.call("demo", "polling"),
        await mcp_lab.get_prompt("demo", "briefing", answers={"audience": {"n": 3}}),
        await mcp_lab.read_resource("demo", "doc://9", answers={"why": {"n": 2}}),
        await mcp_lab.call(
            "demo",
            "book",
            {"city": "Rome"},
            answers={"ask_region": {"region": "s"}, "ask_ok": {"ok": False}},
            legacy=True,
        ),
    ]
    assert all(f.status in ("done", "error") for f in flows), [f.summary() for f in flows]
    path = mcp_lab.save_flows(tmp_path / "demo.json", flows)
    report = await mcp_lab.replay(path)  # each flow to the server it was recorded against, by name
    assert report.ok, report.text()
    assert [e.status for e in report.entries] == ["same"] * 7
    assert [e.replayed_rounds for e in report.entries] == [3, 2, 2, 3, 2, 2, 1]
    replayed = report.entries[0].replayed
    assert replayed is not None and set(replayed.rounds[1].answered_by.values()) == {"recording"}
    assert report.text().splitlines()[0] == "replay against the recorded servers: 7 flow(s), no differences"


async def test_a_changed_server_shows_exactly_what_changed(servers_a_b: tuple[str, str], tmp_path: Path) -> None:
    flows = [
        await mcp_lab.call("a", "book", {"city": "Oslo"}, answers={"ask_region": {"region": "north"}}),
        await mcp_lab.call("a", "handmade", {"x": 1}, answers={"q1": {"n": 7}}),
        await mcp_lab.call("a", "echo", {"text": "same"}),
    ]
    path = mcp_lab.save_flows(tmp_path / "a.json", flows)
    assert (await mcp_lab.replay(path, server="a")).ok
    report = await mcp_lab.replay(path, server="b")
    assert not report.ok
    assert report.text() == "\n".join(
        [
            "replay against 'b': 3 flow(s), 1 different, 1 stopped",
            '  DIFFERENT  tools/call book {"city": "Oslo"}',
            f"      - $.rounds[0].inputRequests[{RESOLVER!r}].params.message: 'Which region for Oslo?'"
            " -> 'In which region is Oslo?'",
            "      - $.result.content[0].text: 'Booked Oslo in north' -> 'Booked Oslo (north)'",
            "      - $.result.structuredContent.result: 'Booked Oslo in north' -> 'Booked Oslo (north)'",
            '  STOPPED    tools/call handmade {"x": 1}',
            "      - $.rounds[1].inputRequests.q2 (elicitation 'and another?'): not in the recording; replay stopped here",
            '  same       tools/call echo {"text": "same"} (1 round(s))',
        ]
    )
    stopped = report.entries[1].replayed
    assert stopped is not None and stopped.status == "input_required" and list(stopped.pending_requests) == ["q2"]


async def test_a_question_no_longer_asked(servers_a_b: tuple[str, str]) -> None:
    recorded = await mcp_lab.call("b", "handmade", {"x": 1}, answers={"q1": {"n": 7}, "q2": {"n": 0}})
    assert len(recorded.rounds) == 3
    entry = await replay_flow(recorded, server="a")
    assert entry.status == "different"
    assert [d.message for d in entry.differences] == [
        "$.rounds[1].inputRequests.q2 (elicitation 'and another?'): no longer asked",
        "$.rounds: 3 round(s) -> 2",
    ]


async def test_a_missing_server_is_a_failed_entry(demo: LabServer) -> None:
    recorded = await mcp_lab.call("demo", "handmade", {"x": 1}, answers={"q1": {"n": 1}})
    report = await mcp_lab.replay([recorded], server="nowhere")
    assert [e.status for e in report.entries] == ["failed"]
    assert report.differences[0].message.startswith("no server named 'nowhere'")
    assert not report.ok


async def test_the_report_renders_as_text_html_and_plain_data(servers_a_b: tuple[str, str]) -> None:
    recorded = await mcp_lab.call("a", "book", {"city": "Oslo"}, answers={"ask_region": {"region": "north"}})
    report = await mcp_lab.replay(recorded, server="b")
    assert isinstance(report, ReplayReport)
    bundle = report._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html", "application/vnd.mcp-lab.replay+json"}
    data = bundle["application/vnd.mcp-lab.replay+json"]
    assert json.loads(json.dumps(data)) == data and data["ok"] is False
    assert [d["kind"] for d in data["entries"][0]["differences"]] == ["question", "result", "result"]
    assert "DIFFERENT" in bundle["text/html"] and "In which region is Oslo?" in bundle["text/html"]
    assert not re.search(r"v1\.|\d+\.\d+ ?ms", bundle["text/plain"] + json.dumps(data))  # no tokens, no times


async def test_a_legacy_recording_compares_the_back_channel(servers_a_b: tuple[str, str]) -> None:
    recorded = await mcp_lab.call("a", "book", {"city": "Rome"}, answers={"ask_region": {"region": "s"}}, legacy=True)
    assert recorded.rounds[0].backchannel and recorded.text == "Booked Rome in s"
    assert (await replay_flow(recorded, server="a")).status == "same"
    entry = await replay_flow(recorded, server="b")
    assert [d.message for d in entry.differences] == [
        "$.rounds[0].backchannel[0].request.params.message: 'Which region for Rome?' -> 'In which region is Rome?'",
        "$.result.content[0].text: 'Booked Rome in s' -> 'Booked Rome (s)'",
        "$.result.structuredContent.result: 'Booked Rome in s' -> 'Booked Rome (s)'",
    ]
