"""Collections: what is saved (requests, questions, answers, results) and what never is (tokens, HTTP)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import mcp_lab
from mcp_lab import Flow, Round
from mcp_lab.errors import LabError
from mcp_lab.flow.view import token_brief
from mcp_lab.replay.collection import SEALED_MARKER, TOKEN_MARKER, load_collection, scrub_flow
from mcp_lab.servers.lab_server import LabServer


async def test_saved_flows_keep_answers_and_results_but_no_token(demo: LabServer, tmp_path: Path) -> None:
    booked = await mcp_lab.call(
        "demo", "book", {"city": "Paris"}, answers={"ask_region": {"region": "eu"}, "ask_ok": {"ok": True}}
    )
    declined = await mcp_lab.call("demo", "handmade", {"x": 3}, answers={"q1": mcp_lab.decline()})
    tokens = [r.request_state for f in (booked, declined) for r in f.rounds if r.request_state]
    assert len(tokens) == 3 and all(t.startswith("v1.") for t in tokens)
    path = mcp_lab.save_flows(tmp_path / "demo.flows.json", [booked, declined])
    text = path.read_text(encoding="utf-8")
    assert not [t for t in tokens if t in text]
    assert '"v1.' not in text
    document = json.loads(text)
    assert document["format"] == "mcp-lab/flows" and len(document["flows"]) == 2
    saved_rounds = document["flows"][0]["rounds"]
    assert [r["request_state"] for r in saved_rounds] == [SEALED_MARKER, SEALED_MARKER, None]
    assert [r["sent_request_state"] for r in saved_rounds] == [None, SEALED_MARKER, SEALED_MARKER]
    assert all("http" not in r for r in saved_rounds)
    assert saved_rounds[1]["sent_input_responses"] == {
        "tests.conftest:ask_region": {"action": "accept", "content": {"region": "eu"}}
    }
    assert saved_rounds[1]["answered_by"] == {"tests.conftest:ask_region": "script"}

    loaded = mcp_lab.load_flows(path)
    assert [type(f) for f in loaded] == [Flow, Flow]
    assert loaded[0].text == "Booked Paris in eu (ok=True)" and loaded[0].status == "done"
    assert loaded[1].rounds[1].sent_input_responses == {"q1": {"action": "decline"}}
    assert token_brief(loaded[0].rounds[0].request_state) == SEALED_MARKER


def test_plaintext_state_is_not_saved_either_not_even_in_logs() -> None:
    flow = Flow(server="s", method="tools/call", target="t")
    state = '{"cart": "plaintext-state-42"}'
    flow.rounds = [
        Round(index=0, outcome="input_required", input_requests={}, request_state=state, server_log=[f"saw {state}"]),
        Round(index=1, sent_request_state=state, result={"content": []}, http=[{"body": state}]),
    ]
    saved = scrub_flow(flow)
    assert saved["rounds"][0]["request_state"] == TOKEN_MARKER
    assert saved["rounds"][1]["sent_request_state"] == TOKEN_MARKER
    assert "plaintext-state-42" not in json.dumps(saved)
    assert "http" not in saved["rounds"][1]


def test_bad_collections_are_one_clear_line(tmp_path: Path) -> None:
    cases = {
        "missing.json": (None, "no such collection"),
        "notjson.json": ("{oops", "is not JSON"),
        "other.json": ('{"flows": []}', "is not an mcp_lab collection"),
        "future.json": ('{"format": "mcp-lab/flows", "version": 99, "flows": []}', "version 99"),
        "partial.json": ('{"format": "mcp-lab/flows", "version": 1, "flows": [{"server": "s"}]}', "flow 0 lacks"),
        "badmethod.json": (
            '{"format": "mcp-lab/flows", "version": 1, "flows": [{"server": "s", "method": "x", "target": "t"}]}',
            "flow 0 is malformed: method must be",
        ),
    }
    for name, (content, message) in cases.items():
        path = tmp_path / name
        if content is not None:
            path.write_text(content)
        with pytest.raises(LabError, match=message):
            mcp_lab.load_flows(path)


def test_only_flows_can_be_saved(tmp_path: Path) -> None:
    with pytest.raises(LabError, match="takes flows, not dict"):
        mcp_lab.save_flows(tmp_path / "x.json", [{"server": "s"}])  # type: ignore[list-item]
    with pytest.raises(LabError, match="a list of flows"):
        mcp_lab.save_flows(tmp_path / "x.json", {"a": Flow(server="s", method="tools/call", target="t")})  # type: ignore[arg-type]
    with pytest.raises(LabError, match="is a directory"):
        mcp_lab.save_flows(tmp_path, [])


async def test_a_collection_saved_before_tools_were_recorded_still_replays(demo: LabServer, tmp_path: Path) -> None:
    flow = await mcp_lab.call("demo", "handmade", {"x": 2}, answers={"q1": {"n": 5}})
    path = mcp_lab.save_flows(tmp_path / "new.json", [flow])
    document = json.loads(path.read_text())
    assert document["tools"]["demo"]["handmade"] == {
        "inputSchema": {
            "type": "object",
            "properties": {"x": {"title": "X", "type": "integer"}},
            "required": ["x"],
            "title": "handmadeArguments",
        },
        "headers": {},
    }
    del document["tools"]  # what an older lab wrote
    old = tmp_path / "old.json"
    old.write_text(json.dumps(document))
    assert load_collection(old).tools == {}
    report = await mcp_lab.replay(old)
    assert report.ok, report.text()
