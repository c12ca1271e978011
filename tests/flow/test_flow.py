"""The flow engine against real in-process SDK servers: rounds, answers, caps, persistence."""

from __future__ import annotations

import json

import mcp.types as T
import pytest
from mcp.client import ClientRequestContext

import mcp_lab
from mcp_lab import Flow
from mcp_lab.lab import lab
from mcp_lab.servers.lab_server import LabServer


async def test_dependent_resolvers_take_three_rounds(demo: LabServer) -> None:
    flow = await mcp_lab.call(
        "demo", "book", {"city": "Paris"}, answers={"ask_region": {"region": "eu"}, "ask_ok": {"ok": True}}
    )
    assert flow.status == "done"
    assert [r.outcome for r in flow.rounds] == ["input_required", "input_required", "result"]
    assert flow.text == "Booked Paris in eu (ok=True)"
    assert list(flow.rounds[0].input_requests or {}) == ["tests.conftest:ask_region"]
    assert flow.rounds[1].sent_request_state == flow.rounds[0].request_state
    assert flow.rounds[0].request_state is not None and flow.rounds[0].request_state.startswith("v1.")
    assert flow.rounds[1].answered_by == {"tests.conftest:ask_region": "script"}
    assert isinstance(flow.result, T.CallToolResult)


async def test_independent_resolvers_are_batched_and_kinds_answered(demo: LabServer) -> None:
    flow = await mcp_lab.call("demo", "poem", answers={"write_haiku": "old pond", "my_roots": ["file:///tmp"]})
    assert flow.status == "done", flow.summary()
    assert len(flow.rounds) == 2
    assert set(flow.rounds[0].input_requests or {}) == {"tests.conftest:write_haiku", "tests.conftest:my_roots"}
    assert flow.text == "old pond / 1 root(s)"


async def test_decline_and_cancel_reach_the_tool(demo: LabServer) -> None:
    for answer, action in ((mcp_lab.decline(), "decline"), (mcp_lab.cancel(), "cancel")):
        flow = await mcp_lab.call("demo", "book", {"city": "Rome"}, answers={"ask_region": answer})
        assert flow.status == "error"  # the tool's own error result (isError) is a failure, with its result kept
        result = flow.result
        assert isinstance(result, T.CallToolResult) and result.is_error
        assert f"elicitation was {action}" in flow.text
        assert flow.error is not None and flow.error["where"] == "tool" and flow.error["message"] == flow.text
        with pytest.raises(mcp_lab.FlowError, match=f"failed after 2 legs.*isError.*elicitation was {action}"):
            flow.raise_for_status()


async def test_handmade_state_prompt_and_template_resource(demo: LabServer) -> None:
    flow = await mcp_lab.call("demo", "handmade", {"x": 3}, answers={"q1": {"n": 5}})
    assert flow.text == 'x=3 n=5 state={"x": 3}'
    prompt = await mcp_lab.get_prompt("demo", "briefing", answers={"audience": {"n": 7}})
    assert prompt.status == "done" and "briefing for 7" in prompt.text
    resource = await mcp_lab.read_resource("demo", "doc://42", answers={"why": {"n": 1}})
    assert resource.status == "done" and resource.text == "doc 42 for reason 1"


async def test_step_mode_is_the_same_engine(demo: LabServer) -> None:
    flow = (
        await mcp_lab.start("demo", "handmade", {"x": 1})
        if False
        else await mcp_lab.start("demo", "tools/call", "handmade", {"x": 1})
    )
    first = await flow.step()
    assert first is not None and first.outcome == "input_required" and flow.status == "input_required"
    assert set(flow.pending_requests) == {"q1"}
    second = await flow.step(answers={"q1": {"n": 2}})
    assert second is not None and second.outcome == "result"
    assert flow.text == 'x=1 n=2 state={"x": 1}'
    with pytest.raises(mcp_lab.FlowError):
        await flow.step()


async def test_missing_answer_keeps_the_flow_resumable(demo: LabServer) -> None:
    flow = await mcp_lab.call("demo", "handmade", {"x": 4})
    assert flow.status == "input_required"
    assert flow.stop_reason is not None and "no answer for 'q1'" in flow.stop_reason
    await flow.run(answers={"q1": {"n": 8}})
    assert flow.status == "done" and flow.text.startswith("x=4 n=8")


async def test_round_cap_and_state_only_backoff(demo: LabServer) -> None:
    capped = await mcp_lab.call("demo", "forever", answers={"again": {"n": 1}}, max_rounds=3)
    assert capped.status == "stopped"
    assert capped.stop_reason is not None and "round cap" in capped.stop_reason
    assert len(capped.rounds) == 4  # as the SDK: 4 calls reach the server with max_rounds=3
    polled = await mcp_lab.call("demo", "polling")
    assert polled.text == "ready after 2 state-only rounds"
    assert [r.backoff for r in polled.rounds] == [0.0, 0.05, 0.1]


async def test_wall_clock_limit_stops_cleanly(demo: LabServer) -> None:
    flow = await mcp_lab.call("demo", "polling", timeout=0.02)
    assert flow.status == "stopped" and "wall-clock limit" in (flow.stop_reason or "")
    await mcp_lab.resume(flow)
    assert flow.status == "done"


async def test_json_round_trip_is_exact(demo: LabServer) -> None:
    flow = await mcp_lab.call(
        "demo", "book", {"city": "Oslo"}, answers={"ask_region": {"region": "n"}, "ask_ok": {"ok": False}}
    )
    text = flow.to_json()
    again = Flow.from_json(text)
    assert again.to_json() == text
    assert json.loads(text)["rounds"][0]["request_state"].startswith("v1.")


async def test_resume_from_written_down_state(demo: LabServer) -> None:
    flow = await mcp_lab.call("demo", "handmade", {"x": 6})
    saved = flow.to_json()
    resumed = await mcp_lab.resume(saved, answers={"q1": {"n": 1}})
    assert resumed.status == "done" and resumed.text.startswith("x=6 n=1")
    assert resumed.rounds[1].sent_request_state == flow.rounds[0].request_state


async def test_callbacks_answer_like_the_sdk_client(demo: LabServer) -> None:
    seen: list[str] = []

    async def elicit(ctx: object, params: T.ElicitRequestParams) -> T.ElicitResult:
        seen.append(str(getattr(ctx, "request_id", "")))
        return T.ElicitResult(action="accept", content={"n": 3})

    flow = await mcp_lab.call(
        "demo", "handmade", {"x": 2}, answers=mcp_lab.CallbackAnswerer(elicitation_callback=elicit)
    )
    assert flow.text.startswith("x=2 n=3") and seen == ["q1"]
    assert flow.rounds[1].answered_by == {"q1": "callback"}


async def test_raising_callback_is_one_clear_error(demo: LabServer) -> None:
    async def boom(ctx: object, params: object) -> T.ElicitResult:
        raise ValueError("boom")

    flow = await mcp_lab.call("demo", "handmade", {"x": 2}, answers=mcp_lab.CallbackAnswerer(elicitation_callback=boom))
    assert flow.status == "error"
    assert flow.error is not None and flow.error["message"] == "the answer callback raised ValueError: boom"


async def test_refusing_callback_ends_the_flow(demo: LabServer) -> None:
    async def refuse(ctx: object, params: object) -> T.ErrorData:
        return T.ErrorData(code=-32000, message="user refused")

    flow = await mcp_lab.call(
        "demo", "handmade", {"x": 2}, answers=mcp_lab.CallbackAnswerer(elicitation_callback=refuse)
    )
    assert flow.status == "error" and "-32000 user refused" in (flow.error or {}).get("message", "")


async def test_unused_answers_are_noted(demo: LabServer) -> None:
    flow = await mcp_lab.call("demo", "handmade", {"x": 2}, answers={"q1": {"n": 1}, "q9": {"n": 2}})
    assert flow.notes == ["answers given for keys never asked: q9 (asked: q1)"]


async def test_legacy_era_uses_the_back_channel(demo: LabServer) -> None:
    flow = await mcp_lab.call(
        "demo", "book", {"city": "Rome"}, answers={"ask_region": {"region": "eu"}, "ask_ok": {"ok": True}}, legacy=True
    )
    assert flow.era == "2025-11-25" and flow.status == "done"
    assert len(flow.rounds) == 1 and len(flow.rounds[0].backchannel) == 2
    assert flow.text == "Booked Rome in eu (ok=True)"


async def test_handmade_result_on_legacy_session_is_32603(demo: LabServer) -> None:
    flow = await mcp_lab.call("demo", "handmade", {"x": 1}, legacy=True)
    assert flow.status == "error"
    assert (flow.error or {}).get("code") == -32603


async def test_bad_input_is_one_clear_error(demo: LabServer) -> None:
    with pytest.raises(mcp_lab.LabError, match="no server named 'nope'"):
        await mcp_lab.call("nope", "book")
    unlisted = await mcp_lab.call("demo", "nope")  # not listed: sent anyway, the server decides
    assert unlisted.status == "error" and "'nope' is not in the tools/list of 'demo'" in unlisted.notes[0]
    with pytest.raises(mcp_lab.LabError, match="must be a dict"):
        await mcp_lab.call("demo", "book", answers=["x"])  # type: ignore[arg-type]
    flow = await mcp_lab.call("demo", "book", {"city": "X"}, answers={"ask_region": "not a dict"})
    assert flow.status == "error" and "must be a dict of form fields" in (flow.error or {}).get("message", "")
    with pytest.raises(mcp_lab.LabError, match="not a saved flow"):
        Flow.from_json("{oops")


async def test_rejected_state_fails_visibly_or_starts_over(demo: LabServer) -> None:
    from mcp_lab.servers.sandbox import sandbox

    flow = await mcp_lab.call("demo", "handmade", {"x": 5})
    await sandbox.restart("demo")  # a lab-generated ring gets a new key: the token no longer verifies
    await flow.run(answers={"q1": {"n": 1}})
    assert flow.status == "error" and flow.rounds[-1].state_rejected
    assert (flow.error or {})["reason"] == "unknown key"

    again = await mcp_lab.call("demo", "handmade", {"x": 6})
    again.start_over = True
    await sandbox.restart("demo")
    await again.run(answers={"q1": {"n": 2}})
    assert again.status == "done", again.summary()
    assert [(r.outcome, r.started_over) for r in again.rounds] == [
        ("input_required", False),
        ("error", False),
        ("input_required", True),
        ("result", False),
    ]


async def test_one_set_of_callbacks_serves_both_generations(demo: LabServer) -> None:
    seen: list[object] = []

    async def elicit(ctx: ClientRequestContext, params: T.ElicitRequestParams) -> T.ElicitResult:
        seen.append(ctx.request_id)
        return T.ElicitResult(action="accept", content={"region": "eu"} if "region" in params.message else {"ok": True})

    answers = mcp_lab.CallbackAnswerer(elicitation_callback=elicit)
    modern = await mcp_lab.call("demo", "book", {"city": "Rome"}, answers=answers)
    legacy = await mcp_lab.call("demo", "book", {"city": "Rome"}, answers=answers, legacy=True)
    assert modern.text == legacy.text == "Booked Rome in eu (ok=True)"
    assert seen[:2] == ["tests.conftest:ask_region", "tests.conftest:ask_ok"]
    assert seen[2:] == [1, 2]  # the back channel's JSON-RPC ids, as the SDK's Client passes them
    assert [e["key"] for e in legacy.rounds[0].backchannel] == ["1", "2"]


async def test_timeline_names_the_answerer_that_answered(demo: LabServer, monkeypatch: pytest.MonkeyPatch) -> None:
    class Fallback:
        label = "form"

        async def answer(self, key: str, request: T.InputRequest, context: object) -> T.ElicitResult:
            return T.ElicitResult(action="accept", content={"n": 9})

    async def elicit(ctx: ClientRequestContext, params: T.ElicitRequestParams) -> T.ElicitResult:
        return T.ElicitResult(action="accept", content={"n": 3})

    monkeypatch.setattr(lab.history, "fallback_answerers", [Fallback()])
    by_callback = await mcp_lab.call(
        "demo", "handmade", {"x": 2}, answers=mcp_lab.CallbackAnswerer(elicitation_callback=elicit)
    )
    assert by_callback.rounds[1].answered_by == {"q1": "callback"}
    by_fallback = await mcp_lab.call("demo", "handmade", {"x": 2}, answers={"other": {"n": 1}})
    assert by_fallback.rounds[1].answered_by == {"q1": "form"}
