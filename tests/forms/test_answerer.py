"""FormAnswerer: waiting (timeout, interruption), pre-arranged answers, the deferred mode, registration."""

from __future__ import annotations

import asyncio
import json

import pytest

import mcp_lab
from mcp_lab.forms import FormAnswerer, current, detect_mode, install, installed, last, prearrange, prearranged
from mcp_lab.lab import lab
from mcp_lab.servers.lab_server import LabServer
from tests.forms.conftest import Probe, ask_with_form, finished, obj

NAME = obj("name", name={"type": "string", "title": "Name", "minLength": 2})


async def test_a_timeout_ends_the_wait_as_a_cancel(probe: Probe) -> None:
    flow = await mcp_lab.call("probe", "ask", {"spec": NAME}, answers=FormAnswerer(timeout=0.05))
    assert json.loads(flow.text)["action"] == "cancel"
    form = last()
    assert form is not None and form.state == "timed out"
    assert form.summary() == "elicitation form 'q' from 'probe': timed out (sent as cancel)"


async def test_a_sampling_timeout_is_a_refusal(demo: LabServer) -> None:
    prearrange(my_roots=[])
    flow = await mcp_lab.call("demo", "poem", answers=FormAnswerer(timeout=0.05))
    assert flow.status == "error" and "No reply to the sampling request within 0.05 s" in (flow.error or {})["message"]


async def test_an_interrupted_wait_abandons_the_form_and_the_flow_can_resume(probe: Probe) -> None:
    flow = await mcp_lab.call("probe", "ask", {"spec": NAME}, answers=FormAnswerer(), timeout=0.05)
    assert flow.status == "stopped" and "wall-clock limit" in (flow.stop_reason or "")
    assert last() is not None and last().state == "abandoned"  # type: ignore[union-attr]
    assert probe.seen == []
    await mcp_lab.resume(flow, answers={"q": {"name": "Ada"}})
    assert json.loads(flow.text) == {"action": "accept", "content": {"name": "Ada"}}


async def test_a_cancelled_task_leaves_no_open_form(probe: Probe) -> None:
    task, panel = await ask_with_form(NAME)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert panel[0].state == "abandoned" and not panel[0].submit()


async def test_prearranged_by_name_in_order_and_declined(probe: Probe) -> None:
    prearrange({"name": "Bo"}, mcp_lab.decline(), q={"name": "Keyed first"})
    assert prearranged() == {"keyed": {"q": [{"name": "Keyed first"}]}, "in_order": [{"name": "Bo"}, mcp_lab.decline()]}
    outcomes = []
    for _ in range(3):
        flow = await mcp_lab.call("probe", "ask", {"spec": NAME}, answers=FormAnswerer())
        outcomes.append(json.loads(flow.text))
    assert outcomes == [
        {"action": "accept", "content": {"name": "Keyed first"}},
        {"action": "accept", "content": {"name": "Bo"}},
        {"action": "decline", "content": None},
    ]
    assert prearranged() == {"keyed": {}, "in_order": []}
    assert current() is not None and current().summary().endswith("declined")  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ({"name": "A"}, "name: must be at least 2 characters"),
        ({"nom": "Ada"}, "has no field 'nom'"),
        ("Ada", "a dict of fields"),
    ],
)
async def test_an_invalid_prearranged_answer_fails_the_flow_not_the_kernel(
    probe: Probe, answer: object, message: str
) -> None:
    prearrange(answer)
    flow = await mcp_lab.call("probe", "ask", {"spec": NAME}, answers=FormAnswerer())
    assert flow.status == "error"
    assert "pre-arranged answer for 'q' is invalid" in flow.error["message"] and message in flow.error["message"]  # type: ignore[index]
    assert probe.seen == []


async def test_deferred_mode_returns_at_once_and_continues_after_the_answer(probe: Probe) -> None:
    answerer = FormAnswerer(mode="deferred")
    flow = await mcp_lab.call("probe", "ask", {"spec": NAME}, answers=answerer)
    assert flow.status == "input_required" and "no answer for 'q'" in (flow.stop_reason or "")
    panel = current()
    assert panel is not None and panel.notice is not None and "cannot deliver widget events" in panel.notice
    sink = answerer._sinks[flow.id]
    assert not panel.fill(name="x").submit()  # still validated: nothing continues
    # The flow continues only from a settled round (FormAnswerer starts it then), and this one is not.
    assert not panel.settled and all(form.open for form in panel)
    assert flow.status == "input_required" and probe.seen == []
    assert panel.fill(name="Ada").submit()
    await finished(flow)
    assert json.loads(flow.text) == {"action": "accept", "content": {"name": "Ada"}}
    assert flow.rounds[-1].answered_by == {"q": "form"}
    # Printed as text, or (when an IPython shell exists in this process) the finished flow as display data.
    text = "".join(o.get("text", "") or o.get("data", {}).get("text/plain", "") for o in sink.outputs)
    assert "cannot deliver widget events" in text and "done after 2 legs" in text


async def test_deferred_mode_with_a_prearranged_answer_finishes_by_itself(probe: Probe) -> None:
    prearrange({"name": "Cy"})
    flow = await mcp_lab.call("probe", "ask", {"spec": NAME}, answers=FormAnswerer(mode="deferred"))
    await finished(flow)
    assert json.loads(flow.text)["content"] == {"name": "Cy"}


def test_mode_detection(monkeypatch: pytest.MonkeyPatch) -> None:
    assert detect_mode() == "live"  # no kernel: nothing can block, tests drive the forms
    monkeypatch.setenv("MCP_LAB_FORMS_MODE", "deferred")
    assert detect_mode() == "deferred"
    monkeypatch.delenv("MCP_LAB_FORMS_MODE")
    monkeypatch.setattr(lab.board, "force_mode", "deferred")
    assert detect_mode() == "deferred"
    monkeypatch.setenv("MCP_LAB_FORMS_TIMEOUT", "2.5")
    assert FormAnswerer().timeout == 2.5 and FormAnswerer.label == "form"


async def test_no_fallback_without_a_kernel_so_a_script_stops_instead_of_hanging(probe: Probe) -> None:
    assert install() is None and installed() is None and lab.history.fallback_answerers == []
    flow = await mcp_lab.call("probe", "ask", {"spec": NAME})
    assert flow.status == "input_required" and "no answer for 'q'" in (flow.stop_reason or "")


async def test_the_pre_2026_back_channel_is_answered_by_the_same_forms(demo: LabServer) -> None:
    prearrange(ask_region={"region": "eu"}, ask_ok={"ok": True})
    flow = await mcp_lab.call("demo", "book", {"city": "Rome"}, answers=FormAnswerer(), legacy=True)
    assert flow.era == "2025-11-25" and flow.text == "Booked Rome in eu (ok=True)"
    assert [e["response"]["content"] for e in flow.rounds[0].backchannel] == [{"region": "eu"}, {"ok": True}]
