"""Sampling answered by a person (or a `model=`), in a round that also asks for roots (one panel)."""

from __future__ import annotations

import asyncio

import mcp.types as T
import pytest

import mcp_lab
from mcp_lab.forms import FormAnswerer, Panel, current, echo_model, prearrange
from mcp_lab.forms.roots import RootsForm
from mcp_lab.forms.sampling import REJECTED, SamplingForm, model_reply
from mcp_lab.servers.lab_server import LabServer
from tests.forms.conftest import next_panel


async def poem(**options: object) -> tuple[asyncio.Future[mcp_lab.Flow], Panel]:
    before = current()
    task = asyncio.ensure_future(mcp_lab.call("demo", "poem", answers=FormAnswerer(**options)))  # type: ignore[arg-type]
    return task, await next_panel(before)


async def test_two_questions_of_one_round_share_one_panel_and_are_sent_together(demo: LabServer) -> None:
    task, panel = await poem()  # shown once every question of the round has joined the panel
    assert [type(f).__name__ for f in panel] == ["SamplingForm", "RootsForm"]
    assert panel.summary().startswith("round 1 from 'demo':")
    with pytest.raises(mcp_lab.LabError, match="2 open forms"):
        panel.submit()
    assert not panel.submit_all()  # the reply is empty: nothing is sent, both stay open
    assert panel["write_haiku"].errors == {"reply": "write the assistant's reply (or Reject)"}
    assert all(f.open for f in panel) and not task.done()
    panel["write_haiku"].fill(reply="old pond", model="me", stop_reason="endTurn")
    assert panel.submit_all()
    flow = await task
    assert flow.text == "old pond / 1 root(s)"
    sent = flow.rounds[1].sent_input_responses or {}
    assert sent["tests.conftest:write_haiku"]["model"] == "me"
    assert sent["tests.conftest:my_roots"]["roots"][0]["uri"].startswith("file:///")
    assert flow.rounds[1].answered_by == {"tests.conftest:write_haiku": "form", "tests.conftest:my_roots": "form"}
    assert panel.settled and panel.record()["state"] == "settled"


async def test_the_form_shows_what_the_server_wants_sampled(demo: LabServer) -> None:
    task, panel = await poem()
    form = panel["write_haiku"]
    assert isinstance(form, SamplingForm)
    record = form.record()
    shown = " ".join(d["text"] for d in record["details"])
    assert "a haiku" in shown and "max tokens: 20" in shown and "You are the model" in record["intro"]
    assert [(f["name"], f["kind"]) for f in record["fields"]] == [
        ("reply", "textarea"),
        ("model", "text"),
        ("stop_reason", "choice"),
    ]
    assert record["buttons"] == {"submit": "Send", "decline": "Reject", "cancel": None}
    form.fill(reply="x", stop_reason="custom-reason").submit()
    panel["my_roots"].submit()
    flow = await task
    assert (flow.rounds[1].sent_input_responses or {})["tests.conftest:write_haiku"]["stopReason"] == "custom-reason"


async def test_reject_is_the_sdk_refusal_and_ends_the_flow(demo: LabServer) -> None:
    task, panel = await poem()
    assert panel["write_haiku"].decline()  # the Reject button
    panel["my_roots"].submit()
    flow = await task
    assert flow.status == "error"
    assert f"-1 {REJECTED}" in (flow.error or {}).get("message", "")
    assert flow.rounds[-1].error is not None and flow.rounds[-1].error.get("where") == "client"


async def test_a_model_may_answer_instead_of_a_person(demo: LabServer) -> None:
    task, panel = await poem(model=echo_model)
    assert [type(f) for f in panel] == [RootsForm]  # only the roots are left to the person
    panel.submit()
    flow = await task
    assert flow.text == "echo: a haiku / 1 root(s)"
    assert (flow.rounds[1].sent_input_responses or {})["tests.conftest:write_haiku"]["model"] == "echo_model"


async def test_model_reply_accepts_results_and_async_models() -> None:
    params = T.CreateMessageRequestParams(messages=[], max_tokens=5)

    async def polite(p: T.CreateMessageRequestParams) -> str:
        return "hello"

    assert (await model_reply(polite, params)).model == "polite"
    assert (await model_reply(echo_model, params)).content == T.TextContent(type="text", text="echo: ")
    with pytest.raises(mcp_lab.LabError, match="must return text"):
        await model_reply(lambda p: 42, params)


async def test_prearranged_reply_and_roots(demo: LabServer) -> None:
    prearrange(
        write_haiku={"reply": "frog", "model": "script-kid"}, my_roots=["file:///a", {"uri": "file:///b", "name": "B"}]
    )
    flow = await mcp_lab.call("demo", "poem", answers=FormAnswerer())
    assert flow.text == "frog / 2 root(s)"
    assert current() is not None and current().settled  # type: ignore[union-attr]
